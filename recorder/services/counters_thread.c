/* Per-thread counter life cycle and the hot-path read. Each OpenMP
 * thread owns its PAPI event sets (one per component), started at
 * thread_begin, so values count from the thread's start; or, while an SDE
 * counter waits for its library, at the thread's first parallel region. */
#include "core/log.h"
#include "core/thread.h"
#include "core/threads.h"
#include "services/counters.h"
#include "services/counters_internal.h"

#include <omp-tools.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Destroys the first `n` sets of c. */
static void destroy_sets(ot_ctr_thread *c, unsigned n) {
  for (unsigned s = 0; s < n; s++) {
    long long junk[OT_CTR_MAX];
    PAPI_stop(c->es[s], junk); /* fails harmlessly for a set never started */
    PAPI_cleanup_eventset(c->es[s]);
    PAPI_destroy_eventset(&c->es[s]);
  }
}

/* Builds and starts set s; on failure names the event to blame. */
static int start_set(ot_ctr_thread *c, unsigned s, const char **blame) {
  const ot_ctr_set *set = &ot_ctr.sets[s];
  *blame = ot_ctr.name[set->first];
  int rc = PAPI_create_eventset(&c->es[s]);
  if (rc != PAPI_OK)
    return rc;
  if (set->multiplex) {
    rc = PAPI_assign_eventset_component(c->es[s], set->cidx);
    if (rc == PAPI_OK)
      rc = PAPI_set_multiplex(c->es[s]);
    if (rc != PAPI_OK)
      return rc;
  }
  for (unsigned k = set->first; k < set->first + set->n; k++) {
    *blame = ot_ctr.name[k];
    rc = PAPI_add_event(c->es[s], ot_ctr.code[k]);
    if (rc != PAPI_OK)
      return rc;
  }
  *blame = ot_ctr.name[set->first];
  return PAPI_start(c->es[s]);
}

/* Starts c's event sets on the calling thread (t's own). Returns 0, or
 * -1 after one line, with c's sets destroyed. */
static int start_counters(ot_thread *t, ot_ctr_thread *c) {
  /* Explicit registration; PAPI would otherwise do it on first use. */
  int rc = PAPI_register_thread();
  unsigned s = 0;
  const char *blame = ot_ctr.name[0];
  for (; rc == PAPI_OK && s < ot_ctr.nsets; s++) {
    rc = start_set(c, s, &blame);
    if (rc != PAPI_OK) {
      s++; /* the failed set exists (maybe half-built): destroy it too */
      break;
    }
  }
  if (rc == PAPI_OK) {
    /* Read once so `last` starts at the thread's start values. */
    for (unsigned i = 0; i < ot_ctr.nsets; i++) {
      const ot_ctr_set *set = &ot_ctr.sets[i];
      if (PAPI_read(c->es[i], c->vals + set->first) == PAPI_OK)
        for (unsigned k = set->first; k < set->first + set->n; k++)
          c->last[k] = (uint64_t)c->vals[k];
    }
    atomic_fetch_add(&ot_ctr.threads_live, 1);
    return 0;
  }
  ot_warn("OMPTRACE_METRICS: %s: %s; thread %u records no counter values", blame, PAPI_strerror(rc),
          t->loc);
  atomic_store(&ot_ctr.thread_failed, 1);
  /* Stay registered: the application may be using PAPI on this thread. */
  destroy_sets(c, s);
  return -1;
}

atomic_int ot_counters_deferred;

void ot_counters_thread_begin(ot_thread *t) {
  t->nctr = 0;
  t->counters = NULL;
  int settled = atomic_load_explicit(&ot_ctr.settled, memory_order_acquire);
  if (settled && !ot_ctr.n)
    return;
  /* A worker begins inside a parallel region: complete the set now. An
   * initial thread begins when the runtime starts, typically before
   * main() has registered its SDE counters: it waits for its first
   * parallel region (ot_counters_parallel_begin). */
  if (!settled && t->thread_type != ompt_thread_initial) {
    ot_counters_settle();
    settled = 1;
    if (!ot_ctr.n)
      return;
  }
  ot_ctr_thread *c = ot_thread_memory(sizeof *c);
  if (!c) {
    ot_warn("OMPTRACE_METRICS: %s: out of memory; thread %u records no counter values",
            settled ? ot_ctr.name[0] : "counters", t->loc);
    atomic_store(&ot_ctr.thread_failed, 1);
    return;
  }
  for (unsigned s = 0; s < OT_CTR_MAX_SETS; s++)
    c->es[s] = PAPI_NULL; /* PAPI_create_eventset insists */
  if (!settled) {
    c->deferred = 1;
    t->counters = c;
    atomic_store(&ot_ctr.started_late, 1);
    atomic_fetch_add(&ot_counters_deferred, 1);
    return;
  }
  if (start_counters(t, c) != 0) {
    munmap(c, sizeof *c);
    return;
  }
  t->counters = c;
  t->nctr = ot_ctr.n;
}

void ot_counters_thread_resume(ot_thread *t) {
  ot_ctr_thread *c = t->counters;
  if (!c || !c->deferred)
    return; /* another thread waits */
  c->deferred = 0;
  atomic_fetch_sub(&ot_counters_deferred, 1);
  ot_counters_settle();
  if (!ot_ctr.n || start_counters(t, c) != 0) {
    t->counters = NULL;
    munmap(c, sizeof *c);
    return;
  }
  t->nctr = ot_ctr.n;
  ot_verbose("counters: thread %u starts its counters at its first parallel region", t->loc);
}

void ot_counters_release(ot_thread *t, int own) {
  ot_ctr_thread *c = t->counters;
  if (c && c->deferred && own) {
    /* Never started (no parallel region on this thread). */
    atomic_fetch_sub(&ot_counters_deferred, 1);
    t->counters = NULL;
    munmap(c, sizeof *c);
    return;
  }
  if (!c || !t->nctr)
    return;
  /* The emit helper reads only while nctr > 0: clear it first. */
  t->nctr = 0;
  if (c->failed_reads)
    ot_warn("OMPTRACE_METRICS: %s: %s; %llu read(s) on thread %u repeated the previous values",
            ot_ctr.name[0], PAPI_strerror(c->last_err), (unsigned long long)c->failed_reads,
            t->loc);
  destroy_sets(c, ot_ctr.nsets);
  atomic_fetch_sub(&ot_ctr.threads_live, 1);
  if (!own)
    return; /* a handler of that thread may still hold c: keep it */
  PAPI_unregister_thread();
  t->counters = NULL;
  munmap(c, sizeof *c);
}

void ot_counters_thread_end(ot_thread *t) {
  ot_counters_release(t, 1);
}

/* Hot path: one PAPI_read per event set (PAPI_read measured cheaper than
 * PAPI_read_ts) into a thread-private array, then a copy. No allocation,
 * no lock of ours; a failed read repeats the last good values so the
 * series stays monotone, and is reported once at thread end. */
void ot_counters_read(ot_thread *t, uint64_t *out) {
  ot_ctr_thread *c = t->counters;
  unsigned nsets = ot_ctr.nsets;
  for (unsigned s = 0; s < nsets; s++) {
    const ot_ctr_set *set = &ot_ctr.sets[s];
    int rc = PAPI_read(c->es[s], c->vals + set->first);
    if (__builtin_expect(rc == PAPI_OK, 1)) {
      for (unsigned k = set->first; k < set->first + set->n; k++)
        c->last[k] = (uint64_t)c->vals[k];
    } else {
      c->failed_reads++;
      c->last_err = rc;
    }
  }
  memcpy(out, c->last, sizeof(uint64_t) * ot_ctr.n);
}
