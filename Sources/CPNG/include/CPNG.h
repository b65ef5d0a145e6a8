#ifndef THUMBFORGE_CPNG_H
#define THUMBFORGE_CPNG_H

#include <stddef.h>
#include <stdint.h>

/* PNG encoding with libpng (libvips' own PNG library), where libvips 8.14's pipeline costs
 * more than the codec.
 *
 * libvips' pngsave writes through a sink that hands every strip of rows between threads;
 * for the small outputs of an app catalog (flags, 1x variants) that handing costs more
 * than compressing them (on SnowSeeker, a visible part of the end of the build). This
 * writes the same file on the caller's thread: the same libpng calls and settings as
 * libvips 8.14's pngsave with `strip` (no metadata chunks), no interlace, no palette,
 * 8 bits: IHDR, pHYs, then the rows with the filter "none" and zlib at `compression`.
 * Tests/VipsTests and Fuzz/png-encode compare the bytes with pngsave's. */

/* Encodes 8-bit pixels of 1 to 4 bands (grey, grey + alpha, RGB, RGBA), rows `stride`
 * bytes apart, into a new buffer at `*out` (free it with free) of `*out_size` bytes.
 * `compression` is zlib's level (0-9); `xres` and `yres` are the image's resolution in
 * pixels per millimetre, written to pHYs in pixels per metre as libvips does.
 * 0, or -1 with the reason in `error` (bad arguments, a side over libpng's limit of
 * 1,000,000 pixels, out of memory). */
int cpng_encode(const uint8_t *pixels, int width, int height, int bands, long stride,
                int compression, double xres, double yres, uint8_t **out, size_t *out_size,
                char *error, size_t error_size);

/* How many files cpng_encode has written on the calling thread (for tests: that a save
 * took this path). */
unsigned long cpng_encode_count(void);

#endif
