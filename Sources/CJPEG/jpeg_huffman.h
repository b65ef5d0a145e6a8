/* The statistics pass of optimized Huffman coding, done faster than libjpeg does it.
 *
 * With optimized tables libjpeg encodes in two passes over the quantized coefficients:
 * the first counts every symbol the image will emit, the second encodes with tables built
 * from those counts. libjpeg-turbo vectorises the second pass but counts one coefficient at
 * a time, branching on each; on large outputs that first pass is much of encoding. This
 * module counts the same symbols (so builds the same tables, and the file is byte for
 * byte what libjpeg writes) and then hands the output pass back to libjpeg. */
#ifndef THUMBFORGE_JPEG_HUFFMAN_H
#define THUMBFORGE_JPEG_HUFFMAN_H

#include <stdio.h>

#include <jpeglib.h>

/* The libjpeg-turbo releases this module was verified against (jconfig.h's version
 * number): 2.1.5, Debian bookworm's, through the rest of the 2.1 series. Built against any
 * other libjpeg, the module is left out and libjpeg counts the symbols itself. */
#if defined(LIBJPEG_TURBO_VERSION_NUMBER) && LIBJPEG_TURBO_VERSION_NUMBER >= 2001005 && \
    LIBJPEG_TURBO_VERSION_NUMBER < 2002000
#define CJPEG_OWN_STATISTICS 1
#else
#define CJPEG_OWN_STATISTICS 0
#endif

#if CJPEG_OWN_STATISTICS
/* libjpeg's entropy-encoder module interface (jpegint.h, unchanged since IJG 6b; libjpeg
 * does not install that header). The compressor calls these through `cinfo->entropy`. */
struct jpeg_entropy_encoder {
  void (*start_pass)(j_compress_ptr cinfo, boolean gather_statistics);
  boolean (*encode_mcu)(j_compress_ptr cinfo, JBLOCKROW *MCU_data);
  void (*finish_pass)(j_compress_ptr cinfo);
};

/* Caller-owned state of one statistics pass; must outlive jpeg_finish_compress. */
typedef struct {
  struct jpeg_entropy_encoder base; /* what libjpeg calls; first, so the pointers coincide */
  struct jpeg_entropy_encoder *libjpeg;
  long dc_counts[NUM_HUFF_TBLS][257];
  long ac_counts[NUM_HUFF_TBLS][257];
  int last_dc[MAX_COMPS_IN_SCAN];
} cjpeg_statistics;
#else
typedef struct {
  int unused;
} cjpeg_statistics;
#endif

/* Whether the libjpeg this process runs with is the one compiled against, as far as it
 * tells: built in the verified range (above), its message table as long as jerror.h's and
 * its copyright message naming libjpeg-turbo. 0 when built outside the range. */
int cjpeg_statistics_library_matches(void);

/* Right after jpeg_start_compress: takes over the statistics pass when the image is one
 * sequential Huffman scan with optimized tables (1), or leaves libjpeg to it (0). Always 0
 * when built outside the verified range. The caller decides whether to call it at all
 * (see cjpeg_fast_statistics_supported). */
int cjpeg_statistics_take_over(j_compress_ptr cinfo, cjpeg_statistics *stats);

#endif
