/* omptrace-summary: analyses over one pass of the archive reader. Each
 * analysis file owns its state and adds its tables to the report; the
 * collector (collect.c) forwards the reader's callbacks to them. */
#ifndef OMPTRACE_SUMMARY_H
#define OMPTRACE_SUMMARY_H

#include "otr.h"
#include "report.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
  int top;            /* rows per ranked table; 0 = all */
  bool threads;       /* per-thread detail tables */
  const char *region; /* filter on region labels (glob or substring) */
  double tolerance;   /* --compare: relative slack before a slowdown counts */
} sm_opts;

/* A row key: regions of one kind at one source location share a key. */
typedef struct {
  char *label; /* "loop @ a.c:12" */
  otr_class cls;
} sm_key;

typedef struct sm_regions sm_regions;
typedef struct sm_tasks sm_tasks;
typedef struct sm_locks sm_locks;
typedef struct sm_counters sm_counters;
typedef struct sm_samples sm_samples;

/* Headline figures the findings are written from. */
typedef struct {
  uint64_t wall_ns, serial_ns; /* wall_ns: measured, measurement gaps left out */
  uint64_t lost_ns;            /* time in measurement gaps (union over threads) */
  uint32_t gaps;
  uint64_t wait_ns[OTR_T_COUNT]; /* over all threads */
  uint64_t busy_ns;              /* work over all threads */
  uint64_t forkjoin_ns, runtime_ns, taskcreate_ns;
  uint32_t threads;
  /* region with the largest potential gain */
  const char *gain_label;
  uint64_t gain_ns;
  double gain_imbalance;
  /* lock with the most waiting, and its main culprit */
  const char *lock_label, *blame_label;
  uint64_t lock_wait_ns, blame_ns;
  double lock_contention;
  /* tasks */
  uint64_t tasks, task_median_ns, task_create_mean_ns;
  /* counters: region with the lowest IPC and its share of cycles */
  const char *ipc_label;
  double ipc_low, ipc_all;
  /* samples */
  uint64_t samples, wait_samples;
} sm_facts;

typedef struct {
  otr_archive *a;
  const otr_defs *d;
  sm_opts o;
  uint32_t *key_of; /* region -> key */
  sm_key *keys;
  uint32_t nkeys;
  sm_regions *regions;
  sm_tasks *tasks;
  sm_locks *locks;
  sm_counters *counters;
  sm_samples *samples;
  sm_facts facts;
} sm;

/* keys.c */
void sm_keys_init(sm *s);
void sm_keys_free(sm *s);
/* after the pass: regions the reader named from their context (Score-P's
 * "@0x<address>" barriers) get their new labels */
void sm_keys_relabel(sm *s);
static inline uint32_t sm_key_of(const sm *s, uint32_t region) {
  return region < s->d->n_regions ? s->key_of[region] : OTR_NONE;
}
const char *sm_label(const sm *s, uint32_t key);
bool sm_match(const sm *s, const char *label); /* --region filter */
uint32_t sm_limit(const sm *s, uint32_t n);    /* --top */

/* collect.c: one pass, all analyses */
bool sm_collect(sm *s, char *err, size_t errlen);
void sm_free(sm *s);

/* analyses: state, callbacks, report */
/* threads = locations with events; wall = last minus first event, minus
 * the measurement gaps */
void overview_totals(const sm *s, uint32_t *threads, uint64_t *wall_ns, uint64_t *serial_ns);
void overview_report(sm *s, report *r);
void threads_report(sm *s, report *r);

void regions_init(sm *s);
void regions_enter(sm *s, const otr_loc *l, const otr_frame *f);
void regions_leave(sm *s, const otr_loc *l, const otr_frame *f, const otr_frame *p, uint64_t t);
void regions_team_end(sm *s, otr_team *team);
void regions_report(sm *s, report *r);
void regions_free(sm *s);
/* slowest thread's inclusive time in the key's regions, ns; 0 if never */
uint64_t regions_slowest_ns(const sm *s, uint32_t key);
bool regions_has(const sm *s, uint32_t key);

void tasks_init(sm *s);
void tasks_leave(sm *s, const otr_loc *l, const otr_frame *f, uint64_t t);
void tasks_create(sm *s, const otr_loc *l, uint64_t t, uint64_t task);
void tasks_dep(sm *s, const otr_loc *l, const char *kind);
void tasks_fragment(sm *s, const otr_loc *l, uint64_t task, uint32_t region, uint64_t active);
void tasks_complete(sm *s, const otr_loc *l, uint64_t task);
void tasks_report(sm *s, report *r);
void tasks_free(sm *s);

void locks_init(sm *s);
void locks_acquire(sm *s, const otr_loc *l, uint32_t lock, uint32_t order, uint64_t w0, uint64_t t,
                   uint32_t site);
void locks_release(sm *s, const otr_loc *l, uint32_t lock, uint32_t order, uint64_t t);
void locks_report(sm *s, report *r);
void locks_free(sm *s);

void counters_init(sm *s);
void counters_leave(sm *s, const otr_loc *l, const otr_frame *f, const double *delta);
void counters_total(sm *s, const otr_loc *l, const double *first, const double *last);
void counters_report(sm *s, report *r);
void counters_free(sm *s);

void samples_init(sm *s);
void samples_add(sm *s, const otr_loc *l, uint32_t context, uint32_t generator);
void samples_report(sm *s, report *r);
void samples_free(sm *s);

void findings_report(sm *s, report *r);

/* compare.c */
int compare_main(char **paths, int n, const sm_opts *o, const char *format);

/* quantile.c: exact below a bound, a log histogram above it */
typedef struct sm_quant sm_quant;
sm_quant *quant_new(void);
void quant_add(sm_quant *q, uint64_t v);
uint64_t quant_get(sm_quant *q, double p); /* nearest rank */
bool quant_exact(const sm_quant *q);
void quant_free(sm_quant *q);

uint64_t sm_ns(const sm *s, uint64_t ticks);

#endif
