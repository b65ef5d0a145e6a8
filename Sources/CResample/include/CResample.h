#ifndef THUMBFORGE_CRESAMPLE_H
#define THUMBFORGE_CRESAMPLE_H

#include <stdint.h>

/* Separable 8-bit resampler (see resample.c). libvips 8.14's reduce is slower than a
 * vectorised fixed-point filter on 8-bit images (docs/performance.md has the figures);
 * ThumbForge uses this one for opaque 8-bit images, its float variant for enlarging images with
 * alpha, and libvips for everything else. */

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

/* The same resampling of a float image (`bands` interleaved floats a pixel, rows
 * `src_stride` floats apart; `dst` rows `out_width * bands` floats apart), with the same
 * weights, the samples kept in float and never clamped (resample_float.c). For images the
 * 8-bit resampler cannot take: premultiplied colour with alpha. Returns 0, or -1 for bad
 * arguments or when memory runs out. */
int cresample_float(const float *src, int width, int height, int bands, long src_stride,
                    int scaled_width, int scaled_height, int x, int y, int out_width,
                    int out_height, cresample_kernel kernel, float *dst);

/* The same resampling fed strip by strip, so an image can be resized while it is decoded
 * without ever being held whole. Strips arrive top to bottom, each starting at a multiple
 * of CRESAMPLE_STRIP_ROWS and holding a multiple of it (the image's last strip excepted);
 * strips the region does not need are skipped. */
#define CRESAMPLE_STRIP_ROWS 8
typedef struct cresample_stream cresample_stream;

/* NULL for bad arguments or when memory runs out; `dst` must outlive the stream. */
cresample_stream *cresample_stream_new(int width, int height, int bands, int scaled_width,
                                       int scaled_height, int x, int y, int out_width,
                                       int out_height, cresample_kernel kernel, uint8_t *dst);
/* The same, for an image whose `width` x `height` samples span `extent_width` x
 * `extent_height` samples of the picture it stands for (each within one sample of the
 * image's size): a copy reduced by a factor that does not divide the picture's size (a
 * JPEG decoded at 1/2, 1/4 or 1/8, whose last pixel covers less; a 2x2 box halving, which
 * drops an odd last row or column). The scaled image then covers the picture exactly,
 * with no stretch. NULL also for an extent out of that range. */
cresample_stream *cresample_stream_new_extent(int width, int height, double extent_width,
                                              double extent_height, int bands,
                                              int scaled_width, int scaled_height, int x,
                                              int y, int out_width, int out_height,
                                              cresample_kernel kernel, uint8_t *dst);
/* Feeds rows [first, first + count), `stride` bytes apart, starting at `rows`. 0 or -1. */
int cresample_stream_push(cresample_stream *s, const uint8_t *rows, long stride, int first,
                          int count);
/* The same for several streams over one image (the same width, height and bands): each
 * block of rows is interleaved once for all of them. 0, or -1 (nothing fed) for bad
 * arguments. */
int cresample_streams_push(cresample_stream *const *streams, int n, const uint8_t *rows,
                           long stride, int first, int count);
/* Whether every row of the region has been written. */
int cresample_stream_finished(const cresample_stream *s);
void cresample_stream_free(cresample_stream *s);

/* Halves `src` (as above) with a 2x2 box filter, rounding to nearest, into `dst` of
 * (width / 2) x (height / 2) pixels; an odd last row or column is dropped, as libvips'
 * `shrink` does. Returns 0, or -1 for bad arguments. */
int cresample_halve(const uint8_t *src, int width, int height, int bands, long src_stride,
                    uint8_t *dst);
/* Halves one strip: rows [first, first + count) at `rows` (first even) into the matching
 * rows of `dst`, a (width / 2) x (height / 2) image; a trailing odd row is dropped. */
int cresample_halve_strip(const uint8_t *rows, int width, int bands, long stride, int first,
                          int count, uint8_t *dst);

/* Whether this CPU runs the AVX2 passes (the same bytes, about five times as fast as the
 * portable ones). */
int cresample_vector_passes_available(void);
/* Whether it also runs the AVX-512 passes (AVX-512 with VNNI and VBMI: AMD Zen 4 and later,
 * Intel's servers since Ice Lake): the vertical pass, and the horizontal one for three-band
 * images, 1.6-1.9x as fast as AVX2 (Scripts/bench/resample-passes.sh), with the same bytes. */
int cresample_avx512_passes_available(void);
/* Which passes streams made afterwards on the calling thread use, for tests that compare
 * them: 0 the portable ones, 1 the widest this CPU has (the default), 2 AVX2 at most. */
void cresample_allow_vector_passes(int allowed);

#endif
