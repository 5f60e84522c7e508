/* Per-thread recorder state. One ot_thread per OS thread that OpenMP
 * announces with thread_begin (its "location" in OTF2 terms). The hot
 * fields come first so one cache line serves every callback. */
#ifndef OMPTRACE_THREAD_H
#define OMPTRACE_THREAD_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

struct ot_chunk;
struct ot_thr_table;

/* The filter's state of one thread (events/filter.h): which open
 * constructs were dropped and the wait ids of dropped lock acquisitions,
 * whose releases go too. */
#define OT_FILTER_DEPTH 64u /* nesting depth of begin/end constructs remembered */
#define OT_FILTER_HELD 8u
typedef struct ot_filter_stack {
  uint64_t bits;  /* bit 0: the innermost of the open constructs it holds (1 dropped) */
  uint32_t depth; /* open constructs; bits holds the outermost OT_FILTER_DEPTH */
  uint32_t nheld;
  uint64_t held[OT_FILTER_HELD];
  uint64_t acq_wait; /* the last mutex_acquire: its acquired follows its decision */
  int acq_drop;
  unsigned epoch; /* ot_filter_epoch this state belongs to */
} ot_filter_stack;

typedef struct ot_thread {
  /* Hot: append position in the current chunk. `cur` is published with a
   * release store after each record so finalize may read a live buffer. */
  _Atomic(uint8_t *) cur;
  uint8_t *end;
  uint32_t loc;          /* location index, 0..ot_thread_count()-1 */
  uint32_t nctr;         /* counter values per record (0 = counters off) */
  uint64_t parallel_seq; /* parallel regions this thread encountered */
  uint64_t task_gen;     /* explicit tasks this thread created */
  uint64_t cur_parallel; /* parallel id of the innermost implicit task */
  uint64_t pair_ts;      /* events/sync.c: timestamp shared by back-to-back pairs */
  uint64_t pair_rec;     /* value of `records` when pair_ts was taken */
  unsigned pair_kind;
  /* OT_SP_*: nonzero sends the filtered handlers to their filter or
   * throttle path; exactly OT_SP_FILTER lets them decide without it. */
  _Atomic unsigned special;

  /* Buffer bookkeeping (buffer/thread_buffer.c). */
  struct ot_chunk *chunk;
  uint64_t records;  /* records written (all chunks) */
  uint64_t lost;     /* records dropped (OT_LOST written afterwards) */
  uint64_t stall_ns; /* time spent waiting for a free chunk */

  /* Services own these (services/counters.c, services/sampler.c). */
  void *counters;
  void *sampler;
  struct ot_thr_table *throttle; /* core/throttle.h; NULL when off */
  uint64_t thr_seg;              /* events/throttle.h: start of the running task's segment */

  /* Identity, for location names and properties. */
  int thread_type; /* ompt_thread_t */
  pid_t tid;
  uint64_t begin_ts, end_ts; /* raw clock */
  atomic_int ended;

  ot_filter_stack filt; /* only with a filter file */
} ot_thread;

enum {
  OT_SP_FILTER = 1,   /* a filter file is in force */
  OT_SP_THROTTLE = 2, /* throttling */
  OT_SP_STALE = 4     /* a pause or resume since: the filter's bit stack is reset first */
};

/* The calling thread's state, or NULL for threads OpenMP never announced.
 * Initial-exec TLS: no allocation on first touch inside a dlopen'ed tool. */
extern __thread ot_thread *ot_self __attribute__((tls_model("initial-exec")));

/* Registry (core/threads.c). Locations are numbered in thread_begin order. */
uint32_t ot_thread_count(void);
ot_thread *ot_thread_get(uint32_t loc);

/* Set to 0 when finalize starts: handlers then record nothing, so buffers
 * stop changing while they are converted (exit() inside a parallel region).
 * Nonzero values are the omp_control_tool states (events/control.c): the
 * handlers' one load tells recording from paused (only the records that
 * keep nesting right) and ended (nothing). */
extern atomic_int ot_recording;
enum { OT_REC_OFF = 0, OT_REC_ON = 1, OT_REC_PAUSED = 2, OT_REC_ENDED = 3 };

#endif
