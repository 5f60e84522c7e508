/* Per thread: where its time went over the whole run. OMP Work, OMP Wait
 * split by kind, runtime overhead (fork/join outside any region, task
 * creation, other runtime calls), MPI calls (in or outside parallel
 * regions), serial code (threads that fork or call MPI outside parallel
 * regions) and idle time (other threads outside parallel regions). */
#include "summary.h"

static const struct {
  otr_cat cat;
  const char *id, *title;
} waits[] = {{OTR_T_IBARRIER, "implicit_barrier_ns", "Impl.barrier"},
             {OTR_T_EBARRIER, "explicit_barrier_ns", "Expl.barrier"},
             {OTR_T_TASKWAIT, "taskwait_ns", "Taskwait"},
             {OTR_T_TASKGROUP, "taskgroup_ns", "Taskgroup"},
             {OTR_T_LOCK, "lock_ns", "Lock"},
             {OTR_T_CRITICAL, "critical_ns", "Critical"},
             {OTR_T_ORDERED, "ordered_ns", "Ordered"}};

/* Location i's time per category, ns. Throttled tasks left no records,
 * so the waits they ran in hold their time: it moves to work, as a
 * recorded task's would (omptrace::throttled_waits). */
static void times(const sm *s, uint32_t i, uint64_t c[OTR_T_COUNT]) {
  const otr_loc *l = otr_location(s->a, i);
  for (int k = 0; k < OTR_T_COUNT; k++)
    c[k] = sm_ns(s, l->cat_time[k]);
  const uint64_t *moved = s->d->throttled_wait_ns;
  for (int k = 0; moved && k < OTR_T_COUNT; k++) {
    uint64_t ns = moved[(size_t)i * OTR_T_COUNT + k];
    ns = ns < c[k] ? ns : c[k];
    c[k] -= ns;
    c[OTR_T_WORK] += ns;
  }
}

static void finish(sm *s) {
  sm_facts *f = &s->facts;
  for (uint32_t i = 0; i < s->d->n_locations; i++) {
    if (s->d->location_device[i]) /* an offload device: no thread's time */
      continue;
    uint64_t c[OTR_T_COUNT];
    times(s, i, c);
    for (int k = 0; k < OTR_T_COUNT; k++)
      if (otr_cat_is_wait((otr_cat)k))
        f->wait_ns[k] += c[k];
    f->busy_ns += c[OTR_T_WORK];
    f->forkjoin_ns += c[OTR_T_FORKJOIN];
    f->runtime_ns += c[OTR_T_RUNTIME];
    f->taskcreate_ns += c[OTR_T_TASKCREATE];
    f->mpi_thread_ns += c[OTR_T_MPI];
  }
}

static void report_threads(sm *s, report *r) {
  rtable *t = rt_new(r, "threads", "threads", "Time per thread", false);
  t->hide_zero = true;
  rt_col(t, "thread", "Thread", RV_INT);
  rt_col(t, "work_ns", "OMP Work", RV_NS);
  rt_col(t, "wait_ns", "OMP Wait", RV_NS);
  for (size_t k = 0; k < sizeof waits / sizeof *waits; k++)
    rt_col(t, waits[k].id, waits[k].title, RV_NS);
  rt_col(t, "fork_join_ns", "Fork/join", RV_NS);
  rt_col(t, "task_create_ns", "Task create", RV_NS);
  rt_col(t, "runtime_ns", "Runtime", RV_NS);
  rt_col(t, "mpi_ns", "MPI", RV_NS);
  rt_col(t, "serial_ns", "Serial", RV_NS);
  rt_col(t, "idle_ns", "Idle", RV_NS);
  rt_col(t, "lost_ns", "Lost (gaps)", RV_NS);
  rt_col(t, "paused_ns", "Paused", RV_NS);
  rt_col(t, "name", "Name", RV_STR);
  uint32_t ngaps;
  const otr_gap *g = otr_gaps(s->a, &ngaps);
  uint64_t paused_all = s->facts.paused_ns;
  for (uint32_t i = 0; i < s->d->n_locations; i++) {
    if (s->d->location_device[i])
      continue;
    const otr_loc *l = otr_location(s->a, i);
    uint64_t c[OTR_T_COUNT], wait = 0;
    times(s, i, c);
    for (int k = 0; k < OTR_T_COUNT; k++)
      if (otr_cat_is_wait((otr_cat)k))
        wait += c[k];
    rt_row(t);
    rt_int(t, i);
    rt_ns(t, c[OTR_T_WORK]);
    rt_ns(t, wait);
    for (size_t k = 0; k < sizeof waits / sizeof *waits; k++)
      rt_ns(t, c[waits[k].cat]);
    rt_ns(t, c[OTR_T_FORKJOIN]);
    rt_ns(t, c[OTR_T_TASKCREATE]);
    rt_ns(t, c[OTR_T_RUNTIME]);
    rt_ns(t, c[OTR_T_MPI]);
    /* before its first and after its last event a thread runs no code
     * (an MPI rank not started yet): idle, also on the thread that forks */
    uint64_t edges = sm_ns(s, l->edges);
    edges = edges < c[OTR_T_OUTSIDE] ? edges : c[OTR_T_OUTSIDE];
    rt_ns(t, l->forked ? c[OTR_T_OUTSIDE] - edges : 0);
    rt_ns(t, l->forked ? edges : c[OTR_T_OUTSIDE]);
    uint64_t paused = 0, lost = sm_ns(s, l->lost);
    for (uint32_t k = 0; k < ngaps; k++)
      paused += g[k].paused && g[k].loc == i ? g[k].t1 - g[k].t0 : 0;
    rt_ns(t, lost > paused_all ? lost - paused_all : 0);
    rt_ns(t, sm_ns(s, paused));
    rt_str(t, s->d->location_names[i]);
  }
  rt_note(t, "OMP Wait = barrier, taskwait, taskgroup, lock, critical and ordered waits; tasks "
             "run inside a wait count as work (throttled ones too: OMPTRACE_THROTTLE); MPI = time "
             "in MPI calls, also inside parallel regions (then not OMP Work); lost = time "
             "in measurement gaps and after stopped threads' last records (of any thread), "
             "in no other column; paused = this thread's time in paused intervals "
             "(omp_control_tool), left out like the gaps; all-zero columns are left out");
}

const sm_analysis sm_threads_analysis = {.finish = finish, .report = report_threads};
