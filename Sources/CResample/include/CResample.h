#ifndef THUMBFORGE_CRESAMPLE_H
#define THUMBFORGE_CRESAMPLE_H

#include <stdint.h>

/* Separable 8-bit resampler (see resample.c). libvips 8.14's reduce is 3-5x slower than
 * a vectorised fixed-point filter on 8-bit images; ThumbForge uses this one for opaque
 * 8-bit images and libvips for everything else. */

typedef enum {
  CRESAMPLE_LINEAR = 0,
  CRESAMPLE_CUBIC = 1,    /* Catmull-Rom, as libvips' "cubic" */
  CRESAMPLE_MITCHELL = 2, /* Mitchell-Netravali B = C = 1/3 */
  CRESAMPLE_LANCZOS2 = 3,
  CRESAMPLE_LANCZOS3 = 4,
} cresample_kernel;

/* Resamples `src` (width x height pixels of `bands` interleaved 8-bit samples, rows
 * `src_stride` bytes apart) as if scaled to `scaled_width` x `scaled_height`, and writes
 * the region (`x`, `y`, `out_width`, `out_height`) of that scaled image to `dst` (rows
 * `out_width * bands` bytes apart). Edges extend the border pixels. The arithmetic is
 * integer-only, so every CPU gives the same bytes.
 * Returns 0, or -1 for bad arguments or when memory runs out. */
int cresample(const uint8_t *src, int width, int height, int bands, long src_stride,
              int scaled_width, int scaled_height, int x, int y, int out_width,
              int out_height, cresample_kernel kernel, uint8_t *dst);

#endif
