/* See jpeg_order.h. */

#include "jpeg_order.h"

#include <pthread.h>

const unsigned char cjpeg_natural_order[64 + 16] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33,
    40, 48, 41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36,
    29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54,
    47, 55, 62, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63};

uint64_t cjpeg_zigzag_of_row[8][256];

static pthread_once_t zigzag_once = PTHREAD_ONCE_INIT;

static void make_zigzag_of_row(void) {
  unsigned char position[64]; /* natural -> zigzag */
  for (int k = 0; k < 64; k++) position[cjpeg_natural_order[k]] = (unsigned char)k;
  for (int row = 0; row < 8; row++)
    for (int bits = 0; bits < 256; bits++) {
      uint64_t mask = 0;
      for (int column = 0; column < 8; column++)
        if (bits & (1 << column)) mask |= (uint64_t)1 << position[8 * row + column];
      cjpeg_zigzag_of_row[row][bits] = mask;
    }
}

void cjpeg_order_prepare(void) { pthread_once(&zigzag_once, make_zigzag_of_row); }
