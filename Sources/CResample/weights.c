/* Resampling weights: the kernels, each output position's integer weights, and a small
 * process-wide cache of them.
 *
 * Computing weights costs two sines per tap; the outputs of a batch repeat the same axes
 * (every photo of one size asks for the same 1x, fill and tile sizes), so axes are shared
 * between streams, on any thread, and the most recently used are kept. */

#include "CResample.h"
#include "resample_internal.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- kernels */

static double support_of(cresample_kernel kernel) {
  switch (kernel) {
  case CRESAMPLE_LINEAR: return 1.0;
  case CRESAMPLE_CUBIC:
  case CRESAMPLE_MITCHELL:
  case CRESAMPLE_LANCZOS2: return 2.0;
  case CRESAMPLE_LANCZOS3: return 3.0;
  }
  return 0.0;
}

static double sinc(double x) {
  if (x == 0.0) return 1.0;
  x *= M_PI;
  return sin(x) / x;
}

/* sinc(x) sinc(x / 3) with one sine: sin(3t) = 3 sin t - 4 sin^3 t, t = pi x / 3. */
static double lanczos3(double x) {
  if (x == 0.0) return 1.0;
  double s = sin(M_PI * x / 3.0);
  return 3.0 * (3.0 * s - 4.0 * s * s * s) * s / (M_PI * M_PI * x * x);
}

/* The general cubic with parameters B and C (Mitchell and Netravali, 1988). */
static double bc_cubic(double x, double b, double c) {
  x = fabs(x);
  if (x < 1.0)
    return ((12 - 9 * b - 6 * c) * x * x * x + (-18 + 12 * b + 6 * c) * x * x + (6 - 2 * b)) / 6;
  if (x < 2.0)
    return ((-b - 6 * c) * x * x * x + (6 * b + 30 * c) * x * x + (-12 * b - 48 * c) * x +
            (8 * b + 24 * c)) / 6;
  return 0.0;
}

static double weight_of(cresample_kernel kernel, double x) {
  switch (kernel) {
  case CRESAMPLE_LINEAR: x = fabs(x); return x < 1.0 ? 1.0 - x : 0.0;
  case CRESAMPLE_CUBIC: return bc_cubic(x, 0.0, 0.5);
  case CRESAMPLE_MITCHELL: return bc_cubic(x, 1.0 / 3.0, 1.0 / 3.0);
  case CRESAMPLE_LANCZOS2: return fabs(x) < 2.0 ? sinc(x) * sinc(x / 2.0) : 0.0;
  case CRESAMPLE_LANCZOS3: return fabs(x) < 3.0 ? lanczos3(x) : 0.0;
  }
  return 0.0;
}

/* ---------------------------------------------------------------- coefficients */

static void axis_free(axis *a) {
  free(a->start);
  free(a->weights);
  free(a->pair_weights);
}

/* floor(v) as an index clamped to [lo, hi], computed in double so that windows of huge
 * axes (supports of billions of pixels) never convert an out-of-range double to int. */
static int index_in(double v, int lo, int hi) {
  v = floor(v);
  return v < lo ? lo : v > hi ? hi : (int)v;
}

static int axis_make(axis *a, int in_size, double extent, int out_size, int first, int count,
                     cresample_kernel kernel) {
  /* Every output position must exist: first + count <= out_size, summed in 64 bits. */
  if (in_size < 1 || out_size < 1 || first < 0 || count < 1 ||
      (int64_t)first + count > out_size || !cresample_extent_valid(in_size, extent))
    return -1;
  double scale = extent / out_size;
  double stretch = scale > 1.0 ? scale : 1.0;
  double support = support_of(kernel) * stretch;
  /* The widest window any output reads: the pixels strictly within `support` of its
   * centre, clamped to the image (at most ceil(2 x support), where the textbook
   * 2 x ceil(support) + 1 slots would add up to three taps of zero weight). */
  int taps = 1;
  for (int i = 0; i < count; i++) {
    double centre = ((double)first + i + 0.5) * scale;
    int jlo = index_in(centre - support - 0.5, -1, in_size - 1) + 1;
    int jhi = -index_in(-(centre + support - 0.5), -in_size, 0) - 1;
    if (jlo < 0) jlo = 0;
    if (jhi > in_size - 1) jhi = in_size - 1;
    if (jhi - jlo + 1 > taps) taps = jhi - jlo + 1;
  }
  a->count = count;
  a->taps = taps;
  a->pairs = (taps + 1) / 2;
  a->start = malloc(sizeof(int) * (size_t)count);
  a->weights = calloc((size_t)count * (size_t)taps, sizeof(int32_t));
  a->pair_weights = malloc(sizeof(int32_t) * (size_t)count * (size_t)a->pairs);
  double *raw = malloc(sizeof(double) * (size_t)taps);
  if (!a->start || !a->weights || !a->pair_weights || !raw) {
    free(raw);
    axis_free(a);
    return -1;
  }
  for (int i = 0; i < count; i++) {
    /* Pixel j covers [j, j + 1); output i's centre in input coordinates: */
    double centre = ((double)first + i + 0.5) * scale;
    /* Taps j with |j + 0.5 - centre| < support; those past an edge take the edge pixel.
     * The window [from, from + taps) holds every (clamped) tap. (The bounds are clamped
     * only far beyond any image that fits in memory, where the cast would overflow.) */
    int jlo = index_in(centre - support - 0.5, INT_MIN / 2, INT_MAX / 2) + 1;
    int jhi = -index_in(-(centre + support - 0.5), INT_MIN / 2, INT_MAX / 2) - 1;
    int from = jlo < 0 ? 0 : jlo;
    if (from > in_size - taps) from = in_size - taps;
    for (int t = 0; t < taps; t++) raw[t] = 0.0;
    double sum = 0.0;
    for (int j = jlo; j <= jhi; j++) {
      double w = weight_of(kernel, (j + 0.5 - centre) / stretch);
      if (w == 0.0) continue;
      int k = j < 0 ? 0 : j > in_size - 1 ? in_size - 1 : j;
      if (k < from) k = from;
      if (k > from + taps - 1) k = from + taps - 1;
      raw[k - from] += w;
      sum += w;
    }
    int32_t *w = a->weights + (size_t)i * taps;
    if (sum == 0.0) { /* cannot happen for these kernels; keep the nearest pixel */
      int k = (int)centre - from;
      w[k < 0 ? 0 : k >= taps ? taps - 1 : k] = 1 << PRECISION;
    } else {
      int32_t total = 0, biggest = 0;
      for (int t = 0; t < taps; t++) {
        w[t] = (int32_t)lround(raw[t] / sum * (1 << PRECISION));
        total += w[t];
        if (w[t] > w[biggest]) biggest = t;
      }
      w[biggest] += (1 << PRECISION) - total; /* sums to exactly one */
    }
    for (int q = 0; q < a->pairs; q++) {
      uint32_t second = 2 * q + 1 < taps ? (uint16_t)w[2 * q + 1] : 0;
      a->pair_weights[(size_t)i * a->pairs + q] = (int32_t)((uint16_t)w[2 * q] | second << 16);
    }
    a->start[i] = from;
  }
  free(raw);
  return 0;
}

/* ---------------------------------------------------------------- passes */

int cresample_kernel_known(cresample_kernel kernel) { return support_of(kernel) > 0.0; }

int cresample_extent_valid(int in_size, double extent) {
  return extent > 0.0 && extent > in_size - 1.0 && extent < in_size + 1.0;
}

/* ---------------------------------------------------------------- cache */

#define CACHED_AXES 32
#define CACHED_WEIGHTS_MAX (16 * 1024) /* count x taps of the largest axis kept */

typedef struct {
  axis a; /* first, so an axis pointer is its entry's */
  int in_size, out_size, first;
  double extent;
  cresample_kernel kernel;
  int refs; /* streams using it, plus one while cached */
  unsigned long used;
} entry;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static entry *cache[CACHED_AXES];
static unsigned long cache_clock;

static void unref(entry *e) { /* with cache_lock held */
  if (--e->refs == 0) {
    axis_free(&e->a);
    free(e);
  }
}

const axis *cresample_axis_acquire(int in_size, double extent, int out_size, int first,
                                   int count, cresample_kernel kernel) {
  pthread_mutex_lock(&cache_lock);
  for (int i = 0; i < CACHED_AXES; i++) {
    entry *e = cache[i];
    if (e && e->in_size == in_size && e->extent == extent && e->out_size == out_size &&
        e->first == first && e->a.count == count && e->kernel == kernel) {
      e->refs++;
      e->used = ++cache_clock;
      pthread_mutex_unlock(&cache_lock);
      return &e->a;
    }
  }
  pthread_mutex_unlock(&cache_lock);
  entry *made = calloc(1, sizeof(entry));
  if (!made) return NULL;
  if (axis_make(&made->a, in_size, extent, out_size, first, count, kernel) != 0) {
    free(made);
    return NULL;
  }
  made->in_size = in_size;
  made->extent = extent;
  made->out_size = out_size;
  made->first = first;
  made->kernel = kernel;
  made->refs = 1;
  if ((long)count * made->a.taps <= CACHED_WEIGHTS_MAX) {
    pthread_mutex_lock(&cache_lock);
    int slot = 0;
    for (int i = 0; i < CACHED_AXES; i++) {
      if (!cache[i]) {
        slot = i;
        break;
      }
      if (cache[i]->used < cache[slot]->used) slot = i;
    }
    if (cache[slot]) unref(cache[slot]);
    made->refs++;
    made->used = ++cache_clock;
    cache[slot] = made;
    pthread_mutex_unlock(&cache_lock);
  }
  return &made->a;
}

void cresample_axis_release(const axis *a) {
  if (!a) return;
  pthread_mutex_lock(&cache_lock);
  unref((entry *)a);
  pthread_mutex_unlock(&cache_lock);
}
