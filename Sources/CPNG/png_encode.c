#include "CPNG.h"

#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local unsigned long encodes;

unsigned long cpng_encode_count(void) { return encodes; }

/* The encoded file, grown as libpng writes it. */
typedef struct {
  uint8_t *data;
  size_t size;
  size_t capacity;
  int failed; /* out of memory: the rest is dropped and the encode fails */
} buffer;

/* Where libpng's errors go: the message, then a longjmp back to cpng_encode. */
typedef struct {
  char *error;
  size_t error_size;
} messages;

static void append(png_structp png, png_bytep data, png_size_t length) {
  buffer *b = png_get_io_ptr(png);
  if (b->failed) return;
  if (length > b->capacity - b->size) {
    size_t capacity = b->capacity ? b->capacity : 4096;
    while (capacity - b->size < length) {
      if (capacity > SIZE_MAX / 2) {
        b->failed = 1;
        return;
      }
      capacity *= 2;
    }
    uint8_t *grown = realloc(b->data, capacity);
    if (!grown) {
      b->failed = 1;
      return;
    }
    b->data = grown;
    b->capacity = capacity;
  }
  memcpy(b->data + b->size, data, length);
  b->size += length;
}

static void flush(png_structp png) { (void)png; }

static void on_error(png_structp png, png_const_charp message) {
  messages *m = png_get_error_ptr(png);
  if (m->error && m->error_size) snprintf(m->error, m->error_size, "libpng: %s", message);
  png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;
}

/* libvips' rint(res * 1000), for resolutions libvips' loaders give (0 to 1,000,000 pixels
 * per mm); 0 for anything else, which libvips would convert without a defined result. */
static png_uint_32 pixels_per_metre(double res) {
  return res >= 0 && res <= 1e6 ? (png_uint_32)rint(res * 1000) : 0;
}

static int fail(char *error, size_t error_size, const char *message) {
  if (error && error_size) snprintf(error, error_size, "%s", message);
  return -1;
}

int cpng_encode(const uint8_t *pixels, int width, int height, int bands, long stride,
                int compression, double xres, double yres, uint8_t **out, size_t *out_size,
                char *error, size_t error_size) {
  static const int colour_types[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                     PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
  if (!pixels || !out || !out_size || width < 1 || height < 1 || bands < 1 || bands > 4 ||
      stride < (long)width * bands || compression < 0 || compression > 9)
    return fail(error, error_size, "cpng_encode: bad arguments");
  messages m = {error, error_size};
  /* Heap, not locals: they change between setjmp and a longjmp back. */
  buffer *b = calloc(1, sizeof *b);
  if (!b) return fail(error, error_size, "out of memory");
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &m, on_error, on_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!info) {
    png_destroy_write_struct(&png, NULL);
    free(b);
    return fail(error, error_size, "out of memory");
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    free(b->data);
    free(b);
    return -1;
  }
  png_set_write_fn(png, b, append, flush);
  png_set_compression_level(png, compression);
  png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, colour_types[bands - 1],
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_pHYs(png, info, pixels_per_metre(xres), pixels_per_metre(yres), PNG_RESOLUTION_METER);
  png_set_filter(png, 0, PNG_FILTER_NONE);
  png_write_info(png, info);
  for (int y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(pixels + (size_t)y * stride));
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  if (b->failed) {
    free(b->data);
    free(b);
    return fail(error, error_size, "out of memory");
  }
  *out = b->data;
  *out_size = b->size;
  free(b);
  encodes++;
  return 0;
}
