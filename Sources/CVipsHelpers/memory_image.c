#include "CVipsHelpers.h"

#include <string.h>

int cvips_is_header_field(const char *name) {
  static const char *const fields[] = {"width",          "height",  "bands",   "format",
                                       "coding",         "xoffset", "yoffset", "xres",
                                       "interpretation", "yres",    "filename"};
  for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
    if (strcmp(name, fields[i]) == 0) return 1;
  return 0;
}

/* Not linked to `like` (no vips_image_pipeline_array): libvips walks every image linked
 * to one it saves (vips_image_minimise_all, at the end of each sink), and libvips 8.14
 * lets that walk meet an image another thread is freeing. Outputs of one master made on
 * two threads at once would share the master through such links, and crashed a build
 * about once in ten runs of 300 flags at four jobs. */
VipsImage *cvips_image_new_memory_bands(VipsImage *like, int width, int height, int bands) {
  VipsImage *out = vips_image_new_memory();
  vips_image_init_fields(out, width, height, bands, like->BandFmt, like->Coding, like->Type,
                         like->Xres, like->Yres);
  out->Xoffset = like->Xoffset;
  out->Yoffset = like->Yoffset;
  gchar **names = vips_image_get_fields(like);
  for (int i = 0; names && names[i]; i++) {
    if (cvips_is_header_field(names[i])) continue;
    GValue value = G_VALUE_INIT;
    if (vips_image_get(like, names[i], &value) == 0) {
      vips_image_set(out, names[i], &value);
      g_value_unset(&value);
    }
  }
  g_strfreev(names);
  if (vips_image_write_prepare(out)) {
    g_object_unref(out);
    return NULL;
  }
  return out;
}

VipsImage *cvips_image_new_memory_like(VipsImage *like, int width, int height) {
  return cvips_image_new_memory_bands(like, width, height, like->Bands);
}

VipsImage *cvips_image_with_opaque_alpha(VipsImage *in) {
  if ((in->dtype != VIPS_IMAGE_SETBUF && in->dtype != VIPS_IMAGE_SETBUF_FOREIGN) ||
      in->BandFmt != VIPS_FORMAT_UCHAR || (in->Bands != 1 && in->Bands != 3)) {
    vips_error("addalpha", "%s", "not an 8-bit memory image of 1 or 3 bands");
    return NULL;
  }
  VipsImage *out = cvips_image_new_memory_bands(in, in->Xsize, in->Ysize, in->Bands + 1);
  if (!out) return NULL;
  int bands = in->Bands;
  for (int y = 0; y < in->Ysize; y++) {
    const unsigned char *from = VIPS_IMAGE_ADDR(in, 0, y);
    unsigned char *to = VIPS_IMAGE_ADDR(out, 0, y);
    for (int x = 0; x < in->Xsize; x++) {
      for (int b = 0; b < bands; b++) *to++ = *from++;
      *to++ = 255;
    }
  }
  return out;
}
