/* Samples into the archive: one calling context per sample (formed in
 * contexts*.c), then CallingContextSample records merged into each
 * location's event stream in time order. */
#include "finalize/samples_out.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/log.h"
#include "finalize/contexts.h"
#include "finalize/defs.h"
#include "finalize/evt_out.h"
#include "finalize/out.h"
#include "finalize/run.h"
#include "services/sampler_buf.h"
#include <stdlib.h>

typedef struct ot_out_sample {
  uint64_t raw;
  uint32_t context;
  uint32_t unwind;
} ot_out_sample;

typedef struct loc_samples {
  ot_out_sample *s;
  size_t n, next;
} loc_samples;

static const ot_run *run; /* during ot_samples_prepare */
static loc_samples *locs;
static uint32_t nlocs;
static uint64_t taken, failed;
static uint32_t generator;

uint64_t ot_samples_taken(void) {
  return taken;
}

int ot_samples_due(uint32_t loc, uint64_t limit_raw) {
  return loc < nlocs && locs[loc].next < locs[loc].n &&
         locs[loc].s[locs[loc].next].raw <= limit_raw;
}

int ot_samples_any(void) {
  for (uint32_t loc = 0; loc < nlocs; loc++)
    if (locs[loc].next < locs[loc].n)
      return 1;
  return 0;
}

uint64_t ot_samples_failed(void) {
  return failed;
}

/* Unwind distance (OTF2 CallingContext): 1 + the number of nodes not
 * shared with the previous sample's path, counted from the leaf. */
static uint32_t unwind_distance(const uint32_t *prev, int np, const uint32_t *cur, int nc) {
  int common = 0;
  while (common < np && common < nc && prev[common] == cur[common])
    common++;
  if (common == nc && nc == np)
    return 1;
  return (uint32_t)(nc - common) + 1;
}

static void prepare_location(uint32_t loc, const ot_sampler_thread *st) {
  ot_cap_buf buf = st->samples;
  if (ot_ctx_waits_load(run, loc) != 0)
    ot_verbose("samples of location %u: waits not refined from its records", loc);
  size_t n = 0;
  for (const ot_capture *c = ot_cap_next(&buf, NULL); c; c = ot_cap_next(&buf, c))
    n++;
  if (!n)
    return;
  loc_samples *ls = &locs[loc];
  ls->s = calloc(n, sizeof *ls->s);
  if (!ls->s)
    return;
  static uint32_t prev[OT_CTX_MAX_DEPTH], cur[OT_CTX_MAX_DEPTH];
  int np = 0;
  for (const ot_capture *c = ot_cap_next(&buf, NULL); c; c = ot_cap_next(&buf, c)) {
    int nc = ot_contexts_of_sample(loc, c, cur, OT_CTX_MAX_DEPTH);
    if (nc == 0)
      continue;
    ot_out_sample *o = &ls->s[ls->n++];
    o->raw = c->ts;
    o->context = cur[nc - 1];
    o->unwind = unwind_distance(prev, np, cur, nc);
    for (int i = 0; i < nc; i++)
      prev[i] = cur[i];
    np = nc;
  }
}

static double ticks_to_us(uint64_t ticks) {
  uint64_t base = run->clock0_raw;
  return (double)(ot_clock_to_ns(base + ticks) - ot_clock_to_ns(base)) / 1e3;
}

/* What sampling cost, measured inside the tool (OMPTRACE_VERBOSE=1):
 * the benchmark reads this line. */
static void report_costs(void) {
  uint64_t ns = 0, nc = 0, ts = 0, tc = 0, cfull = 0, reused = 0;
  for (uint32_t loc = 0; loc < nlocs; loc++) {
    const ot_sampler_thread *st = &run->threads[loc].sampler;
    ns += st->taken;
    nc += st->ctx_taken;
    ts += st->sample_ticks;
    tc += st->ctx_ticks;
    cfull += st->ctx_full;
    reused += st->ctx_reused;
  }
  if (cfull)
    ot_warn("%llu fork/task contexts not captured (context buffer full): their samples start "
            "at the construct",
            (unsigned long long)cfull);
  ot_verbose("sampling cost: %llu samples, %.2f us per sample; %llu contexts, %.2f us per "
             "context (%llu reused a known call path)",
             (unsigned long long)ns, ns ? ticks_to_us(ts) / (double)ns : 0.0,
             (unsigned long long)nc, nc ? ticks_to_us(tc) / (double)nc : 0.0,
             (unsigned long long)reused);
}

void ot_samples_prepare(const ot_run *r) {
  run = r;
  taken = failed = 0;
  for (uint32_t i = 0; i < run->nthreads; i++) {
    taken += run->threads[i].sampler.taken;
    failed += run->threads[i].sampler.full + run->threads[i].sampler.busy_skips;
  }
  if (!run->sampling_ns)
    return;
  nlocs = run->nthreads;
  locs = calloc(nlocs ? nlocs : 1, sizeof *locs);
  if (!locs || ot_contexts_open(run) != 0) {
    ot_warn("samples not written: out of memory");
    nlocs = 0;
    return;
  }
  /* the run's clock, from its log: omptrace-recover's own environment
   * says nothing about it */
  generator =
      ot_defs_interrupt_generator(run->sampling_wall ? "wall-clock timer" : "thread CPU-time timer",
                                  OTF2_INTERRUPT_GENERATOR_MODE_TIME, run->sampling_ns);
  for (uint32_t loc = 0; loc < nlocs; loc++)
    prepare_location(loc, &run->threads[loc].sampler);
  ot_contexts_close();
  ot_ctx_waits_free();
  report_costs();
  ot_samples_count_prepare(run);
}

OTF2_ErrorCode ot_samples_emit_until(uint32_t loc, uint64_t limit_raw) {
  if (loc >= nlocs)
    return OTF2_SUCCESS;
  loc_samples *ls = &locs[loc];
  OTF2_ErrorCode err = OTF2_SUCCESS;
  while (ls->next < ls->n && ls->s[ls->next].raw <= limit_raw) {
    const ot_out_sample *o = &ls->s[ls->next++];
    OTF2_ErrorCode e = ot_evt_sample(loc, ot_out_ts(loc, o->raw), o->context, o->unwind, generator);
    if (err == OTF2_SUCCESS)
      err = e;
  }
  if (ls->next == ls->n && ls->s) {
    free(ls->s);
    ls->s = NULL;
    ls->n = ls->next = 0;
  }
  return err;
}
