/* libFuzzer target: the CVipsHelpers target (Sources/CVipsHelpers) against what libvips and
 * libwebpmux do themselves; any difference aborts.
 *
 * Byte 0 picks the helper (modulo 3), the rest is its input:
 *   0  cvips_webp_strip on the bytes as a file: where it succeeds, the result is a WebP
 *      file without EXIF or XMP chunks, with the same image chunks, and stripping it again
 *      gives the same bytes.
 *   1  cvips_image_with_opaque_alpha against libvips' bandjoin_const with 255: bytes 1-3
 *      choose width 1-64, height 1-32 and 1 or 3 bands, the rest cycles as pixels; the
 *      pixels, bands and interpretation must match.
 *   2  cvips_is_header_field on the bytes as a name (up to the first NUL) against the
 *      fields libvips lists for an image without metadata. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vips/vips.h>
#include <webp/mux.h>

#include "CVipsHelpers.h"

static gchar **header_fields;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  if (VIPS_INIT((*argv)[0])) abort();
  vips_concurrency_set(1);
  vips_cache_set_max(0);
  uint8_t pixel[3] = {1, 2, 3};
  VipsImage *bare = vips_image_new_from_memory_copy(pixel, 3, 1, 1, 3, VIPS_FORMAT_UCHAR);
  if (!bare) abort();
  header_fields = vips_image_get_fields(bare);
  g_object_unref(bare);
  return 0;
}

static int has_chunk(const WebPMux *mux, const char *fourcc) {
  WebPData chunk;
  return WebPMuxGetChunk(mux, fourcc, &chunk) == WEBP_MUX_OK;
}

static void check_webp(const uint8_t *data, size_t size) {
  uint8_t *out = NULL;
  size_t out_size = 0;
  if (cvips_webp_strip(data, size, &out, &out_size) != 0) return;
  WebPData stripped = {out, out_size};
  WebPMux *mux = WebPMuxCreate(&stripped, 0);
  if (!mux || has_chunk(mux, "EXIF") || has_chunk(mux, "XMP ")) {
    fprintf(stderr, "stripped file: %s\n", mux ? "EXIF or XMP left" : "not a WebP file");
    abort();
  }
  WebPData in = {data, size};
  WebPMux *source = WebPMuxCreate(&in, 0);
  if (!source) abort();
  int frames = 0, source_frames = 0;
  if (WebPMuxNumChunks(mux, WEBP_CHUNK_IMAGE, &frames) != WEBP_MUX_OK ||
      WebPMuxNumChunks(source, WEBP_CHUNK_IMAGE, &source_frames) != WEBP_MUX_OK ||
      frames != source_frames) {
    fprintf(stderr, "image chunks: %d before, %d after\n", source_frames, frames);
    abort();
  }
  WebPMuxDelete(source);
  WebPMuxDelete(mux);
  uint8_t *again = NULL;
  size_t again_size = 0;
  if (cvips_webp_strip(out, out_size, &again, &again_size) != 0 || again_size != out_size ||
      memcmp(again, out, out_size) != 0) {
    fprintf(stderr, "stripping twice changed the file\n");
    abort();
  }
  cvips_webp_free(again);
  cvips_webp_free(out);
}

static void check_alpha(const uint8_t *data, size_t size) {
  if (size < 3) return;
  int width = 1 + data[0] % 64, height = 1 + data[1] % 32, bands = (data[2] & 1) ? 3 : 1;
  size_t total = (size_t)width * height * bands;
  uint8_t *pixels = malloc(total);
  if (!pixels) abort();
  for (size_t i = 0; i < total; i++) pixels[i] = size > 3 ? data[3 + i % (size - 3)] : 0;
  VipsImage *in =
      vips_image_new_from_memory_copy(pixels, total, width, height, bands, VIPS_FORMAT_UCHAR);
  if (!in) abort();
  VipsImage *own = cvips_image_with_opaque_alpha(in);
  VipsImage *reference = NULL;
  if (!own || vips_bandjoin_const1(in, &reference, 255, NULL)) abort();
  size_t own_size = 0, reference_size = 0;
  void *own_pixels = vips_image_write_to_memory(own, &own_size);
  void *reference_pixels = vips_image_write_to_memory(reference, &reference_size);
  if (!own_pixels || !reference_pixels) abort();
  if (own->Bands != reference->Bands || own->Type != reference->Type ||
      own_size != reference_size || memcmp(own_pixels, reference_pixels, own_size) != 0) {
    fprintf(stderr, "%dx%d, %d bands: not bandjoin_const's image\n", width, height, bands);
    abort();
  }
  g_free(own_pixels);
  g_free(reference_pixels);
  g_object_unref(reference);
  g_object_unref(own);
  g_object_unref(in);
  free(pixels);
}

static void check_header_field(const uint8_t *data, size_t size) {
  char *name = g_strndup((const char *)data, size);
  int listed = 0;
  for (int i = 0; header_fields[i]; i++)
    if (strcmp(name, header_fields[i]) == 0) listed = 1;
  if (cvips_is_header_field(name) != listed) {
    fprintf(stderr, "'%s': %d, libvips lists it: %d\n", name, !listed, listed);
    abort();
  }
  g_free(name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  switch (data[0] % 3) {
  case 0: check_webp(data + 1, size - 1); break;
  case 1: check_alpha(data + 1, size - 1); break;
  default: check_header_field(data + 1, size - 1); break;
  }
  return 0;
}
