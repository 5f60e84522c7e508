/* The analysis table: the reader's callbacks go to every analysis's hooks,
 * so one pass over the events serves every section of the report; after
 * it, finish, report and free run over the table in its order. */
#include "summary.h"

#include <stdio.h>
#include <stdlib.h>

/* Report order; findings last, as its finish reads the others' facts. */
static const sm_analysis *const analyses[] = {
    &sm_overview_analysis, &sm_threads_analysis, &sm_regions_analysis,  &sm_chunks_analysis,
    &sm_tasks_analysis,    &sm_locks_analysis,   &sm_counters_analysis, &sm_samples_analysis,
    &sm_timeline_analysis, &sm_mpi_analysis,     &sm_findings_analysis,
};
#define NANALYSES (sizeof analyses / sizeof *analyses)

/* Calls hook H of every analysis that has one. */
#define EACH(u, h, ...)                                                                            \
  for (size_t i_ = 0; i_ < NANALYSES; i_++)                                                        \
    if (analyses[i_]->hooks.h)                                                                     \
  analyses[i_]->hooks.h((sm *)(u), __VA_ARGS__)

static void on_span(void *u, const otr_loc *l, otr_cat cat, uint64_t t0, uint64_t t1,
                    const otr_frame *top) {
  EACH(u, span, l, cat, t0, t1, top);
}

static void on_enter(void *u, const otr_loc *l, const otr_frame *f) {
  EACH(u, enter, l, f);
}

static void on_leave(void *u, const otr_loc *l, const otr_frame *f, const otr_frame *p, uint64_t t,
                     const double *md) {
  EACH(u, leave, l, f, p, t, md);
}

static void on_team_end(void *u, otr_team *t) {
  EACH(u, team_end, t);
}

static void on_acquire(void *u, const otr_loc *l, uint32_t lock, uint32_t order, uint64_t w0,
                       uint64_t t, uint32_t site) {
  EACH(u, lock_acquire, l, lock, order, w0, t, site);
}

static void on_release(void *u, const otr_loc *l, uint32_t lock, uint32_t order, uint64_t t) {
  EACH(u, lock_release, l, lock, order, t);
}

static void on_task_create(void *u, const otr_loc *l, uint64_t t, uint64_t task) {
  EACH(u, task_create, l, t, task);
}

static void on_task_dep(void *u, const otr_loc *l, uint64_t t, const char *kind) {
  EACH(u, task_dep, l, t, kind);
}

static void on_chunk(void *u, const otr_loc *l, uint64_t t, const otr_frame *top, const char *kind,
                     uint64_t first, uint64_t iterations) {
  EACH(u, chunk, l, t, top, kind, first, iterations);
}

static void on_fragment(void *u, const otr_loc *l, uint64_t task, uint32_t region,
                        uint64_t active) {
  EACH(u, task_fragment, l, task, region, active);
}

static void on_complete(void *u, const otr_loc *l, uint64_t t, uint64_t task) {
  EACH(u, task_complete, l, t, task);
}

static void on_sample(void *u, const otr_loc *l, uint64_t t, uint32_t c, uint32_t g) {
  EACH(u, sample, l, t, c, g);
}

static void on_total(void *u, const otr_loc *l, const double *first, const double *last) {
  EACH(u, metric_total, l, first, last);
}

static void on_message(void *u, const otr_msg *m) {
  EACH(u, mpi_message, m);
}

static void on_collective(void *u, const otr_coll *m, uint32_t n) {
  EACH(u, mpi_collective, m, n);
}

bool sm_collect(sm *s, char *err, size_t errlen) {
  s->d = otr_defs_of(s->a);
  sm_keys_init(s);
  for (size_t i = 0; i < NANALYSES; i++)
    if (analyses[i]->init)
      analyses[i]->init(s);
  otr_visitor v = {.user = s,
                   .span = s->o.timeline ? on_span : NULL,
                   .enter = on_enter,
                   .leave = on_leave,
                   .team_end = on_team_end,
                   .lock_acquire = on_acquire,
                   .lock_release = on_release,
                   .task_create = on_task_create,
                   .task_dep = on_task_dep,
                   .chunk = on_chunk,
                   .task_fragment = on_fragment,
                   .task_complete = on_complete,
                   .sample = on_sample,
                   .metric_total = on_total,
                   .mpi_message = on_message,
                   .mpi_collective = on_collective};
  bool ok = otr_read(s->a, &v, err, errlen);
  const char *problem;
  uint64_t bad = otr_mpi_unmatched(s->a, &problem);
  if (ok && problem)
    fprintf(stderr, "omptrace-summary: warning: %s: %s (%llu MPI record%s left unmatched)\n",
            otr_anchor(s->a), problem, (unsigned long long)bad, bad == 1 ? "" : "s");
  sm_keys_relabel(s);
  return ok;
}

void sm_finish(sm *s) {
  for (size_t i = 0; i < NANALYSES; i++)
    if (analyses[i]->finish)
      analyses[i]->finish(s);
}

void sm_report(sm *s, report *r) {
  for (size_t i = 0; i < NANALYSES; i++)
    if (analyses[i]->report)
      analyses[i]->report(s, r);
}

void sm_free(sm *s) {
  if (!s->key_of)
    return;
  for (size_t i = 0; i < NANALYSES; i++)
    if (analyses[i]->free)
      analyses[i]->free(s);
  sm_keys_free(s);
}
