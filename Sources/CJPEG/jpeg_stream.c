/* See CJPEG.h: a JPEG file decoded strip by strip. */

#include "CJPEG.h"

#include <limits.h>
#include <stdlib.h>

#include "jpeg_errors.h"

struct cjpeg_stream {
  struct jpeg_decompress_struct info;
  cjpeg_errors errors;
  FILE *file;
};

void cjpeg_close(cjpeg_stream *s) {
  if (!s) return;
  jpeg_destroy_decompress(&s->info);
  if (s->file) fclose(s->file);
  free(s);
}

/* The most memory libjpeg may take for an image of this header, decoded as set up: a
 * whole-image coefficient buffer (progressive and multi-scan files: 2 bytes per
 * coefficient of every component, blocks padded to whole MCUs) plus its working buffers
 * (strips of a few MCU rows, tables), for which 16 MB per 10 000 columns and 16 MB more
 * are plenty. libjpeg-turbo's memory manager honours `max_memory_to_use` for its large
 * "virtual arrays" (the coefficient buffer): one that does not fit ends the decode with
 * libjpeg's "Backing store not supported" instead of being allocated. */
static uint64_t memory_bound(const struct jpeg_decompress_struct *info) {
  uint64_t mcu_width = 8 * (uint64_t)info->max_h_samp_factor;
  uint64_t mcu_height = 8 * (uint64_t)info->max_v_samp_factor;
  uint64_t width = (info->image_width + mcu_width - 1) / mcu_width * mcu_width;
  uint64_t height = (info->image_height + mcu_height - 1) / mcu_height * mcu_height;
  uint64_t coefficients = width * height * (uint64_t)info->num_components * 2;
  return coefficients + ((uint64_t)info->image_width / 10000 + 2) * (16u << 20);
}

/* The part of opening shared by files and memory: `s->info` has its source. */
static void open_source(cjpeg_stream *s, int shrink, uint64_t max_pixels) {
  jpeg_read_header(&s->info, TRUE);
  uint64_t pixels = (uint64_t)s->info.image_width * s->info.image_height;
  if (max_pixels && pixels > max_pixels) {
    char message[160];
    snprintf(message, sizeof message,
             "image is %ux%u (%llu pixels), over the limit of %llu pixels (limit-input-pixels)",
             (unsigned)s->info.image_width, (unsigned)s->info.image_height,
             (unsigned long long)pixels, (unsigned long long)max_pixels);
    s->errors.status = CJPEG_TOO_LARGE;
    cjpeg_errors_fail(&s->errors, message);
  }
  switch (s->info.jpeg_color_space) {
  case JCS_GRAYSCALE: s->info.out_color_space = JCS_GRAYSCALE; break;
  case JCS_YCbCr:
  case JCS_RGB: s->info.out_color_space = JCS_RGB; break;
  default:
    s->errors.status = CJPEG_UNSUPPORTED;
    cjpeg_errors_fail(&s->errors, "not a YCbCr, RGB or grey JPEG");
  }
  if (shrink != 1 && shrink != 2 && shrink != 4 && shrink != 8) shrink = 1;
  s->info.scale_num = 1;
  s->info.scale_denom = (unsigned)shrink;
  s->info.dct_method = JDCT_ISLOW;
  s->info.do_fancy_upsampling = TRUE;
  uint64_t bound = memory_bound(&s->info);
  s->info.mem->max_memory_to_use = bound > (uint64_t)LONG_MAX ? LONG_MAX : (long)bound;
  jpeg_start_decompress(&s->info);
}

static cjpeg_stream *open_stream(int strict, cjpeg_status *status) {
  cjpeg_stream *s = calloc(1, sizeof(cjpeg_stream));
  if (!s) {
    if (status) *status = CJPEG_FAILED;
    return NULL;
  }
  s->info.err = cjpeg_errors_init(&s->errors, strict);
  s->errors.status = CJPEG_FAILED;
  return s;
}

cjpeg_stream *cjpeg_open(const char *path, int shrink, int strict, uint64_t max_pixels,
                         cjpeg_status *status, char *error, size_t error_size) {
  if (status) *status = CJPEG_FAILED;
  cjpeg_stream *s = open_stream(strict, status);
  if (!s) return NULL;
  if (setjmp(s->errors.escape)) {
    if (status) *status = s->errors.status;
    cjpeg_errors_report(&s->errors, error, error_size);
    cjpeg_close(s);
    return NULL;
  }
  jpeg_create_decompress(&s->info);
  s->file = path ? fopen(path, "rb") : NULL;
  if (!s->file) cjpeg_errors_fail(&s->errors, "cannot open the file");
  jpeg_stdio_src(&s->info, s->file);
  open_source(s, shrink, max_pixels);
  if (status) *status = CJPEG_OK;
  return s;
}

cjpeg_stream *cjpeg_open_memory(const uint8_t *data, size_t size, int shrink, int strict,
                                uint64_t max_pixels, cjpeg_status *status, char *error,
                                size_t error_size) {
  if (status) *status = CJPEG_FAILED;
  cjpeg_stream *s = open_stream(strict, status);
  if (!s) return NULL;
  if (setjmp(s->errors.escape)) {
    if (status) *status = s->errors.status;
    cjpeg_errors_report(&s->errors, error, error_size);
    cjpeg_close(s);
    return NULL;
  }
  jpeg_create_decompress(&s->info);
  /* libjpeg refuses an empty buffer (JERR_INPUT_EMPTY) itself. */
  jpeg_mem_src(&s->info, data, (unsigned long)size);
  open_source(s, shrink, max_pixels);
  if (status) *status = CJPEG_OK;
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
  if (count < 0 || !rows ||
      (count > 0 && stride < (long)s->info.output_width * s->info.output_components))
    cjpeg_errors_fail(&s->errors, "bad strip arguments");
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
