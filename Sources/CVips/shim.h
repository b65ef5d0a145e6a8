#ifndef THUMBFORGE_CVIPS_SHIM_H
#define THUMBFORGE_CVIPS_SHIM_H

#include <vips/vips.h>
#include <vips/vector.h> /* vips_vector_set_enabled: not included by vips.h */

/* Accessors only: what Swift cannot reach itself (GType constants, macros, struct fields).
 * C with logic of its own lives in the CVipsHelpers target, with tests and a fuzz target. */

static inline GType cvips_type_int(void) { return G_TYPE_INT; }
static inline GType cvips_type_uint64(void) { return G_TYPE_UINT64; }
static inline GType cvips_type_double(void) { return G_TYPE_DOUBLE; }
static inline GType cvips_type_boolean(void) { return G_TYPE_BOOLEAN; }
static inline GType cvips_type_string(void) { return G_TYPE_STRING; }
static inline GType cvips_type_enum(void) { return G_TYPE_ENUM; }
static inline GType cvips_type_flags(void) { return G_TYPE_FLAGS; }
static inline GType cvips_type_object(void) { return G_TYPE_OBJECT; }
static inline GType cvips_type_boxed(void) { return G_TYPE_BOXED; }

/* Read an image header field as a string-free int; returns 0 when absent. */
static inline int cvips_get_int(VipsImage *image, const char *name, int fallback) {
  int value = fallback;
  if (vips_image_get_typeof(image, name) == 0) return fallback;
  if (vips_image_get_int(image, name, &value) != 0) { vips_error_clear(); return fallback; }
  return value;
}

/* Whether the pixels are in one memory buffer (copy_memory, new_from_memory …). */
static inline int cvips_image_is_memory(VipsImage *image) {
  return image->dtype == VIPS_IMAGE_SETBUF || image->dtype == VIPS_IMAGE_SETBUF_FOREIGN;
}

/* The first byte of a memory image's pixels, rows VIPS_IMAGE_SIZEOF_LINE apart. */
static inline void *cvips_image_data(VipsImage *image) { return image->data; }
static inline long cvips_image_line_bytes(VipsImage *image) { return VIPS_IMAGE_SIZEOF_LINE(image); }

/* Rows [top, top + height) of `region`'s image, computed (decoding as needed). 0 or -1. */
static inline int cvips_region_prepare_rows(VipsRegion *region, int top, int height) {
  VipsRect rect = {0, top, region->im->Xsize, height};
  return vips_region_prepare(region, &rect);
}
static inline const void *cvips_region_row(VipsRegion *region, int y) {
  return VIPS_REGION_ADDR(region, 0, y);
}
static inline long cvips_region_stride(VipsRegion *region) { return VIPS_REGION_LSKIP(region); }

#endif
