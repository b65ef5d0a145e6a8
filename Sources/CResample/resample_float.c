/* The separable resampler for float images: the kernels and weights of the 8-bit one
 * (weights.c, the same windows and fixed-point weights, read as fractions), on samples kept
 * in float between the passes and never clamped, so premultiplied colour and alpha keep
 * their precision and the negative lobes' overshoot survives until the caller rounds.
 *
 * ThumbForge enlarges images with alpha through it: libvips 8.14's `resize` enlarges
 * bicubically whatever kernel it is asked for, where opaque images get the recipe's kernel
 * from the 8-bit resampler.
 *
 * Plain scalar C, evaluated in a fixed order with contraction into fused multiply-adds
 * turned off, so every CPU computes the same floats. */

#include "CResample.h"
#include "resample_internal.h"

#include <limits.h>
#include <stdlib.h>

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#define WEIGHT_SCALE (1.0f / (float)(1 << PRECISION))

/* Filters input row `row` horizontally into `out` (`h->count` pixels of `bands`). */
static void filter_row(const float *row, const axis *h, int bands, float *out) {
  for (int i = 0; i < h->count; i++) {
    const float *in = row + (long)h->start[i] * bands;
    const int32_t *w = h->weights + (size_t)i * h->taps;
    for (int b = 0; b < bands; b++) {
      float sum = 0.0f;
      for (int t = 0; t < h->taps; t++) sum += (float)w[t] * WEIGHT_SCALE * in[t * bands + b];
      out[i * bands + b] = sum;
    }
  }
}

int cresample_float(const float *src, int width, int height, int bands, long src_stride,
                    int scaled_width, int scaled_height, int x, int y, int out_width,
                    int out_height, cresample_kernel kernel, float *dst) {
  if (!src || !dst || width < 1 || height < 1 || bands < 1 || bands > 4 ||
      src_stride < (long)width * bands || scaled_width < 1 || scaled_height < 1 || x < 0 ||
      y < 0 || out_width < 1 || out_height < 1 || (int64_t)x + out_width > scaled_width ||
      (int64_t)y + out_height > scaled_height || !cresample_kernel_known(kernel))
    return -1;
  const axis *h = cresample_axis_acquire(width, width, scaled_width, x, out_width, kernel);
  const axis *v = cresample_axis_acquire(height, height, scaled_height, y, out_height, kernel);
  long row_samples = (long)out_width * bands;
  /* A ring of horizontally filtered rows, input row r in slot r % taps: the windows of
   * successive output rows only move down, so each input row is filtered at most once. */
  float *ring = h && v ? malloc(sizeof(float) * (size_t)v->taps * (size_t)row_samples) : NULL;
  int *held = h && v ? malloc(sizeof(int) * (size_t)v->taps) : NULL;
  int status = ring && held ? 0 : -1;
  for (int t = 0; status == 0 && t < v->taps; t++) held[t] = -1;
  for (int j = 0; status == 0 && j < out_height; j++) {
    const int32_t *w = v->weights + (size_t)j * v->taps;
    float *out = dst + (long)j * row_samples;
    for (long k = 0; k < row_samples; k++) out[k] = 0.0f;
    for (int t = 0; t < v->taps; t++) {
      int row = v->start[j] + t;
      float *filtered = ring + (long)(row % v->taps) * row_samples;
      if (held[row % v->taps] != row) {
        filter_row(src + (long)row * src_stride, h, bands, filtered);
        held[row % v->taps] = row;
      }
      float weight = (float)w[t] * WEIGHT_SCALE;
      for (long k = 0; k < row_samples; k++) out[k] += weight * filtered[k];
    }
  }
  free(ring);
  free(held);
  cresample_axis_release(h);
  cresample_axis_release(v);
  return status;
}
