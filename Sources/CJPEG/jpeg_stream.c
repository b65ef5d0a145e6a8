/* See CJPEG.h: a JPEG file decoded strip by strip. */

#include "CJPEG.h"

#include <stdlib.h>

#include "jpeg_errors.h"
#include "jpeg_progressive.h"

struct cjpeg_stream {
  struct jpeg_decompress_struct info;
  cjpeg_errors errors;
  FILE *file;
  cjpeg_progressive progressive;
};

void cjpeg_close(cjpeg_stream *s) {
  if (!s) return;
  jpeg_destroy_decompress(&s->info);
  if (s->file) fclose(s->file);
  free(s);
}

cjpeg_stream *cjpeg_open(const char *path, int shrink, int strict, char *error,
                         size_t error_size) {
  if (shrink != 1 && shrink != 2 && shrink != 4 && shrink != 8) shrink = 1;
  cjpeg_stream *s = calloc(1, sizeof(cjpeg_stream));
  if (!s) return NULL;
  s->info.err = cjpeg_errors_init(&s->errors, strict);
  if (setjmp(s->errors.escape)) {
    cjpeg_errors_report(&s->errors, error, error_size);
    cjpeg_close(s);
    return NULL;
  }
  jpeg_create_decompress(&s->info);
  s->file = fopen(path, "rb");
  if (!s->file) cjpeg_errors_fail(&s->errors, "cannot open the file");
  jpeg_stdio_src(&s->info, s->file);
  jpeg_read_header(&s->info, TRUE);
  switch (s->info.jpeg_color_space) {
  case JCS_GRAYSCALE: s->info.out_color_space = JCS_GRAYSCALE; break;
  case JCS_YCbCr:
  case JCS_RGB: s->info.out_color_space = JCS_RGB; break;
  default: cjpeg_errors_fail(&s->errors, "not a YCbCr, RGB or grey JPEG");
  }
  s->info.scale_num = 1;
  s->info.scale_denom = (unsigned)shrink;
  s->info.dct_method = JDCT_ISLOW;
  s->info.do_fancy_upsampling = TRUE;
  cjpeg_progressive_prepare(&s->info, &s->progressive);
  jpeg_start_decompress(&s->info);
  return s;
}

int cjpeg_width(const cjpeg_stream *s) { return (int)s->info.output_width; }
int cjpeg_height(const cjpeg_stream *s) { return (int)s->info.output_height; }
int cjpeg_bands(const cjpeg_stream *s) { return s->info.output_components; }

int cjpeg_read(cjpeg_stream *s, uint8_t *rows, long stride, int count, char *error,
               size_t error_size) {
  if (setjmp(s->errors.escape)) {
    cjpeg_errors_report(&s->errors, error, error_size);
    return -1;
  }
  int done = 0;
  while (done < count) {
    if (s->info.output_scanline >= s->info.output_height)
      cjpeg_errors_fail(&s->errors, "read past the last row");
    JSAMPROW targets[16];
    int batch = count - done < 16 ? count - done : 16;
    for (int i = 0; i < batch; i++) targets[i] = rows + (long)(done + i) * stride;
    done += (int)jpeg_read_scanlines(&s->info, targets, (JDIMENSION)batch);
  }
  return 0;
}
