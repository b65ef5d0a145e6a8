#include "CVipsHelpers.h"

#include <webp/mux.h>

int cvips_webp_strip(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size) {
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

void cvips_webp_free(uint8_t *bytes) { WebPFree(bytes); }
