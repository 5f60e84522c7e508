/* omptrace-summary: analyses over one pass of the archive reader. Each
 * analysis file owns its state and registers it in one table (collect.c):
 * init before the pass, hooks during it, finish after it (headline figures
 * into sm_facts), report to add its tables, free. */
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
  bool timeline;      /* collect the per-thread timeline strip (HTML report) */
} sm_opts;

/* A row key: regions of one kind at one source location share a key. */
typedef struct {
  char *label; /* "loop @ a.c:12" */
  otr_class cls;
} sm_key;

typedef struct sm_regions sm_regions;
typedef struct sm_tasks sm_tasks;
typedef struct sm_chunks sm_chunks;
typedef struct sm_locks sm_locks;
typedef struct sm_counters sm_counters;
typedef struct sm_samples sm_samples;
typedef struct sm_timeline sm_timeline;
typedef struct sm_mpi sm_mpi;

/* Headline figures the findings are written from. */
typedef struct {
  uint64_t wall_ns, serial_ns; /* wall_ns: measured, measurement gaps left out */
  uint64_t lost_ns;            /* time in gaps missing records (union over threads) */
  uint64_t stopped_ns;         /* after a stopped thread's last record, outside those gaps */
  uint32_t gaps;
  uint32_t stopped;              /* threads whose recording stopped early (recovered run) */
  uint64_t stopped_at_ns;        /* the first such stop, from the first event */
  uint32_t stopped_gaps;         /* gaps that are such stops (no records missing) */
  uint32_t paused_gaps;          /* gaps that are paused intervals (nothing missing) */
  uint32_t pauses;               /* paused intervals (omp_control_tool), all threads */
  uint64_t paused_ns;            /* their time (left out like lost_ns, not lost) */
  uint64_t wait_ns[OTR_T_COUNT]; /* over all threads */
  uint64_t busy_ns;              /* work over all threads */
  uint64_t forkjoin_ns, runtime_ns, taskcreate_ns;
  uint64_t mpi_thread_ns; /* in MPI calls, over all threads */
  /* MPI-only time: some thread in an MPI call, none in a parallel region
   * (the job's time that is neither serial nor parallel) */
  uint64_t mpi_only_ns;
  uint32_t threads;
  /* region with the largest potential gain */
  const char *gain_label;
  uint64_t gain_ns;
  double gain_imbalance;
  /* loop chunks: the loop whose threads finished furthest apart, and the
   * threads that took the fewest and the most iterations there */
  const char *chunk_label;
  uint64_t chunk_lag_ns;
  uint32_t chunk_thr[2];
  uint64_t chunk_chunks[2], chunk_iters[2];
  /* lock with the most waiting, and its main culprit */
  const char *lock_label, *blame_label;
  uint64_t lock_wait_ns, blame_ns;
  double lock_contention;
  bool lock_ordered;       /* it is an ordered section's */
  uint64_t lock_before_ns; /* unblamed wait before the previous acquirer took it */
  /* tasks */
  uint64_t tasks, task_median_ns, task_create_mean_ns;
  /* counters: region with the lowest IPC and its share of cycles */
  const char *ipc_label;
  double ipc_low, ipc_all;
  /* samples */
  uint64_t samples, wait_samples;
  uint64_t samples_expected; /* omptrace::samples, 0 when the archive has none */
  /* MPI jobs: ranks (0 for one process), max/mean over ranks of OpenMP
   * work and of MPI time, and the call site losing most per kind of wait */
  uint32_t ranks;
  uint32_t rank_threads; /* the most threads of one rank */
  double busy_imbalance, mpi_imbalance;
  uint64_t mpi_ns;
  /* late sender, late receiver, wait at collectives: total, worst site */
  uint64_t mpi_wait_ns[3], mpi_site_ns[3];
  const char *mpi_site[3];
} sm_facts;

typedef struct sm_findings sm_findings;

typedef struct sm {
  otr_archive *a;
  const otr_defs *d;
  sm_opts o;
  uint32_t *key_of; /* region -> key */
  sm_key *keys;
  uint32_t nkeys;
  sm_regions *regions;
  sm_tasks *tasks;
  sm_chunks *chunks;
  sm_locks *locks;
  sm_counters *counters;
  sm_samples *samples;
  sm_timeline *timeline;
  sm_findings *findings;
  sm_mpi *mpi; /* NULL unless the job has more than one rank */
  sm_facts facts;
} sm;

/* One analysis's callbacks during the pass (the reader's otr_visitor with
 * the summary state); any may be NULL. */
typedef struct {
  void (*span)(sm *s, const otr_loc *l, otr_cat cat, uint64_t t0, uint64_t t1,
               const otr_frame *top);
  void (*enter)(sm *s, const otr_loc *l, const otr_frame *f);
  void (*leave)(sm *s, const otr_loc *l, const otr_frame *f, const otr_frame *p, uint64_t t,
                const double *md);
  void (*team_end)(sm *s, otr_team *team);
  void (*lock_acquire)(sm *s, const otr_loc *l, uint32_t lock, uint32_t order, uint64_t w0,
                       uint64_t t, uint32_t site);
  void (*lock_release)(sm *s, const otr_loc *l, uint32_t lock, uint32_t order, uint64_t t);
  void (*task_create)(sm *s, const otr_loc *l, uint64_t t, uint64_t task);
  void (*task_dep)(sm *s, const otr_loc *l, uint64_t t, const char *kind);
  void (*chunk)(sm *s, const otr_loc *l, uint64_t t, const otr_frame *top, const char *kind,
                uint64_t first, uint64_t iterations);
  void (*task_fragment)(sm *s, const otr_loc *l, uint64_t task, uint32_t region, uint64_t active);
  void (*task_complete)(sm *s, const otr_loc *l, uint64_t t, uint64_t task);
  void (*sample)(sm *s, const otr_loc *l, uint64_t t, uint32_t context, uint32_t generator);
  void (*metric_total)(sm *s, const otr_loc *l, const double *first, const double *last);
  void (*mpi_message)(sm *s, const otr_msg *m);
  void (*mpi_collective)(sm *s, const otr_coll *m, uint32_t n);
} sm_hooks;

/* An analysis; every step may be NULL. finish runs in table order after
 * the pass, so an analysis reading sm_facts (findings) comes after those
 * filling them; report only formats what finish left. */
typedef struct {
  void (*init)(sm *s);
  sm_hooks hooks;
  void (*finish)(sm *s);
  void (*report)(sm *s, report *r);
  void (*free)(sm *s);
} sm_analysis;

extern const sm_analysis sm_overview_analysis, sm_threads_analysis, sm_regions_analysis,
    sm_chunks_analysis, sm_tasks_analysis, sm_locks_analysis, sm_counters_analysis,
    sm_samples_analysis, sm_timeline_analysis, sm_mpi_analysis, sm_findings_analysis;

/* filtered.c: OMPTRACE_FILTER's rules and the regions it left out */
void sm_filtered_report(sm *s, report *r);
/* throttled.c: OMPTRACE_THROTTLE's counts, in the overview. */
void sm_throttled_report(sm *s, report *r);

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

/* collect.c: the analysis table. sm_collect: init, then one pass calling
 * the hooks; sm_finish and sm_report: every analysis in table order. */
bool sm_collect(sm *s, char *err, size_t errlen);
void sm_finish(sm *s);
void sm_report(sm *s, report *r);
void sm_free(sm *s);

/* for --compare: threads = locations with events; wall = last minus first
 * event, minus the measurement gaps; serial: no thread in a parallel region
 * or an MPI call */
void sm_overview_totals(const sm *s, uint32_t *threads, uint64_t *wall_ns, uint64_t *serial_ns);
/* slowest thread's inclusive time in the key's regions, ns; 0 if never */
uint64_t sm_regions_slowest_ns(const sm *s, uint32_t key);
bool sm_regions_has(const sm *s, uint32_t key);

/* compare.c */
int sm_compare_main(char **paths, int n, const sm_opts *o, const char *format, FILE *out);

/* quantile.c: exact below a bound, a log histogram above it */
typedef struct sm_quant sm_quant;
sm_quant *quant_new(void);
void quant_add(sm_quant *q, uint64_t v);
uint64_t quant_get(sm_quant *q, double p); /* nearest rank */
bool quant_exact(const sm_quant *q);
void quant_free(sm_quant *q);

uint64_t sm_ns(const sm *s, uint64_t ticks);

#endif
