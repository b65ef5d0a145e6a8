/* JPEG's zigzag coefficient order, and maps of a block's nonzero coefficients in that
 * order, for the encoder's statistics pass. */
#ifndef THUMBFORGE_JPEG_ORDER_H
#define THUMBFORGE_JPEG_ORDER_H

#include <stdint.h>
#include <stdio.h>

#include <jpeglib.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Zigzag position -> natural (row-major) position, with 16 extra entries of 63 so that a
 * damaged run past the end of a band lands on the last coefficient, as in libjpeg. */
extern const unsigned char cjpeg_natural_order[64 + 16];

/* cjpeg_zigzag_of_row[r][b]: the zigzag-order bits of the positions of row r whose bits
 * are set in b, so a natural-order mask turns into a zigzag one with eight lookups. Filled
 * by cjpeg_order_prepare. */
extern uint64_t cjpeg_zigzag_of_row[8][256];

/* Fills cjpeg_zigzag_of_row, once per process (later calls return at once). */
void cjpeg_order_prepare(void);

/* Bit k of the result is set when natural position k of `block` is nonzero. */
static inline uint64_t cjpeg_nonzero_natural(const JCOEF *block) {
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  uint64_t mask = 0;
  for (int i = 0; i < 4; i++) {
    __m128i a = _mm_loadu_si128((const __m128i *)(block + 16 * i));
    __m128i b = _mm_loadu_si128((const __m128i *)(block + 16 * i + 8));
    __m128i zeros = _mm_packs_epi16(_mm_cmpeq_epi16(a, zero), _mm_cmpeq_epi16(b, zero));
    mask |= (uint64_t)(uint16_t)~_mm_movemask_epi8(zeros) << (16 * i);
  }
  return mask;
#else
  uint64_t mask = 0;
  for (int k = 0; k < 64; k++) mask |= (uint64_t)(block[k] != 0) << k;
  return mask;
#endif
}

/* Bit k of the result is set when zigzag position k of `block` is nonzero. Most
 * coefficients are zero: walking this map skips them without a branch on each. */
static inline uint64_t cjpeg_nonzero_zigzag(const JCOEF *block) {
  uint64_t natural = cjpeg_nonzero_natural(block), zigzag = 0;
  for (int row = 0; row < 8; row++)
    zigzag |= cjpeg_zigzag_of_row[row][(natural >> (8 * row)) & 0xFF];
  return zigzag;
}

#endif
