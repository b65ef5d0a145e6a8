/* AVX-512 versions of the passes, used when the CPU has AVX-512 with VNNI and VBMI (AMD
 * Zen 4 and later, Intel Ice Lake and later servers); see resample.c. The vertical pass
 * serves every image; the interleaving, the column pairing and the horizontal outputs are
 * for three-band images (RGB, every photo), the rest keeping the AVX2 ones.
 *
 * The AVX2 horizontal pass spends most of its instructions on each output pixel's 24 sums (8 rows x 3
 * bands) after they are made: packing them to bytes and storing three bytes into each of
 * eight rows. This one makes two neighbouring output pixels at once, in three 512-bit
 * accumulators, multiply-adds with VNNI (vpdpwssd: the pair products and the sum in one
 * instruction), and puts both pixels' bytes of each row side by side with one byte
 * permutation (VBMI), so each row takes one 8-byte store for two pixels. The sums are the
 * same exact integers as the other passes', so the bytes are the same. */

#include "resample_internal.h"

#ifdef CRESAMPLE_HAVE_AVX512_PASSES

#include <immintrin.h>
#include <string.h>

#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,avx512vbmi")))

/* Byte k of row r's 8-byte slot (r * 8 + k) comes from: output i's bytes r*3 .. r*3+2
 * (k = 0..2), then output i+1's (k = 3..5), then anything (k = 6, 7: overwritten by the
 * next pair). The source vector holds output i's lanes 0-15 at bytes 0-15, output i+1's
 * lanes 0-15 at 16-31, output i's lanes 16-23 at 32-39 and output i+1's at 40-47. */
static const uint8_t slot_index[64] = {
    0,  1,  2,  16, 17, 18, 18, 18, 3,  4,  5,  19, 20, 21, 21, 21,
    6,  7,  8,  22, 23, 24, 24, 24, 9,  10, 11, 25, 26, 27, 27, 27,
    12, 13, 14, 28, 29, 30, 30, 30, 15, 32, 33, 31, 40, 41, 41, 41,
    34, 35, 36, 42, 43, 44, 44, 44, 37, 38, 39, 45, 46, 47, 47, 47,
};

AVX512 static inline __m128i lanes_to_bytes(__m512i acc) {
  __m512i v = _mm512_srai_epi32(acc, PRECISION);
  return _mm512_cvtusepi32_epi8(_mm512_max_epi32(v, _mm512_setzero_si512()));
}

AVX512 static void pairs_of_outputs(const int16_t *paired, int first_column, const axis *h,
                                    int i0, int i1, uint8_t *const *out) {
  uint8_t *rows[BLOCK_ROWS];
  for (int r = 0; r < BLOCK_ROWS; r++) rows[r] = out[r];
  const int *start = h->start;
  const int32_t *weights = h->pair_weights;
  const int pairs = h->pairs;
  const int column = 16 * 3; /* int16 samples per paired column: 24 lanes x 2 */
  const __m512i rounding = _mm512_set1_epi32(ROUNDING);
  const __m512i permutation = _mm512_loadu_si512(slot_index);
  int i = i0;
  /* Two outputs at a time while a later output exists to overwrite each store's two spare
   * bytes: the row's last pixel is never written that way. */
  for (; i + 2 < i1 || (i + 2 == i1 && i + 2 < h->count); i += 2) {
    const int16_t *p = paired + (size_t)(start[i] - first_column) * column;
    const int16_t *s = paired + (size_t)(start[i + 1] - first_column) * column;
    const int32_t *w = weights + (size_t)i * pairs;
    __m512i a = rounding, b = rounding, c = rounding;
    for (int q = 0; q < pairs; q++, p += 2 * column, s += 2 * column) {
      __m512i wa = _mm512_set1_epi32(w[q]);
      __m512i wb = _mm512_set1_epi32(w[q + pairs]);
      a = _mm512_dpwssd_epi32(a, _mm512_loadu_si512(p), wa);
      b = _mm512_dpwssd_epi32(b, _mm512_loadu_si512(s), wb);
      __m512i tails = _mm512_inserti64x4(
          _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(p + 32))),
          _mm256_loadu_si256((const __m256i *)(s + 32)), 1);
      c = _mm512_dpwssd_epi32(c, tails, _mm512_mask_blend_epi32(0xff00, wa, wb));
    }
    __m512i bytes = _mm512_castsi128_si512(lanes_to_bytes(a));
    bytes = _mm512_inserti32x4(bytes, lanes_to_bytes(b), 1);
    bytes = _mm512_inserti32x4(bytes, lanes_to_bytes(c), 2);
    __m512i slots = _mm512_permutexvar_epi8(permutation, bytes);
    size_t at = (size_t)i * 3;
    __m128i s01 = _mm512_castsi512_si128(slots);
    __m128i s23 = _mm512_extracti32x4_epi32(slots, 1);
    __m128i s45 = _mm512_extracti32x4_epi32(slots, 2);
    __m128i s67 = _mm512_extracti32x4_epi32(slots, 3);
    _mm_storel_epi64((__m128i *)(rows[0] + at), s01);
    _mm_storeh_pi((__m64 *)(rows[1] + at), _mm_castsi128_ps(s01));
    _mm_storel_epi64((__m128i *)(rows[2] + at), s23);
    _mm_storeh_pi((__m64 *)(rows[3] + at), _mm_castsi128_ps(s23));
    _mm_storel_epi64((__m128i *)(rows[4] + at), s45);
    _mm_storeh_pi((__m64 *)(rows[5] + at), _mm_castsi128_ps(s45));
    _mm_storel_epi64((__m128i *)(rows[6] + at), s67);
    _mm_storeh_pi((__m64 *)(rows[7] + at), _mm_castsi128_ps(s67));
  }
  /* The rest (at most two outputs, the row's last among them) one at a time, exactly. */
  if (i < i1) cresample_horizontal_outputs3_avx2(paired, first_column, h, i, i1, out);
}

/* For pairing a three-band column with the next: int16 sample e of the paired column (lane
 * e / 2, column e % 2) is byte (e % 2) * 24 + e / 2 of the two columns, its high byte zero
 * (zero-masked). Lanes 0-15 make the first 64 bytes, lanes 16-23 the next 32. */
static const uint8_t pair_low[64] = {
    0,  0, 24, 0, 1,  0, 25, 0, 2,  0, 26, 0, 3,  0, 27, 0, 4,  0, 28, 0, 5,  0,
    29, 0, 6,  0, 30, 0, 7, 0, 31, 0, 8,  0, 32, 0, 9,  0, 33, 0, 10, 0, 34, 0,
    11, 0, 35, 0, 12, 0, 36, 0, 13, 0, 37, 0, 14, 0, 38, 0, 15, 0, 39, 0,
};
static const uint8_t pair_high[64] = {
    16, 0, 40, 0, 17, 0, 41, 0, 18, 0, 42, 0, 19, 0, 43, 0, 20, 0, 44, 0, 21, 0,
    45, 0, 22, 0, 46, 0, 23, 0, 47, 0,
};

AVX512 void cresample_pair_columns3_avx512(const uint8_t *block, int from, int to,
                                           int16_t *out) {
  const __m512i low = _mm512_loadu_si512(pair_low), high = _mm512_loadu_si512(pair_high);
  const __mmask64 even = 0x5555555555555555ull, columns = (1ull << 48) - 1;
  for (int c = from; c < to; c++) {
    /* Column c and the next: 48 bytes of a 64-byte read, which stays within the block
     * (its spare column included) but for the last column, read masked. */
    __m512i two = c + 1 < to ? _mm512_loadu_si512(block + (size_t)c * 24)
                             : _mm512_maskz_loadu_epi8(columns, block + (size_t)c * 24);
    int16_t *o = out + (size_t)(c - from) * 48;
    _mm512_storeu_si512(o, _mm512_maskz_permutexvar_epi8(even, low, two));
    _mm256_storeu_si256((__m256i *)(o + 32),
                        _mm512_castsi512_si256(_mm512_maskz_permutexvar_epi8(even, high, two)));
  }
}

AVX512 void cresample_vertical_avx512(const uint8_t *const *taps, const int32_t *pair_weights,
                                      int pairs, long n, uint8_t *out) {
  const __m512i zero = _mm512_setzero_si512(), rounding = _mm512_set1_epi32(ROUNDING);
  long x = 0;
  for (; x + 64 <= n; x += 64) {
    /* As the AVX2 pass: unpacking within 128-bit lanes, then packing within them, keeps
     * the pixels in order. */
    __m512i acc[4] = {rounding, rounding, rounding, rounding};
    for (int q = 0; q < pairs; q++) {
      __m512i w = _mm512_set1_epi32(pair_weights[q]);
      __m512i a = _mm512_loadu_si512(taps[2 * q] + x);
      __m512i b = _mm512_loadu_si512(taps[2 * q + 1] + x);
      __m512i lo = _mm512_unpacklo_epi8(a, b), hi = _mm512_unpackhi_epi8(a, b);
      acc[0] = _mm512_dpwssd_epi32(acc[0], _mm512_unpacklo_epi8(lo, zero), w);
      acc[1] = _mm512_dpwssd_epi32(acc[1], _mm512_unpackhi_epi8(lo, zero), w);
      acc[2] = _mm512_dpwssd_epi32(acc[2], _mm512_unpacklo_epi8(hi, zero), w);
      acc[3] = _mm512_dpwssd_epi32(acc[3], _mm512_unpackhi_epi8(hi, zero), w);
    }
    for (int k = 0; k < 4; k++) acc[k] = _mm512_srai_epi32(acc[k], PRECISION);
    __m512i words01 = _mm512_packs_epi32(acc[0], acc[1]);
    __m512i words23 = _mm512_packs_epi32(acc[2], acc[3]);
    _mm512_storeu_si512(out + x, _mm512_packus_epi16(words01, words23));
  }
  if (x < n) cresample_vertical_avx2(taps, pair_weights, pairs, x, n, out); /* the last 1-63 */
}

/* Interleaving three-band rows: 16 pixels (48 bytes) of a row widened to 16 dwords (the
 * fourth byte a copy, dropped again below), and two 8-row columns of such dwords (64 bytes)
 * narrowed to two 24-byte block columns at bytes 0-23 and 32-55. */
static const uint8_t widen_index[64] = {
    0,  1,  2,  2,  3,  4,  5,  5,  6,  7,  8,  8,  9,  10, 11, 11, 12, 13, 14, 14, 15, 16,
    17, 17, 18, 19, 20, 20, 21, 22, 23, 23, 24, 25, 26, 26, 27, 28, 29, 29, 30, 31, 32, 32,
    33, 34, 35, 35, 36, 37, 38, 38, 39, 40, 41, 41, 42, 43, 44, 44, 45, 46, 47, 47,
};
static const uint8_t narrow_index[64] = {
    0,  1,  2,  4,  5,  6,  8,  9,  10, 12, 13, 14, 16, 17, 18, 20, 21, 22, 24, 25, 26, 28,
    29, 30, 0,  0,  0,  0,  0,  0,  0,  0,  32, 33, 34, 36, 37, 38, 40, 41, 42, 44, 45, 46,
    48, 49, 50, 52, 53, 54, 56, 57, 58, 60, 61, 62, 0,  0,  0,  0,  0,  0,  0,  0,
};

AVX512 int cresample_interleave3_avx512(uint8_t *block, const uint8_t *const *rows, int n) {
  const __m512i widen = _mm512_loadu_si512(widen_index);
  const __m512i narrow = _mm512_loadu_si512(narrow_index);
  const __m512i low = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
  const __m512i high = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
  int c = 0;
  /* Each column is stored as 32 bytes, its last 8 overwritten by the next column: so the
   * columns go in order, and the last one written here has a successor the caller writes.
   * Each row is read 64 bytes at a time (masked loads cost twice as much on AMD Zen 5), so
   * only while those stay within the `n` pixels wanted. */
  for (; c + 22 <= n; c += 16) {
    __m512i r[BLOCK_ROWS];
    for (int k = 0; k < BLOCK_ROWS; k++)
      r[k] = _mm512_permutexvar_epi8(widen, _mm512_loadu_si512(rows[k] + (size_t)c * 3));
    /* A transpose of 8 x 16 dwords: within each 128-bit lane, pairs of rows, then quads
     * (u: rows 0-3, v: rows 4-7, of pixel 4 x lane + m); then the lanes paired up, which
     * puts pixels m and 4 + m in `near[m]`, 8 + m and 12 + m in `far[m]`. */
    __m512i t[8];
    for (int k = 0; k < 4; k++) {
      t[2 * k] = _mm512_unpacklo_epi32(r[2 * k], r[2 * k + 1]);
      t[2 * k + 1] = _mm512_unpackhi_epi32(r[2 * k], r[2 * k + 1]);
    }
    __m512i u[4] = {_mm512_unpacklo_epi64(t[0], t[2]), _mm512_unpackhi_epi64(t[0], t[2]),
                    _mm512_unpacklo_epi64(t[1], t[3]), _mm512_unpackhi_epi64(t[1], t[3])};
    __m512i v[4] = {_mm512_unpacklo_epi64(t[4], t[6]), _mm512_unpackhi_epi64(t[4], t[6]),
                    _mm512_unpacklo_epi64(t[5], t[7]), _mm512_unpackhi_epi64(t[5], t[7])};
    __m256i column[16];
    for (int m = 0; m < 4; m++) {
      __m512i near = _mm512_permutexvar_epi8(narrow, _mm512_permutex2var_epi64(u[m], low, v[m]));
      __m512i far = _mm512_permutexvar_epi8(narrow, _mm512_permutex2var_epi64(u[m], high, v[m]));
      column[m] = _mm512_castsi512_si256(near);
      column[4 + m] = _mm512_extracti64x4_epi64(near, 1);
      column[8 + m] = _mm512_castsi512_si256(far);
      column[12 + m] = _mm512_extracti64x4_epi64(far, 1);
    }
    for (int k = 0; k < 16; k++)
      _mm256_storeu_si256((__m256i *)(block + (size_t)(c + k) * 24), column[k]);
  }
  return c;
}

int cresample_avx512_passes_available(void) {
  /* Also only where the AVX2 passes run: the AVX-512 ones finish rows with them. */
  return cresample_vector_passes_available() && __builtin_cpu_supports("avx512f") &&
         __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni") &&
         __builtin_cpu_supports("avx512vbmi");
}

AVX512 void cresample_horizontal_outputs3_avx512(const int16_t *paired, int first_column,
                                                 const axis *h, int i0, int i1,
                                                 uint8_t *const *rows) {
  pairs_of_outputs(paired, first_column, h, i0, i1, rows);
}

#endif
