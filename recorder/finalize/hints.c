/* Tasks per task region and their summed time, and flushes per flush
 * region with the times of the first and last, kept by region id (dense,
 * finalize/defs.c), so the replay adds a few numbers per task or flush. */
#include "finalize/hints.h"
#include "core/config.h"
#include "core/log.h"
#include "finalize/defs.h"
#include "finalize/grow.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  uint64_t count, ns;
} task_sum;

static task_sum *sums;
static uint32_t cap;

typedef struct {
  uint64_t count, first, last;
} flush_sum;

static flush_sum *flushes;
static uint32_t fcap;

void ot_hint_task_done(uint32_t region, uint64_t ns) {
  if (region >= cap) {
    task_sum *s = ot_grow(sums, &cap, (uint64_t)region + 1, sizeof *s, 64);
    if (!s)
      return; /* out of memory: no hint for this task */
    sums = s;
  }
  sums[region].count++;
  sums[region].ns += ns;
}

void ot_hint_flush(uint32_t region, uint64_t t) {
  if (region >= fcap) {
    flush_sum *f = ot_grow(flushes, &fcap, (uint64_t)region + 1, sizeof *f, 16);
    if (!f)
      return; /* out of memory: no hint for this flush */
    flushes = f;
  }
  flush_sum *f = &flushes[region];
  if (f->count++ == 0 || t < f->first)
    f->first = t;
  if (t > f->last)
    f->last = t;
}

/* " (and 2 more task sites)" after the site named, of n sites. */
static void more_sites(char *out, size_t size, uint32_t n, const char *kind) {
  out[0] = 0;
  if (n > 1)
    snprintf(out, size, " (and %" PRIu32 " more %s site%s)", n - 1, kind, n == 2 ? "" : "s");
}

/* OT_HINT_TASK_NS, or OMPTRACE_TEST_HINT_NS: the tests set a bound no
 * task or flush can miss (or none can meet), so that whether a site gets
 * the hint never depends on the machine's speed or load. */
static uint64_t hint_ns(void) {
  const char *v = getenv("OMPTRACE_TEST_HINT_NS");
  char *end;
  unsigned long long ns = v ? strtoull(v, &end, 10) : 0;
  return ns && *end == 0 ? (uint64_t)ns : OT_HINT_TASK_NS;
}

/* One flush per hint_ns() or more often: a spin-wait flushing per spin. */
static int busy(const flush_sum *f, uint64_t bound) {
  return f->count >= OT_HINT_TASKS && f->last - f->first < f->count * bound;
}

static void report_flushes(uint64_t bound) {
  uint32_t top = 0, n = 0;
  for (uint32_t r = 0; r < fcap; r++)
    if (busy(&flushes[r], bound) && (n++ == 0 || flushes[r].count > flushes[top].count))
      top = r;
  if (n == 0)
    return;
  const flush_sum *f = &flushes[top];
  char others[48];
  more_sites(others, sizeof others, n, "flush");
  double span = (double)(f->last - f->first) * 1e-9;
  char rate[48] = "";
  if (span > 0)
    snprintf(rate, sizeof rate, ", %.0f a second", (double)f->count / span);
  ot_info("hint: %" PRIu64 " flushes at %s%s%s; OMPTRACE_THROTTLE=1000,10us traces the first 1000 "
          "per thread and counts the rest (docs/control.md)",
          f->count, ot_defs_region_name(top), others, rate);
}

static int tiny(const task_sum *s, uint64_t bound) {
  return s->count >= OT_HINT_TASKS && s->ns < s->count * bound;
}

static void report_tasks(uint64_t bound) {
  uint32_t top = 0, n = 0; /* the site with the most tiny tasks, of n */
  for (uint32_t r = 0; r < cap; r++)
    if (tiny(&sums[r], bound) && (n++ == 0 || sums[r].count > sums[top].count))
      top = r;
  if (n == 0)
    return;
  const task_sum *s = &sums[top];
  char others[48];
  more_sites(others, sizeof others, n, "task");
  ot_info("hint: %" PRIu64 " tasks of %s%s ran %.2f us on average; OMPTRACE_THROTTLE=1000,10us "
          "traces the first 1000 per thread and counts the rest (docs/control.md)",
          s->count, ot_defs_region_name(top), others, (double)s->ns / (double)s->count * 1e-3);
}

void ot_hints_report(void) {
  if (ot_cfg.throttle_n) /* the user throttles already */
    return;
  uint64_t bound = hint_ns();
  report_tasks(bound);
  report_flushes(bound);
}

void ot_hints_free(void) {
  free(sums);
  sums = NULL;
  cap = 0;
  free(flushes);
  flushes = NULL;
  fcap = 0;
}
