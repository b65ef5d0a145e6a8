/* See CJPEG.h: JPEG encoding of pixels already in memory. */

#include "CJPEG.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "jpeg_errors.h"
#include "jpeg_huffman.h"

/* Per thread, so a test comparing the two ways runs beside other encodes undisturbed. */
static _Thread_local int fast_statistics_refused = 0;
static _Thread_local int statistics_check_failed = 0;
static _Thread_local unsigned long fast_statistics_passes = 0;

void cjpeg_allow_fast_statistics(int allowed) { fast_statistics_refused = !allowed; }
void cjpeg_fail_statistics_check(int fail) { statistics_check_failed = fail != 0; }
unsigned long cjpeg_fast_statistics_passes(void) { return fast_statistics_passes; }

/* Encodes as cjpeg_encode, with ThumbForge's statistics pass when `own_statistics` (where
 * the image is a case it handles) or libjpeg's. */
static int encode(const uint8_t *pixels, int width, int height, int bands, long stride,
                  int quality, int optimize_coding, int progressive, int own_statistics,
                  uint8_t **out, size_t *out_size, char *error, size_t error_size);

/* The run-time half of the check (see CJPEG.h): the library's identity, then one encode
 * each way of a small image with flat areas, gradients and noise, in colour at quality 75
 * (4:2:0) and in grey at 95, all of which must give the same bytes. */
static int runtime_check_passed = 0;
static pthread_once_t runtime_check_once = PTHREAD_ONCE_INIT;

static int same_bytes_both_ways(const uint8_t *pixels, int width, int height, int bands,
                                int quality) {
  uint8_t *own = NULL, *theirs = NULL;
  size_t own_size = 0, their_size = 0;
  int same = encode(pixels, width, height, bands, (long)width * bands, quality, 1, 0, 1, &own,
                    &own_size, NULL, 0) == 0 &&
             encode(pixels, width, height, bands, (long)width * bands, quality, 1, 0, 0,
                    &theirs, &their_size, NULL, 0) == 0 &&
             own_size == their_size && memcmp(own, theirs, own_size) == 0;
  free(own);
  free(theirs);
  return same;
}

static void run_runtime_check(void) {
  if (!cjpeg_statistics_library_matches()) return;
  unsigned long passes = fast_statistics_passes; /* the check's own passes do not count */
  enum { width = 61, height = 37 };
  static uint8_t pixels[width * height * 3];
  uint32_t seed = 12345;
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      for (int c = 0; c < 3; c++) {
        seed = seed * 1103515245u + 12345u;
        uint8_t noise = (uint8_t)(seed >> 24);
        uint8_t value = x < 20 ? (uint8_t)(40 * c) : x < 40 ? (uint8_t)(4 * x + 3 * y) : noise;
        pixels[(y * width + x) * 3 + c] = value;
      }
  runtime_check_passed = same_bytes_both_ways(pixels, width, height, 3, 75) &&
                         same_bytes_both_ways(pixels, width * 3, height, 1, 95);
  fast_statistics_passes = passes;
}

int cjpeg_fast_statistics_supported(void) {
  if (!CJPEG_OWN_STATISTICS || statistics_check_failed) return 0;
  pthread_once(&runtime_check_once, run_runtime_check);
  return runtime_check_passed;
}

int cjpeg_encode(const uint8_t *pixels, int width, int height, int bands, long stride,
                 int quality, int optimize_coding, int progressive, uint8_t **out,
                 size_t *out_size, char *error, size_t error_size) {
  int own = optimize_coding && !fast_statistics_refused && cjpeg_fast_statistics_supported();
  return encode(pixels, width, height, bands, stride, quality, optimize_coding, progressive,
                own, out, out_size, error, error_size);
}

static int encode(const uint8_t *pixels, int width, int height, int bands, long stride,
                  int quality, int optimize_coding, int progressive, int own_statistics,
                  uint8_t **out, size_t *out_size, char *error, size_t error_size) {
  struct jpeg_compress_struct info;
  cjpeg_errors errors;
  /* Written by libjpeg as it grows; volatile so its value survives the longjmp. */
  unsigned char *volatile buffer = NULL;
  unsigned long size = 0;
  *out = NULL;
  *out_size = 0;
  if (bands != 1 && bands != 3) {
    if (error && error_size) snprintf(error, error_size, "%d bands cannot be JPEG", bands);
    return -1;
  }
  /* libjpeg refuses sizes of 0 and over 65500 itself; the rows must be readable. */
  if (!pixels || width < 0 || height < 0 || stride < (long)width * bands) {
    if (error && error_size) snprintf(error, error_size, "bad image arguments");
    return -1;
  }
  info.err = cjpeg_errors_init(&errors, 0);
  if (setjmp(errors.escape)) {
    cjpeg_errors_report(&errors, error, error_size);
    jpeg_destroy_compress(&info);
    free(buffer);
    return -1;
  }
  jpeg_create_compress(&info);
  jpeg_mem_dest(&info, (unsigned char **)&buffer, &size);
  info.image_width = (JDIMENSION)width;
  info.image_height = (JDIMENSION)height;
  info.input_components = bands;
  info.in_color_space = bands == 3 ? JCS_RGB : JCS_GRAYSCALE;
  jpeg_set_defaults(&info);
  jpeg_set_quality(&info, quality, TRUE);
  info.optimize_coding = optimize_coding ? TRUE : FALSE;
  if (progressive) jpeg_simple_progression(&info);
  /* libvips' default: full-resolution chroma from quality 90 up, 4:2:0 below. */
  if (bands == 3 && quality >= 90)
    for (int c = 0; c < info.num_components; c++)
      info.comp_info[c].h_samp_factor = info.comp_info[c].v_samp_factor = 1;
  info.density_unit = 1; /* 72 dpi, as libvips writes for images without a resolution */
  info.X_density = 72;
  info.Y_density = 72;
  jpeg_start_compress(&info, TRUE);
  cjpeg_statistics statistics;
  if (own_statistics && cjpeg_statistics_take_over(&info, &statistics))
    fast_statistics_passes++;
  while (info.next_scanline < info.image_height) {
    JSAMPROW rows[16];
    int count = 0;
    for (; count < 16 && info.next_scanline + count < info.image_height; count++)
      rows[count] = (JSAMPROW)(pixels + (long)(info.next_scanline + count) * stride);
    jpeg_write_scanlines(&info, rows, (JDIMENSION)count);
  }
  jpeg_finish_compress(&info);
  jpeg_destroy_compress(&info);
  *out = buffer;
  *out_size = size;
  return 0;
}
