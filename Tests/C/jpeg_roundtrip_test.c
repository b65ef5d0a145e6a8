/* CJPEG's encoder and decoder on known patterns (Scripts/arm64-check.sh runs it natively
 * and under qemu):
 * - the own Huffman statistics pass (jpeg_huffman.c) is in use where the library is the
 *   libjpeg-turbo it was verified against, and runs exactly once per baseline encode;
 * - its files are byte-identical to libjpeg's optimize_coding ones (as Fuzz/jpeg-encode);
 * - decoding them (cjpeg_open_memory / cjpeg_read, whole and shrunk by 2) gives the size
 *   and bands encoded and pixels close to the source.
 * It prints a digest of every encoded file, which the script compares across CPUs. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CJPEG.h"

static int passed = 0, failed = 0;
static uint32_t digest = 2166136261u;

static void expect(int ok, const char *what, int w, int h, int bands, int quality) {
  if (ok) {
    passed++;
  } else {
    failed++;
    fprintf(stderr, "FAIL %s: %dx%d, %d bands, quality %d\n", what, w, h, bands, quality);
  }
}

static uint8_t *encode(const uint8_t *pixels, int w, int h, int bands, int quality,
                       int progressive, int own, size_t *size, unsigned long *passes) {
  cjpeg_allow_fast_statistics(own);
  unsigned long before = cjpeg_fast_statistics_passes();
  uint8_t *out = NULL;
  char error[256];
  int status = cjpeg_encode(pixels, w, h, bands, (long)w * bands, quality, 1, progressive,
                            &out, size, error, sizeof error);
  cjpeg_allow_fast_statistics(1);
  *passes = cjpeg_fast_statistics_passes() - before;
  if (status != 0) {
    fprintf(stderr, "encode failed: %s\n", error);
    return NULL;
  }
  return out;
}

/* Smooth gradients with a soft diagonal edge: JPEG keeps them within a few levels. */
static uint8_t pattern(int x, int y, int b, int w, int h) {
  int v = x * 200 / w + y * 40 / h + b * 15;
  if (x + y > (w + h) / 2) v = 255 - v / 2;
  return (uint8_t)v;
}

int main(void) {
  int supported = cjpeg_fast_statistics_supported();
  static const int sizes[][2] = {{1, 1}, {7, 5}, {64, 48}, {97, 61}, {256, 17}};
  static const int qualities[] = {30, 82, 95, 100};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int bands = 1; bands <= 3; bands += 2)
      for (size_t q = 0; q < sizeof qualities / sizeof qualities[0]; q++)
        for (int progressive = 0; progressive <= 1; progressive++) {
          int w = sizes[s][0], h = sizes[s][1], quality = qualities[q];
          uint8_t *src = malloc((size_t)w * h * bands);
          for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
              for (int b = 0; b < bands; b++)
                src[((size_t)y * w + x) * bands + b] = pattern(x, y, b, w, h);
          size_t own_size = 0, lib_size = 0;
          unsigned long own_passes = 0, lib_passes = 0;
          uint8_t *own = encode(src, w, h, bands, quality, progressive, 1, &own_size, &own_passes);
          uint8_t *lib = encode(src, w, h, bands, quality, progressive, 0, &lib_size, &lib_passes);
          expect(own && lib, "encode failed", w, h, bands, quality);
          if (!own || !lib) {
            free(own);
            free(lib);
            free(src);
            continue;
          }
          expect(own_passes == (unsigned long)(supported && !progressive) && lib_passes == 0,
                 "own statistics pass ran a wrong number of times", w, h, bands, quality);
          expect(own_size == lib_size && memcmp(own, lib, own_size) == 0,
                 "own statistics pass and optimize_coding give different files", w, h, bands,
                 quality);
          for (size_t i = 0; i < own_size; i++) digest = (digest ^ own[i]) * 16777619u;

          for (int shrink = 1; shrink <= 2; shrink++) {
            cjpeg_status status;
            char error[256];
            cjpeg_stream *stream =
                cjpeg_open_memory(own, own_size, shrink, 1, 0, &status, error, sizeof error);
            expect(stream != NULL && status == CJPEG_OK, "decode open failed", w, h, bands,
                   quality);
            if (!stream) continue;
            int dw = cjpeg_width(stream), dh = cjpeg_height(stream);
            expect(dw == (w + shrink - 1) / shrink && dh == (h + shrink - 1) / shrink &&
                       cjpeg_bands(stream) == bands,
                   "decoded size or bands differ", w, h, bands, quality);
            uint8_t *back = malloc((size_t)dw * dh * bands);
            int read = cjpeg_read(stream, back, (long)dw * bands, dh, error, sizeof error);
            expect(read == 0, "decode read failed", w, h, bands, quality);
            cjpeg_close(stream);
            if (shrink == 1 && read == 0 && dw == w && dh == h) {
              long total = 0;
              int most = 0;
              for (size_t i = 0; i < (size_t)w * h * bands; i++) {
                int d = abs((int)back[i] - (int)src[i]);
                total += d;
                if (d > most) most = d;
              }
              double mean = (double)total / ((double)w * h * bands);
              /* Loose enough for the 7x5 image, whose gradient climbs ~30 levels a pixel,
               * at quality 30; a broken decode is off by tens of levels on average. */
              double mean_limit = quality >= 95 ? 4.0 : quality >= 82 ? 8.0 : 12.0;
              expect(mean <= mean_limit, "decoded pixels too far from the source", w, h, bands,
                     quality);
              if (mean > mean_limit) fprintf(stderr, "  mean %.2f, most %d\n", mean, most);
            }
            free(back);
          }
          free(own);
          free(lib);
          free(src);
        }
  printf("jpeg: own statistics pass %s\n",
         supported ? "in use (libjpeg-turbo 2.1.x)" : "left out (another libjpeg)");
  printf("jpeg digest: %08x\n", digest);
  printf("jpeg: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
