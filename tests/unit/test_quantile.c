/* unit_quantile: the summary's task-duration quantiles (converters/summary/
 * quantile.c). Nearest rank, no interpolation: quantile p of n values is
 * the value of rank ceil(p * n) (at least 1) in sorted order. Exact up to
 * 65536 values; beyond, a log-linear histogram answers with the upper
 * bound of the bucket holding that rank: values below 32 exactly, a value
 * v in [2^e, 2^(e+1)) by the top of its 1/32-of-2^e wide sub-bucket. */
#include "check.h"
#include "summary.h"

#include <stdio.h>
#include <stdlib.h>

#define QUANT_EXACT 65536 /* documented bound ("exact up to 65536 tasks") */

/* Small value sets, in insertion order. */
typedef struct {
  const char *name;
  uint64_t vals[8];
  uint32_t n;
  double p;
  uint64_t want;
} small_case;

static const small_case small_cases[] = {
    {"empty p=0", {0}, 0, 0.0, 0},
    {"empty p=0.5", {0}, 0, 0.5, 0},
    {"empty p=1", {0}, 0, 1.0, 0},
    {"one p=0", {42}, 1, 0.0, 42},
    {"one p=0.5", {42}, 1, 0.5, 42},
    {"one p=0.99", {42}, 1, 0.99, 42},
    {"one p=1", {42}, 1, 1.0, 42},
    {"two p=0 (rank at least 1)", {20, 10}, 2, 0.0, 10},
    {"two p=0.5 (lower one, not 15)", {20, 10}, 2, 0.5, 10},
    {"two p=0.51", {20, 10}, 2, 0.51, 20},
    {"two p=0.99", {20, 10}, 2, 0.99, 20},
    {"two p=1", {20, 10}, 2, 1.0, 20},
    {"two p=1.5 (rank at most n)", {20, 10}, 2, 1.5, 20},
    {"three p=0.33", {3, 1, 2}, 3, 0.33, 1},
    {"three p=0.34", {3, 1, 2}, 3, 0.34, 2},
    {"three p=0.5", {3, 1, 2}, 3, 0.5, 2},
    {"four p=0.5 (20, not 25)", {40, 10, 30, 20}, 4, 0.5, 20},
    {"duplicates p=0.25", {5, 5, 5, 1}, 4, 0.25, 1},
    {"duplicates p=0.5", {5, 5, 5, 1}, 4, 0.5, 5},
    {"extremes p=0.25", {UINT64_MAX, 0, 1ull << 63, 1}, 4, 0.25, 0},
    {"extremes p=0.5", {UINT64_MAX, 0, 1ull << 63, 1}, 4, 0.5, 1},
    {"extremes p=0.75", {UINT64_MAX, 0, 1ull << 63, 1}, 4, 0.75, 1ull << 63},
    {"extremes p=1", {UINT64_MAX, 0, 1ull << 63, 1}, 4, 1.0, UINT64_MAX},
};

/* Generated value sets: gen(i) for i in 0..n-1, in the given order. */
enum order { ASC, DESC, SHUFFLED };
enum gen { ONE_TO_N, MOD32, ZEROS_THEN_MAX, ZEROS_THEN_2_63 };

typedef struct {
  const char *name;
  uint32_t n;
  enum gen gen;
  enum order order;
  int exact; /* quant_exact() afterwards */
  double p;
  uint64_t want;
} seq_case;

static const seq_case seq_cases[] = {
    {"1..100 p=0.01", 100, ONE_TO_N, SHUFFLED, 1, 0.01, 1},
    {"1..100 p=0.5", 100, ONE_TO_N, SHUFFLED, 1, 0.5, 50},
    {"1..100 p=0.9", 100, ONE_TO_N, SHUFFLED, 1, 0.9, 90},
    {"1..100 p=0.99", 100, ONE_TO_N, SHUFFLED, 1, 0.99, 99},
    {"1..100 p=0.995", 100, ONE_TO_N, SHUFFLED, 1, 0.995, 100},
    {"1..100 p=1", 100, ONE_TO_N, SHUFFLED, 1, 1.0, 100},
    {"1..1000 desc p=0.5", 1000, ONE_TO_N, DESC, 1, 0.5, 500},
    {"1..1000 desc p=0.99", 1000, ONE_TO_N, DESC, 1, 0.99, 990},
    {"1..1000 desc p=0.999", 1000, ONE_TO_N, DESC, 1, 0.999, 999},
    /* Exactly at the bound: still exact. ceil(0.99 * 65536) = 64881. */
    {"1..65536 p=0.5", QUANT_EXACT, ONE_TO_N, SHUFFLED, 1, 0.5, 32768},
    {"1..65536 p=0.99", QUANT_EXACT, ONE_TO_N, SHUFFLED, 1, 0.99, 64881},
    {"1..65536 p=1", QUANT_EXACT, ONE_TO_N, SHUFFLED, 1, 1.0, 65536},
    /* One more: histogram. Rank 32769 is value 32769, in [32768, 33792). */
    {"1..65537 p=0 (bucket of 1)", QUANT_EXACT + 1, ONE_TO_N, ASC, 0, 0.0, 1},
    {"1..65537 p=0.5", QUANT_EXACT + 1, ONE_TO_N, ASC, 0, 0.5, 33791},
    /* Rank 64882 is value 64882, in [64512, 65536). */
    {"1..65537 p=0.99", QUANT_EXACT + 1, ONE_TO_N, SHUFFLED, 0, 0.99, 65535},
    /* Value 65537 is in [65536, 67584), the first sub-bucket of 2^16. */
    {"1..65537 p=1", QUANT_EXACT + 1, ONE_TO_N, DESC, 0, 1.0, 67583},
    /* Values below 32 stay exact in the histogram: 0 appears 2049 times,
     * 1..31 2048 times each; rank 32769 falls on 15. */
    {"i%32 x65537 p=0.5", QUANT_EXACT + 1, MOD32, ASC, 0, 0.5, 15},
    {"i%32 x65537 p=1", QUANT_EXACT + 1, MOD32, SHUFFLED, 0, 1.0, 31},
    {"i%32 x65537 p=0", QUANT_EXACT + 1, MOD32, DESC, 0, 0.0, 0},
    {"zeros+max p=0.5", QUANT_EXACT + 1, ZEROS_THEN_MAX, ASC, 0, 0.5, 0},
    {"zeros+max p=1", QUANT_EXACT + 1, ZEROS_THEN_MAX, ASC, 0, 1.0, UINT64_MAX},
    /* 2^63 is in the first sub-bucket of 2^63: upper bound 33 * 2^58 - 1. */
    {"zeros+2^63 p=1", QUANT_EXACT + 1, ZEROS_THEN_2_63, ASC, 0, 1.0, 9511602413006487551ull},
};

static uint64_t gen_value(enum gen g, uint32_t i, uint32_t n) {
  switch (g) {
  case ONE_TO_N:
    return i + 1u;
  case MOD32:
    return i % 32u;
  case ZEROS_THEN_MAX:
    return i + 1 == n ? UINT64_MAX : 0;
  case ZEROS_THEN_2_63:
    return i + 1 == n ? 1ull << 63 : 0;
  }
  return 0;
}

static uint64_t *make_values(const seq_case *c) {
  uint64_t *v = calloc(c->n, sizeof *v);
  if (!v) {
    fprintf(stderr, "unit_quantile: out of memory\n");
    exit(2);
  }
  for (uint32_t i = 0; i < c->n; i++)
    v[i] = gen_value(c->gen, c->order == DESC ? c->n - 1 - i : i, c->n);
  if (c->order == SHUFFLED) { /* Fisher-Yates with a fixed LCG: same order every run */
    uint64_t s = 12345;
    for (uint32_t i = c->n - 1; i > 0; i--) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      uint32_t j = (uint32_t)((s >> 33) % (i + 1u));
      uint64_t t = v[i];
      v[i] = v[j];
      v[j] = t;
    }
  }
  return v;
}

static void test_small(void) {
  for (size_t k = 0; k < sizeof small_cases / sizeof small_cases[0]; k++) {
    const small_case *c = &small_cases[k];
    sm_quant *q = quant_new();
    for (uint32_t i = 0; i < c->n; i++)
      quant_add(q, c->vals[i]);
    CHECK_U64(c->name, quant_get(q, c->p), c->want);
    CHECK_TRUE(c->name, quant_exact(q));
    quant_free(q);
  }
}

static void test_sequences(void) {
  for (size_t k = 0; k < sizeof seq_cases / sizeof seq_cases[0]; k++) {
    const seq_case *c = &seq_cases[k];
    uint64_t *v = make_values(c);
    sm_quant *q = quant_new();
    for (uint32_t i = 0; i < c->n; i++)
      quant_add(q, v[i]);
    CHECK_U64(c->name, quant_get(q, c->p), c->want);
    CHECK_I64(c->name, quant_exact(q), c->exact);
    quant_free(q);
    free(v);
  }
}

/* Histogram answers over 1..n: the value of the rank itself (for 1..n the
 * value of rank r is r) rounded up by less than 1/32 of it. */
static void test_histogram_error(void) {
  const uint32_t n = 3 * QUANT_EXACT;
  sm_quant *q = quant_new();
  for (uint32_t i = n; i > 0; i--)
    quant_add(q, i);
  CHECK_TRUE("3*65536 values: histogram", !quant_exact(q));
  int bad = 0;
  for (int pm = 0; pm <= 1000; pm++) {
    double p = pm / 1000.0;
    uint64_t rank = (uint64_t)((double)n * pm / 1000);
    if (rank * 1000 < (uint64_t)n * pm)
      rank++;
    if (rank < 1)
      rank = 1;
    uint64_t got = quant_get(q, p);
    if (got < rank || got - rank >= (rank > 32 ? rank / 32 : 1)) {
      if (!bad++)
        printf("histogram p=%.3f: got %llu for rank %llu\n", p, (unsigned long long)got,
               (unsigned long long)rank);
    }
  }
  CHECK_I64("histogram answers within 1/32 above the exact value, p=0..1", bad, 0);
  quant_free(q);
}

/* Adding after a query re-sorts: the store is not left stale. */
static void test_add_after_get(void) {
  sm_quant *q = quant_new();
  quant_add(q, 5);
  quant_add(q, 1);
  CHECK_U64("{5,1} p=1", quant_get(q, 1.0), 5);
  quant_add(q, 10);
  CHECK_U64("{5,1,10} p=1", quant_get(q, 1.0), 10);
  quant_add(q, 0);
  CHECK_U64("{5,1,10,0} p=0", quant_get(q, 0.0), 0);
  CHECK_U64("{5,1,10,0} p=0.5", quant_get(q, 0.5), 1);
  CHECK_U64("{5,1,10,0} p=0.75", quant_get(q, 0.75), 5);
  quant_free(q);
  quant_free(NULL); /* accepted, like free() */
}

int main(void) {
  test_small();
  test_sequences();
  test_histogram_error();
  test_add_after_get();
  return ut_done("unit_quantile");
}
