/* See jpeg_huffman.h: a faster statistics pass for optimized Huffman tables. */

#include "jpeg_huffman.h"

#include "jpeg_order.h"

#include <stdint.h>
#include <string.h>

#include <jerror.h>

int cjpeg_statistics_library_matches(void) {
#if CJPEG_OWN_STATISTICS
  struct jpeg_error_mgr errors;
  jpeg_std_error(&errors);
  /* jerror.c sets last_jpeg_message from the library's own message list: libjpeg-turbo 2.2
   * and 3.x add messages, IJG libjpeg and others differ. */
  if (errors.last_jpeg_message != (int)JMSG_LASTMSGCODE - 1) return 0;
  const char *copyright = errors.jpeg_message_table[JMSG_COPYRIGHT];
  return copyright && strstr(copyright, "libjpeg-turbo") != NULL;
#else
  return 0;
#endif
}

#if !CJPEG_OWN_STATISTICS
int cjpeg_statistics_take_over(j_compress_ptr cinfo, cjpeg_statistics *stats) {
  (void)cinfo;
  (void)stats;
  return 0;
}
#else

/* Exported by libjpeg (jchuff.c) since 6b, declared in its uninstalled jchuff.h: builds the
 * optimal table for `freq` (257 counts, clobbered) into `htbl`. */
extern void jpeg_gen_optimal_table(j_compress_ptr cinfo, JHUFF_TBL *htbl, long freq[]);

#define MAX_COEF_BITS 10 /* 8-bit samples */

static inline int magnitude_bits(int value) {
  unsigned magnitude = (unsigned)(value < 0 ? -value : value);
  return magnitude ? 32 - __builtin_clz(magnitude) : 0;
}

/* The symbols one block contributes, exactly as libjpeg's htest_one_block counts them:
 * the DC difference's size category, then for every nonzero AC coefficient in zigzag
 * order its run of zeros (ZRL symbols for each full 16) and size, and an EOB when the
 * block ends in zeros. Nonzero coefficients are found through a 64-bit map in zigzag order
 * rather than by testing each coefficient in turn: most are zero, and the branch on each
 * one is what makes libjpeg's loop slow. */
static int count_block(const JCOEF *block, int last_dc, long *dc_counts, long *ac_counts) {
  int dc_bits = magnitude_bits(block[0] - last_dc);
  if (dc_bits > MAX_COEF_BITS + 1) return 0;
  dc_counts[dc_bits]++;
  uint64_t nonzero = cjpeg_nonzero_zigzag(block) & ~(uint64_t)1;
  int previous = 0;
  while (nonzero) {
    int k = __builtin_ctzll(nonzero);
    nonzero &= nonzero - 1;
    int run = k - previous - 1;
    for (; run > 15; run -= 16) ac_counts[0xF0]++;
    int bits = magnitude_bits(block[cjpeg_natural_order[k]]);
    if (bits > MAX_COEF_BITS) return 0;
    ac_counts[(run << 4) + bits]++;
    previous = k;
  }
  if (previous < 63) ac_counts[0]++;
  return 1;
}

static boolean gather_mcu(j_compress_ptr cinfo, JBLOCKROW *blocks) {
  cjpeg_statistics *stats = (cjpeg_statistics *)cinfo->entropy;
  for (int b = 0; b < cinfo->blocks_in_MCU; b++) {
    int c = cinfo->MCU_membership[b];
    const jpeg_component_info *component = cinfo->cur_comp_info[c];
    if (!count_block(blocks[b][0], stats->last_dc[c], stats->dc_counts[component->dc_tbl_no],
                     stats->ac_counts[component->ac_tbl_no]))
      ERREXIT(cinfo, JERR_BAD_DCT_COEF);
    stats->last_dc[c] = blocks[b][0][0];
  }
  return TRUE;
}

/* Builds the optimal table for `counts` (clobbering them) into `*slot`, allocated first
 * when the table was never defined. */
static void build_table(j_compress_ptr cinfo, JHUFF_TBL **slot, long *counts) {
  if (!*slot) *slot = jpeg_alloc_huff_table((j_common_ptr)cinfo);
  jpeg_gen_optimal_table(cinfo, *slot, counts);
}

/* Ends the statistics pass as libjpeg's finish_pass_gather does (each table built once, as
 * building clobbers its counts), then hands the entropy coder back to libjpeg, whose
 * output pass encodes with the tables now in cinfo->{dc,ac}_huff_tbl_ptrs. */
static void finish_gathering(j_compress_ptr cinfo) {
  cjpeg_statistics *stats = (cjpeg_statistics *)cinfo->entropy;
  boolean did_dc[NUM_HUFF_TBLS] = {0}, did_ac[NUM_HUFF_TBLS] = {0};
  for (int c = 0; c < cinfo->comps_in_scan; c++) {
    const jpeg_component_info *component = cinfo->cur_comp_info[c];
    int dc = component->dc_tbl_no, ac = component->ac_tbl_no;
    if (!did_dc[dc]) build_table(cinfo, &cinfo->dc_huff_tbl_ptrs[dc], stats->dc_counts[dc]);
    if (!did_ac[ac]) build_table(cinfo, &cinfo->ac_huff_tbl_ptrs[ac], stats->ac_counts[ac]);
    did_dc[dc] = did_ac[ac] = TRUE;
  }
  cinfo->entropy = stats->libjpeg;
}

static void start_pass(j_compress_ptr cinfo, boolean gather_statistics) {
  cjpeg_statistics *stats = (cjpeg_statistics *)cinfo->entropy;
  if (!gather_statistics) { /* not reached for one-scan images; defer to libjpeg */
    cinfo->entropy = stats->libjpeg;
    stats->libjpeg->start_pass(cinfo, FALSE);
    return;
  }
  memset(stats->dc_counts, 0, sizeof stats->dc_counts);
  memset(stats->ac_counts, 0, sizeof stats->ac_counts);
  memset(stats->last_dc, 0, sizeof stats->last_dc);
}

int cjpeg_statistics_take_over(j_compress_ptr cinfo, cjpeg_statistics *stats) {
  /* Only the one case whose pass sequence is known: a single sequential Huffman scan with
   * optimized tables, no restart markers (they reset DC predictions mid-pass). */
  if (!cinfo->optimize_coding ||
      cinfo->progressive_mode || cinfo->arith_code || cinfo->restart_interval != 0 ||
      cinfo->restart_in_rows != 0 || cinfo->num_scans > 1 || cinfo->data_precision != 8 ||
      cinfo->comps_in_scan > MAX_COMPS_IN_SCAN || cinfo->entropy == NULL)
    return 0;
  cjpeg_order_prepare();
  stats->base.start_pass = start_pass;
  stats->base.encode_mcu = gather_mcu;
  stats->base.finish_pass = finish_gathering;
  stats->libjpeg = cinfo->entropy;
  cinfo->entropy = &stats->base;
  start_pass(cinfo, TRUE);
  return 1;
}
#endif
