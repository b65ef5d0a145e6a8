/* See CJPEG.h: JPEG encoding of pixels already in memory. */

#include "CJPEG.h"

#include <stdlib.h>

#include "jpeg_errors.h"
#include "jpeg_huffman.h"

int cjpeg_encode(const uint8_t *pixels, int width, int height, int bands, long stride,
                 int quality, int optimize_coding, int progressive, uint8_t **out,
                 size_t *out_size, char *error, size_t error_size) {
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
  cjpeg_statistics_take_over(&info, &statistics);
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
