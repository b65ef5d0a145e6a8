#ifndef THUMBFORGE_CVIPS_SHIM_H
#define THUMBFORGE_CVIPS_SHIM_H

#include <vips/vips.h>
#include <vips/vector.h> /* vips_vector_set_enabled: not included by vips.h */
#include <gmodule.h>
#include <webp/mux.h>
/* Linux-only tuning below (glibc's mallopt, transparent huge pages) is compiled only where
 * it exists; elsewhere (macOS, musl) the same functions do nothing. */
#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#endif
#ifdef __linux__
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

/* Loads the modules in `folder` the way vips_init does (each registers its loaders and
 * savers when opened, and stays loaded); returns how many loaded. With `trusted_only`, not
 * those whose loaders libvips marks untrusted (ImageMagick, PDF through poppler, OpenSlide). */
static inline int cvips_load_modules_filtered(const char *folder, int trusted_only) {
  static const char *const untrusted[] = {"vips-magick.", "vips-poppler.", "vips-openslide."};
  int loaded = 0;
  GDir *dir = g_dir_open(folder, 0, NULL);
  if (!dir) return 0;
  const char *name;
  while ((name = g_dir_read_name(dir))) {
    if (!g_str_has_suffix(name, "." G_MODULE_SUFFIX)) continue;
    int skip = 0;
    for (size_t i = 0; trusted_only && i < sizeof(untrusted) / sizeof(untrusted[0]); i++)
      if (g_str_has_prefix(name, untrusted[i])) skip = 1;
    if (skip) continue;
    char *path = g_build_filename(folder, name, NULL);
    if (g_module_open(path, G_MODULE_BIND_LAZY)) loaded++;
    g_free(path);
  }
  g_dir_close(dir);
  return loaded;
}

static inline int cvips_load_modules(const char *folder) {
  return cvips_load_modules_filtered(folder, 0);
}

static inline int cvips_load_trusted_modules(const char *folder) {
  return cvips_load_modules_filtered(folder, 1);
}

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

/* glibc malloc settings (no-op elsewhere): at most `arenas` arenas, blocks of at least
 * `mmap_threshold` bytes mapped on their own (and unmapped when freed), free memory at the
 * top of a heap returned beyond `trim_threshold` bytes. 1 when all were taken. */
static inline int cvips_tune_malloc(int arenas, int mmap_threshold, int trim_threshold) {
#if defined(__linux__) && defined(__GLIBC__)
  return mallopt(M_ARENA_MAX, arenas) && mallopt(M_MMAP_THRESHOLD, mmap_threshold) &&
         mallopt(M_TRIM_THRESHOLD, trim_threshold);
#else
  (void)arenas;
  (void)mmap_threshold;
  (void)trim_threshold;
  return 0;
#endif
}

/* Returns the free memory of every malloc arena to the system (glibc's malloc_trim; a no-op
 * elsewhere). */
static inline void cvips_trim_malloc(void) {
#if defined(__linux__) && defined(__GLIBC__)
  (void)malloc_trim(0);
#endif
}

/* Whether the pixels are in one memory buffer (copy_memory, new_from_memory …). */
static inline int cvips_image_is_memory(VipsImage *image) {
  return image->dtype == VIPS_IMAGE_SETBUF || image->dtype == VIPS_IMAGE_SETBUF_FOREIGN;
}

/* The first byte of a memory image's pixels, rows VIPS_IMAGE_SIZEOF_LINE apart. */
static inline void *cvips_image_data(VipsImage *image) { return image->data; }
static inline long cvips_image_line_bytes(VipsImage *image) { return VIPS_IMAGE_SIZEOF_LINE(image); }

/* Whether `name` is one of the header fields vips_image_get_fields lists before the
 * metadata (libvips' own `vips_header_fields`): set by vips_image_init_fields, not copied. */
static inline int cvips_is_header_field(const char *name) {
  static const char *const fields[] = {"width",          "height",  "bands",   "format",
                                       "coding",         "xoffset", "yoffset", "xres",
                                       "interpretation", "yres",    "filename"};
  for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
    if (strcmp(name, fields[i]) == 0) return 1;
  return 0;
}

/* A new memory image with `like`'s header and metadata but `width` x `height` pixels of
 * `bands` bands, its buffer allocated and ready to be filled; NULL (error in the buffer)
 * on failure.
 *
 * Not linked to `like` (no vips_image_pipeline_array): libvips walks every image linked
 * to one it saves (vips_image_minimise_all, at the end of each sink), and libvips 8.14
 * lets that walk meet an image another thread is freeing. Outputs of one master made on
 * two threads at once would share the master through such links, and crashed a build
 * about once in ten runs of 300 flags at four jobs. */
static inline VipsImage *cvips_image_new_memory_bands(VipsImage *like, int width, int height,
                                                      int bands) {
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
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  /* Buffers this large are mapped afresh for every image (the allocator's mmap threshold
   * is 16 MB) and faulted in page by page as rows are written; asking for transparent huge
   * pages (where the system allows them, as Debian's default "madvise" mode does) makes
   * that a fault per 2 MB. A hint only: nothing changes where it is refused. The range is
   * aligned to the system's page size (16 or 64 KB on some arm64 kernels, not 4 KB). */
  size_t bytes = VIPS_IMAGE_SIZEOF_IMAGE(out);
  long page_size = sysconf(_SC_PAGESIZE);
  if (bytes >= ((size_t)16 << 20) && page_size > 0) {
    uintptr_t page = (uintptr_t)page_size;
    uintptr_t start = ((uintptr_t)out->data + page - 1) & ~(page - 1);
    uintptr_t end = ((uintptr_t)out->data + bytes) & ~(page - 1);
    if (end > start) (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
  }
#endif
  return out;
}

/* A new memory image like `like` (header and metadata), ready to be filled. */
static inline VipsImage *cvips_image_new_memory_like(VipsImage *like, int width, int height) {
  return cvips_image_new_memory_bands(like, width, height, like->Bands);
}

/* `in` (an 8-bit memory image without alpha: 1 or 3 bands) with an opaque alpha band after
 * its bands, in a new memory image with its header and metadata: the pixels of libvips'
 * bandjoin_const with 255, which runs two threaded sinks per call even on a lazy input
 * (SnowSeeker's flag folder: 20 of its 36). NULL (error in the buffer) on failure. */
static inline VipsImage *cvips_image_with_opaque_alpha(VipsImage *in) {
  if (!cvips_image_is_memory(in) || in->BandFmt != VIPS_FORMAT_UCHAR ||
      (in->Bands != 1 && in->Bands != 3)) {
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

/* Rows [top, top + height) of `region`'s image, computed (decoding as needed). 0 or -1. */
static inline int cvips_region_prepare_rows(VipsRegion *region, int top, int height) {
  VipsRect rect = {0, top, region->im->Xsize, height};
  return vips_region_prepare(region, &rect);
}
static inline const void *cvips_region_row(VipsRegion *region, int y) {
  return VIPS_REGION_ADDR(region, 0, y);
}
static inline long cvips_region_stride(VipsRegion *region) { return VIPS_REGION_LSKIP(region); }


/* Removes the EXIF and XMP chunks of a WebP file with libwebpmux: libvips 8.14's webpsave
 * writes an EXIF chunk even when told to strip metadata. On success returns 0 and the new
 * file in *out (free it with cvips_webp_free); -1 when the bytes are not a WebP file. */
static inline int cvips_webp_strip(const uint8_t *data, size_t size, uint8_t **out,
                                   size_t *out_size) {
  WebPData in = {data, size};
  WebPMux *mux = WebPMuxCreate(&in, 0);
  if (!mux) return -1;
  WebPMuxDeleteChunk(mux, "EXIF");
  WebPMuxDeleteChunk(mux, "XMP ");
  WebPData assembled;
  WebPDataInit(&assembled);
  int ok = WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK;
  WebPMuxDelete(mux);
  if (!ok) return -1;
  *out = (uint8_t *)assembled.bytes;
  *out_size = assembled.size;
  return 0;
}

static inline void cvips_webp_free(uint8_t *bytes) { WebPFree(bytes); }

#endif
