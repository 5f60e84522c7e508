/* Quantiles of task durations. Exact (nearest rank over all values) up to
 * QUANT_EXACT values; beyond that a log-linear histogram (32 sub-buckets per
 * power of two, relative error below 3.2%) answers with the bucket's upper
 * bound, so memory stays bounded however many tasks there are. */
#include "summary.h"

#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define QUANT_EXACT 65536
#define SUB 32
#define NBUCKETS (64 * SUB)

struct sm_quant {
  uint64_t *v;
  uint32_t n, cap;
  bool sorted;
  uint64_t count;
  uint64_t *hist; /* allocated once the exact store overflows */
};

sm_quant *quant_new(void) {
  return otr_xcalloc(1, sizeof(sm_quant));
}

static uint32_t bucket(uint64_t v) {
  if (v < SUB)
    return (uint32_t)v;
  int e = 63 - __builtin_clzll(v); /* v in [2^e, 2^(e+1)) */
  uint32_t sub = (uint32_t)((v >> (e - 5)) & (SUB - 1));
  return (uint32_t)(e - 4) * SUB + sub;
}

static uint64_t bucket_upper(uint32_t b) {
  if (b < SUB)
    return b;
  uint32_t e = b / SUB + 4, sub = b % SUB;
  return ((uint64_t)(SUB + sub + 1) << (e - 5)) - 1;
}

void quant_add(sm_quant *q, uint64_t v) {
  q->count++;
  if (!q->hist && q->n < QUANT_EXACT) {
    if (q->n == q->cap) {
      q->cap = q->cap ? 2 * q->cap : 256;
      q->v = otr_xrealloc(q->v, q->cap * sizeof *q->v);
    }
    q->v[q->n++] = v;
    q->sorted = false;
    return;
  }
  if (!q->hist) {
    q->hist = otr_xcalloc(NBUCKETS, sizeof *q->hist);
    for (uint32_t i = 0; i < q->n; i++)
      q->hist[bucket(q->v[i])]++;
    free(q->v);
    q->v = NULL;
    q->n = q->cap = 0;
  }
  q->hist[bucket(v)]++;
}

static int cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

uint64_t quant_get(sm_quant *q, double p) {
  if (!q->count)
    return 0;
  uint64_t rank = (uint64_t)ceil(p * (double)q->count);
  if (rank < 1)
    rank = 1;
  if (rank > q->count)
    rank = q->count;
  if (!q->hist) {
    if (!q->sorted)
      qsort(q->v, q->n, sizeof *q->v, cmp);
    q->sorted = true;
    return q->v[rank - 1];
  }
  uint64_t seen = 0;
  for (uint32_t b = 0; b < NBUCKETS; b++) {
    seen += q->hist[b];
    if (seen >= rank)
      return bucket_upper(b);
  }
  return 0;
}

bool quant_exact(const sm_quant *q) {
  return !q->hist;
}

void quant_free(sm_quant *q) {
  if (!q)
    return;
  free(q->v);
  free(q->hist);
  free(q);
}
