#ifndef THUMBFORGE_CVIPSHELPERS_H
#define THUMBFORGE_CVIPSHELPERS_H

/* The C the `Vips` module needs beyond libvips' own API: module loading, allocator
 * settings, memory images and WebP metadata. Each holds logic, so each is a function with
 * its tests (Tests/VipsTests/VipsHelpersTests.swift, against what libvips does instead)
 * and a fuzz target (Fuzz/vips-helpers); CVips/shim.h keeps only accessors. */

#include <stddef.h>
#include <stdint.h>
#include <gmodule.h>
#include <vips/vips.h>

/* Loads the modules in `folder` the way vips_init does (each registers its loaders and
 * savers when opened, and stays loaded); returns how many loaded. With `trusted_only`, not
 * those whose loaders libvips marks untrusted (ImageMagick, PDF through poppler, OpenSlide). */
int cvips_load_modules_filtered(const char *folder, int trusted_only);

/* Whether the module file `name` is one `cvips_load_modules_filtered` loads. */
int cvips_module_is_wanted(const char *name, int trusted_only);

/* glibc malloc settings (no-op elsewhere): at most `arenas` arenas, blocks of at least
 * `mmap_threshold` bytes mapped on their own (and unmapped when freed), free memory at the
 * top of a heap returned beyond `trim_threshold` bytes. 1 when all were taken. */
int cvips_tune_malloc(int arenas, int mmap_threshold, int trim_threshold);

/* Returns the free memory of every malloc arena to the system (glibc's malloc_trim; a
 * no-op elsewhere). */
void cvips_trim_malloc(void);

/* Whether `name` is one of the header fields vips_image_get_fields lists before the
 * metadata (libvips' own `vips_header_fields`): set by vips_image_init_fields, not copied. */
int cvips_is_header_field(const char *name);

/* A new memory image with `like`'s header and metadata but `width` x `height` pixels of
 * `bands` bands, its buffer allocated and ready to be filled; NULL (error in the buffer)
 * on failure. Not linked to `like`: see memory_image.c. */
VipsImage *cvips_image_new_memory_bands(VipsImage *like, int width, int height, int bands);

/* A new memory image like `like` (header and metadata), ready to be filled. */
VipsImage *cvips_image_new_memory_like(VipsImage *like, int width, int height);

/* `in` (an 8-bit memory image without alpha: 1 or 3 bands) with an opaque alpha band after
 * its bands, in a new memory image with its header and metadata: the pixels of libvips'
 * bandjoin_const with 255, which runs two threaded sinks per call even on a lazy input.
 * NULL (error in the buffer) on failure. */
VipsImage *cvips_image_with_opaque_alpha(VipsImage *in);

/* Removes the EXIF and XMP chunks of a WebP file with libwebpmux: libvips 8.14's webpsave
 * writes an EXIF chunk even when told to strip metadata. On success returns 0 and the new
 * file in *out (free it with cvips_webp_free); -1 when the bytes are not a WebP file. */
int cvips_webp_strip(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size);

void cvips_webp_free(uint8_t *bytes);

#endif
