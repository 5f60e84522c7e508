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

struct sm_samples {
  uint64_t *count; /* per context */
  uint64_t total, period_ns;
};

void samples_init(sm *s) {
  sm_samples *p = otr_xcalloc(1, sizeof *p);
  p->count = otr_xcalloc(s->d->n_contexts + 1, sizeof *p->count);
  s->samples = p;
}

void samples_add(sm *s, const otr_loc *l, uint32_t ctx, uint32_t gen) {
  (void)l;
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

typedef struct {
  uint32_t ctx;
  uint64_t n, wait, ovh;
} prow;

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

void samples_report(sm *s, report *r) {
  sm_samples *p = s->samples;
  if (!p->total)
    return;
  uint32_t nc = s->d->n_contexts;
  uint8_t *kind = otr_xcalloc(nc, sizeof *kind);
  uint32_t *flat = otr_xmalloc(nc * sizeof *flat);
  /* parents come before children in the definitions */
  for (uint32_t c = 0; c < nc; c++) {
    uint32_t par = s->d->contexts[c].parent;
    const char *n = rname(s, c);
    bool ps = pseudo(n);
    kind[c] = ps ? (uint8_t)kind_of(n) : par != OTR_NONE ? kind[par] : K_WORK;
    flat[c] = ps ? (par != OTR_NONE ? flat[par] : OTR_NONE) : c;
  }
  prow *paths = otr_xcalloc(nc, sizeof *paths);
  prow *fl = otr_xcalloc(nc, sizeof *fl);
  uint32_t np = 0;
  uint64_t wtotal = 0, otot = 0;
  for (uint32_t c = 0; c < nc; c++) {
    fl[c].ctx = c;
    if (!p->count[c])
      continue;
    paths[np].ctx = c;
    paths[np].n = p->count[c];
    paths[np].wait = kind[c] == K_WAIT ? p->count[c] : 0;
    paths[np].ovh = kind[c] == K_OVH ? p->count[c] : 0;
    np++;
    wtotal += kind[c] == K_WAIT ? p->count[c] : 0;
    otot += kind[c] == K_OVH ? p->count[c] : 0;
  }
  /* flat profile: merge contexts with the same function, file and line */
  uint32_t nf = 0;
  for (uint32_t c = 0; c < nc; c++) {
    if (!p->count[c] || flat[c] == OTR_NONE)
      continue;
    const otr_context *x = &s->d->contexts[flat[c]];
    uint32_t j = 0;
    for (; j < nf; j++) {
      const otr_context *y = &s->d->contexts[fl[j].ctx];
      if (y->region == x->region && y->line == x->line && !strcmp(y->file, x->file))
        break;
    }
    if (j == nf)
      fl[nf++] = (prow){flat[c], 0, 0, 0};
    fl[j].n += p->count[c];
    fl[j].wait += kind[c] == K_WAIT ? p->count[c] : 0;
    fl[j].ovh += kind[c] == K_OVH ? p->count[c] : 0;
  }
  qsort(paths, np, sizeof *paths, by_n);
  qsort(fl, nf, sizeof *fl, by_n);
  s->facts.samples = p->total;
  s->facts.wait_samples = wtotal;

  rtable *t = rt_new(r, "samples", "summary", "Samples", true);
  rt_col(t, "samples", "Samples", RV_INT);
  rt_col(t, "period_ns", "Sampling period", RV_NS);
  rt_col(t, "work_samples", "OMP Work samples", RV_INT);
  rt_col(t, "wait_samples", "OMP Wait samples", RV_INT);
  rt_col(t, "overhead_samples", "Runtime overhead samples", RV_INT);
  rt_col(t, "wait_share", "OMP Wait share", RV_PCT);
  rt_col(t, "time_ns", "Sampled time", RV_NS);
  rt_row(t);
  rt_int(t, (int64_t)p->total);
  rt_ns(t, p->period_ns);
  rt_int(t, (int64_t)(p->total - wtotal - otot));
  rt_int(t, (int64_t)wtotal);
  rt_int(t, (int64_t)otot);
  rt_pct(t, (double)wtotal / (double)p->total);
  rt_ns(t, p->total * p->period_ns);

  rtable *pt = rt_new(r, "samples", "paths", "Top call paths", false);
  rt_col(pt, "samples", "Samples", RV_INT);
  rt_col(pt, "work", "Work", RV_INT);
  rt_col(pt, "wait", "Wait", RV_INT);
  rt_col(pt, "overhead", "Ovh", RV_INT);
  rt_col(pt, "time_ns", "Time", RV_NS);
  rt_col(pt, "path", "Call path", RV_STR);
  char buf[2048];
  for (uint32_t i = 0; i < sm_limit(s, np); i++) {
    rt_row(pt);
    rt_int(pt, (int64_t)paths[i].n);
    rt_int(pt, (int64_t)(paths[i].n - paths[i].wait - paths[i].ovh));
    rt_int(pt, (int64_t)paths[i].wait);
    rt_int(pt, (int64_t)paths[i].ovh);
    rt_ns(pt, paths[i].n * p->period_ns);
    path_of(s, paths[i].ctx, buf, sizeof buf);
    rt_str(pt, buf);
  }
  rtable *ft = rt_new(r, "samples", "flat", "Flat profile by function and line", false);
  rt_col(ft, "samples", "Samples", RV_INT);
  rt_col(ft, "work", "Work", RV_INT);
  rt_col(ft, "wait", "Wait", RV_INT);
  rt_col(ft, "overhead", "Ovh", RV_INT);
  rt_col(ft, "time_ns", "Time", RV_NS);
  rt_col(ft, "function", "Function", RV_STR);
  rt_col(ft, "file", "File", RV_STR);
  rt_col(ft, "line", "Line", RV_INT);
  for (uint32_t i = 0; i < sm_limit(s, nf); i++) {
    const otr_context *x = &s->d->contexts[fl[i].ctx];
    rt_row(ft);
    rt_int(ft, (int64_t)fl[i].n);
    rt_int(ft, (int64_t)(fl[i].n - fl[i].wait - fl[i].ovh));
    rt_int(ft, (int64_t)fl[i].wait);
    rt_int(ft, (int64_t)fl[i].ovh);
    rt_ns(ft, fl[i].n * p->period_ns);
    rt_str(ft, rname(s, fl[i].ctx));
    rt_str(ft, x->file);
    rt_int(ft, x->line);
  }
  free(paths);
  free(fl);
  free(flat);
  free(kind);
}

void samples_free(sm *s) {
  if (!s->samples)
    return;
  free(s->samples->count);
  free(s->samples);
  s->samples = NULL;
}
