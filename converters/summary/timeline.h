/* The timeline strip's states: each thread's time binned over the run, a
 * bin showing the state that took most of its time. Codes are what the
 * "timeline.strips" table holds per bin; the HTML report draws them. */
#ifndef OMPTRACE_SUMMARY_TIMELINE_H
#define OMPTRACE_SUMMARY_TIMELINE_H

/* Bins per thread: fine enough to see phases, small enough that memory
 * does not grow with the trace (the bin width doubles instead). */
#define TL_BINS 256

typedef enum {
  TL_NONE,    /* no measured time in the bin (before the first event, a gap) */
  TL_WORK,    /* OMP Work */
  TL_BARRIER, /* implicit and explicit barrier waits */
  TL_TASKWAIT,
  TL_SYNC,     /* lock, critical and ordered waits */
  TL_OVERHEAD, /* fork/join, task creation, other runtime calls */
  TL_SERIAL,   /* outside parallel regions on a thread that forks */
  TL_IDLE,     /* outside parallel regions on the other threads */
  TL_MPI,      /* in an MPI call (in or outside a parallel region) */
  TL_COUNT
} tl_state;

#endif
