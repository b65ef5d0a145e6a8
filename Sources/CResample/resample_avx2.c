/* AVX2 versions of the two passes, used when the CPU has AVX2 (see resample.c).
 *
 * Both multiply 16-bit samples by 16-bit weights two taps at a time (pmaddwd: two products
 * summed into 32 bits per instruction lane), twice the work per instruction of widening
 * every sample to 32 bits. The sums are exact integers, so the bytes equal the portable
 * passes' on every input. */

#include "resample_internal.h"

#ifdef CRESAMPLE_HAVE_AVX2_PASSES

#include <immintrin.h>
#include <string.h>

#define AVX2 __attribute__((target("avx2")))
#define AVX2_INLINE static inline __attribute__((always_inline, target("avx2")))

/* Pairs every column with the next one: lane l of column c becomes the 16-bit pair
 * (c, c + 1), so one load serves two taps. Columns [from, to) of `block` (`lanes` bytes
 * each) go to `out`, 2 * lanes samples per column. */
AVX2_INLINE void pair_columns(const uint8_t *block, const int lanes, int from, int to,
                              int16_t *out) {
  for (int c = from; c < to; c++) {
    const uint8_t *a = block + (size_t)c * lanes;
    const uint8_t *b = a + lanes;
    int16_t *o = out + (size_t)(c - from) * lanes * 2;
    int l = 0;
    for (; l + 16 <= lanes; l += 16) {
      __m128i va = _mm_loadu_si128((const __m128i *)(a + l));
      __m128i vb = _mm_loadu_si128((const __m128i *)(b + l));
      _mm256_storeu_si256((__m256i *)(o + 2 * l), _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(va, vb)));
      _mm256_storeu_si256((__m256i *)(o + 2 * l + 16),
                          _mm256_cvtepu8_epi16(_mm_unpackhi_epi8(va, vb)));
    }
    if (l < lanes) { /* the last 8 lanes of a 24-lane (three-band) block */
      __m128i va = _mm_loadl_epi64((const __m128i *)(a + l));
      __m128i vb = _mm_loadl_epi64((const __m128i *)(b + l));
      _mm256_storeu_si256((__m256i *)(o + 2 * l), _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(va, vb)));
    }
  }
}

/* Rounds, shifts and saturates 8 x `vectors` sums to bytes, in lane order: lanes 0-15 in
 * `low`, 16-31 in `high`. */
AVX2_INLINE void to_bytes(const __m256i *acc, const int vectors, __m128i *low, __m128i *high) {
  const __m256i rounding = _mm256_set1_epi32(ROUNDING);
  __m128i words[4];
  for (int k = 0; k < vectors; k++) {
    __m256i v = _mm256_srai_epi32(_mm256_add_epi32(acc[k], rounding), PRECISION);
    words[k] = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  }
  for (int k = vectors; k < 4; k++) words[k] = words[vectors - 1];
  *low = _mm_packus_epi16(words[0], words[1]);
  *high = _mm_packus_epi16(words[2], words[3]);
}

static inline void store32(uint8_t *p, int v) { memcpy(p, &v, 4); }

/* Output pixels [i0, i1) of the block: each a sum of pair products over the paired
 * columns from its first tap. `bands` is a constant at each call. */
AVX2_INLINE void horizontal_outputs(const int16_t *paired, int first_column, const axis *h,
                                    int i0, int i1, const int bands, uint8_t *const *out) {
  const int vectors = bands; /* BLOCK_ROWS x bands lanes, 8 per vector */
  uint8_t *rows[BLOCK_ROWS]; /* a local copy: stores through the rows cannot change it */
  for (int r = 0; r < BLOCK_ROWS; r++) rows[r] = out[r];
  const int *start = h->start;
  const int32_t *weights = h->pair_weights;
  const int pairs = h->pairs, last = h->count - 1;
  const int column = 16 * vectors;
  const __m128i spread = _mm_setr_epi8(0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 9, 10, 11, 12);
  for (int i = i0; i < i1; i++) {
    __m256i acc[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(),
                      _mm256_setzero_si256()};
    const int16_t *p = paired + (size_t)(start[i] - first_column) * column;
    const int32_t *w = weights + (size_t)i * pairs;
    for (int q = 0; q < pairs; q++, p += 2 * column) {
      __m256i wq = _mm256_set1_epi32(w[q]);
      for (int k = 0; k < vectors; k++)
        acc[k] = _mm256_add_epi32(
            acc[k], _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)(p + 16 * k)), wq));
    }
    __m128i low, high;
    to_bytes(acc, vectors, &low, &high);
    if (bands == 4) {
      int pixels[BLOCK_ROWS];
      _mm_storeu_si128((__m128i *)pixels, low);
      _mm_storeu_si128((__m128i *)(pixels + 4), high);
      for (int r = 0; r < BLOCK_ROWS; r++) store32(rows[r] + (size_t)i * 4, pixels[r]);
    } else if (bands == 3 && i < last) {
      /* Row r's three bytes start at byte 3r; each row takes four bytes whose spare byte
       * the next pixel overwrites (the row's last pixel is written exactly, below). */
      __m128i rows03 = _mm_shuffle_epi8(low, spread);
      __m128i rows47 = _mm_shuffle_epi8(_mm_alignr_epi8(high, low, 12), spread);
      size_t at = (size_t)i * 3;
      store32(rows[0] + at, _mm_extract_epi32(rows03, 0));
      store32(rows[1] + at, _mm_extract_epi32(rows03, 1));
      store32(rows[2] + at, _mm_extract_epi32(rows03, 2));
      store32(rows[3] + at, _mm_extract_epi32(rows03, 3));
      store32(rows[4] + at, _mm_extract_epi32(rows47, 0));
      store32(rows[5] + at, _mm_extract_epi32(rows47, 1));
      store32(rows[6] + at, _mm_extract_epi32(rows47, 2));
      store32(rows[7] + at, _mm_extract_epi32(rows47, 3));
    } else {
      uint8_t bytes[32];
      _mm_storeu_si128((__m128i *)bytes, low);
      _mm_storeu_si128((__m128i *)(bytes + 16), high);
      for (int r = 0; r < BLOCK_ROWS; r++)
        memcpy(rows[r] + (size_t)i * bands, bytes + r * bands, (size_t)bands);
    }
  }
}

AVX2 void cresample_horizontal_outputs3_avx2(const int16_t *paired, int first_column,
                                             const axis *h, int i0, int i1,
                                             uint8_t *const *rows) {
  horizontal_outputs(paired, first_column, h, i0, i1, 3, rows);
}

/* The first output at or after `from` whose last pair does not lie before column `to`
 * (relative to c0): outputs' windows only move right, so a binary search finds it. */
static int first_output_past(const axis *h, int c0, int from, int to) {
  int lo = from, hi = h->count;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (h->start[mid] - c0 + 2 * h->pairs - 2 < to) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

AVX2 void cresample_horizontal_avx2(const uint8_t *block, int c0, int columns, const axis *h,
                                    int bands, int16_t *scratch, int scratch_columns,
                                    int avx512, uint8_t *const *rows) {
  const int lanes = BLOCK_ROWS * bands;
  /* Pair the columns a run of outputs reads, chunk by chunk so the paired samples stay in
   * cache, then compute every output whose last pair lies in the chunk. */
  int i = 0;
  while (i < h->count) {
    int from = h->start[i] - c0;
    int to = from + scratch_columns < columns ? from + scratch_columns : columns;
#ifdef CRESAMPLE_HAVE_AVX512_PASSES
    if (avx512 && bands == 3) cresample_pair_columns3_avx512(block, from, to, scratch);
    else
#endif
      pair_columns(block, lanes, from, to, scratch);
    int end = first_output_past(h, c0, i, to);
    switch (bands) {
    case 1: horizontal_outputs(scratch, c0 + from, h, i, end, 1, rows); break;
    case 2: horizontal_outputs(scratch, c0 + from, h, i, end, 2, rows); break;
    case 3:
      if (avx512) cresample_horizontal_outputs3_avx512(scratch, c0 + from, h, i, end, rows);
      else horizontal_outputs(scratch, c0 + from, h, i, end, 3, rows);
      break;
    default: horizontal_outputs(scratch, c0 + from, h, i, end, 4, rows); break;
    }
    i = end;
  }
}

AVX2 void cresample_vertical_avx2(const uint8_t *const *taps, const int32_t *pair_weights,
                                  int pairs, long from, long n, uint8_t *out) {
  const __m256i zero = _mm256_setzero_si256();
  long x = from;
  for (; x + 32 <= n; x += 32) {
    /* Unpacking within 128-bit halves leaves the sums for pixels 0-3 and 16-19 in acc[0],
     * 4-7 and 20-23 in acc[1], and so on; packing within halves restores the order. */
    __m256i acc[4] = {zero, zero, zero, zero};
    for (int q = 0; q < pairs; q++) {
      __m256i w = _mm256_set1_epi32(pair_weights[q]);
      __m256i a = _mm256_loadu_si256((const __m256i *)(taps[2 * q] + x));
      __m256i b = _mm256_loadu_si256((const __m256i *)(taps[2 * q + 1] + x));
      __m256i lo = _mm256_unpacklo_epi8(a, b), hi = _mm256_unpackhi_epi8(a, b);
      acc[0] = _mm256_add_epi32(acc[0], _mm256_madd_epi16(_mm256_unpacklo_epi8(lo, zero), w));
      acc[1] = _mm256_add_epi32(acc[1], _mm256_madd_epi16(_mm256_unpackhi_epi8(lo, zero), w));
      acc[2] = _mm256_add_epi32(acc[2], _mm256_madd_epi16(_mm256_unpacklo_epi8(hi, zero), w));
      acc[3] = _mm256_add_epi32(acc[3], _mm256_madd_epi16(_mm256_unpackhi_epi8(hi, zero), w));
    }
    const __m256i rounding = _mm256_set1_epi32(ROUNDING);
    for (int k = 0; k < 4; k++)
      acc[k] = _mm256_srai_epi32(_mm256_add_epi32(acc[k], rounding), PRECISION);
    __m256i words01 = _mm256_packs_epi32(acc[0], acc[1]);
    __m256i words23 = _mm256_packs_epi32(acc[2], acc[3]);
    _mm256_storeu_si256((__m256i *)(out + x), _mm256_packus_epi16(words01, words23));
  }
  for (; x < n; x++) {
    int32_t sum = 0;
    for (int q = 0; q < pairs; q++) {
      int32_t w = pair_weights[q];
      sum += (int16_t)(w & 0xffff) * (int32_t)taps[2 * q][x] +
             (int16_t)((uint32_t)w >> 16) * (int32_t)taps[2 * q + 1][x];
    }
    out[x] = clamp8(sum);
  }
}

AVX2 void cresample_halve_row_avx2(const uint8_t *top, const uint8_t *bottom, int pixels,
                                   int bands, uint8_t *out) {
  /* Each output sample is a 2x2 sum: the sample, the same band of the next pixel (`bands`
   * bytes on), and both below them. Summing a row with its copy shifted by one pixel gives
   * that sum at every byte; the samples of even pixels are then packed together: from 16
   * bytes, 8 outputs (1, 2 or 4 bands) or, for 3 bands, the 6 of the first 12 bytes. */
  static const int8_t keep[5][16] = {
      {0},
      {0, 2, 4, 6, 8, 10, 12, 14, -1, -1, -1, -1, -1, -1, -1, -1},
      {0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1},
      {0, 1, 2, 6, 7, 8, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
      {0, 1, 2, 3, 8, 9, 10, 11, -1, -1, -1, -1, -1, -1, -1, -1},
  };
  const int step = bands == 3 ? 12 : 16; /* input bytes per round */
  const long in_bytes = (long)pixels * 2 * bands, out_bytes = (long)pixels * bands;
  const __m128i mask = _mm_loadu_si128((const __m128i *)keep[bands]);
  const __m256i two = _mm256_set1_epi16(2);
  long x = 0;
  /* Reads reach x + bands + 16 bytes; the 8-byte store reaches x / 2 + 8. */
  for (; x + bands + 16 <= in_bytes && x / 2 + 8 <= out_bytes; x += step) {
    __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(top + x)));
    __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(top + x + bands)));
    __m256i c = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(bottom + x)));
    __m256i d = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(bottom + x + bands)));
    __m256i sum = _mm256_add_epi16(_mm256_add_epi16(a, b), _mm256_add_epi16(c, d));
    __m256i mean = _mm256_srli_epi16(_mm256_add_epi16(sum, two), 2);
    __m128i bytes =
        _mm_packus_epi16(_mm256_castsi256_si128(mean), _mm256_extracti128_si256(mean, 1));
    _mm_storel_epi64((__m128i *)(out + x / 2), _mm_shuffle_epi8(bytes, mask));
  }
  for (long o = x / 2; o < out_bytes; o++) { /* the rest, one sample at a time */
    long i = o / bands, band = o % bands, at = 2 * i * bands + band;
    out[o] = (uint8_t)((top[at] + top[at + bands] + bottom[at] + bottom[at + bands] + 2) >> 2);
  }
}

#endif
