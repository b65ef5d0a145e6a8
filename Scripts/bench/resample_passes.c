/* The resampler's passes side by side: one RGB photo resized with the portable,
 * AVX2 and widest (AVX-512 where the CPU has it) passes, best of N runs each, and whether
 * all three give the same bytes. Built and run by Scripts/bench/resample_passes.py. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "CResample.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: resample_passes WIDTH HEIGHT OUT_WIDTH OUT_HEIGHT [RUNS]\n");
    return 2;
  }
  int w = atoi(argv[1]), h = atoi(argv[2]), ow = atoi(argv[3]), oh = atoi(argv[4]);
  int runs = argc > 5 ? atoi(argv[5]) : 5;
  size_t in_size = (size_t)w * h * 3, out_size = (size_t)ow * oh * 3;
  uint8_t *src = malloc(in_size);
  if (!src) return 1;
  /* A smooth gradient with noise: neither flat (which any pass does fast) nor random. */
  uint32_t seed = 12345;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int b = 0; b < 3; b++) {
        seed = seed * 1664525u + 1013904223u;
        src[((size_t)y * w + x) * 3 + b] = (uint8_t)((x * 255 / w + y * 255 / h) / 2 + (seed >> 29));
      }
  /* passes: 0 portable, 2 AVX2 at most, 1 the widest this CPU has */
  const int passes[3] = {0, 2, 1};
  const char *names[3] = {"portable", "AVX2", cresample_avx512_passes_available() ? "AVX-512" : "widest (AVX2)"};
  uint8_t *out[3];
  double best[3];
  for (int p = 0; p < 3; p++) {
    out[p] = malloc(out_size);
    if (!out[p]) return 1;
    best[p] = 1e9;
  }
  for (int r = 0; r < runs; r++)
    for (int p = 0; p < 3; p++) {
      if (passes[p] == 2 && !cresample_vector_passes_available()) continue;
      cresample_allow_vector_passes(passes[p]);
      double t = now();
      if (cresample(src, w, h, 3, (long)w * 3, ow, oh, 0, 0, ow, oh, CRESAMPLE_LANCZOS3, out[p]))
        return 1;
      t = now() - t;
      if (t < best[p]) best[p] = t;
    }
  int same = memcmp(out[0], out[1], out_size) == 0 && memcmp(out[0], out[2], out_size) == 0;
  printf("%dx%d -> %dx%d (Lanczos-3, best of %d):", w, h, ow, oh, runs);
  for (int p = 0; p < 3; p++) printf("  %s %.1f ms", names[p], best[p] * 1e3);
  printf("  %s\n", same ? "same bytes" : "BYTES DIFFER");
  for (int p = 0; p < 3; p++) free(out[p]);
  free(src);
  return same ? 0 : 1;
}
