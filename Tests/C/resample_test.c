/* CResample's portable passes against a plain double-precision reference resize, on known
 * patterns, for every kernel (Scripts/arm64-check.sh runs it natively and under qemu):
 * - a flat image stays exactly flat (weights sum to exactly 1 in fixed point);
 * - every output byte is within 1 (linear) or 2 (the kernels with negative lobes, whose
 *   weights add up to more than 1 in magnitude and so amplify the rounding of fixed-point
 *   weights and of the byte rows between the passes) of the reference, which filters
 *   horizontally, rounds to bytes as the resampler's intermediate rows do, then filters
 *   vertically;
 * - the 2x2 box halving equals (a + b + c + d + 2) / 4 exactly;
 * - where the CPU has the AVX2 passes, they give the portable passes' bytes.
 * It prints a digest of every output: the resampler promises the same bytes on every CPU,
 * so the script requires the same digest from the x86_64 and the aarch64 build. */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CResample.h"

static int passed = 0, failed = 0;
static uint32_t digest = 2166136261u; /* FNV-1a over every output */

static void expect(int ok, const char *what, int kernel, int w, int h, int ow, int oh) {
  if (ok) {
    passed++;
  } else {
    failed++;
    fprintf(stderr, "FAIL %s: kernel %d, %dx%d -> %dx%d\n", what, kernel, w, h, ow, oh);
  }
}

static void add_to_digest(const uint8_t *bytes, size_t n) {
  for (size_t i = 0; i < n; i++) digest = (digest ^ bytes[i]) * 16777619u;
}

static double support_of(int kernel) { return kernel == 0 ? 1.0 : kernel == 4 ? 3.0 : 2.0; }

static double sinc(double x) { return x == 0.0 ? 1.0 : sin(M_PI * x) / (M_PI * x); }

static double cubic(double x, double b, double c) {
  x = fabs(x);
  if (x < 1.0)
    return ((12 - 9 * b - 6 * c) * x * x * x + (-18 + 12 * b + 6 * c) * x * x + (6 - 2 * b)) / 6;
  if (x < 2.0)
    return ((-b - 6 * c) * x * x * x + (6 * b + 30 * c) * x * x + (-12 * b - 48 * c) * x +
            (8 * b + 24 * c)) / 6;
  return 0.0;
}

/* The kernels as CResample.h names them, written from their textbook definitions. */
static double kernel_at(int kernel, double x) {
  switch (kernel) {
  case 0: return fabs(x) < 1.0 ? 1.0 - fabs(x) : 0.0;
  case 1: return cubic(x, 0.0, 0.5);
  case 2: return cubic(x, 1.0 / 3.0, 1.0 / 3.0);
  case 3: return fabs(x) < 2.0 ? sinc(x) * sinc(x / 2.0) : 0.0;
  default: return fabs(x) < 3.0 ? sinc(x) * sinc(x / 3.0) : 0.0;
  }
}

/* One axis of the reference: output i of `out` samples from `in` samples, centre
 * (i + 0.5) * in / out, the kernel stretched by the reduction factor, edges clamped. */
static double sample(const double *line, long step, int in, int out, int i, int kernel) {
  double scale = (double)in / out, stretch = scale > 1.0 ? scale : 1.0;
  double centre = (i + 0.5) * scale, support = support_of(kernel) * stretch;
  double sum = 0.0, total = 0.0;
  for (int j = (int)floor(centre - support) - 1; j <= (int)ceil(centre + support) + 1; j++) {
    double w = kernel_at(kernel, (j + 0.5 - centre) / stretch);
    if (w == 0.0 || fabs(j + 0.5 - centre) >= support) continue;
    int k = j < 0 ? 0 : j >= in ? in - 1 : j;
    sum += w * line[k * step];
    total += w;
  }
  return sum / total;
}

static double to_byte(double v) { return v < 0 ? 0 : v > 255 ? 255 : floor(v + 0.5); }

/* The reference resize of a whole `w` x `h` image of `bands` bands to `ow` x `oh`. */
static uint8_t *reference(const uint8_t *src, int w, int h, int bands, int ow, int oh,
                          int kernel) {
  double *in = malloc(sizeof(double) * (size_t)w * h * bands);
  double *mid = malloc(sizeof(double) * (size_t)ow * h * bands);
  uint8_t *out = malloc((size_t)ow * oh * bands);
  for (size_t i = 0; i < (size_t)w * h * bands; i++) in[i] = src[i];
  for (int y = 0; y < h; y++)
    for (int x = 0; x < ow; x++)
      for (int b = 0; b < bands; b++)
        mid[((size_t)y * ow + x) * bands + b] =
            to_byte(sample(in + (size_t)y * w * bands + b, bands, w, ow, x, kernel));
  for (int y = 0; y < oh; y++)
    for (int x = 0; x < ow; x++)
      for (int b = 0; b < bands; b++)
        out[((size_t)y * ow + x) * bands + b] = (uint8_t)to_byte(
            sample(mid + (size_t)x * bands + b, (long)ow * bands, h, oh, y, kernel));
  free(in);
  free(mid);
  return out;
}

/* Known patterns: 0 flat, 1 horizontal ramp, 2 checkerboard of 3-pixel squares, 3 rings. */
static uint8_t pattern(int which, int x, int y, int b) {
  switch (which) {
  case 0: return 137;
  case 1: return (uint8_t)(x * 255 / 97 + b * 20);
  case 2: return ((x / 3 + y / 3) & 1) ? (uint8_t)(230 - b * 10) : (uint8_t)(20 + b * 10);
  default: {
    int dx = x - 40, dy = y - 25;
    return (uint8_t)((dx * dx + dy * dy) / 7 + b * 40);
  }
  }
}

static uint8_t *resize(const uint8_t *src, int w, int h, int bands, int ow, int oh, int kernel,
                       int vector) {
  uint8_t *out = malloc((size_t)ow * oh * bands);
  cresample_allow_vector_passes(vector);
  int status = cresample(src, w, h, bands, (long)w * bands, ow, oh, 0, 0, ow, oh,
                         (cresample_kernel)kernel, out);
  cresample_allow_vector_passes(1);
  if (status != 0) {
    free(out);
    return NULL;
  }
  return out;
}

/* The float resampler (cresample_float) against the same reference kept in double without
 * rounding between the passes, on values with a fractional part and a negative lobe's
 * overshoot left unclamped: within `tolerance` (the fixed-point weights' error on 0-255
 * values). Returns the largest difference seen; adds the outputs' bytes to the digest. */
static double float_checks(int kernel, int w, int h, int ow, int oh, int bands) {
  size_t n_in = (size_t)w * h * bands, n = (size_t)ow * oh * bands;
  float *src = malloc(sizeof(float) * n_in), *got = malloc(sizeof(float) * n);
  double *in = malloc(sizeof(double) * n_in), *mid = malloc(sizeof(double) * (size_t)ow * h * bands);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int b = 0; b < bands; b++) {
        size_t i = ((size_t)y * w + x) * bands + b;
        src[i] = (float)(pattern(2 + (b & 1), x, y, b) * 0.75 + 0.375 * b);
        in[i] = src[i];
      }
  int ok = cresample_float(src, w, h, bands, (long)w * bands, ow, oh, 0, 0, ow, oh,
                           (cresample_kernel)kernel, got) == 0;
  expect(ok, "float: valid request refused", kernel, w, h, ow, oh);
  double most = 0.0;
  for (int y = 0; ok && y < h; y++)
    for (int x = 0; x < ow; x++)
      for (int b = 0; b < bands; b++)
        mid[((size_t)y * ow + x) * bands + b] =
            sample(in + (size_t)y * w * bands + b, bands, w, ow, x, kernel);
  for (int y = 0; ok && y < oh; y++)
    for (int x = 0; x < ow; x++)
      for (int b = 0; b < bands; b++) {
        double want = sample(mid + (size_t)x * bands + b, (long)ow * bands, h, oh, y, kernel);
        double d = fabs(got[((size_t)y * ow + x) * bands + b] - want);
        if (d > most) most = d;
      }
  if (ok) add_to_digest((const uint8_t *)got, sizeof(float) * n);
  free(src);
  free(got);
  free(in);
  free(mid);
  return most;
}

int main(void) {
  static const int sizes[][4] = {/* w, h, ow, oh */
                                 {97, 61, 40, 23}, {97, 61, 13, 61}, {50, 40, 97, 83},
                                 {64, 64, 32, 32}, {31, 17, 7, 5},   {80, 50, 81, 49}};
  int vector = cresample_vector_passes_available();
  int worst = 0;
  for (int kernel = 0; kernel < 5; kernel++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      for (int bands = 1; bands <= 4; bands++)
        for (int which = 0; which < 4; which++) {
          int w = sizes[s][0], h = sizes[s][1], ow = sizes[s][2], oh = sizes[s][3];
          uint8_t *src = malloc((size_t)w * h * bands);
          for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
              for (int b = 0; b < bands; b++)
                src[((size_t)y * w + x) * bands + b] = pattern(which, x, y, b);
          size_t n = (size_t)ow * oh * bands;
          uint8_t *got = resize(src, w, h, bands, ow, oh, kernel, 0);
          expect(got != NULL, "valid request refused", kernel, w, h, ow, oh);
          if (!got) {
            free(src);
            continue;
          }
          add_to_digest(got, n);
          uint8_t *want = reference(src, w, h, bands, ow, oh, kernel);
          int most = 0;
          for (size_t i = 0; i < n; i++) {
            int d = abs((int)got[i] - (int)want[i]);
            if (d > most) most = d;
          }
          if (most > worst) worst = most;
          expect(most <= (kernel == 0 ? 1 : 2),
                 "portable pass differs from the reference by more than allowed", kernel, w, h,
                 ow, oh);
          if (which == 0) {
            int flat = 1;
            for (size_t i = 0; i < n; i++) flat &= got[i] == 137;
            expect(flat, "flat image did not stay flat", kernel, w, h, ow, oh);
          }
          if (vector) {
            uint8_t *fast = resize(src, w, h, bands, ow, oh, kernel, 2);
            expect(fast && memcmp(fast, got, n) == 0, "AVX2 and portable passes differ", kernel,
                   w, h, ow, oh);
            free(fast);
            fast = resize(src, w, h, bands, ow, oh, kernel, 1);
            expect(fast && memcmp(fast, got, n) == 0,
                   "widest vector (AVX-512) and portable passes differ", kernel, w, h, ow, oh);
            free(fast);
          }
          free(want);
          free(got);
          free(src);
        }

  /* The 2x2 box halving, exactly. */
  for (int bands = 1; bands <= 4; bands++)
    for (int which = 1; which < 4; which++) {
      int w = 97, h = 62, ow = w / 2, oh = h / 2;
      uint8_t *src = malloc((size_t)w * h * bands), *got = malloc((size_t)ow * oh * bands);
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          for (int b = 0; b < bands; b++)
            src[((size_t)y * w + x) * bands + b] = pattern(which, x * 3, y, b);
      for (int pass = 0; pass < 1 + vector; pass++) {
        cresample_allow_vector_passes(pass);
        int ok = cresample_halve(src, w, h, bands, (long)w * bands, got) == 0;
        cresample_allow_vector_passes(1);
        for (int y = 0; ok && y < oh; y++)
          for (int x = 0; x < ow; x++)
            for (int b = 0; b < bands; b++) {
              const uint8_t *p = src + ((size_t)(2 * y) * w + 2 * x) * bands + b;
              int sum = p[0] + p[bands] + p[(size_t)w * bands] + p[(size_t)w * bands + bands];
              ok &= got[((size_t)y * ow + x) * bands + b] == (sum + 2) / 4;
            }
        expect(ok, pass ? "AVX2 halving is not the exact box average"
                        : "halving is not the exact box average",
               -1, w, h, ow, oh);
        if (pass == 0) add_to_digest(got, (size_t)ow * oh * bands);
      }
      free(src);
      free(got);
    }

  /* The float resampler: enlargements (what ThumbForge uses it for), a mixed request and a
   * reduction, every kernel and band count, and the same refusals as the 8-bit one. */
  static const int float_sizes[][4] = {{13, 9, 40, 31}, {7, 5, 21, 15}, {40, 23, 97, 61},
                                       {50, 40, 97, 20}, {97, 61, 40, 23}};
  double float_worst = 0.0;
  const double tolerance = 0.05;
  for (int kernel = 0; kernel < 5; kernel++)
    for (size_t s = 0; s < sizeof float_sizes / sizeof float_sizes[0]; s++)
      for (int bands = 1; bands <= 4; bands++) {
        const int *z = float_sizes[s];
        double most = float_checks(kernel, z[0], z[1], z[2], z[3], bands);
        if (most > float_worst) float_worst = most;
        expect(most <= tolerance, "float resampler differs from the double reference", kernel,
               z[0], z[1], z[2], z[3]);
      }
  float one[4] = {1, 2, 3, 4}, out[64];
  expect(cresample_float(one, 1, 1, 4, 4, 2, 2, 1, 1, 2, 1, CRESAMPLE_LANCZOS3, out) == -1,
         "float: a region past the scaled image was accepted", 4, 1, 1, 2, 2);
  expect(cresample_float(one, 1, 1, 5, 5, 2, 2, 0, 0, 2, 2, CRESAMPLE_LANCZOS3, out) == -1,
         "float: five bands were accepted", 4, 1, 1, 2, 2);
  expect(cresample_float(one, 2, 1, 1, 1, 4, 2, 0, 0, 4, 2, CRESAMPLE_LANCZOS3, out) == -1,
         "float: a stride shorter than a row was accepted", 4, 2, 1, 4, 2);
  /* Extents: a 97-pixel ramp box-halved to 48 pixels (its odd last column dropped) and
   * resized to 12 with the halved copy's true extent (48.5 pixels) lands where the whole
   * ramp's resize does; read as covering only its 48 pixels, it is stretched, and misses.
   * An extent equal to the size gives exactly the plain stream's bytes. */
  {
    enum { W = 97, HALF = 48, OUT = 12, ROWS = 8 };
    uint8_t full[ROWS * W], half[ROWS * HALF], exact[ROWS * OUT], plain[ROWS * OUT],
        same[ROWS * OUT];
    for (int y = 0; y < ROWS; y++)
      for (int x = 0; x < W; x++) full[y * W + x] = (uint8_t)(x * 255 / (W - 1));
    for (int y = 0; y < ROWS; y++)
      for (int x = 0; x < HALF; x++)
        half[y * HALF + x] = (uint8_t)((full[y * W + 2 * x] + full[y * W + 2 * x + 1] + 1) / 2);
    uint8_t *want = reference(full, W, ROWS, 1, OUT, ROWS, 4);
    cresample_stream *streams[3] = {
        cresample_stream_new_extent(HALF, ROWS, W / 2.0, ROWS, 1, OUT, ROWS, 0, 0, OUT, ROWS,
                                    CRESAMPLE_LANCZOS3, exact),
        cresample_stream_new(HALF, ROWS, 1, OUT, ROWS, 0, 0, OUT, ROWS, CRESAMPLE_LANCZOS3,
                             plain),
        cresample_stream_new_extent(HALF, ROWS, HALF, ROWS, 1, OUT, ROWS, 0, 0, OUT, ROWS,
                                    CRESAMPLE_LANCZOS3, same)};
    expect(streams[0] && streams[1] && streams[2], "extent: valid stream refused", 4, HALF,
           ROWS, OUT, ROWS);
    expect(!cresample_stream_new_extent(HALF, ROWS, HALF + 1.0, ROWS, 1, OUT, ROWS, 0, 0, OUT,
                                        ROWS, CRESAMPLE_LANCZOS3, same),
           "extent: an extent a whole pixel past the size was accepted", 4, HALF, ROWS, OUT,
           ROWS);
    int with_extent = 0, without = 0;
    if (streams[0] && streams[1] && streams[2]) {
      expect(cresample_streams_push(streams, 3, half, HALF, 0, ROWS) == 0,
             "extent: rows refused", 4, HALF, ROWS, OUT, ROWS);
      for (int i = 0; i < ROWS * OUT; i++) {
        int e = abs(exact[i] - want[i]), p = abs(plain[i] - want[i]);
        if (e > with_extent) with_extent = e;
        if (p > without) without = p;
      }
      expect(memcmp(same, plain, sizeof plain) == 0,
             "extent: an extent equal to the size changed the bytes", 4, HALF, ROWS, OUT, ROWS);
    }
    expect(with_extent <= 1, "extent: the halved copy's resize misses the whole's", 4, HALF,
           ROWS, OUT, ROWS);
    expect(without > with_extent, "extent: the stretch it removes does not show", 4, HALF,
           ROWS, OUT, ROWS);
    printf("resample: halved 97-pixel ramp resized to 12, largest difference from the whole's "
           "resize: %d with its extent, %d without\n",
           with_extent, without);
    for (int i = 0; i < 3; i++) cresample_stream_free(streams[i]);
    free(want);
  }

  printf("resample: float resampler's largest difference from the double reference %.4f\n",
         float_worst);

  printf("resample: AVX2 passes %s, AVX-512 passes %s; largest difference from the reference "
         "%d\n",
         vector ? "checked against the portable ones" : "not available (portable only)",
         cresample_avx512_passes_available() ? "checked too" : "not available", worst);
  printf("resample digest: %08x\n", digest);
  printf("resample: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
