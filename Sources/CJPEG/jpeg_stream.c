/* See CJPEG.h. libjpeg reports errors by calling error_exit, which must not return: it
 * jumps back to the setjmp of whichever call was running. */

#include "CJPEG.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

typedef struct {
  struct jpeg_error_mgr base;
  jmp_buf escape;
  int strict;
  char message[JMSG_LENGTH_MAX];
} error_manager;

struct cjpeg_stream {
  struct jpeg_decompress_struct info;
  error_manager errors;
  FILE *file;
  int started;
};

static void fail(j_common_ptr info) {
  error_manager *errors = (error_manager *)info->err;
  errors->base.format_message(info, errors->message);
  longjmp(errors->escape, 1);
}

static void note(j_common_ptr info, int level) {
  error_manager *errors = (error_manager *)info->err;
  if (level < 0) { /* a warning: corrupt data the decoder worked around */
    if (errors->strict) fail(info);
    errors->base.num_warnings++;
  }
}

static void report(const cjpeg_stream *s, char *error, size_t error_size) {
  if (error && error_size) snprintf(error, error_size, "%s", s->errors.message);
}

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
  s->info.err = jpeg_std_error(&s->errors.base);
  s->errors.base.error_exit = fail;
  s->errors.base.emit_message = note;
  s->errors.strict = strict;
  if (setjmp(s->errors.escape)) {
    report(s, error, error_size);
    cjpeg_close(s);
    return NULL;
  }
  jpeg_create_decompress(&s->info);
  s->file = fopen(path, "rb");
  if (!s->file) {
    snprintf(s->errors.message, sizeof s->errors.message, "cannot open the file");
    longjmp(s->errors.escape, 1);
  }
  jpeg_stdio_src(&s->info, s->file);
  jpeg_read_header(&s->info, TRUE);
  switch (s->info.jpeg_color_space) {
  case JCS_GRAYSCALE: s->info.out_color_space = JCS_GRAYSCALE; break;
  case JCS_YCbCr:
  case JCS_RGB: s->info.out_color_space = JCS_RGB; break;
  default:
    snprintf(s->errors.message, sizeof s->errors.message, "not a YCbCr, RGB or grey JPEG");
    longjmp(s->errors.escape, 1);
  }
  s->info.scale_num = 1;
  s->info.scale_denom = (unsigned)shrink;
  s->info.dct_method = JDCT_ISLOW;
  s->info.do_fancy_upsampling = TRUE;
  jpeg_start_decompress(&s->info);
  s->started = 1;
  return s;
}

int cjpeg_width(const cjpeg_stream *s) { return (int)s->info.output_width; }
int cjpeg_height(const cjpeg_stream *s) { return (int)s->info.output_height; }
int cjpeg_bands(const cjpeg_stream *s) { return s->info.output_components; }

int cjpeg_read(cjpeg_stream *s, uint8_t *rows, long stride, int count, char *error,
               size_t error_size) {
  if (setjmp(s->errors.escape)) {
    report(s, error, error_size);
    return -1;
  }
  int done = 0;
  while (done < count) {
    if (s->info.output_scanline >= s->info.output_height) {
      snprintf(s->errors.message, sizeof s->errors.message, "read past the last row");
      longjmp(s->errors.escape, 1);
    }
    JSAMPROW targets[16];
    int batch = count - done < 16 ? count - done : 16;
    for (int i = 0; i < batch; i++) targets[i] = rows + (long)(done + i) * stride;
    done += (int)jpeg_read_scanlines(&s->info, targets, (JDIMENSION)batch);
  }
  return 0;
}
