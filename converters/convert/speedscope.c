/* speedscope JSON: one "evented" profile per thread with its region nesting,
 * one more per sampled thread with its stitched call paths over time (a
 * path's frames open at the sample where they appear and close where they
 * leave it), and one "sampled" profile of all call paths for the
 * left-heavy and sandwich views. The shared frame table comes from the
 * definitions and is written first; each profile's events go to a spill
 * stream (spill.h) and are copied out at the end. */
#include "convert.h"
#include "spill.h"

#include "xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint64_t first, last;
  uint64_t n;
} pstat;

typedef struct {
  uint32_t *path, plen; /* frames of the last sample, root first */
  uint64_t period, last_sample;
} lsample;

typedef struct {
  cv_out *o;
  const otr_defs *d;
  const bool *keep;
  cv_spill *sp;    /* 2 per location (regions, call paths), then samples, weights */
  pstat *st;       /* per stream */
  uint32_t *cf;    /* context -> frame */
  uint32_t f_off;  /* the "recording off" frame; "recording paused" follows */
  uint32_t maxdep; /* longest context chain */
  lsample *ls;
  uint32_t *chain;
  uint64_t weight_sum;
} scope;

static void frame(cv_out *o, bool comma, const char *name, const char *file, uint32_t line) {
  cv_printf(o, "%s\n{\"name\":", comma ? "," : "");
  cv_str(o, name);
  if (file && *file) {
    cv_write(o, ",\"file\":", 8);
    cv_str(o, file);
  }
  if (line)
    cv_printf(o, ",\"line\":%u", line);
  cv_write(o, "}", 1);
}

typedef struct {
  uint32_t region, line, ctx;
  const char *file;
} ckey;

static int by_site(const void *a, const void *b) {
  const ckey *x = a, *y = b;
  if (x->region != y->region)
    return x->region < y->region ? -1 : 1;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  return strcmp(x->file, y->file);
}

/* Calling contexts with the same function, file and line share a frame. */
static uint32_t context_frames(scope *s, uint32_t base) {
  const otr_defs *d = s->d;
  ckey *k = otr_xcalloc(d->n_contexts + 1, sizeof *k);
  for (uint32_t i = 0; i < d->n_contexts; i++)
    k[i] = (ckey){d->contexts[i].region, d->contexts[i].line, i, d->contexts[i].file};
  qsort(k, d->n_contexts, sizeof *k, by_site);
  uint32_t n = 0;
  for (uint32_t i = 0; i < d->n_contexts; i++) {
    if (i && by_site(&k[i - 1], &k[i]) == 0) {
      s->cf[k[i].ctx] = s->cf[k[i - 1].ctx];
      continue;
    }
    s->cf[k[i].ctx] = base + n++;
    const char *name = k[i].region < d->n_regions ? d->regions[k[i].region].name : "(unknown)";
    frame(s->o, true, name, k[i].file, k[i].line);
  }
  free(k);
  return base + n;
}

static uint32_t depth_of(const otr_defs *d) {
  uint32_t *dep = otr_xcalloc(d->n_contexts + 1, sizeof *dep), max = 1;
  for (uint32_t i = 0; i < d->n_contexts; i++) { /* parents come first */
    uint32_t p = d->contexts[i].parent;
    dep[i] = p < i ? dep[p] + 1 : 1;
    if (dep[i] > max)
      max = dep[i];
  }
  free(dep);
  return max;
}

static void begin(void *w, const otr_defs *d, const bool *keep) {
  scope *s = w;
  s->d = d;
  s->keep = keep;
  cv_printf(s->o, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
                  "\"exporter\":\"omptrace-convert\",\"name\":");
  cv_str(s->o, *d->program ? d->program : "OpenMP program");
  cv_printf(s->o, ",\"activeProfileIndex\":0,\"shared\":{\"frames\":[");
  for (uint32_t r = 0; r < d->n_regions; r++)
    frame(s->o, r > 0, d->regions[r].name, d->regions[r].file, d->regions[r].line);
  s->cf = otr_xcalloc(d->n_contexts + 1, sizeof *s->cf);
  s->f_off = context_frames(s, d->n_regions);
  frame(s->o, s->f_off > 0, "recording off", NULL, 0);
  frame(s->o, true, "recording paused", NULL, 0); /* f_off + 1 */
  cv_printf(s->o, "\n]},\n\"profiles\":[");
  s->maxdep = depth_of(d);
  s->chain = otr_xcalloc(s->maxdep, sizeof *s->chain);
  s->ls = otr_xcalloc(d->n_locations + 1, sizeof *s->ls);
  s->st = otr_xcalloc(2 * (size_t)d->n_locations + 2, sizeof *s->st);
}

static void ev(scope *s, uint32_t stream, char type, uint32_t f, uint64_t t) {
  pstat *p = &s->st[stream];
  if (!p->n)
    p->first = t;
  p->last = t;
  cv_spill_printf(s->sp, stream, "%s{\"type\":\"%c\",\"frame\":%u,\"at\":%" PRIu64 "}",
                  p->n ? ",\n" : "\n", type, f, t);
  p->n++;
  s->o->events++;
}

static void open_(void *w, uint32_t loc, uint32_t r, uint64_t t) {
  ev(w, 2 * loc, 'O', r, t);
}

static void close_(void *w, uint32_t loc, uint32_t r, uint64_t t, const double *md) {
  (void)md;
  ev(w, 2 * loc, 'C', r, t);
}

/* Moves loc's call-path profile from its last sampled path to ctx's. */
static void to_path(scope *s, uint32_t loc, uint64_t t, uint32_t n) {
  lsample *l = &s->ls[loc];
  uint32_t k = 0;
  while (k < l->plen && k < n && l->path[k] == s->chain[n - 1 - k])
    k++;
  while (l->plen > k)
    ev(s, 2 * loc + 1, 'C', l->path[--l->plen], t);
  for (; l->plen < n; l->plen++) {
    l->path[l->plen] = s->chain[n - 1 - l->plen];
    ev(s, 2 * loc + 1, 'O', l->path[l->plen], t);
  }
}

static void sample(void *w, uint32_t loc, uint64_t t, uint32_t ctx, uint32_t gen) {
  scope *s = w;
  const otr_defs *d = s->d;
  uint32_t n = 0;
  for (uint32_t c = ctx; c != OTR_NONE && n < s->maxdep; c = d->contexts[c].parent)
    s->chain[n++] = s->cf[c]; /* leaf first */
  lsample *l = &s->ls[loc];
  if (!l->path)
    l->path = otr_xcalloc(s->maxdep, sizeof *l->path);
  to_path(s, loc, t, n);
  l->last_sample = t;
  uint64_t period = gen < d->n_generators ? d->generator_period_ns[gen] : 0;
  l->period = period;
  uint32_t S = 2 * d->n_locations;
  cv_spill_printf(s->sp, S, "%s[", s->st[S].n ? ",\n" : "\n");
  for (uint32_t i = n; i-- > 0;)
    cv_spill_printf(s->sp, S, "%u%s", s->chain[i], i ? "," : "]");
  cv_spill_printf(s->sp, S + 1, "%s%" PRIu64, s->st[S].n ? "," : "", period ? period : 1);
  s->st[S].n++;
  s->weight_sum += period ? period : 1;
  s->o->events++;
}

static void off(void *w, uint32_t loc, uint64_t t0, uint64_t t1, bool paused) {
  scope *s = w;
  if (s->ls[loc].plen) /* no samples while recording is off */
    to_path(s, loc, t0, 0);
  ev(s, 2 * loc, 'O', s->f_off + paused, t0);
  ev(s, 2 * loc, 'C', s->f_off + paused, t1);
}

static void flow(void *w, const char *kind, uint64_t id, uint32_t l0, uint64_t t0, uint32_t l1,
                 uint64_t t1) {
  (void)w, (void)kind, (void)id, (void)l0, (void)t0, (void)l1, (void)t1; /* no arrows here */
}

static void counter(void *w, uint32_t loc, uint64_t t, const double *v) {
  (void)w, (void)loc, (void)t, (void)v; /* counters are region args in Chrome only */
}

static bool profile(scope *s, uint32_t stream, const char *name, const char *suffix, bool *comma) {
  const pstat *p = &s->st[stream];
  if (!p->n)
    return true;
  char full[600];
  snprintf(full, sizeof full, "%s%s", name, suffix);
  cv_printf(s->o, "%s\n{\"type\":\"evented\",\"name\":", *comma ? "," : "");
  cv_str(s->o, full);
  cv_printf(s->o,
            ",\"unit\":\"nanoseconds\",\"startValue\":%" PRIu64 ",\"endValue\":%" PRIu64
            ",\"events\":[",
            p->first, p->last);
  bool ok = cv_spill_copy(s->sp, stream, s->o);
  cv_printf(s->o, "]}");
  *comma = true;
  return ok;
}

static bool sampled(scope *s, bool comma) {
  uint32_t S = 2 * s->d->n_locations;
  if (!s->st[S].n)
    return true;
  bool timed = s->weight_sum != s->st[S].n; /* every weight 1: periods unknown */
  cv_printf(s->o,
            "%s\n{\"type\":\"sampled\",\"name\":\"call paths of all threads (samples)\","
            "\"unit\":\"%s\",\"startValue\":0,\"endValue\":%" PRIu64 ",\"samples\":[",
            comma ? "," : "", timed ? "nanoseconds" : "none", s->weight_sum);
  bool ok = cv_spill_copy(s->sp, S, s->o);
  cv_printf(s->o, "],\"weights\":[");
  ok = cv_spill_copy(s->sp, S + 1, s->o) && ok;
  cv_printf(s->o, "]}");
  return ok;
}

static bool end(void *w, uint64_t t) {
  scope *s = w;
  const otr_defs *d = s->d;
  for (uint32_t i = 0; i < d->n_locations; i++) { /* the last sampled path ends */
    lsample *l = &s->ls[i];
    uint64_t e = l->last_sample + l->period;
    e = e < t ? e : t;
    if (l->plen)
      to_path(s, i, e > l->last_sample ? e : l->last_sample, 0);
  }
  bool ok = true, comma = false;
  for (uint32_t i = 0; i < d->n_locations; i++)
    if (s->keep[i])
      ok = profile(s, 2 * i, d->location_names[i], "", &comma) && ok;
  for (uint32_t i = 0; i < d->n_locations; i++)
    if (s->keep[i])
      ok = profile(s, 2 * i + 1, d->location_names[i], " call paths (samples)", &comma) && ok;
  ok = sampled(s, comma) && ok;
  cv_printf(s->o, "\n]}\n");
  return ok;
}

static void release(void *w) {
  scope *s = w;
  for (uint32_t i = 0; s->ls && i < s->d->n_locations; i++)
    free(s->ls[i].path);
  free(s->ls);
  free(s->st);
  free(s->cf);
  free(s->chain);
  cv_spill_free(s->sp);
  free(s);
}

cv_sink *cv_speedscope_new(cv_out *o) {
  scope *s = otr_xcalloc(1, sizeof *s);
  s->o = o;
  s->sp = cv_spill_new();
  if (!s->sp) {
    free(s);
    return NULL;
  }
  cv_sink *k = otr_xcalloc(1, sizeof *k);
  /* no chunk: speedscope has no point events */
  *k = (cv_sink){s, begin, open_, close_, sample, flow, counter, off, end, release, NULL};
  return k;
}
