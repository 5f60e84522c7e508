/* Calling-context samples: top call paths and a flat profile by function
 * and line, each split into OMP Work, OMP Wait and runtime overhead. The
 * innermost runtime pseudo-frame of a sample's path (a region named
 * "<OMP-...>") decides: <OMP-overhead> is overhead, <OMP-reduction> and
 * <OMP-work...> are work, every other one (<OMP-implicit_barrier>,
 * <OMP-lock_wait>, <OMP-idle>, ...) is wait; no pseudo-frame is work. The
 * flat profile charges a sample to its innermost frame that is not a
 * pseudo-frame. Time = samples x the generator's period. */
#include "summary.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  uint32_t ctx;
  uint64_t n, wait, ovh;
} prow;

struct sm_samples {
  uint64_t *count; /* per context */
  uint64_t total, period_ns;
  /* after finish */
  uint8_t *kind;  /* per context: K_WORK, K_WAIT or K_OVH */
  uint32_t *flat; /* per context: its flat-profile context, or OTR_NONE */
  prow *paths, *fl;
  uint32_t np, nf;
  uint64_t wait, ovh; /* samples */
};

static void init(sm *s) {
  sm_samples *p = otr_xcalloc(1, sizeof *p);
  p->count = otr_xcalloc(s->d->n_contexts + 1, sizeof *p->count);
  s->samples = p;
}

static void add(sm *s, const otr_loc *l, uint64_t t, uint32_t ctx, uint32_t gen) {
  (void)l, (void)t;
  sm_samples *p = s->samples;
  if (ctx >= s->d->n_contexts)
    return;
  p->count[ctx]++;
  p->total++;
  if (!p->period_ns && gen < s->d->n_generators)
    p->period_ns = s->d->generator_period_ns[gen];
}

static const char *rname(const sm *s, uint32_t ctx) {
  uint32_t r = s->d->contexts[ctx].region;
  return r < s->d->n_regions ? s->d->regions[r].name : "(unknown)";
}

static bool pseudo(const char *n) {
  return !strncmp(n, "<OMP-", 5);
}

enum { K_WORK, K_WAIT, K_OVH };

static int kind_of(const char *n) {
  if (strstr(n, "overhead"))
    return K_OVH;
  if (strstr(n, "reduction") || strstr(n, "work"))
    return K_WORK;
  return K_WAIT;
}

static int by_n(const void *a, const void *b) {
  const prow *x = a, *y = b;
  if (x->n != y->n)
    return x->n < y->n ? 1 : -1;
  return x->ctx < y->ctx ? -1 : x->ctx > y->ctx;
}

static void path_of(const sm *s, uint32_t ctx, char *buf, size_t n) {
  uint32_t chain[64], depth = 0;
  for (uint32_t c = ctx; c != OTR_NONE && depth < 64; c = s->d->contexts[c].parent)
    chain[depth++] = c;
  size_t o = 0;
  buf[0] = 0;
  for (uint32_t i = depth; i-- > 0 && o + 1 < n;) {
    const otr_context *c = &s->d->contexts[chain[i]];
    if (c->line)
      o += (size_t)snprintf(buf + o, n - o, "%s%s:%u", o ? " > " : "", rname(s, chain[i]), c->line);
    else
      o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? " > " : "", rname(s, chain[i]));
  }
}

/* Each context's kind and flat-profile frame; parents come before
 * children in the definitions. */
static void classify(sm *s) {
  sm_samples *p = s->samples;
  uint32_t nc = s->d->n_contexts;
  p->kind = otr_xcalloc(nc, sizeof *p->kind);
  p->flat = otr_xmalloc(nc * sizeof *p->flat);
  for (uint32_t c = 0; c < nc; c++) {
    uint32_t par = s->d->contexts[c].parent;
    const char *n = rname(s, c);
    bool ps = pseudo(n);
    p->kind[c] = ps ? (uint8_t)kind_of(n) : par != OTR_NONE ? p->kind[par] : K_WORK;
    p->flat[c] = ps ? (par != OTR_NONE ? p->flat[par] : OTR_NONE) : c;
  }
}

/* One row per sampled context; the totals of wait and overhead. */
static void count_paths(sm *s) {
  sm_samples *p = s->samples;
  for (uint32_t c = 0; c < s->d->n_contexts; c++) {
    p->fl[c].ctx = c;
    if (!p->count[c])
      continue;
    prow *x = &p->paths[p->np++];
    x->ctx = c;
    x->n = p->count[c];
    x->wait = p->kind[c] == K_WAIT ? p->count[c] : 0;
    x->ovh = p->kind[c] == K_OVH ? p->count[c] : 0;
    p->wait += x->wait;
    p->ovh += x->ovh;
  }
}

/* flat profile: merge contexts with the same function, file and line */
static void flat_profile(sm *s) {
  sm_samples *p = s->samples;
  for (uint32_t c = 0; c < s->d->n_contexts; c++) {
    if (!p->count[c] || p->flat[c] == OTR_NONE)
      continue;
    const otr_context *x = &s->d->contexts[p->flat[c]];
    uint32_t j = 0;
    for (; j < p->nf; j++) {
      const otr_context *y = &s->d->contexts[p->fl[j].ctx];
      if (y->region == x->region && y->line == x->line && !strcmp(y->file, x->file))
        break;
    }
    if (j == p->nf)
      p->fl[p->nf++] = (prow){p->flat[c], 0, 0, 0};
    p->fl[j].n += p->count[c];
    p->fl[j].wait += p->kind[c] == K_WAIT ? p->count[c] : 0;
    p->fl[j].ovh += p->kind[c] == K_OVH ? p->count[c] : 0;
  }
}

static int expected_taken(const sm *s, uint64_t *expected, uint64_t *taken);

static void finish(sm *s) {
  sm_samples *p = s->samples;
  uint64_t expected, taken;
  if (expected_taken(s, &expected, &taken))
    s->facts.samples_expected = expected; /* a run that lost every sample says so too */
  if (!p->total)
    return;
  uint32_t nc = s->d->n_contexts;
  classify(s);
  p->paths = otr_xcalloc(nc, sizeof *p->paths);
  p->fl = otr_xcalloc(nc, sizeof *p->fl);
  count_paths(s);
  flat_profile(s);
  qsort(p->paths, p->np, sizeof *p->paths, by_n);
  qsort(p->fl, p->nf, sizeof *p->fl, by_n);
  s->facts.samples = p->total;
  s->facts.wait_samples = p->wait;
}

/* Samples expected and taken, summed over the locations of the archive's
 * "omptrace::samples" (docs/summary.md): 0 when it has none. */
static int expected_taken(const sm *s, uint64_t *expected, uint64_t *taken) {
  const char *q = s->d->samples_text;
  *expected = *taken = 0;
  if (!q)
    return 0;
  unsigned long long loc, e, reached, t;
  int n;
  while (sscanf(q, "%llu %llu %llu %llu%n", &loc, &e, &reached, &t, &n) == 4) {
    *expected += e;
    *taken += t;
    q += n;
  }
  return 1;
}

static void report_summary(sm *s, report *r) {
  sm_samples *p = s->samples;
  uint64_t expected, taken;
  int counted = expected_taken(s, &expected, &taken);
  rtable *t = rt_new(r, "samples", "summary", "Samples", true);
  rt_col(t, "samples", "Samples", RV_INT);
  rt_col(t, "period_ns", "Sampling period", RV_NS);
  rt_col(t, "work_samples", "OMP Work samples", RV_INT);
  rt_col(t, "wait_samples", "OMP Wait samples", RV_INT);
  rt_col(t, "overhead_samples", "Runtime overhead samples", RV_INT);
  rt_col(t, "wait_share", "OMP Wait share", RV_PCT);
  rt_col(t, "time_ns", "Sampled time", RV_NS);
  if (counted) {
    rt_col(t, "expected_samples", "Samples expected", RV_INT);
    rt_col(t, "missing_samples", "Samples missing", RV_INT);
  }
  rt_row(t);
  rt_int(t, (int64_t)p->total);
  rt_ns(t, p->period_ns);
  rt_int(t, (int64_t)(p->total - p->wait - p->ovh));
  rt_int(t, (int64_t)p->wait);
  rt_int(t, (int64_t)p->ovh);
  rt_pct(t, (double)p->wait / (double)p->total);
  rt_ns(t, p->total * p->period_ns);
  if (counted) {
    rt_int(t, (int64_t)expected);
    rt_int(t, (int64_t)(expected > taken ? expected - taken : 0));
  }
}

/* Samples, work, wait, overhead and time of one row. */
static void counts(rtable *t, const prow *x, uint64_t period_ns) {
  rt_int(t, (int64_t)x->n);
  rt_int(t, (int64_t)(x->n - x->wait - x->ovh));
  rt_int(t, (int64_t)x->wait);
  rt_int(t, (int64_t)x->ovh);
  rt_ns(t, x->n * period_ns);
}

static void report_paths(sm *s, report *r) {
  sm_samples *p = s->samples;
  rtable *pt = rt_new(r, "samples", "paths", "Top call paths", false);
  rt_col(pt, "samples", "Samples", RV_INT);
  rt_col(pt, "work", "Work", RV_INT);
  rt_col(pt, "wait", "Wait", RV_INT);
  rt_col(pt, "overhead", "Ovh", RV_INT);
  rt_col(pt, "time_ns", "Time", RV_NS);
  rt_col(pt, "path", "Call path", RV_STR);
  char buf[2048];
  for (uint32_t i = 0; i < sm_limit(s, p->np); i++) {
    rt_row(pt);
    counts(pt, &p->paths[i], p->period_ns);
    path_of(s, p->paths[i].ctx, buf, sizeof buf);
    rt_str(pt, buf);
  }
}

static void report_flat(sm *s, report *r) {
  sm_samples *p = s->samples;
  rtable *ft = rt_new(r, "samples", "flat", "Flat profile by function and line", false);
  rt_col(ft, "samples", "Samples", RV_INT);
  rt_col(ft, "work", "Work", RV_INT);
  rt_col(ft, "wait", "Wait", RV_INT);
  rt_col(ft, "overhead", "Ovh", RV_INT);
  rt_col(ft, "time_ns", "Time", RV_NS);
  rt_col(ft, "function", "Function", RV_STR);
  rt_col(ft, "file", "File", RV_STR);
  rt_col(ft, "line", "Line", RV_INT);
  for (uint32_t i = 0; i < sm_limit(s, p->nf); i++) {
    const otr_context *x = &s->d->contexts[p->fl[i].ctx];
    rt_row(ft);
    counts(ft, &p->fl[i], p->period_ns);
    rt_str(ft, rname(s, p->fl[i].ctx));
    rt_str(ft, x->file);
    rt_int(ft, x->line);
  }
}

static void report_samples(sm *s, report *r) {
  if (!s->samples->total)
    return;
  report_summary(s, r);
  report_paths(s, r);
  report_flat(s, r);
}

static void free_samples(sm *s) {
  if (!s->samples)
    return;
  free(s->samples->count);
  free(s->samples->kind);
  free(s->samples->flat);
  free(s->samples->paths);
  free(s->samples->fl);
  free(s->samples);
  s->samples = NULL;
}

const sm_analysis sm_samples_analysis = {
    .init = init,
    .hooks = {.sample = add},
    .finish = finish,
    .report = report_samples,
    .free = free_samples,
};
