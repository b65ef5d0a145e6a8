/* libFuzzer target: CPNG's encoder (Sources/CPNG/png_encode.c) against the reference it
 * replaces, libvips' pngsave with strip: the files must be byte-identical, or the target
 * aborts.
 *
 * Bytes 0-5 choose the image: width 1-256 (bytes 0-1), height 1-64 (byte 2), bands 1-4
 * (byte 3, bits 0-1), zlib level 0-9 (byte 4), and in byte 5 how the remaining bytes
 * become pixels (bits 0-1: cycled as they are, runs, a gradient with the bytes as noise,
 * mostly flat) and the resolution (bits 2-4: x and y pixels per mm from a table of eight
 * values, libvips' default of 1 among them).
 * Without more bytes the image is flat grey. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vips/vips.h>

#include "../pixels.h"
#include "CPNG.h"

static uint8_t *reference(const uint8_t *pixels, int width, int height, int bands,
                          int compression, double xres, double yres, size_t *size) {
  VipsImage *image = vips_image_new_from_memory(pixels, (size_t)width * height * bands, width,
                                                height, bands, VIPS_FORMAT_UCHAR);
  if (!image) abort();
  VipsImage *typed = NULL;
  if (vips_copy(image, &typed, "interpretation",
                bands >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W, "xres", xres,
                "yres", yres, NULL))
    abort();
  void *out = NULL;
  if (vips_pngsave_buffer(typed, &out, size, "compression", compression, "strip", TRUE,
                          NULL)) {
    fprintf(stderr, "pngsave: %s\n", vips_error_buffer());
    abort();
  }
  g_object_unref(typed);
  g_object_unref(image);
  return out;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  if (VIPS_INIT((*argv)[0])) abort();
  vips_concurrency_set(1);
  vips_cache_set_max(0);
  /* libvips' one-time allocations (types, thread state) before any input is checked for
   * leaks. */
  uint8_t grey[4] = {128, 128, 128, 128};
  size_t size = 0;
  g_free(reference(grey, 1, 1, 4, 6, 1, 1, &size));
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const double resolutions[] = {1, 2.835, 0, 0.5, 11.811, 100, 0.0004, 1e6};
  if (size < 6) return 0;
  int width = 1 + ((data[0] | data[1] << 8) % 256);
  int height = 1 + data[2] % 64;
  int bands = 1 + (data[3] & 3);
  int compression = data[4] % 10;
  int mode = data[5] & 3;
  double xres = resolutions[(data[5] >> 2) & 7];
  double yres = resolutions[((data[5] >> 2) + 3) & 7];
  const uint8_t *bytes = data + 6;
  size_t count = size - 6;
  size_t total = (size_t)width * height * bands;
  uint8_t *pixels = malloc(total);
  if (!pixels) abort();
  fuzz_fill_pixels(pixels, total, width, bands, mode, bytes, count);
  uint8_t *own = NULL;
  size_t own_size = 0, vips_size = 0;
  char error[256];
  if (cpng_encode(pixels, width, height, bands, (long)width * bands, compression, xres, yres,
                  &own, &own_size, error, sizeof error) != 0) {
    fprintf(stderr, "cpng_encode: %s\n", error);
    abort();
  }
  uint8_t *libvips =
      reference(pixels, width, height, bands, compression, xres, yres, &vips_size);
  if (own_size != vips_size || memcmp(own, libvips, own_size) != 0) {
    fprintf(stderr, "%dx%d, %d bands, level %d, res %g/%g: own %zu bytes, pngsave %zu bytes\n",
            width, height, bands, compression, xres, yres, own_size, vips_size);
    abort();
  }
  free(own);
  g_free(libvips);
  free(pixels);
  return 0;
}
