/* The entropy decoding of progressive Huffman JPEGs, done faster than libjpeg does it.
 *
 * A progressive file holds each image several times over, in scans of a few coefficients
 * or one more bit of them each; libjpeg-turbo decodes those scans through an out-of-line
 * bit reader, copying its state in and out for every block of every scan, and walks every
 * coefficient of a band in refinement scans. On the 2 MP progressive photos of an app's
 * asset folder that is over half of the decode. This module decodes the same coefficients,
 * with the same warnings for damaged data, from a 64-bit bit buffer with 10-bit code
 * lookups and a map of the nonzero coefficients (about 13 % faster on those photos);
 * libjpeg still reads the markers, keeps the coefficients, and does everything after
 * (IDCT, upsampling, colour). */
#ifndef THUMBFORGE_JPEG_PROGRESSIVE_H
#define THUMBFORGE_JPEG_PROGRESSIVE_H

#include <stdint.h>
#include <stdio.h>

#include <jpeglib.h>

/* libjpeg's entropy-decoder module interface (jpegint.h, unchanged since IJG 6b; libjpeg
 * does not install that header). The decompressor calls these through `cinfo->entropy`. */
struct jpeg_entropy_decoder {
  void (*start_pass)(j_decompress_ptr cinfo);
  boolean (*decode_mcu)(j_decompress_ptr cinfo, JBLOCKROW *MCU_data);
  boolean insufficient_data; /* set after warning that the data ran out */
};

#define CJPEG_FAST_BITS 10

/* One Huffman table: codes of up to CJPEG_FAST_BITS bits by lookup, longer ones by the
 * canonical-code bounds of JPEG's Annex F. */
typedef struct {
  uint16_t fast[1 << CJPEG_FAST_BITS]; /* (length << 8) | symbol; 0 for longer codes */
  int32_t maxcode[18];                 /* largest code of each length; -1 when none */
  int32_t valoffset[18];               /* symbol index minus code, per length */
  uint8_t values[256];
} cjpeg_huffman_table;

/* Entropy-coded bits not yet decoded. */
typedef struct {
  uint64_t bits; /* the next bits, most significant first */
  int count;     /* bits held in `bits`, zero padding included */
  int padded;    /* of which zeros past a marker */
} cjpeg_bit_reader;

/* Caller-owned decoder state; must outlive the decompression it is installed in. */
typedef struct {
  struct jpeg_entropy_decoder base; /* what libjpeg calls; first, so the pointers coincide */
  struct jpeg_progress_mgr progress; /* how it is installed: see cjpeg_progressive_prepare */
  cjpeg_bit_reader reader;
  unsigned eob_run;                  /* blocks left in the current end-of-band run */
  unsigned restarts_to_go;
  int fast_select; /* the CPU has a fast pdep instruction */
  int last_dc[MAX_COMPS_IN_SCAN];
  void *checked[2][NUM_HUFF_TBLS]; /* libjpeg's own tables, built only to validate */
  const cjpeg_huffman_table *ac_table;
  cjpeg_huffman_table dc[NUM_HUFF_TBLS];
  cjpeg_huffman_table ac[NUM_HUFF_TBLS];
} cjpeg_progressive;

/* After jpeg_read_header, before jpeg_start_decompress: when the file is a progressive
 * Huffman JPEG, arranges for `state` to take over its entropy decoding once libjpeg has
 * set up (through the progress-monitor hook, the one call libjpeg makes between its set-up
 * and its first scan). 1 when it will, 0 when libjpeg keeps it. */
int cjpeg_progressive_prepare(j_decompress_ptr cinfo, cjpeg_progressive *state);

#endif
