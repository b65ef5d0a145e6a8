/* libFuzzer target: CJPEG's strip decoder (Sources/CJPEG/jpeg_stream.c) on arbitrary bytes.
 *
 * The first byte chooses how: bits 0-1 the shrink (1, 2, 4, 8), bit 2 strict (warnings are
 * errors), bit 3 read from a file rather than memory, bits 4-5 the strip height (1, 7, 16
 * or 64 rows), bit 6 a pixel limit of 64 Ki instead of 1 Mi pixels. The rest is the JPEG.
 * Every strip is read; then reading past the end must be refused. (The select-instruction
 * switch of the removed progressive decoder no longer exists.) */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "CJPEG.h"

static const char *temporary_path(void) {
  static char path[64];
  if (!path[0]) snprintf(path, sizeof path, "/tmp/cjpeg-fuzz-decode-%d.jpg", (int)getpid());
  return path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  uint8_t how = data[0];
  const uint8_t *jpeg = data + 1;
  size_t jpeg_size = size - 1;
  int shrink = 1 << (how & 3);
  int strict = (how >> 2) & 1;
  int via_file = (how >> 3) & 1;
  static const int strips[4] = {1, 7, 16, 64};
  int strip = strips[(how >> 4) & 3];
  uint64_t limit = (how >> 6) & 1 ? 1u << 16 : 1u << 20;

  char error[256];
  cjpeg_status status = CJPEG_OK;
  cjpeg_stream *s;
  if (via_file) {
    FILE *file = fopen(temporary_path(), "wb");
    if (!file) return 0;
    fwrite(jpeg, 1, jpeg_size, file);
    fclose(file);
    s = cjpeg_open(temporary_path(), shrink, strict, limit, &status, error, sizeof error);
    unlink(temporary_path()); /* the stream keeps the file open */
  } else {
    s = cjpeg_open_memory(jpeg, jpeg_size, shrink, strict, limit, &status, error,
                          sizeof error);
  }
  if (!s) {
    if (status == CJPEG_OK || !error[0]) abort(); /* a failure must say why */
    return 0;
  }
  if (status != CJPEG_OK) abort();
  int width = cjpeg_width(s), height = cjpeg_height(s), bands = cjpeg_bands(s);
  if (width < 1 || height < 1 || (bands != 1 && bands != 3)) abort();
  if ((uint64_t)width * height > limit) abort(); /* shrinking only makes images smaller */
  long stride = (long)width * bands;
  uint8_t *rows = malloc((size_t)stride * strip);
  if (!rows) abort();
  int y = 0;
  for (; y < height; y += strip) {
    int count = height - y < strip ? height - y : strip;
    if (cjpeg_read(s, rows, stride, count, error, sizeof error) != 0) break;
  }
  if (y >= height && cjpeg_read(s, rows, stride, 1, error, sizeof error) != -1) abort();
  free(rows);
  cjpeg_close(s);
  return 0;
}
