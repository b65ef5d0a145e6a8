/* See jpeg_progressive.h: faster entropy decoding of progressive Huffman JPEGs.
 *
 * Every decision below mirrors libjpeg-turbo's jdphuff.c, so the coefficients, and the
 * warnings damaged data raises, are the ones libjpeg would give; even the source is read
 * up to the same byte (libjpeg counts the bytes it skips before a marker). What differs is
 * how: bits kept in registers, 10-bit code lookups, and refinement scans walking a map of
 * the nonzero coefficients instead of every one. ProgressiveDecodingTests compares pixels
 * and warnings with libjpeg's for whole, cut, spliced, corrupted and repeated-scan files. */

#include "jpeg_progressive.h"

#include <limits.h>
#include <stddef.h>
#include <string.h>

#include <jerror.h>

#include "CJPEG.h"
#include "jpeg_order.h"

/* libjpeg's marker-reader module (jpegint.h, unchanged since IJG 6b): restart markers
 * inside a scan are read through it. */
struct jpeg_marker_reader {
  void (*reset_marker_reader)(j_decompress_ptr cinfo);
  int (*read_markers)(j_decompress_ptr cinfo);
  jpeg_marker_parser_method read_restart_marker;
  boolean saw_SOI;
  boolean saw_SOF;
  int next_restart_num;
  unsigned int discarded_bytes;
};

/* Exported by libjpeg (jdhuff.c) since 6b: checks and expands a Huffman table, failing as
 * libjpeg fails on a missing or malformed one. Used here only for that check. */
extern void jpeg_make_d_derived_tbl(j_decompress_ptr cinfo, boolean isDC, int tblno,
                                    void **pdtbl);

/* Per thread, so a test comparing the two ways runs beside other decodes undisturbed. */
static _Thread_local int fast_progressive_refused = 0;
static _Thread_local unsigned long fast_progressive_scans = 0;
static _Thread_local int select_instruction_refused = 0;

void cjpeg_allow_fast_progressive(int allowed) { fast_progressive_refused = !allowed; }

unsigned long cjpeg_fast_progressive_scans(void) { return fast_progressive_scans; }

void cjpeg_allow_select_instruction(int allowed) { select_instruction_refused = !allowed; }

static inline cjpeg_progressive *state_of(j_decompress_ptr cinfo) {
  return (cjpeg_progressive *)cinfo->entropy;
}

/* ---- Bits ---- */

/* The bit reader works on a copy in locals, loaded at the start of each MCU and stored at
 * its end, so that the compiler keeps it in registers; only `fill` and the warnings are
 * out of line, and they take and give it by value. */
typedef cjpeg_bit_reader reader;

static void source_ran_dry(j_decompress_ptr cinfo) { ERREXIT(cinfo, JERR_CANT_SUSPEND); }

/* Tops `r` up to at least 57 bits, as libjpeg's jpeg_fill_bit_buffer reads: a stuffed
 * 0xFF00 is 0xFF, fill bytes before a marker are skipped, and a marker ends the scan's data
 * (libjpeg reads it next); past it come zero bits, counted as padding. */
static __attribute__((noinline)) reader fill(j_decompress_ptr cinfo, reader r) {
  struct jpeg_source_mgr *source = cinfo->src;
  const JOCTET *next = source->next_input_byte;
  size_t left = source->bytes_in_buffer;
#define NEXT_BYTE(byte)                                                                        \
  do {                                                                                         \
    if (left == 0) {                                                                           \
      if (!source->fill_input_buffer(cinfo)) source_ran_dry(cinfo);                            \
      next = source->next_input_byte;                                                          \
      left = source->bytes_in_buffer;                                                          \
    }                                                                                          \
    left--;                                                                                    \
    (byte) = *next++;                                                                          \
  } while (0)
  /* Most of the time eight bytes are at hand and none is 0xFF: take what fits at once. */
  if (left >= 8 && cinfo->unread_marker == 0) {
    uint64_t word;
    memcpy(&word, next, 8);
    word = __builtin_bswap64(word);
    uint64_t ones = word & (word >> 1) & (word >> 2) & (word >> 3) & (word >> 4) &
                    (word >> 5) & (word >> 6) & (word >> 7) & 0x0101010101010101ull;
    if (ones == 0) {
      int bytes = (63 - r.count) >> 3;
      r.bits |= word >> r.count & ~(~(uint64_t)0 >> (r.count + 8 * bytes));
      r.count += 8 * bytes;
      next += bytes;
      left -= (size_t)bytes;
    }
  }
  while (r.count <= 56) {
    if (cinfo->unread_marker != 0) {
      r.padded += 57 - r.count;
      r.count = 57;
      break;
    }
    int byte;
    NEXT_BYTE(byte);
    if (byte == 0xFF) {
      do NEXT_BYTE(byte);
      while (byte == 0xFF);
      if (byte != 0) {
        cinfo->unread_marker = byte;
        continue;
      }
      byte = 0xFF;
    }
    r.bits |= (uint64_t)byte << (56 - r.count);
    r.count += 8;
  }
#undef NEXT_BYTE
  source->next_input_byte = next;
  source->bytes_in_buffer = left;
  return r;
}

static inline void ensure(j_decompress_ptr cinfo, reader *r, int count) {
  if (r->count < count) *r = fill(cinfo, *r);
}

/* libjpeg warns once per segment when decoding needs bits past a marker. */
static __attribute__((noinline)) void ran_out(j_decompress_ptr cinfo) {
  cjpeg_progressive *d = state_of(cinfo);
  if (!d->base.insufficient_data) {
    WARNMS(cinfo, JWRN_HIT_MARKER);
    d->base.insufficient_data = TRUE;
  }
}

static inline void drop(j_decompress_ptr cinfo, reader *r, int count) {
  r->bits <<= count;
  r->count -= count;
  if (__builtin_expect(r->count < r->padded, 0)) {
    r->padded = r->count;
    ran_out(cinfo);
  }
}

/* The next `count` (1-16) bits; the caller has ensured they are held. */
static inline int take(j_decompress_ptr cinfo, reader *r, int count) {
  int value = (int)(r->bits >> (64 - count));
  drop(cinfo, r, count);
  return value;
}

/* JPEG's F.12: a `size`-bit magnitude category value, sign-extended. */
static inline int extend(int value, int size) {
  return value < (1 << (size - 1)) ? value + (int)((~0u << size) + 1) : value;
}

/* ---- Huffman codes ---- */

static void build_table(j_decompress_ptr cinfo, cjpeg_progressive *d, int is_dc, int number) {
  jpeg_make_d_derived_tbl(cinfo, is_dc ? TRUE : FALSE, number, &d->checked[is_dc][number]);
  const JHUFF_TBL *source =
      is_dc ? cinfo->dc_huff_tbl_ptrs[number] : cinfo->ac_huff_tbl_ptrs[number];
  cjpeg_huffman_table *table = is_dc ? &d->dc[number] : &d->ac[number];
  memset(table->fast, 0, sizeof table->fast);
  memcpy(table->values, source->huffval, sizeof table->values);
  int symbol = 0;
  int32_t code = 0;
  for (int length = 1; length <= 16; length++, code <<= 1) {
    int count = source->bits[length];
    table->valoffset[length] = symbol - code;
    table->maxcode[length] = count ? code + count - 1 : -1;
    for (int i = 0; i < count; i++, symbol++, code++) {
      if (length > CJPEG_FAST_BITS) continue;
      int spread = CJPEG_FAST_BITS - length;
      uint16_t entry = (uint16_t)(length << 8 | source->huffval[symbol]);
      for (int tail = 0; tail < 1 << spread; tail++) table->fast[(code << spread) | tail] = entry;
    }
  }
  table->maxcode[17] = INT32_MAX;
}

/* A code longer than the lookup, or one running past the bits held: read as libjpeg's
 * jpeg_huff_decode reads it, nine bits and then one at a time, so that the buffer is
 * refilled at the same point (and so reads the same bytes). Past 16 bits libjpeg has read
 * 17, warns of a bad code and decodes symbol 0. */
static __attribute__((noinline)) int decode_long(j_decompress_ptr cinfo, reader *r,
                                                 const cjpeg_huffman_table *table) {
  ensure(cinfo, r, 9);
  int length = 9;
  int32_t code = take(cinfo, r, 9);
  while (length <= 16 && code > table->maxcode[length]) {
    ensure(cinfo, r, 1);
    code = code << 1 | take(cinfo, r, 1);
    length++;
  }
  if (length > 16) {
    WARNMS(cinfo, JWRN_HUFF_BAD_CODE);
    return 0;
  }
  return table->values[(table->valoffset[length] + code) & 0xFF];
}

/* One symbol. The buffer is refilled exactly when libjpeg's HUFF_DECODE refills it (fewer
 * than 8 bits held, or a code longer than those held): refills read up to the next marker
 * or 57 bits, so refilling earlier would leave the source elsewhere at the end of a scan,
 * and change libjpeg's count of bytes skipped before the next marker in a damaged file. */
static inline int decode(j_decompress_ptr cinfo, reader *r, const cjpeg_huffman_table *table) {
  ensure(cinfo, r, 8);
  unsigned entry = table->fast[r->bits >> (64 - CJPEG_FAST_BITS)];
  int length = (int)(entry >> 8);
  if (__builtin_expect(entry == 0 || length > r->count, 0)) return decode_long(cinfo, r, table);
  drop(cinfo, r, length);
  return (int)(entry & 0xFF);
}

/* ---- Restarts ---- */

static void restart(j_decompress_ptr cinfo, cjpeg_progressive *d) {
  /* Whole unused bytes count as discarded, as in libjpeg's warning about them. */
  cinfo->marker->discarded_bytes += (unsigned)(d->reader.count - d->reader.padded) / 8;
  d->reader = (reader){0, 0, 0};
  if (!cinfo->marker->read_restart_marker(cinfo)) source_ran_dry(cinfo);
  memset(d->last_dc, 0, sizeof d->last_dc);
  d->eob_run = 0;
  d->restarts_to_go = cinfo->restart_interval;
  /* Still up against a marker: the next segment is empty, so stay out of data. */
  if (cinfo->unread_marker == 0) d->base.insufficient_data = FALSE;
}

static inline void begin_mcu(j_decompress_ptr cinfo, cjpeg_progressive *d) {
  if (cinfo->restart_interval && d->restarts_to_go == 0) restart(cinfo, d);
}

static inline void end_mcu(j_decompress_ptr cinfo, cjpeg_progressive *d) {
  if (cinfo->restart_interval) d->restarts_to_go--;
}

/* ---- The four kinds of scan (JPEG's G.1.2) ---- */

/* An end-of-band symbol's run of blocks: 2^run, plus `run` more bits. */
static inline unsigned eob_run_length(j_decompress_ptr cinfo, reader *r, int run) {
  unsigned length = 1u << run;
  if (run) {
    ensure(cinfo, r, run);
    length += (unsigned)take(cinfo, r, run);
  }
  return length;
}

/* DC coefficients, first (or only) pass: one difference per block, possibly interleaved. */
static boolean decode_dc_first(j_decompress_ptr cinfo, JBLOCKROW *blocks) {
  cjpeg_progressive *d = state_of(cinfo);
  begin_mcu(cinfo, d);
  if (!d->base.insufficient_data) {
    reader r = d->reader;
    for (int b = 0; b < cinfo->blocks_in_MCU; b++) {
      int c = cinfo->MCU_membership[b];
      int size = decode(cinfo, &r, &d->dc[cinfo->cur_comp_info[c]->dc_tbl_no]);
      int difference = 0;
      if (size) {
        ensure(cinfo, &r, size);
        difference = extend(take(cinfo, &r, size), size);
      }
      int last = d->last_dc[c];
      if ((last >= 0 && difference > INT_MAX - last) ||
          (last < 0 && difference < INT_MIN - last))
        ERREXIT(cinfo, JERR_BAD_DCT_COEF);
      d->last_dc[c] = last + difference;
      blocks[b][0][0] = (JCOEF)(long)((unsigned long)(long)d->last_dc[c] << cinfo->Al);
    }
    d->reader = r;
  }
  end_mcu(cinfo, d);
  return TRUE;
}

/* AC coefficients Ss..Se of one component, first pass: runs, values and end-of-band runs. */
static boolean decode_ac_first(j_decompress_ptr cinfo, JBLOCKROW *blocks) {
  cjpeg_progressive *d = state_of(cinfo);
  begin_mcu(cinfo, d);
  if (!d->base.insufficient_data) {
    if (d->eob_run > 0) {
      d->eob_run--;
    } else {
      reader r = d->reader;
      JCOEF *block = blocks[0][0];
      const cjpeg_huffman_table *table = d->ac_table;
      int last = cinfo->Se, shift = cinfo->Al;
      for (int k = cinfo->Ss; k <= last; k++) {
        int symbol = decode(cinfo, &r, table);
        int run = symbol >> 4, size = symbol & 15;
        if (size) {
          k += run;
          ensure(cinfo, &r, size);
          int value = extend(take(cinfo, &r, size), size);
          block[cjpeg_natural_order[k]] = (JCOEF)((unsigned)value << shift);
        } else if (run == 15) {
          k += 15;
        } else {
          d->eob_run = eob_run_length(cinfo, &r, run) - 1; /* this block is the first */
          break;
        }
      }
      d->reader = r;
    }
  }
  end_mcu(cinfo, d);
  return TRUE;
}

/* DC coefficients, refinement: one more bit of each, no Huffman codes. Runs out of data
 * harmlessly (zero bits change nothing), so libjpeg does not check for it here. */
static boolean decode_dc_refine(j_decompress_ptr cinfo, JBLOCKROW *blocks) {
  cjpeg_progressive *d = state_of(cinfo);
  begin_mcu(cinfo, d);
  reader r = d->reader;
  JCOEF bit = (JCOEF)(1 << cinfo->Al);
  for (int b = 0; b < cinfo->blocks_in_MCU; b++) {
    ensure(cinfo, &r, 1);
    if (take(cinfo, &r, 1)) blocks[b][0][0] |= bit;
  }
  d->reader = r;
  end_mcu(cinfo, d);
  return TRUE;
}

/* Correction bits for the coefficients already nonzero at zigzag positions `passed`, in
 * order: a 1 moves a coefficient one step away from zero, unless that bit is already set.
 * The bits are random, so they are applied without a branch on each. */
static inline void correct(j_decompress_ptr cinfo, reader *r, JCOEF *block, uint64_t passed,
                           int plus, int minus) {
  while (passed) {
    JCOEF *coefficient = block + cjpeg_natural_order[__builtin_ctzll(passed)];
    passed &= passed - 1;
    ensure(cinfo, r, 1);
    int change = take(cinfo, r, 1) & ((*coefficient & plus) == 0);
    int value = *coefficient;
    *coefficient = (JCOEF)(value + ((value >= 0 ? plus : minus) & -change));
  }
}

/* Zigzag positions from..63 (from <= 63), and 0..to (to <= 63). */
static inline uint64_t from_position(int from) { return ~(uint64_t)0 << from; }
static inline uint64_t through_position(int to) { return ~(uint64_t)0 >> (63 - to); }

/* The lowest set bit of `bits` after its lowest `n` (0-15) have been cleared; 0 when it
 * has no more than `n`. With `fast_select`, one BMI2 pdep instruction (fast from AMD Zen 3
 * and Intel Haswell on; see cjpeg_progressive_prepare); otherwise a loop. */
static inline uint64_t nth_set_bit(uint64_t bits, int n, int fast_select) {
#if defined(__x86_64__)
  if (fast_select) {
    uint64_t chosen;
    __asm__("pdepq %2, %1, %0" : "=r"(chosen) : "r"((uint64_t)1 << n), "rm"(bits));
    return chosen;
  }
#else
  (void)fast_select;
#endif
  for (; n > 0 && bits; n--) bits &= bits - 1;
  return bits & -bits;
}

/* AC coefficients, refinement: newly nonzero coefficients (always ±1 at this bit) placed
 * among the zero ones, and a correction bit for every one already nonzero that is passed.
 * libjpeg walks the band a coefficient at a time; this walks a map of the nonzero ones. */
static inline __attribute__((always_inline)) boolean refine_ac(j_decompress_ptr cinfo,
                                                                 JBLOCKROW *blocks,
                                                                 int fast_select) {
  cjpeg_progressive *d = state_of(cinfo);
  begin_mcu(cinfo, d);
  if (!d->base.insufficient_data) {
    reader r = d->reader;
    JCOEF *block = blocks[0][0];
    const cjpeg_huffman_table *table = d->ac_table;
    int plus = 1 << cinfo->Al, minus = (int)(~0u << cinfo->Al);
    int k = cinfo->Ss, last = cinfo->Se;
    uint64_t band = from_position(k) & through_position(last);
    uint64_t nonzero = cjpeg_nonzero_zigzag(block) & band;
    unsigned eob_run = d->eob_run;
    if (eob_run == 0) {
      for (; k <= last; k++) {
        int symbol = decode(cinfo, &r, table);
        int run = symbol >> 4, size = symbol & 15, value = 0;
        if (size) {
          if (size != 1) WARNMS(cinfo, JWRN_HUFF_BAD_CODE);
          ensure(cinfo, &r, 1);
          value = take(cinfo, &r, 1) ? plus : minus;
        } else if (run != 15) {
          eob_run = eob_run_length(cinfo, &r, run);
          break;
        }
        /* Skip `run` zero coefficients, correcting the nonzero ones passed on the way; the
         * next zero is the target. Past the band's last zero, libjpeg stops at Se + 1. */
        uint64_t zeros = ~nonzero & band & from_position(k);
        uint64_t chosen = nth_set_bit(zeros, run, fast_select);
        int target = chosen ? __builtin_ctzll(chosen) : last + 1;
        uint64_t before_target = target > 63 ? ~(uint64_t)0 : ~from_position(target);
        correct(cinfo, &r, block, nonzero & from_position(k) & before_target, plus, minus);
        k = target;
        if (value) {
          block[cjpeg_natural_order[k]] = (JCOEF)value;
          if (k <= last) nonzero |= (uint64_t)1 << k;
        }
      }
    }
    if (eob_run > 0) {
      /* In an end-of-band run: only corrections, for the rest of the band. */
      if (k <= last) correct(cinfo, &r, block, nonzero & from_position(k), plus, minus);
      eob_run--;
    }
    d->eob_run = eob_run;
    d->reader = r;
  }
  end_mcu(cinfo, d);
  return TRUE;
}

static boolean decode_ac_refine(j_decompress_ptr cinfo, JBLOCKROW *blocks) {
  return refine_ac(cinfo, blocks, 0);
}

static boolean decode_ac_refine_bmi2(j_decompress_ptr cinfo, JBLOCKROW *blocks) {
  return refine_ac(cinfo, blocks, 1);
}

/* ---- Scans ---- */

/* libjpeg's scan checks, and its record of how many bits of each coefficient are known
 * (block smoothing uses it when a file stops early); `record` is false for the first scan,
 * which libjpeg had already begun when this module took over. */
static void begin_scan(j_decompress_ptr cinfo, int record) {
  cjpeg_progressive *d = state_of(cinfo);
  int is_dc = cinfo->Ss == 0;
  int bad = is_dc ? cinfo->Se != 0
                  : cinfo->Ss > cinfo->Se || cinfo->Se >= DCTSIZE2 || cinfo->comps_in_scan != 1;
  if (cinfo->Ah != 0 && cinfo->Al != cinfo->Ah - 1) bad = 1;
  if (cinfo->Al > 13) bad = 1;
  if (bad) ERREXIT4(cinfo, JERR_BAD_PROGRESSION, cinfo->Ss, cinfo->Se, cinfo->Ah, cinfo->Al);
  for (int c = 0; record && c < cinfo->comps_in_scan; c++) {
    int index = cinfo->cur_comp_info[c]->component_index;
    int *known = cinfo->coef_bits[index];
    int *before = cinfo->coef_bits[index + cinfo->num_components];
    if (!is_dc && known[0] < 0) WARNMS2(cinfo, JWRN_BOGUS_PROGRESSION, index, 0);
    int from = cinfo->Ss < 1 ? cinfo->Ss : 1, to = cinfo->Se > 9 ? cinfo->Se : 9;
    for (int k = from; k <= to; k++) before[k] = cinfo->input_scan_number > 1 ? known[k] : 0;
    for (int k = cinfo->Ss; k <= cinfo->Se; k++) {
      if (cinfo->Ah != (known[k] < 0 ? 0 : known[k]))
        WARNMS2(cinfo, JWRN_BOGUS_PROGRESSION, index, k);
      known[k] = cinfo->Al;
    }
  }
  if (cinfo->Ah == 0)
    d->base.decode_mcu = is_dc ? decode_dc_first : decode_ac_first;
  else
    d->base.decode_mcu =
        is_dc ? decode_dc_refine : d->fast_select ? decode_ac_refine_bmi2 : decode_ac_refine;
  for (int c = 0; c < cinfo->comps_in_scan; c++) {
    const jpeg_component_info *component = cinfo->cur_comp_info[c];
    if (!is_dc) {
      build_table(cinfo, d, 0, component->ac_tbl_no);
      d->ac_table = &d->ac[component->ac_tbl_no];
    } else if (cinfo->Ah == 0) {
      build_table(cinfo, d, 1, component->dc_tbl_no);
    }
    d->last_dc[c] = 0;
  }
  d->reader = (reader){0, 0, 0};
  d->base.insufficient_data = FALSE;
  d->eob_run = 0;
  d->restarts_to_go = cinfo->restart_interval;
  fast_progressive_scans++;
}

static void start_scan(j_decompress_ptr cinfo) { begin_scan(cinfo, 1); }

/* The progress monitor's first call comes after libjpeg has set up its modules and begun
 * the first scan, and before it reads any of that scan's data. */
static void take_over(j_common_ptr common) {
  j_decompress_ptr cinfo = (j_decompress_ptr)common;
  cjpeg_progressive *d =
      (cjpeg_progressive *)((char *)cinfo->progress - offsetof(cjpeg_progressive, progress));
  d->progress.progress_monitor = NULL;
  cinfo->progress = NULL;
  if (cinfo->entropy == NULL || cinfo->input_scan_number != 1 || !cinfo->progressive_mode)
    return;
  cjpeg_order_prepare();
  d->base.start_pass = start_scan;
  cinfo->entropy = &d->base;
  begin_scan(cinfo, 0);
}

/* pdep is one fast instruction on Intel from Haswell and AMD from Zen 3; Zen 1 and 2 run
 * it in microcode, slower than the loop. */
static int fast_select_available(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("bmi2")) return 0;
  return !__builtin_cpu_is("amd") || (!__builtin_cpu_is("znver1") && !__builtin_cpu_is("znver2"));
#else
  return 0;
#endif
}

int cjpeg_progressive_prepare(j_decompress_ptr cinfo, cjpeg_progressive *state) {
  if (fast_progressive_refused || !cinfo->progressive_mode || cinfo->arith_code ||
      cinfo->data_precision != 8 || cinfo->buffered_image || cinfo->progress != NULL)
    return 0;
  memset(&state->progress, 0, sizeof state->progress);
  state->fast_select = !select_instruction_refused && fast_select_available();
  state->progress.progress_monitor = take_over;
  cinfo->progress = &state->progress;
  return 1;
}
