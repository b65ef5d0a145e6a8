/* Shared between the portable passes (resample.c) and the AVX2 ones (resample_avx2.c). */
#ifndef THUMBFORGE_RESAMPLE_INTERNAL_H
#define THUMBFORGE_RESAMPLE_INTERNAL_H

#include <stdint.h>

/* Weights are integers scaled by 2^PRECISION. 14 bits keep every weight (at most 1.0)
 * inside int16, which the AVX2 passes multiply in pairs (pmaddwd). */
#define PRECISION 14
#define ROUNDING (1 << (PRECISION - 1))
#define BLOCK_ROWS 8

/* For each of `count` output positions: the first input index `start[i]` and `taps`
 * integer weights at `weights[i * taps]` (unused taps are 0); the same weights two by two
 * as packed int16 pairs at `pair_weights[i * pairs]` (an odd last tap pairs with 0). */
typedef struct {
  int count, taps, pairs;
  int *start;
  int32_t *weights;
  int32_t *pair_weights;
} axis;

/* The weights for `count` outputs from `first` when `in_size` samples, spanning `extent`
 * samples of the picture (see cresample_stream_new_extent), scale to `out_size`; shared
 * and immutable (weights.c); NULL for an invalid extent or when memory runs out. Release
 * each once. */
#include "CResample.h"
const axis *cresample_axis_acquire(int in_size, double extent, int out_size, int first,
                                   int count, cresample_kernel kernel);
/* Whether `extent` is within one sample of `in_size` (and positive). */
int cresample_extent_valid(int in_size, double extent);
void cresample_axis_release(const axis *a);
/* Whether `kernel` is one of cresample_kernel's values. */
int cresample_kernel_known(cresample_kernel kernel);

static inline uint8_t clamp8(int32_t v) {
  v = (v + ROUNDING) >> PRECISION;
  v = v < 0 ? 0 : v;
  return (uint8_t)(v > 255 ? 255 : v);
}

/* The AVX2 passes (target attributes, intrinsics, the cpuid check) exist only on x86;
 * elsewhere (arm64 among them) only the portable passes are compiled. */
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__clang__) || defined(__GNUC__))
#define CRESAMPLE_HAVE_AVX2_PASSES 1
/* And the AVX-512 ones (resample_avx512.c), taken where cresample_avx512_passes_available. */
#define CRESAMPLE_HAVE_AVX512_PASSES 1

/* Horizontal pass over one block of BLOCK_ROWS rows interleaved column by column
 * (`columns` columns of `bands` x BLOCK_ROWS bytes, plus one zero column after them),
 * writing `h->count` pixels into each of `rows`. `scratch` holds `scratch_columns` columns
 * of paired 16-bit samples; it must be at least 2 * h->pairs columns. */
void cresample_horizontal_avx2(const uint8_t *block, int c0, int columns, const axis *h,
                               int bands, int16_t *scratch, int scratch_columns,
                               int avx512, uint8_t *const *rows);

/* Output pixels [i0, i1) of a three-band block from its paired columns (the first being
 * input column `first_column`), into each of `rows`: the AVX2 way, and the AVX-512 way
 * (resample_avx512.c), which gives the same bytes. */
void cresample_horizontal_outputs3_avx2(const int16_t *paired, int first_column, const axis *h,
                                        int i0, int i1, uint8_t *const *rows);
void cresample_horizontal_outputs3_avx512(const int16_t *paired, int first_column,
                                          const axis *h, int i0, int i1, uint8_t *const *rows);

/* One output row of a 2x2 box halving: `pixels` pixels of `bands` bytes from the rows
 * `top` and `bottom` (2 x pixels pixels each). */
void cresample_halve_row_avx2(const uint8_t *top, const uint8_t *bottom, int pixels,
                              int bands, uint8_t *out);

/* Vertical pass: bytes [from, n) of one output row from the rows `taps[0 .. 2 * pairs)`,
 * the extra row of an odd tap count being any valid row (its weight is 0); the AVX2 way
 * and the AVX-512 way (bytes [0, n)), which gives the same bytes. */
void cresample_vertical_avx2(const uint8_t *const *taps, const int32_t *pair_weights,
                             int pairs, long from, long n, uint8_t *out);
void cresample_vertical_avx512(const uint8_t *const *taps, const int32_t *pair_weights,
                               int pairs, long n, uint8_t *out);
/* Interleaves BLOCK_ROWS three-band rows (each pointer at the first pixel wanted) column by
 * column into `block`, as resample.c does, for the first 16 x k of `n` columns, leaving at
 * least one; returns how many it wrote. The rest are the caller's, starting with the next
 * column, whose first 8 bytes were overwritten. */
int cresample_interleave3_avx512(uint8_t *block, const uint8_t *const *rows, int n);
/* Pairs the three-band columns [from, to) of a block as the AVX2 pass does (each column's
 * 24 lanes with the next column's, as 16-bit samples), into `out`. */
void cresample_pair_columns3_avx512(const uint8_t *block, int from, int to, int16_t *out);
#endif

#endif
