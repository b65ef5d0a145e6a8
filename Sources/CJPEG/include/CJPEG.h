#ifndef THUMBFORGE_CJPEG_H
#define THUMBFORGE_CJPEG_H

#include <stddef.h>
#include <stdint.h>

/* JPEG decoding and encoding with libjpeg-turbo (libvips' own JPEG library), where
 * libvips 8.14's pipeline costs more than the codec. */

/* A JPEG file decoded strip by strip, for resizing while decoding.
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

/* Encodes 8-bit RGB (3 bands) or grey (1 band) pixels, rows `stride` bytes apart, into a
 * new buffer at `*out` (free it with free) of `*out_size` bytes: JFIF at 72 dpi, no other
 * metadata, chroma 4:2:0 below quality 90 and 4:4:4 from 90 up, as libvips' jpegsave.
 * Encoding memory pixels this way costs 15-40 % less than libvips' jpegsave, whose sink
 * hands every strip between threads. 0, or -1 with the reason in `error`. */
int cjpeg_encode(const uint8_t *pixels, int width, int height, int bands, long stride,
                 int quality, int optimize_coding, int progressive, uint8_t **out,
                 size_t *out_size, char *error, size_t error_size);

/* Whether encodes on the calling thread with optimized Huffman tables may count symbols
 * with ThumbForge's own statistics pass (the default) rather than libjpeg's; the bytes are
 * the same either way. For tests that compare the two. */
void cjpeg_allow_fast_statistics(int allowed);
/* How many statistics passes ThumbForge's own counting has done on the calling thread. */
unsigned long cjpeg_fast_statistics_passes(void);

/* Whether progressive JPEGs opened on the calling thread may be entropy-decoded by
 * ThumbForge's own decoder (the default) rather than libjpeg's; the pixels are the same
 * either way. For tests that compare the two. */
void cjpeg_allow_fast_progressive(int allowed);
/* How many progressive scans ThumbForge's own decoder has begun on the calling thread. */
unsigned long cjpeg_fast_progressive_scans(void);
/* Whether that decoder may use the CPU's bit-select instruction (BMI2 pdep) where it is
 * fast, on the calling thread; without it a loop does the same. For tests of both. */
void cjpeg_allow_select_instruction(int allowed);

#endif
