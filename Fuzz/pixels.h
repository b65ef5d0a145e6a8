/* Shared by the encoder fuzz targets: the input's bytes after the header made into `total`
 * 8-bit samples of a `width`-pixel-wide image of `bands` bands, in one of four patterns
 * (`mode` 0-3): the bytes cycled as they are; runs (byte k repeated 1 + (k & 15) times);
 * a gradient with the bytes as noise; mostly flat, with a byte every 97 samples. Without
 * bytes the image is flat grey. */
#ifndef THUMBFORGE_FUZZ_PIXELS_H
#define THUMBFORGE_FUZZ_PIXELS_H

#include <stddef.h>
#include <stdint.h>

static inline void fuzz_fill_pixels(uint8_t *pixels, size_t total, int width, int bands,
                                    int mode, const uint8_t *bytes, size_t count) {
  size_t at = 0;
  for (size_t i = 0; i < total; i++) {
    uint8_t byte = count ? bytes[at % count] : 128;
    switch (mode) {
    case 0: pixels[i] = byte; at++; break;
    case 1:
      pixels[i] = byte;
      if (count == 0 || i % (1 + (bytes[at % count] & 15)) == 0) at++;
      break;
    case 2: {
      size_t pixel = i / bands, x = pixel % width, y = pixel / width;
      pixels[i] = (uint8_t)(x * 3 + y * 5 + (i % bands) * 60 + (byte & 31));
      at++;
      break;
    }
    default:
      pixels[i] = i % 97 == 0 ? byte : 100;
      if (i % 97 == 0) at++;
      break;
    }
  }
}

#endif
