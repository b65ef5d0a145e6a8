/* A separable fixed-point resampler for 8-bit images.
 *
 * Each output pixel is a weighted sum of the input pixels under the kernel, stretched by
 * the reduction factor so downscaling low-passes (as Pillow and libvips do). Weights are
 * integers scaled by 2^PRECISION and normalised to sum exactly to 2^PRECISION, so flat
 * areas stay exactly flat, and the same bytes come out on every CPU.
 *
 * Speed comes from layout: the horizontal pass works on blocks of 8 rows interleaved
 * column by column, so every tap is one contiguous multiply-add over 8 x bands samples;
 * the vertical pass multiply-adds whole rows. The portable passes below are plain C that
 * compilers vectorise; where the CPU has AVX2, resample_avx2.c's passes multiply two taps
 * per instruction instead, with the same exact integer sums. Horizontally filtered rows
 * live in a small ring, so memory stays a few hundred kilobytes whatever the image size. */

#include "CResample.h"
#include "resample_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 2048 /* portable vertical pass: accumulator width, in samples */
#define PAIRED_COLUMNS 256 /* AVX2 horizontal pass: columns paired at a time (at least) */

/* Per thread: a test forcing the portable passes affects only its own work, not the resizes
 * other threads run at the same moment. 0: portable, 1: the widest this CPU has, 2: AVX2
 * at most. */
static _Thread_local int vector_passes_allowed = 1;

void cresample_allow_vector_passes(int allowed) { vector_passes_allowed = allowed; }

int cresample_vector_passes_available(void) {
#ifdef CRESAMPLE_HAVE_AVX2_PASSES
  return __builtin_cpu_supports("avx2") ? 1 : 0;
#else
  return 0;
#endif
}

/* Whether work starting now takes the AVX2 passes: allowed, and the CPU has them. */
static int use_vector_passes(void) {
  return vector_passes_allowed && cresample_vector_passes_available();
}

#ifndef CRESAMPLE_HAVE_AVX512_PASSES
int cresample_avx512_passes_available(void) { return 0; }
#endif

/* Whether it also takes the AVX-512 passes (vertical, and horizontal for three bands):
 * the widest allowed, and the CPU has them (which implies the AVX2 ones). */
static int use_avx512_pass(void) {
  return vector_passes_allowed == 1 && cresample_avx512_passes_available();
}

/* Interleaves rows[0..BLOCK_ROWS) column by column over [c0, c0 + n); `bands` is a
 * constant at each call so the copies become plain loads and stores. Three-band pixels
 * move as 4-byte words whose spare byte the next store overwrites, which is why `block`
 * has one byte of slack and the last column is copied exactly. With `avx512`, three-band
 * columns go 16 at a time through the AVX-512 copy first (the same bytes). */
static inline __attribute__((always_inline)) void interleave(
    uint8_t *restrict block, const uint8_t *const *rows, int c0, int n, const int bands,
    int avx512) {
  const int lanes = BLOCK_ROWS * bands;
  const uint8_t *in[BLOCK_ROWS];
  for (int r = 0; r < BLOCK_ROWS; r++) in[r] = rows[r] + (size_t)c0 * bands;
  int c = 0;
#ifdef CRESAMPLE_HAVE_AVX512_PASSES
  if (avx512 && bands == 3) c = cresample_interleave3_avx512(block, in, n);
#else
  (void)avx512;
#endif
  if (bands == 3)
    for (; c < n - 1; c++)
      for (int r = 0; r < BLOCK_ROWS; r++)
        memcpy(block + (size_t)c * lanes + r * 3, in[r] + (size_t)c * 3, 4);
  for (; c < n; c++)
    for (int r = 0; r < BLOCK_ROWS; r++)
      memcpy(block + (size_t)c * lanes + r * bands, in[r] + (size_t)c * bands, bands);
}

/* Horizontal filter of one interleaved block; `LANES` is BLOCK_ROWS * bands. Written
 * out as one function per band count so the lane loop has a constant length. */
#define HORIZONTAL(NAME, LANES)                                                             \
  static void NAME(const uint8_t *restrict block, int c0, const axis *h,    \
                                 uint8_t *const *rows) {                                  \
    const int bands = (LANES) / BLOCK_ROWS;                                               \
    uint8_t *out[BLOCK_ROWS];                                                             \
    for (int r = 0; r < BLOCK_ROWS; r++) out[r] = rows[r];                                \
    for (int i = 0; i < h->count; i++) {                                                  \
      int32_t acc[LANES] = {0};                                                           \
      uint8_t result[LANES];                                                              \
      const int32_t *w = h->weights + (size_t)i * h->taps;                                \
      const uint8_t *p = block + (size_t)(h->start[i] - c0) * (LANES);                    \
      for (int t = 0; t < h->taps; t++, p += (LANES))                                     \
        for (int l = 0; l < (LANES); l++) acc[l] += w[t] * (int32_t)p[l];                 \
      for (int l = 0; l < (LANES); l++) result[l] = clamp8(acc[l]);                       \
      for (int r = 0; r < BLOCK_ROWS; r++)                                                \
        memcpy(out[r] + (size_t)i * bands, result + r * bands, bands);                    \
    }                                                                                     \
  }
HORIZONTAL(horizontal1, 8)
HORIZONTAL(horizontal2, 16)
HORIZONTAL(horizontal3, 24)
HORIZONTAL(horizontal4, 32)

static void vertical(const uint8_t *const *rows, const int32_t *w, int taps, long n,
                     uint8_t *restrict out) {
  int32_t acc[CHUNK];
  for (long x0 = 0; x0 < n; x0 += CHUNK) {
    int len = n - x0 < CHUNK ? (int)(n - x0) : CHUNK;
    for (int l = 0; l < len; l++) acc[l] = 0;
    for (int t = 0; t < taps; t++) {
      const uint8_t *restrict p = rows[t] + x0;
      int32_t c = w[t];
      if (c == 0) continue;
      for (int l = 0; l < len; l++) acc[l] += c * (int32_t)p[l];
    }
    for (int l = 0; l < len; l++) out[x0 + l] = clamp8(acc[l]);
  }
}

/* ---------------------------------------------------------------- streaming driver */

struct cresample_stream {
  int height, bands;
  const axis *h, *v; /* shared, from the weights cache */
  int c0, columns; /* input columns the region reads */
  int r1;          /* one past the last input row the region reads */
  long row_bytes;  /* of an output row */
  int ring;        /* horizontally filtered rows kept: every window plus one block */
  int next;        /* first input row not yet filtered (a multiple of BLOCK_ROWS) */
  int row;         /* next output row to write */
  uint8_t *filtered, *block, *dst;
  const uint8_t **taps; /* 2 * v.pairs rows: an odd tap count repeats its last row */
  int vector;           /* whether the AVX2 passes run */
  int avx512;           /* whether the AVX-512 passes run (horizontal: three bands) */
  int16_t *paired;      /* their paired columns, `paired_columns` of them */
  int paired_columns;
};

void cresample_stream_free(cresample_stream *s) {
  if (!s) return;
  free(s->filtered);
  free(s->block);
  free(s->taps);
  free(s->paired);
  cresample_axis_release(s->h);
  cresample_axis_release(s->v);
  free(s);
}

cresample_stream *cresample_stream_new(int width, int height, int bands, int scaled_width,
                                       int scaled_height, int x, int y, int out_width,
                                       int out_height, cresample_kernel kernel, uint8_t *dst) {
  return cresample_stream_new_extent(width, height, width, height, bands, scaled_width,
                                     scaled_height, x, y, out_width, out_height, kernel, dst);
}

cresample_stream *cresample_stream_new_extent(int width, int height, double extent_width,
                                              double extent_height, int bands,
                                              int scaled_width, int scaled_height, int x,
                                              int y, int out_width, int out_height,
                                              cresample_kernel kernel, uint8_t *dst) {
  /* Sums in 64 bits: a region near INT_MAX must not wrap around to pass the check. */
  if (!dst || width < 1 || height < 1 || bands < 1 || bands > 4 || scaled_width < 1 ||
      scaled_height < 1 || x < 0 || y < 0 || out_width < 1 || out_height < 1 ||
      (int64_t)x + out_width > scaled_width || (int64_t)y + out_height > scaled_height ||
      !cresample_kernel_known(kernel))
    return NULL;
  cresample_stream *s = calloc(1, sizeof(cresample_stream));
  if (!s) return NULL;
  s->height = height;
  s->bands = bands;
  s->dst = dst;
  s->h = cresample_axis_acquire(width, extent_width, scaled_width, x, out_width, kernel);
  s->v = cresample_axis_acquire(height, extent_height, scaled_height, y, out_height, kernel);
  if (!s->h || !s->v) {
    cresample_stream_free(s);
    return NULL;
  }
  s->c0 = s->h->start[0];
  s->columns = s->h->start[out_width - 1] + s->h->taps - s->c0;
  s->r1 = s->v->start[out_height - 1] + s->v->taps;
  s->next = s->v->start[0] / BLOCK_ROWS * BLOCK_ROWS;
  s->row_bytes = (long)out_width * bands;
  s->ring = s->v->taps + BLOCK_ROWS;
  s->filtered = malloc((size_t)s->ring * (size_t)s->row_bytes);
  /* One zero column after the block: the AVX2 pass pairs the last column with it. */
  s->block = calloc((size_t)(s->columns + 1) * BLOCK_ROWS * (size_t)bands + 1, 1);
  s->taps = malloc(sizeof(uint8_t *) * (size_t)s->v->pairs * 2);
  s->vector = use_vector_passes();
  s->avx512 = use_avx512_pass();
  if (s->vector) {
    s->paired_columns = PAIRED_COLUMNS > 2 * s->h->pairs ? PAIRED_COLUMNS : 2 * s->h->pairs;
    s->paired = malloc(sizeof(int16_t) * (size_t)s->paired_columns * BLOCK_ROWS * 2 * bands);
  }
  if (!s->filtered || !s->block || !s->taps || (s->vector && !s->paired)) {
    cresample_stream_free(s);
    return NULL;
  }
  return s;
}

/* Writes every output row whose window is filtered. */
static void emit_ready_rows(cresample_stream *s) {
  while (s->row < s->v->count && s->v->start[s->row] + s->v->taps <= s->next) {
    int lo = s->v->start[s->row];
    for (int t = 0; t < s->v->taps; t++)
      s->taps[t] = s->filtered + (size_t)((lo + t) % s->ring) * s->row_bytes;
    if (s->v->taps % 2) s->taps[s->v->taps] = s->taps[s->v->taps - 1];
    uint8_t *out = s->dst + (size_t)s->row * s->row_bytes;
#ifdef CRESAMPLE_HAVE_AVX2_PASSES
    if (s->avx512)
      cresample_vertical_avx512(s->taps, s->v->pair_weights + (size_t)s->row * s->v->pairs,
                                s->v->pairs, s->row_bytes, out);
    else if (s->vector)
      cresample_vertical_avx2(s->taps, s->v->pair_weights + (size_t)s->row * s->v->pairs,
                              s->v->pairs, 0, s->row_bytes, out);
    else
#endif
      vertical(s->taps, s->v->weights + (size_t)s->row * s->v->taps, s->v->taps, s->row_bytes,
               out);
    s->row++;
  }
}

/* Filters the block of rows starting at s->next, found interleaved in `block` from input
 * column `block_c0`, and writes the output rows it completes. */
static void filter_block(cresample_stream *s, const uint8_t *block, int block_c0) {
  uint8_t *out[BLOCK_ROWS];
  for (int r = 0; r < BLOCK_ROWS; r++)
    out[r] = s->filtered + (size_t)((s->next + r) % s->ring) * s->row_bytes;
  const uint8_t *mine = block + (size_t)(s->c0 - block_c0) * BLOCK_ROWS * s->bands;
#ifdef CRESAMPLE_HAVE_AVX2_PASSES
  if (s->vector)
    cresample_horizontal_avx2(mine, s->c0, s->columns, s->h, s->bands, s->paired,
                              s->paired_columns, s->avx512, out);
  else
#endif
    switch (s->bands) {
    case 1: horizontal1(mine, s->c0, s->h, out); break;
    case 2: horizontal2(mine, s->c0, s->h, out); break;
    case 3: horizontal3(mine, s->c0, s->h, out); break;
    default: horizontal4(mine, s->c0, s->h, out); break;
    }
  s->next += BLOCK_ROWS;
  emit_ready_rows(s);
}

static int wants(const cresample_stream *s, int y) {
  return s->row < s->v->count && s->next == y;
}

int cresample_streams_push(cresample_stream *const *streams, int n, const uint8_t *rows,
                           long stride, int first, int count) {
  if (n < 1 || !streams || !rows || first < 0 || count < 1 || first % BLOCK_ROWS != 0 ||
      (int64_t)first + count > INT_MAX)
    return -1;
  int last = first + count;
  int bands = streams[0] ? streams[0]->bands : 0, lo = 0, hi = 0;
  for (int i = 0; i < n; i++) {
    const cresample_stream *s = streams[i];
    if (!s || s->bands != bands || last > s->height ||
        (count % BLOCK_ROWS != 0 && last != s->height) ||
        stride < (long)(s->c0 + s->columns) * s->bands)
      return -1;
    if (s->row < s->v->count && s->next < first) return -1; /* a needed strip was skipped */
    if (i == 0 || s->c0 < lo) lo = s->c0;
    if (i == 0 || s->c0 + s->columns > hi) hi = s->c0 + s->columns;
  }
  /* One stream interleaves into its own block; several share one as wide as all of them,
   * with the spare column the AVX2 pass may read past the last (its weight is zero). */
  uint8_t *shared = n == 1 ? streams[0]->block
                           : calloc((size_t)(hi - lo + 1) * BLOCK_ROWS * (size_t)bands + 1, 1);
  if (!shared) return -1;
  /* Ring slots: the oldest row a pending window reads is at least next - v.taps + 1, and a
   * block writes rows up to next + BLOCK_ROWS - 1, so v.taps + BLOCK_ROWS slots never
   * overwrite a row still needed. Rows past a stream's r1 are never read by it; past the
   * strip they repeat its last row. */
  for (int i = 0; i < n; i++) emit_ready_rows(streams[i]);
  for (int y = first; y < last; y += BLOCK_ROWS) {
    int from = 0, to = 0, any = 0;
    for (int i = 0; i < n; i++) {
      const cresample_stream *s = streams[i];
      if (!wants(s, y)) continue;
      if (!any || s->c0 < from) from = s->c0;
      if (!any || s->c0 + s->columns > to) to = s->c0 + s->columns;
      any = 1;
    }
    if (!any) continue;
    const uint8_t *in[BLOCK_ROWS];
    for (int r = 0; r < BLOCK_ROWS; r++)
      in[r] = rows + (long)((y + r < last ? y + r : last - 1) - first) * stride;
    /* Every stream was made on this thread's settings or another's; the AVX-512 copy gives
     * the same block, so any stream's choice serves all. */
    int avx512 = streams[0]->avx512;
    switch (bands) {
    case 1: interleave(shared, in, from, to - from, 1, avx512); break;
    case 2: interleave(shared, in, from, to - from, 2, avx512); break;
    case 3: interleave(shared, in, from, to - from, 3, avx512); break;
    default: interleave(shared, in, from, to - from, 4, avx512); break;
    }
    for (int i = 0; i < n; i++)
      if (wants(streams[i], y)) filter_block(streams[i], shared, from);
  }
  if (n > 1) free(shared);
  return 0;
}

int cresample_stream_push(cresample_stream *s, const uint8_t *rows, long stride, int first,
                          int count) {
  return cresample_streams_push(&s, 1, rows, stride, first, count);
}

int cresample_stream_finished(const cresample_stream *s) { return s && s->row == s->v->count; }

int cresample(const uint8_t *src, int width, int height, int bands, long src_stride,
              int scaled_width, int scaled_height, int x, int y, int out_width,
              int out_height, cresample_kernel kernel, uint8_t *dst) {
  if (!src || src_stride < (long)width * bands) return -1;
  cresample_stream *s = cresample_stream_new(width, height, bands, scaled_width, scaled_height,
                                             x, y, out_width, out_height, kernel, dst);
  if (!s) return -1;
  int status = cresample_stream_push(s, src, src_stride, 0, height);
  if (status == 0 && !cresample_stream_finished(s)) status = -1;
  cresample_stream_free(s);
  return status;
}

/* ---------------------------------------------------------------- halving */

static void halve_row(const uint8_t *restrict top, const uint8_t *restrict bottom,
                                    int pixels, const int bands, uint8_t *restrict out) {
  for (int i = 0; i < pixels; i++)
    for (int b = 0; b < bands; b++) {
      int a = top[(2 * i) * bands + b] + top[(2 * i + 1) * bands + b];
      int c = bottom[(2 * i) * bands + b] + bottom[(2 * i + 1) * bands + b];
      out[i * bands + b] = (uint8_t)((a + c + 2) >> 2);
    }
}

int cresample_halve_strip(const uint8_t *rows, int width, int bands, long stride, int first,
                          int count, uint8_t *dst) {
  if (!rows || !dst || width < 2 || first < 0 || count < 1 || first % 2 != 0 || bands < 1 ||
      bands > 4 || (int64_t)first + count > INT_MAX || stride < (long)width * bands)
    return -1;
  int w = width / 2;
  int vector = use_vector_passes();
  (void)vector;
  for (int y = 0; y + 1 < count; y += 2) {
    const uint8_t *top = rows + (long)y * stride;
    uint8_t *out = dst + ((long)first + y) / 2 * w * bands;
#ifdef CRESAMPLE_HAVE_AVX2_PASSES
    if (vector) {
      cresample_halve_row_avx2(top, top + stride, w, bands, out);
      continue;
    }
#endif
    switch (bands) {
    case 1: halve_row(top, top + stride, w, 1, out); break;
    case 2: halve_row(top, top + stride, w, 2, out); break;
    case 3: halve_row(top, top + stride, w, 3, out); break;
    default: halve_row(top, top + stride, w, 4, out); break;
    }
  }
  return 0;
}

int cresample_halve(const uint8_t *src, int width, int height, int bands, long src_stride,
                    uint8_t *dst) {
  if (height < 2) return -1;
  return cresample_halve_strip(src, width, bands, src_stride, 0, height, dst);
}
