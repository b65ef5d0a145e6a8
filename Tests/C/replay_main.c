/* A plain main for a libFuzzer target (Fuzz/<name>/fuzz_*.c), for builds without libFuzzer
 * (Scripts/arm64-check.sh cross-compiles it): runs LLVMFuzzerTestOneInput on every file
 * named on the command line, then on `--random N` deterministic pseudo-random inputs of
 * up to `--max-len` bytes. The target aborts on any failure; this prints one closing line. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t state = 0x9E3779B97F4A7C15u;

static uint8_t next_byte(void) { /* xorshift64*: the same inputs on every machine */
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return (uint8_t)((state * 0x2545F4914F6CDD1Du) >> 56);
}

int main(int argc, char **argv) {
  long random_inputs = 0, max_len = 4096, files = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--random") == 0 && i + 1 < argc) {
      random_inputs = strtol(argv[++i], NULL, 10);
      continue;
    }
    if (strcmp(argv[i], "--max-len") == 0 && i + 1 < argc) {
      max_len = strtol(argv[++i], NULL, 10);
      continue;
    }
    FILE *f = fopen(argv[i], "rb");
    if (!f) {
      fprintf(stderr, "cannot open %s\n", argv[i]);
      return 1;
    }
    uint8_t *data = NULL;
    size_t size = 0, capacity = 0;
    for (;;) {
      if (size == capacity) {
        capacity = capacity ? capacity * 2 : 65536;
        data = realloc(data, capacity);
        if (!data) return 1;
      }
      size_t got = fread(data + size, 1, capacity - size, f);
      if (got == 0) break;
      size += got;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    files++;
  }
  uint8_t *buffer = malloc((size_t)max_len + 1);
  if (!buffer) return 1;
  for (long n = 0; n < random_inputs; n++) {
    size_t size = 6 + (size_t)(next_byte() | next_byte() << 8) % (size_t)(max_len - 5);
    for (size_t i = 0; i < size; i++) buffer[i] = next_byte();
    LLVMFuzzerTestOneInput(buffer, size);
  }
  free(buffer);
  printf("replay: %ld passed, 0 failed (%ld seed files, %ld generated inputs)\n",
         files + random_inputs, files, random_inputs);
  return 0;
}
