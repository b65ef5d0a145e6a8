#ifndef THUMBFORGE_CVIPS_SHIM_H
#define THUMBFORGE_CVIPS_SHIM_H

#include <vips/vips.h>

/* GType constants are macros that Swift cannot import; these expose them. */
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

#endif
