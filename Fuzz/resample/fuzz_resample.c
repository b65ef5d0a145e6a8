/* libFuzzer target: CResample (Sources/CResample). For random sizes, regions, bands,
 * kernels and scales (down and up):
 * - the AVX2 and AVX-512 passes give the portable passes' bytes (where the CPU has them);
 * - the streaming API, fed in strips of 8-64 rows, with two streams sharing each strip
 *   (cresample_streams_push), gives the one-call result;
 * - the box halving, whole and by strips, with and without AVX2, gives the same bytes;
 * - requests whose sums pass INT_MAX are refused (never wrap around into a "valid" one);
 * - extents: equal to the size, the same bytes; otherwise regions exact parts of the whole;
 * - the float resampler: regions exact parts of the whole, the linear kernel within 1 of the
 *   8-bit passes, the same refusals.
 * Any difference aborts.
 *
 * Bytes 0-17 choose the request (see below); the rest are the pixels, cycled. */

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CResample.h"

static int u16(const uint8_t *d) { return d[0] | d[1] << 8; }

static void check(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "resample: %s\n", what);
    abort();
  }
}

static uint8_t *resample(const uint8_t *src, int width, int height, int bands, long stride,
                         int sw, int sh, int x, int y, int ow, int oh, cresample_kernel kernel,
                         int vector) {
  cresample_allow_vector_passes(vector);
  uint8_t *out = malloc((size_t)ow * oh * bands);
  check(out != NULL, "memory");
  check(cresample(src, width, height, bands, stride, sw, sh, x, y, ow, oh, kernel, out) == 0,
        "a valid request was refused");
  cresample_allow_vector_passes(1);
  return out;
}

/* One stream over the whole image, fed in one call; NULL when refused. */
static uint8_t *streamed(const uint8_t *src, int width, int height, double ew, double eh,
                         int bands, long stride, int sw, int sh, int x, int y, int ow, int oh,
                         cresample_kernel kernel) {
  uint8_t *out = malloc((size_t)ow * oh * bands);
  check(out != NULL, "memory");
  cresample_stream *s = cresample_stream_new_extent(width, height, ew, eh, bands, sw, sh, x, y,
                                                    ow, oh, kernel, out);
  if (!s) {
    free(out);
    return NULL;
  }
  check(cresample_stream_push(s, src, stride, 0, height) == 0 && cresample_stream_finished(s),
        "extent: rows refused");
  cresample_stream_free(s);
  return out;
}

/* Extents: equal to the size, the plain stream's bytes; within a sample of it, a region is
 * exactly that part of the whole scaled image; a whole sample or more away, refused. */
static void extent_checks(const uint8_t *src, int width, int height, int bands, long stride,
                          int sw, int sh, int x, int y, int ow, int oh, cresample_kernel kernel,
                          const uint8_t *portable, int salt) {
  uint8_t *same = streamed(src, width, height, width, height, bands, stride, sw, sh, x, y, ow,
                           oh, kernel);
  check(same && memcmp(same, portable, (size_t)ow * oh * bands) == 0,
        "extent: an extent equal to the size changed the bytes");
  double ew = width - 0.5 + (salt % 100) / 100.0, eh = height - 0.5 + (salt / 100) / 3.0;
  uint8_t *region = streamed(src, width, height, ew, eh, bands, stride, sw, sh, x, y, ow, oh,
                             kernel);
  uint8_t *whole = streamed(src, width, height, ew, eh, bands, stride, sw, sh, 0, 0, sw, sh,
                            kernel);
  check(region && whole, "extent: a valid extent was refused");
  for (int j = 0; j < oh; j++)
    check(memcmp(region + (size_t)j * ow * bands, whole + ((size_t)(y + j) * sw + x) * bands,
                 (size_t)ow * bands) == 0,
          "extent: a region differs from that part of the whole");
  check(!streamed(src, width, height, width + 1.0 + salt, height, bands, stride, sw, sh, x, y,
                  ow, oh, kernel),
        "extent: an extent a whole sample past the size was accepted");
  free(same);
  free(region);
  free(whole);
}

/* The float resampler on the same request: a region is exactly that part of the whole
 * scaled image; with the linear kernel (no negative lobe, so nothing the 8-bit passes clamp)
 * its values round to within 1 of the 8-bit result `portable`; wrapping requests are
 * refused. */
static void float_checks(const uint8_t *src, int width, int height, int bands, long stride,
                         int sw, int sh, int x, int y, int ow, int oh, cresample_kernel kernel,
                         const uint8_t *portable, int salt, uint8_t flags) {
  size_t total = (size_t)stride * height;
  float *fsrc = malloc(sizeof(float) * total);
  float *region = malloc(sizeof(float) * (size_t)ow * oh * bands);
  float *whole = malloc(sizeof(float) * (size_t)sw * sh * bands);
  check(fsrc && region && whole, "memory");
  for (size_t i = 0; i < total; i++) fsrc[i] = src[i];
  check(cresample_float(fsrc, width, height, bands, stride, sw, sh, x, y, ow, oh, kernel,
                        region) == 0,
        "float: a valid request was refused");
  check(cresample_float(fsrc, width, height, bands, stride, sw, sh, 0, 0, sw, sh, kernel,
                        whole) == 0,
        "float: the whole request was refused");
  for (int j = 0; j < oh; j++)
    check(memcmp(region + (size_t)j * ow * bands,
                 whole + ((size_t)(y + j) * sw + x) * bands, sizeof(float) * ow * bands) == 0,
          "float: a region differs from that part of the whole");
  if (kernel == CRESAMPLE_LINEAR)
    for (size_t i = 0; i < (size_t)ow * oh * bands; i++) {
      float v = region[i] < 0 ? 0 : region[i] > 255 ? 255 : region[i];
      check(abs((int)lrintf(v) - (int)portable[i]) <= 1, "float and 8-bit linear passes differ");
    }
  float dummy[64];
  check(cresample_float(fsrc, width, height, bands, stride, sw, sh, INT_MAX - salt, y,
                        ow + salt + 1, oh, kernel, dummy) == -1,
        "float: x + out_width past INT_MAX was accepted");
  check(cresample_float(fsrc, width, height, bands, stride, sw, INT_MAX - salt, x,
                        INT_MAX - salt, ow, salt + 1 + (int)(flags >> 4), kernel, dummy) == -1,
        "float: y + out_height past INT_MAX was accepted");
  free(fsrc);
  free(region);
  free(whole);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 18) return 0;
  int width = 1 + u16(data) % 300;
  int height = 1 + data[2] % 80;
  int bands = 1 + data[3] % 4;
  cresample_kernel kernel = (cresample_kernel)(data[4] % 5);
  int sw = 1 + u16(data + 5) % 600;
  int sh = 1 + u16(data + 7) % 300;
  int ow = 1 + u16(data + 9) % sw;
  int x = u16(data + 11) % (sw - ow + 1);
  int oh = 1 + u16(data + 13) % sh;
  int y = data[15] % (sh - oh + 1);
  uint8_t flags = data[16];
  int strip = 8 * (1 + ((flags >> 1) & 7)); /* 8 .. 64 rows */
  int salt = data[17];
  const uint8_t *bytes = data + 18;
  size_t count = size - 18;
  long stride = (long)width * bands + (flags & 1) * 5; /* sometimes padded rows */
  size_t total = (size_t)stride * height;
  uint8_t *src = malloc(total);
  check(src != NULL, "memory");
  for (size_t i = 0; i < total; i++) src[i] = count ? bytes[i % count] : (uint8_t)(i * 7);

  /* Wrapping requests: sums past INT_MAX must be refused, not wrap into range. */
  uint8_t dummy[64];
  check(cresample(src, width, height, bands, stride, sw, sh, INT_MAX - salt, y, ow + salt + 1,
                  oh, kernel, dummy) == -1,
        "x + out_width past INT_MAX was accepted");
  check(cresample(src, width, height, bands, stride, sw, INT_MAX - salt, x, INT_MAX - salt, ow,
                  salt + 1 + (int)(flags >> 4), kernel, dummy) == -1,
        "y + out_height past INT_MAX was accepted");

  /* The widest vector passes (AVX-512 where the CPU has it) and AVX2 alone against the
   * portable passes, one call each. */
  size_t out_size = (size_t)ow * oh * bands;
  uint8_t *portable =
      resample(src, width, height, bands, stride, sw, sh, x, y, ow, oh, kernel, 0);
  uint8_t *vector = resample(src, width, height, bands, stride, sw, sh, x, y, ow, oh, kernel, 1);
  check(memcmp(portable, vector, out_size) == 0, "widest vector and portable passes differ");
  free(vector);
  vector = resample(src, width, height, bands, stride, sw, sh, x, y, ow, oh, kernel, 2);
  check(memcmp(portable, vector, out_size) == 0, "AVX2 and portable passes differ");
  free(vector);

  /* Streaming, two streams (the region and the whole scaled image's first rows) fed the
   * same strips, against their one-call results. */
  int oh2 = 1 + salt % sh;
  uint8_t *first = malloc(out_size), *second = malloc((size_t)sw * oh2 * bands);
  check(first && second, "memory");
  cresample_allow_vector_passes(salt % 3); /* portable, widest or AVX2 */
  cresample_stream *streams[2] = {
      cresample_stream_new(width, height, bands, sw, sh, x, y, ow, oh, kernel, first),
      cresample_stream_new(width, height, bands, sw, sh, 0, 0, sw, oh2, kernel, second)};
  check(streams[0] && streams[1], "a valid stream was refused");
  for (int top = 0; top < height; top += strip) {
    int rows = height - top < strip ? height - top : strip;
    check(cresample_streams_push(streams, 2, src + (long)top * stride, stride, top, rows) == 0,
          "a strip was refused");
  }
  check(cresample_stream_finished(streams[0]) && cresample_stream_finished(streams[1]),
        "streams unfinished after the last strip");
  cresample_stream_free(streams[0]);
  cresample_stream_free(streams[1]);
  cresample_allow_vector_passes(1);
  check(memcmp(first, portable, out_size) == 0, "streamed region differs");
  uint8_t *whole = malloc((size_t)sw * oh2 * bands);
  check(whole != NULL, "memory");
  check(cresample(src, width, height, bands, stride, sw, sh, 0, 0, sw, oh2, kernel, whole) == 0,
        "whole request refused");
  check(memcmp(second, whole, (size_t)sw * oh2 * bands) == 0, "second stream differs");

  /* Halving: whole with and without AVX2, and strip by strip. */
  if (width >= 2 && height >= 2) {
    size_t half = (size_t)(width / 2) * (height / 2) * bands;
    uint8_t *a = malloc(half), *b = malloc(half), *c = malloc(half);
    check(a && b && c, "memory");
    cresample_allow_vector_passes(0);
    check(cresample_halve(src, width, height, bands, stride, a) == 0, "halving refused");
    cresample_allow_vector_passes(1);
    check(cresample_halve(src, width, height, bands, stride, b) == 0, "halving refused");
    check(memcmp(a, b, half) == 0, "AVX2 and portable halvings differ");
    for (int top = 0; top < height; top += strip)
      check(cresample_halve_strip(src + (long)top * stride, width, bands, stride, top,
                                  height - top < strip ? height - top : strip, c) == 0,
            "halving strip refused");
    check(memcmp(a, c, half) == 0, "halving by strips differs");
    free(a);
    free(b);
    free(c);
  }
  extent_checks(src, width, height, bands, stride, sw, sh, x, y, ow, oh, kernel, portable, salt);
  float_checks(src, width, height, bands, stride, sw, sh, x, y, ow, oh, kernel, portable, salt,
               flags);
  free(whole);
  free(first);
  free(second);
  free(portable);
  free(src);
  return 0;
}
