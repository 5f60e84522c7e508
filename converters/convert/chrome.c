/* Chrome trace-event JSON (Perfetto UI, chrome://tracing): a process per
 * location group (an MPI job's ranks in rank order), B/E slices per thread track with the region's
 * source and counter deltas, s/f flow arrows, C counter tracks, "recording off" X slices, and
 * call-stack samples as "samples" over "stackFrames" (one frame per calling context). Samples are
 * spilled to a temporary file while traceEvents stream, and appended. */
#include "convert.h"
#include "spill.h"

#include "xalloc.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

typedef struct {
  cv_out *o;
  const otr_defs *d;
  cv_spill *samples;
  uint64_t nsamples;
  char **rname;  /* escaped region names */
  double *first; /* per location x metric: the first value, NaN until seen */
  uint32_t *pid; /* per location: its group's index + 1 */
  bool comma;
} chrome;

static void sep(chrome *c) {
  cv_write(c->o, c->comma ? ",\n" : "\n", c->comma ? 2 : 1);
  c->comma = true;
}

static void meta(chrome *c, const char *what, uint32_t pid, uint32_t tid, const char *key,
                 const char *val, long num) {
  sep(c);
  cv_printf(c->o, "{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"name\":\"%s\",\"args\":{\"%s\":", pid, tid,
            what, key);
  if (val)
    cv_str(c->o, val);
  else
    cv_printf(c->o, "%ld", num);
  cv_write(c->o, "}}", 2);
}

/* One process per location group with kept threads (pid = group index + 1;
 * locations without a group share the pid after the groups'). */
static void processes(chrome *c, const bool *keep) {
  const otr_defs *d = c->d;
  c->pid = otr_xcalloc(d->n_locations + 1, sizeof *c->pid);
  bool *named = otr_xcalloc(d->n_groups + 2, sizeof *named);
  for (uint32_t i = 0; i < d->n_locations; i++) {
    uint32_t g = d->location_group[i] < d->n_groups ? d->location_group[i] : d->n_groups;
    c->pid[i] = g + 1;
    if (!keep[i] || named[g])
      continue;
    named[g] = true;
    const char *name = g < d->n_groups ? d->group_names[g] : "";
    meta(c, "process_name", g + 1, 0, "name", *name ? name : "OpenMP program", 0);
    if (d->location_rank[i] != OTR_NONE) /* MPI ranks in rank order */
      meta(c, "process_sort_index", g + 1, 0, "sort_index", NULL, (long)d->location_rank[i]);
  }
  free(named);
}

static void begin(void *w, const otr_defs *d, const bool *keep) {
  chrome *c = w;
  c->d = d;
  c->rname = otr_xcalloc(d->n_regions + 1, sizeof *c->rname);
  for (uint32_t r = 0; r < d->n_regions; r++) {
    char buf[4096];
    c->rname[r] = otr_xstrdup(cv_escape(d->regions[r].name, buf, sizeof buf));
  }
  size_t nm = (size_t)d->n_locations * d->n_metrics;
  c->first = otr_xmalloc((nm + 1) * sizeof *c->first);
  for (size_t i = 0; i < nm; i++)
    c->first[i] = NAN;
  cv_printf(c->o, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"omptrace-convert\"},"
                  "\"traceEvents\":[");
  processes(c, keep);
  for (uint32_t i = 0; i < d->n_locations; i++)
    if (keep[i]) {
      meta(c, "thread_name", c->pid[i], i, "name", d->location_names[i], 0);
      meta(c, "thread_sort_index", c->pid[i], i, "sort_index", NULL, (long)i);
    }
}

static void head(chrome *c, char ph, uint32_t loc, uint64_t t) {
  sep(c);
  cv_printf(c->o, "{\"ph\":\"%c\",\"pid\":%u,\"tid\":%u,\"ts\":", ph, c->pid[loc], loc);
  cv_us(c->o, t);
  c->o->events++;
}

static void open_(void *w, uint32_t loc, uint32_t r, uint64_t t) {
  chrome *c = w;
  const otr_region *g = &c->d->regions[r];
  head(c, 'B', loc, t);
  /* MPI calls are "mpi", not the "user" their class says */
  cv_printf(c->o, ",\"name\":\"%s\",\"cat\":\"%s\",\"args\":{\"file\":", c->rname[r],
            g->paradigm == OTF2_PARADIGM_MPI ? "mpi" : otr_class_name(g->cls));
  cv_str(c->o, g->file);
  cv_printf(c->o, ",\"line\":%u}}", g->line);
}

static void close_(void *w, uint32_t loc, uint32_t r, uint64_t t, const double *md) {
  (void)r;
  chrome *c = w;
  head(c, 'E', loc, t);
  bool any = false;
  for (uint32_t k = 0; md && k < c->d->n_metrics; k++) {
    if (isnan(md[k]))
      continue;
    cv_printf(c->o, "%s", any ? "," : ",\"args\":{");
    cv_str(c->o, c->d->metrics[k].name);
    cv_printf(c->o, ":%.17g", md[k]);
    any = true;
  }
  cv_printf(c->o, "%s}", any ? "}" : "");
}

static void sample(void *w, uint32_t loc, uint64_t t, uint32_t ctx, uint32_t gen) {
  (void)gen;
  chrome *c = w;
  cv_spill_printf(c->samples, 0,
                  "%s{\"cpu\":0,\"pid\":%u,\"tid\":%u,\"ts\":%" PRIu64 ".%03u,\"name\":\"sample\","
                  "\"sf\":\"%u\",\"weight\":1}",
                  c->nsamples ? ",\n" : "\n", c->pid[loc], loc, t / 1000, (unsigned)(t % 1000),
                  ctx);
  c->nsamples++;
  c->o->events++;
}

static void flow(void *w, const char *kind, uint64_t id, uint32_t l0, uint64_t t0, uint32_t l1,
                 uint64_t t1) {
  chrome *c = w;
  head(c, 's', l0, t0);
  cv_printf(c->o, ",\"id\":%" PRIu64 ",\"name\":\"%s\",\"cat\":\"%s\"}", id, kind, kind);
  head(c, 'f', l1, t1);
  cv_printf(c->o, ",\"bp\":\"e\",\"id\":%" PRIu64 ",\"name\":\"%s\",\"cat\":\"%s\"}", id, kind,
            kind);
}

/* One track per metric and thread: the count since the thread's first value. */
static void counter(void *w, uint32_t loc, uint64_t t, const double *v) {
  chrome *c = w;
  double *first = c->first + (size_t)loc * c->d->n_metrics;
  for (uint32_t k = 0; k < c->d->n_metrics; k++) {
    if (isnan(v[k]))
      continue;
    if (isnan(first[k]))
      first[k] = v[k];
    head(c, 'C', loc, t);
    char name[600];
    snprintf(name, sizeof name, "%s %s", c->d->metrics[k].name, c->d->location_names[loc]);
    cv_write(c->o, ",\"name\":", 8);
    cv_str(c->o, name);
    cv_printf(c->o, ",\"args\":{\"value\":%.17g}}", v[k] - first[k]);
  }
}

static void off(void *w, uint32_t loc, uint64_t t0, uint64_t t1, bool paused) {
  chrome *c = w;
  head(c, 'X', loc, t0);
  cv_write(c->o, ",\"dur\":", 7);
  cv_us(c->o, t1 - t0);
  cv_printf(c->o, ",\"name\":\"%s\",\"cat\":\"gap\"}",
            paused ? "recording paused" : "recording off");
}

/* A loop chunk: an instant event on its thread with the first iteration
 * and the count (a section's or an iteration's value as "first"). */
static void chunk(void *w, uint32_t loc, uint64_t t, const char *kind, uint64_t first,
                  uint64_t iterations) {
  chrome *c = w;
  head(c, 'i', loc, t);
  cv_printf(c->o,
            ",\"s\":\"t\",\"name\":\"%s chunk\",\"cat\":\"chunk\",\"args\":{\"first\":%" PRIu64
            ",\"iterations\":%" PRIu64 "}}",
            kind, first, iterations);
}

/* One stack frame per calling context: "function:line", parent first. */
static void frames(chrome *c) {
  const otr_defs *d = c->d;
  cv_printf(c->o, "],\n\"stackFrames\":{");
  for (uint32_t i = 0; i < d->n_contexts; i++) {
    const otr_context *x = &d->contexts[i];
    const char *n = x->region < d->n_regions ? c->rname[x->region] : "(unknown)";
    bool mpi = x->region < d->n_regions && d->regions[x->region].paradigm == OTF2_PARADIGM_MPI;
    cv_printf(c->o, "%s\n\"%u\":{\"category\":\"%s\",\"name\":\"%s", i ? "," : "", i,
              mpi           ? "MPI"
              : n[0] == '<' ? "OpenMP"
                            : "user",
              n);
    if (x->line)
      cv_printf(c->o, ":%u", x->line);
    if (x->parent != OTR_NONE)
      cv_printf(c->o, "\",\"parent\":\"%u\"}", x->parent);
    else
      cv_write(c->o, "\"}", 2);
  }
  cv_printf(c->o, "}}\n");
}

/* "samples" and "stackFrames" only when there are samples: speedscope
 * reads a file that has them as samples only, and hangs on an empty list. */
static bool end(void *w, uint64_t t) {
  (void)t;
  chrome *c = w;
  if (!c->nsamples) {
    cv_printf(c->o, "\n]}\n");
    return true;
  }
  cv_printf(c->o, "\n],\n\"samples\":[");
  bool ok = cv_spill_copy(c->samples, 0, c->o);
  frames(c);
  return ok;
}

static void free_chrome(chrome *c) {
  for (uint32_t r = 0; c->d && r < c->d->n_regions; r++)
    free(c->rname[r]);
  free(c->rname);
  free(c->first);
  free(c->pid);
  cv_spill_free(c->samples);
  free(c);
}

static void free_sink(void *w) {
  free_chrome(w);
}

cv_sink *cv_chrome_new(cv_out *o) {
  chrome *c = otr_xcalloc(1, sizeof *c);
  c->o = o;
  c->samples = cv_spill_new();
  if (!c->samples) {
    free(c);
    return NULL;
  }
  cv_sink *s = otr_xcalloc(1, sizeof *s);
  *s = (cv_sink){c, begin, open_, close_, sample, flow, counter, off, end, free_sink, chunk};
  return s;
}
