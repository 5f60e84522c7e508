/* Findings: short sentences about the biggest problems, with numbers,
 * ordered by the time at stake. Written from the headline figures the other
 * analyses left in sm_facts, so this runs last. */
#include "summary.h"

#include "xalloc.h"

#include <stdarg.h>
#include <stdlib.h>

typedef struct {
  char text[512];
  uint64_t impact;
} finding;

static finding fs[16];
static int nfs;

static void add(uint64_t impact, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(uint64_t impact, const char *fmt, ...) {
  if (nfs == 16)
    return;
  va_list va;
  va_start(va, fmt);
  vsnprintf(fs[nfs].text, sizeof fs[nfs].text, fmt, va);
  va_end(va);
  fs[nfs++].impact = impact;
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

void findings_report(sm *s, report *r) {
  const sm_facts *f = &s->facts;
  char a[32], b[32], c[32];
  nfs = 0;
  double wall = (double)f->wall_ns, thr = f->threads ? f->threads : 1;
  if (f->gaps) { /* first: every other figure is of the measured time only */
    fmt_ns(a, sizeof a, (double)f->lost_ns);
    fmt_ns(b, sizeof b, wall);
    add(UINT64_MAX,
        "Records are missing in %u measurement gap%s (recording was off: records dropped on a "
        "full disk, or recording switched off): %s of the run (%.0f%%) is left out of every "
        "figure; the other findings are about the %s that were measured.",
        f->gaps, f->gaps == 1 ? "" : "s", a, 100 * (double)f->lost_ns / (wall + (double)f->lost_ns),
        b);
  }
  if (wall > 0 && f->serial_ns >= 0.1 * wall) {
    fmt_ns(a, sizeof a, (double)f->serial_ns);
    double share = (double)f->serial_ns / wall;
    add(f->serial_ns,
        "%.0f%% of the run (%s) is serial: no thread is inside a parallel region, so %g threads "
        "can speed the run up by at most %.1fx.",
        100 * share, a, thr, 1.0 / (share + (1 - share) / thr));
  }
  if (f->gain_label && wall > 0 && f->gain_ns >= 0.01 * wall) {
    fmt_ns(a, sizeof a, (double)f->gain_ns);
    add(f->gain_ns,
        "%s is imbalanced (%.0f%% of its slowest thread's busy time): perfect balance would "
        "save %s, %.1f%% of the run.",
        f->gain_label, 100 * f->gain_imbalance, a, 100 * (double)f->gain_ns / wall);
  }
  uint64_t wait = 0;
  otr_cat top = OTR_T_IBARRIER;
  for (int k = 0; k < OTR_T_COUNT; k++)
    if (otr_cat_is_wait((otr_cat)k)) {
      wait += f->wait_ns[k];
      if (f->wait_ns[k] > f->wait_ns[top])
        top = (otr_cat)k;
    }
  if (wall > 0 && wait >= 0.1 * wall * thr) {
    fmt_ns(a, sizeof a, (double)wait);
    fmt_ns(b, sizeof b, (double)f->wait_ns[top]);
    add((uint64_t)((double)wait / thr),
        "Threads spend %.0f%% of their time waiting (%s over all threads), mostly in %s (%s).",
        100 * (double)wait / (wall * thr), a, wait_name(top), b);
  }
  if (f->lock_label && f->lock_wait_ns > 0) {
    fmt_ns(a, sizeof a, (double)f->lock_wait_ns);
    if (f->blame_label) {
      fmt_ns(b, sizeof b, (double)f->blame_ns);
      add((uint64_t)((double)f->lock_wait_ns / thr),
          "The lock first taken at %s was contended in %.0f%% of its acquisitions and cost %s "
          "of waiting; %s of it while the holder was in %s.",
          f->lock_label, 100 * f->lock_contention, a, b, f->blame_label);
    } else {
      add((uint64_t)((double)f->lock_wait_ns / thr),
          "Acquiring the lock first taken at %s cost %s of waiting.", f->lock_label, a);
    }
  }
  if (f->tasks && f->task_median_ns < 10000) {
    fmt_ns(a, sizeof a, (double)f->task_median_ns);
    fmt_ns(b, sizeof b, (double)f->task_create_mean_ns);
    fmt_ns(c, sizeof c, (double)(f->task_create_mean_ns * f->tasks));
    if (f->task_create_mean_ns)
      add(f->task_create_mean_ns * f->tasks,
          "Tasks are fine-grained: the median task runs %s and creating one costs %s (%s in "
          "all); give tasks more work (a cutoff, or a taskloop grainsize).",
          a, b, c);
    else
      add(0,
          "Tasks are fine-grained: the median of %llu tasks runs %s; runtime overhead per task "
          "is of that order, so give tasks more work (a cutoff, or a taskloop grainsize).",
          (unsigned long long)f->tasks, a);
  }
  if (wall > 0 && f->forkjoin_ns >= 0.05 * wall) {
    fmt_ns(a, sizeof a, (double)f->forkjoin_ns);
    add(f->forkjoin_ns,
        "Opening and closing parallel regions costs %s (%.0f%% of the run): merge small "
        "parallel regions or move them out of loops.",
        a, 100 * (double)f->forkjoin_ns / wall);
  }
  if (f->ipc_label && f->ipc_all > 0 && f->ipc_low < 0.5 * f->ipc_all)
    add(0, "%s runs at %.2f instructions per cycle, against %.2f for the whole run.", f->ipc_label,
        f->ipc_low, f->ipc_all);
  if (f->samples && f->wait_samples * 10 >= f->samples * 3)
    add(0, "%.0f%% of the samples caught threads waiting inside the OpenMP runtime.",
        100.0 * (double)f->wait_samples / (double)f->samples);
  qsort(fs, (size_t)nfs, sizeof *fs, by_impact);
  rtable *t = rt_new(r, "findings", "findings", "Findings", false);
  t->bullets = true;
  rt_col(t, "text", "Finding", RV_STR);
  rt_col(t, "impact_ns", "Time at stake", RV_NS);
  for (int i = 0; i < (int)sm_limit(s, (uint32_t)nfs); i++) {
    rt_row(t);
    rt_str(t, fs[i].text);
    rt_ns(t, fs[i].impact == UINT64_MAX ? f->lost_ns : fs[i].impact);
  }
}
