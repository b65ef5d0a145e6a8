/* libFuzzer target: CJPEG's encoder with ThumbForge's own Huffman statistics pass
 * (Sources/CJPEG/jpeg_huffman.c) against libjpeg's optimize_coding: the files must be
 * byte-identical, or the target aborts.
 *
 * Bytes 0-5 choose the image: width 1-256 (bytes 0-1), height 1-128 (byte 2), bands 1 or
 * 3 (byte 3, bit 0), quality 1-100 (byte 4), and in byte 5: bit 0 progressive (which the
 * own pass leaves to libjpeg), bits 1-2 how the remaining bytes become pixels (cycled
 * as they are, each repeated 1-16 times for flat runs, added to a gradient, or mostly
 * flat with sparse bytes, which gives long zero runs and ZRL symbols). Without more
 * bytes the image is flat grey. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../pixels.h"
#include "CJPEG.h"

static uint8_t *encode(const uint8_t *pixels, int width, int height, int bands, int quality,
                       int progressive, int own, size_t *size) {
  cjpeg_allow_fast_statistics(own);
  unsigned long before = cjpeg_fast_statistics_passes();
  uint8_t *out = NULL;
  char error[256];
  if (cjpeg_encode(pixels, width, height, bands, (long)width * bands, quality, 1, progressive,
                   &out, size, error, sizeof error) != 0) {
    fprintf(stderr, "encode failed: %s\n", error);
    abort();
  }
  unsigned long passes = cjpeg_fast_statistics_passes() - before;
  /* The own pass must have run exactly when it applies, and never when refused. */
  unsigned long expected = own && !progressive && cjpeg_fast_statistics_supported() ? 1 : 0;
  if (passes != expected) {
    fprintf(stderr, "%lu own statistics passes, expected %lu\n", passes, expected);
    abort();
  }
  return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 6) return 0;
  int width = 1 + ((data[0] | data[1] << 8) % 256);
  int height = 1 + data[2] % 128;
  int bands = data[3] & 1 ? 3 : 1;
  int quality = 1 + data[4] % 100;
  int progressive = data[5] & 1;
  int mode = (data[5] >> 1) & 3;
  const uint8_t *bytes = data + 6;
  size_t count = size - 6;
  size_t total = (size_t)width * height * bands;
  uint8_t *pixels = malloc(total);
  if (!pixels) abort();
  fuzz_fill_pixels(pixels, total, width, bands, mode, bytes, count);
  size_t own_size = 0, libjpeg_size = 0;
  uint8_t *own = encode(pixels, width, height, bands, quality, progressive, 1, &own_size);
  uint8_t *libjpeg =
      encode(pixels, width, height, bands, quality, progressive, 0, &libjpeg_size);
  if (own_size != libjpeg_size || memcmp(own, libjpeg, own_size) != 0) {
    fprintf(stderr, "%dx%d, %d bands, quality %d: own %zu bytes, libjpeg %zu bytes\n", width,
            height, bands, quality, own_size, libjpeg_size);
    abort();
  }
  free(own);
  free(libjpeg);
  free(pixels);
  return 0;
}
