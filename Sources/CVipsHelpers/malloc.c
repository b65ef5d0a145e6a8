#include "CVipsHelpers.h"

/* Linux with glibc only; elsewhere (macOS, musl) both functions do nothing. */
#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#endif

int cvips_tune_malloc(int arenas, int mmap_threshold, int trim_threshold) {
#if defined(__linux__) && defined(__GLIBC__)
  return mallopt(M_ARENA_MAX, arenas) && mallopt(M_MMAP_THRESHOLD, mmap_threshold) &&
         mallopt(M_TRIM_THRESHOLD, trim_threshold);
#else
  (void)arenas;
  (void)mmap_threshold;
  (void)trim_threshold;
  return 0;
#endif
}

void cvips_trim_malloc(void) {
#if defined(__linux__) && defined(__GLIBC__)
  (void)malloc_trim(0);
#endif
}
