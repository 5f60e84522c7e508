/* State shared by the counter service's files (counters*.c); not part of
 * the recorder's interface. */
#ifndef OMPTRACE_COUNTERS_INTERNAL_H
#define OMPTRACE_COUNTERS_INTERNAL_H

#include <stdatomic.h>
#include <stdint.h>

/* Upper bound on counters per record: keeps records small and bounded
 * (hardware PMUs hold 4-8 at once; more need multiplexing anyway). */
#define OT_CTR_MAX 16
/* PAPI binds an event set to one component: one set per component used. */
#define OT_CTR_MAX_SETS 4

typedef struct ot_ctr_set {
  int cidx;          /* PAPI component index */
  int multiplex;     /* set is multiplexed: its values are estimates */
  unsigned first, n; /* counters [first, first+n) in record order */
} ot_ctr_set;

typedef struct ot_ctr_global {
  unsigned n; /* counters that work, in record order */
  unsigned nsets;
  ot_ctr_set sets[OT_CTR_MAX_SETS];
  int code[OT_CTR_MAX];
  char name[OT_CTR_MAX][128];
  char unit[OT_CTR_MAX][64];
  char descr[OT_CTR_MAX][256];
  int ours;                 /* PAPI_library_init was called here (shut down at finalize) */
  atomic_int thread_failed; /* some thread records no values */
  atomic_int threads_live;  /* event sets created and not yet destroyed */
  /* 0 while some SDE counter waits for its library: the set above is not
   * final and threads defer their counters (ot_counters_settle). */
  atomic_int settled;
  atomic_int started_late; /* some thread started its counters after its start */
} ot_ctr_global;

extern ot_ctr_global ot_ctr;

/* Per-thread state behind ot_thread.counters. */
typedef struct ot_ctr_thread {
  int es[OT_CTR_MAX_SETS];
  long long vals[OT_CTR_MAX]; /* PAPI_read target */
  uint64_t last[OT_CTR_MAX];  /* last good values, repeated if a read fails */
  uint64_t failed_reads;
  int last_err;
  int deferred; /* waits for the counter set (counted in ot_counters_deferred) */
} ot_ctr_thread;

/* Completes the counter set once: tries the pending names again and
 * places every kept name. Thread-safe; returns at once when settled. */
void ot_counters_settle(void);

struct ot_thread;
/* Stops and frees a thread's event sets; own: called by that thread
 * (then it also leaves PAPI's thread list). */
void ot_counters_release(struct ot_thread *t, int own);

/* OMPTRACE_METRICS_ON -> ot_counter_rec_mask (counters_mask.c). */
uint64_t ot_counters_parse_groups(const char *spec);
/* Record types that become Enter/Leave for the event groups in `events`. */
uint64_t ot_counters_enter_leave_types(uint32_t events);

#endif
