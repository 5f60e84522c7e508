/* Findings: short sentences about the biggest problems, with numbers,
 * ordered by the time at stake. Written in finish from the headline figures
 * the other analyses left in sm_facts, so it is last in the table. */
#include "summary.h"

#include "xalloc.h"

#include <stdarg.h>
#include <stdlib.h>

typedef struct {
  char text[512];
  uint64_t impact;
} finding;

#define NFINDINGS 16

struct sm_findings {
  finding fs[NFINDINGS];
  int n;
};

static void add(sm_findings *k, uint64_t impact, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add(sm_findings *k, uint64_t impact, const char *fmt, ...) {
  if (k->n == NFINDINGS)
    return;
  va_list va;
  va_start(va, fmt);
  vsnprintf(k->fs[k->n].text, sizeof k->fs[k->n].text, fmt, va);
  va_end(va);
  k->fs[k->n++].impact = impact;
}

static int by_impact(const void *a, const void *b) {
  const finding *x = a, *y = b;
  return x->impact < y->impact ? 1 : x->impact > y->impact ? -1 : 0;
}

static const char *wait_name(otr_cat c) {
  switch (c) {
  case OTR_T_IBARRIER:
    return "implicit barriers";
  case OTR_T_EBARRIER:
    return "explicit barriers";
  case OTR_T_TASKWAIT:
    return "taskwait";
  case OTR_T_TASKGROUP:
    return "taskgroup ends";
  case OTR_T_LOCK:
    return "lock acquisition";
  case OTR_T_CRITICAL:
    return "critical sections";
  case OTR_T_ORDERED:
    return "ordered sections";
  default:
    return "?";
  }
}

static void init(sm *s) {
  s->findings = otr_xcalloc(1, sizeof *s->findings);
}

/* Gaps, serial time, imbalance: findings about the whole run. */
static void run_findings(sm_findings *k, const sm_facts *f) {
  char a[32], b[32];
  double wall = (double)f->wall_ns, thr = f->threads ? f->threads : 1;
  uint32_t missing = f->gaps - f->paused_gaps - f->stopped_gaps; /* stops: nothing missing */
  if (missing) { /* first: every other figure is of the measured time only */
    fmt_ns(a, sizeof a, (double)f->lost_ns);
    fmt_ns(b, sizeof b, wall);
    add(k, UINT64_MAX,
        "Records are missing in %u measurement gap%s (recording was off: records dropped on a "
        "full disk, or recording switched off): %s of the run (%.0f%%) is left out of every "
        "figure; the other findings are about the %s that were measured.",
        missing, missing == 1 ? "" : "s", a, 100 * (double)f->lost_ns / (wall + (double)f->lost_ns),
        b);
  }
  /* Serial time leaves out MPI calls: a rank waiting in MPI is no serial
   * code, and more OpenMP threads do not shorten it. In a job, OpenMP
   * speeds up each rank with its own threads. */
  if (wall > 0 && f->serial_ns >= 0.1 * wall) {
    fmt_ns(a, sizeof a, (double)f->serial_ns);
    double share = (double)f->serial_ns / wall;
    double n = f->ranks > 1 && f->rank_threads ? f->rank_threads : thr;
    add(k, f->serial_ns,
        "%.0f%% of the run (%s) is serial: no thread is inside a parallel region%s, so %g "
        "threads%s can speed the run up by at most %.1fx.",
        100 * share, a, f->mpi_thread_ns ? " or an MPI call" : "", n,
        f->ranks > 1 ? " per rank" : "", 1.0 / (share + (1 - share) / n));
  }
  if (wall > 0 && f->mpi_only_ns >= 0.1 * wall) {
    fmt_ns(a, sizeof a, (double)f->mpi_only_ns);
    add(k, f->mpi_only_ns,
        "%.0f%% of the run (%s) is MPI time: threads are in MPI calls (MPI_Init and "
        "MPI_Finalize count too) and none is inside a parallel region%s.",
        100 * (double)f->mpi_only_ns / wall, a,
        f->ranks > 1 ? "; the MPI section shows where ranks wait" : "");
  }
  if (f->gain_label && wall > 0 && f->gain_ns >= 0.01 * wall) {
    fmt_ns(a, sizeof a, (double)f->gain_ns);
    add(k, f->gain_ns,
        "%s is imbalanced (%.0f%% of its slowest thread's busy time): perfect balance would "
        "save %s, %.1f%% of the run.",
        f->gain_label, 100 * f->gain_imbalance, a, 100 * (double)f->gain_ns / wall);
  }
  if (f->chunk_label && wall > 0 && f->chunk_lag_ns >= 0.01 * wall) {
    fmt_ns(a, sizeof a, (double)f->chunk_lag_ns);
    add(k, f->chunk_lag_ns,
        "%s ends unevenly: its last thread left it %s after the first (summed over its "
        "instances); thread %u took %llu chunks (%llu iterations), thread %u %llu chunks "
        "(%llu iterations); the loop chunks table shows each thread's last chunk.",
        f->chunk_label, a, f->chunk_thr[0], (unsigned long long)f->chunk_chunks[0],
        (unsigned long long)f->chunk_iters[0], f->chunk_thr[1],
        (unsigned long long)f->chunk_chunks[1], (unsigned long long)f->chunk_iters[1]);
  }
}

/* Waiting over all threads, and the wait kind with the most of it. */
static void wait_finding(sm_findings *k, const sm_facts *f) {
  char a[32], b[32];
  double wall = (double)f->wall_ns, thr = f->threads ? f->threads : 1;
  uint64_t wait = 0;
  otr_cat top = OTR_T_IBARRIER;
  for (int i = 0; i < OTR_T_COUNT; i++)
    if (otr_cat_is_wait((otr_cat)i)) {
      wait += f->wait_ns[i];
      if (f->wait_ns[i] > f->wait_ns[top])
        top = (otr_cat)i;
    }
  if (wall > 0 && wait >= 0.1 * wall * thr) {
    fmt_ns(a, sizeof a, (double)wait);
    fmt_ns(b, sizeof b, (double)f->wait_ns[top]);
    add(k, (uint64_t)((double)wait / thr),
        "Threads spend %.0f%% of their time waiting (%s over all threads), mostly in %s (%s).",
        100 * (double)wait / (wall * thr), a, wait_name(top), b);
  }
}

static void lock_finding(sm_findings *k, const sm_facts *f) {
  char a[32], b[32];
  double thr = f->threads ? f->threads : 1;
  if (f->lock_label && f->lock_wait_ns > 0) {
    fmt_ns(a, sizeof a, (double)f->lock_wait_ns);
    if (f->blame_label && f->lock_ordered) { /* the holder: the previous iteration */
      char c[32];
      fmt_ns(b, sizeof b, (double)f->blame_ns);
      fmt_ns(c, sizeof c, (double)f->lock_before_ns);
      add(k, (uint64_t)((double)f->lock_wait_ns / thr),
          "The ordered section first taken at %s was contended in %.0f%% of its acquisitions "
          "and cost %s of waiting; %s of it while the previous iteration's ordered section ran "
          "(%s), %s before the thread of the previous iteration had reached its ordered "
          "section (the loop body before it, or its own wait: blamed on no code), the rest "
          "hand-over after its end.",
          f->lock_label, 100 * f->lock_contention, a, b, f->blame_label, c);
    } else if (f->blame_label) {
      fmt_ns(b, sizeof b, (double)f->blame_ns);
      add(k, (uint64_t)((double)f->lock_wait_ns / thr),
          "The lock first taken at %s was contended in %.0f%% of its acquisitions and cost %s "
          "of waiting; %s of it while the holder was in %s.",
          f->lock_label, 100 * f->lock_contention, a, b, f->blame_label);
    } else {
      add(k, (uint64_t)((double)f->lock_wait_ns / thr),
          "Acquiring the lock first taken at %s cost %s of waiting.", f->lock_label, a);
    }
  }
}

static void task_finding(sm_findings *k, const sm_facts *f) {
  char a[32], b[32], c[32];
  if (f->tasks && f->task_median_ns < 10000) {
    fmt_ns(a, sizeof a, (double)f->task_median_ns);
    fmt_ns(b, sizeof b, (double)f->task_create_mean_ns);
    fmt_ns(c, sizeof c, (double)(f->task_create_mean_ns * f->tasks));
    if (f->task_create_mean_ns)
      add(k, f->task_create_mean_ns * f->tasks,
          "Tasks are fine-grained: the median task runs %s and creating one costs %s (%s in "
          "all); give tasks more work (a cutoff, or a taskloop grainsize).",
          a, b, c);
    else
      add(k, 0,
          "Tasks are fine-grained: the median of %llu tasks runs %s; runtime overhead per task "
          "is of that order, so give tasks more work (a cutoff, or a taskloop grainsize).",
          (unsigned long long)f->tasks, a);
  }
}

/* Runtime overhead, counters and samples. */
static void other_findings(sm_findings *k, const sm_facts *f) {
  char a[32];
  double wall = (double)f->wall_ns;
  if (wall > 0 && f->forkjoin_ns >= 0.05 * wall) {
    fmt_ns(a, sizeof a, (double)f->forkjoin_ns);
    add(k, f->forkjoin_ns,
        "Opening and closing parallel regions costs %s (%.0f%% of the run): merge small "
        "parallel regions or move them out of loops.",
        a, 100 * (double)f->forkjoin_ns / wall);
  }
  if (f->ipc_label && f->ipc_all > 0 && f->ipc_low < 0.5 * f->ipc_all)
    add(k, 0, "%s runs at %.2f instructions per cycle, against %.2f for the whole run.",
        f->ipc_label, f->ipc_low, f->ipc_all);
  if (f->samples_expected && f->samples * 10 < f->samples_expected * 9)
    add(k, 0,
        "%.0f%% of the expected samples are missing (%llu taken of %llu): signals lost or "
        "merged, or samples dropped; the sampled times are that much short.",
        100.0 * (double)(f->samples_expected - f->samples) / (double)f->samples_expected,
        (unsigned long long)f->samples, (unsigned long long)f->samples_expected);
  if (f->samples && f->wait_samples * 10 >= f->samples * 3)
    add(k, 0, "%.0f%% of the samples caught threads waiting inside the OpenMP runtime.",
        100.0 * (double)f->wait_samples / (double)f->samples);
}

/* MPI jobs: imbalance across ranks and the time lost waiting for messages
 * and collectives, each with the call site losing most. */
static void mpi_findings(sm_findings *k, const sm_facts *f) {
  static const char *const what[3] = {
      "Receives wait %s for late senders (the send began after the receive): %s at %s. Send "
      "earlier or receive later.",
      "Sends wait %s for late receivers (a blocking send in its call until the receive was "
      "posted): %s at %s. Post the receive earlier or send without blocking.",
      "Ranks wait %s in collectives for the last rank to arrive: %s at %s. Balance the work "
      "before it."};
  char a[32], b[32];
  if (f->ranks < 2)
    return;
  for (int i = 0; i < 3; i++) {
    if (!f->mpi_site[i])
      continue;
    fmt_ns(a, sizeof a, (double)f->mpi_wait_ns[i]);
    fmt_ns(b, sizeof b, (double)f->mpi_site_ns[i]);
    add(k, f->mpi_wait_ns[i], what[i], a, b, f->mpi_site[i]);
  }
  if (f->busy_imbalance >= 1.1)
    add(k, 0,
        "OpenMP work is imbalanced across the %u ranks: the busiest rank works %.2fx the "
        "mean.",
        f->ranks, f->busy_imbalance);
  if (f->mpi_imbalance >= 1.1)
    add(k, 0,
        "MPI time is imbalanced across the %u ranks: the rank longest in MPI spends %.2fx "
        "the mean there.",
        f->ranks, f->mpi_imbalance);
}

static void finish(sm *s) {
  sm_findings *k = s->findings;
  mpi_findings(k, &s->facts);
  run_findings(k, &s->facts);
  wait_finding(k, &s->facts);
  lock_finding(k, &s->facts);
  task_finding(k, &s->facts);
  other_findings(k, &s->facts);
  qsort(k->fs, (size_t)k->n, sizeof *k->fs, by_impact);
}

static void report_findings(sm *s, report *r) {
  const sm_findings *k = s->findings;
  rtable *t = rt_new(r, "findings", "findings", "Findings", false);
  t->bullets = true;
  rt_col(t, "text", "Finding", RV_STR);
  rt_col(t, "impact_ns", "Time at stake", RV_NS);
  for (int i = 0; i < (int)sm_limit(s, (uint32_t)k->n); i++) {
    rt_row(t);
    rt_str(t, k->fs[i].text);
    rt_ns(t, k->fs[i].impact == UINT64_MAX ? s->facts.lost_ns : k->fs[i].impact);
  }
}

static void free_findings(sm *s) {
  free(s->findings);
  s->findings = NULL;
}

const sm_analysis sm_findings_analysis = {
    .init = init, .finish = finish, .report = report_findings, .free = free_findings};
