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

/* Why an open failed. */
typedef enum {
  CJPEG_OK = 0,
  CJPEG_FAILED = 1,      /* unreadable, not a JPEG, damaged header, out of memory */
  CJPEG_UNSUPPORTED = 2, /* another kind of JPEG (CMYK, YCCK): leave it to libvips */
  CJPEG_TOO_LARGE = 3,   /* more pixels than the caller's limit */
} cjpeg_status;

/* Opens `path` to decode at 1/`shrink` scale (1, 2, 4 or 8; anything else is 1) into 8-bit
 * RGB (YCbCr and RGB files) or grey (greyscale files). `strict` makes any libjpeg warning
 * (corrupt data, premature end) an error, like libvips' fail-on=warning.
 *
 * Limits come before any allocation for the image: only the header is read, and a file
 * whose width x height (as stored, before shrinking) exceeds `max_pixels` (0: no limit) is
 * refused with CJPEG_TOO_LARGE. libjpeg's memory manager is then bounded
 * (`max_memory_to_use`) by what that header can need: a whole-image coefficient buffer of
 * 2 bytes per coefficient plus working buffers, so even a header within the limit cannot
 * make libjpeg take more than its own dimensions justify.
 *
 * NULL on failure, with the reason in `error` and `*status` (either may be NULL). */
cjpeg_stream *cjpeg_open(const char *path, int shrink, int strict, uint64_t max_pixels,
                         cjpeg_status *status, char *error, size_t error_size);
/* The same for a JPEG held in memory (`size` bytes at `data`, which must stay valid and
 * unchanged until cjpeg_close). */
cjpeg_stream *cjpeg_open_memory(const uint8_t *data, size_t size, int shrink, int strict,
                                uint64_t max_pixels, cjpeg_status *status, char *error,
                                size_t error_size);
int cjpeg_width(const cjpeg_stream *s);
int cjpeg_height(const cjpeg_stream *s);
int cjpeg_bands(const cjpeg_stream *s);
/* Decodes the next `count` rows into `rows`, `stride` bytes apart (at least a row's
 * width x bands). 0, or -1 with the reason in `error`; reading past the last row, a
 * negative count or a short stride is an error. */
int cjpeg_read(cjpeg_stream *s, uint8_t *rows, long stride, int count, char *error,
               size_t error_size);
void cjpeg_close(cjpeg_stream *s);

/* Encodes 8-bit RGB (3 bands) or grey (1 band) pixels, rows `stride` bytes apart, into a
 * new buffer at `*out` (free it with free) of `*out_size` bytes: JFIF at 72 dpi, no other
 * metadata, chroma 4:2:0 below quality 90 and 4:4:4 from 90 up, as libvips' jpegsave.
 * Encoding memory pixels this way costs less than libvips' jpegsave, whose sink hands
 * every strip between threads. 0, or -1 with the reason in `error`. */
int cjpeg_encode(const uint8_t *pixels, int width, int height, int bands, long stride,
                 int quality, int optimize_coding, int progressive, uint8_t **out,
                 size_t *out_size, char *error, size_t error_size);

/* Optimized Huffman tables: ThumbForge's own statistics pass (jpeg_huffman.c) replaces
 * libjpeg's when it is known to give libjpeg's bytes. It redeclares libjpeg's private
 * entropy-encoder interface and calls libjpeg's jpeg_gen_optimal_table, so it is used only
 * when both hold:
 * - at compile time, jconfig.h's LIBJPEG_TURBO_VERSION_NUMBER is in the range it was
 *   verified against: libjpeg-turbo 2.1.5 (Debian bookworm) up to, not including, 2.2;
 * - at run time, the library the process actually runs with is that one: its message
 *   table has as many messages as the jerror.h compiled against (the table changes between
 *   libjpeg-turbo series) and its copyright message names libjpeg-turbo, and a small
 *   encode both ways (once per process) gives identical bytes.
 * Anywhere else libjpeg's own optimize_coding counts the symbols (same bytes, slower). */

/* Whether the checks above pass for the calling thread (computed once per process; a
 * thread that asked for failure with cjpeg_fail_statistics_check sees 0). */
int cjpeg_fast_statistics_supported(void);
/* Test hook: makes the run-time check fail (nonzero) on the calling thread, so its
 * encodes take libjpeg's own statistics pass, as on an unverified libjpeg. */
void cjpeg_fail_statistics_check(int fail);
/* Whether encodes on the calling thread with optimized Huffman tables may count symbols
 * with ThumbForge's own statistics pass (the default, when supported) rather than
 * libjpeg's; the bytes are the same either way. For tests that compare the two. */
void cjpeg_allow_fast_statistics(int allowed);
/* How many statistics passes ThumbForge's own counting has done on the calling thread. */
unsigned long cjpeg_fast_statistics_passes(void);

#endif
