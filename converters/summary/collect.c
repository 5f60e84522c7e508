/* Forwards the reader's callbacks to the analyses: one pass over the
 * events serves every section of the report. */
#include "summary.h"

#include <stdlib.h>

#define S(u) ((sm *)(u))

static void on_enter(void *u, const otr_loc *l, const otr_frame *f) {
  regions_enter(S(u), l, f);
}

static void on_leave(void *u, const otr_loc *l, const otr_frame *f, const otr_frame *p, uint64_t t,
                     const double *md) {
  regions_leave(S(u), l, f, p, t);
  if (f->cls == OTR_C_TASK_CREATE)
    tasks_leave(S(u), l, f, t);
  if (md)
    counters_leave(S(u), l, f, md);
}

static void on_team_end(void *u, otr_team *t) {
  regions_team_end(S(u), t);
}

static void on_acquire(void *u, const otr_loc *l, uint32_t lock, uint32_t order, uint64_t w0,
                       uint64_t t, uint32_t site) {
  locks_acquire(S(u), l, lock, order, w0, t, site);
}

static void on_release(void *u, const otr_loc *l, uint32_t lock, uint32_t order, uint64_t t) {
  locks_release(S(u), l, lock, order, t);
}

static void on_task_create(void *u, const otr_loc *l, uint64_t t, uint64_t task) {
  tasks_create(S(u), l, t, task);
}

static void on_task_dep(void *u, const otr_loc *l, uint64_t t, const char *kind) {
  (void)t;
  tasks_dep(S(u), l, kind);
}

static void on_fragment(void *u, const otr_loc *l, uint64_t task, uint32_t region,
                        uint64_t active) {
  tasks_fragment(S(u), l, task, region, active);
}

static void on_complete(void *u, const otr_loc *l, uint64_t t, uint64_t task) {
  (void)t;
  tasks_complete(S(u), l, task);
}

static void on_sample(void *u, const otr_loc *l, uint64_t t, uint32_t c, uint32_t g) {
  (void)t;
  samples_add(S(u), l, c, g);
}

static void on_total(void *u, const otr_loc *l, const double *first, const double *last) {
  counters_total(S(u), l, first, last);
}

bool sm_collect(sm *s, char *err, size_t errlen) {
  s->d = otr_defs_of(s->a);
  sm_keys_init(s);
  regions_init(s);
  tasks_init(s);
  locks_init(s);
  counters_init(s);
  samples_init(s);
  otr_visitor v = {.user = s,
                   .enter = on_enter,
                   .leave = on_leave,
                   .team_end = on_team_end,
                   .lock_acquire = on_acquire,
                   .lock_release = on_release,
                   .task_create = on_task_create,
                   .task_dep = on_task_dep,
                   .task_fragment = on_fragment,
                   .task_complete = on_complete,
                   .sample = on_sample,
                   .metric_total = on_total};
  bool ok = otr_read(s->a, &v, err, errlen);
  sm_keys_relabel(s);
  return ok;
}

void sm_free(sm *s) {
  if (!s->key_of)
    return;
  regions_free(s);
  tasks_free(s);
  locks_free(s);
  counters_free(s);
  samples_free(s);
  sm_keys_free(s);
}
