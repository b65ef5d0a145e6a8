#ifndef THUMBFORGE_CJPEG_H
#define THUMBFORGE_CJPEG_H

#include <stddef.h>
#include <stdint.h>

/* A JPEG file decoded strip by strip with libjpeg-turbo, for resizing while decoding.
 *
 * libvips 8.14 reads a sequential JPEG through a line cache that allocates and clears a
 * fresh buffer for nearly every strip; on 12-24 MP photos that is a quarter of the decode
 * time. This reads the same pixels with the same libjpeg settings libvips uses (integer
 * IDCT, fancy upsampling, 1/shrink DCT scaling), straight into the caller's strip. */

typedef struct cjpeg_stream cjpeg_stream;

/* Opens `path` to decode at 1/`shrink` scale (1, 2, 4 or 8) into 8-bit RGB (YCbCr and RGB
 * files) or grey (greyscale files). `strict` makes any libjpeg warning (corrupt data,
 * premature end) an error, like libvips' fail-on=warning. NULL when the file cannot be read
 * or is another kind of JPEG (CMYK, YCCK), with the reason in `error`. */
cjpeg_stream *cjpeg_open(const char *path, int shrink, int strict, char *error,
                         size_t error_size);
int cjpeg_width(const cjpeg_stream *s);
int cjpeg_height(const cjpeg_stream *s);
int cjpeg_bands(const cjpeg_stream *s);
/* Decodes the next `count` rows into `rows`, `stride` bytes apart. 0, or -1 with the
 * reason in `error`. */
int cjpeg_read(cjpeg_stream *s, uint8_t *rows, long stride, int count, char *error,
               size_t error_size);
void cjpeg_close(cjpeg_stream *s);

#endif
