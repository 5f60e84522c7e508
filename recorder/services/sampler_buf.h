/* Raw stack captures kept by the sampler until finalize. A capture is a
 * variable-length record: header, OMPT task levels (innermost first), then
 * frames (innermost first). The signal handler writes samples; the fork and
 * task hooks write context captures into a second buffer. Both buffers are
 * mapped at thread_begin and only appended to by their own thread. */
#ifndef OMPTRACE_SAMPLER_BUF_H
#define OMPTRACE_SAMPLER_BUF_H

#include "core/thread.h"
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define OT_CAP_MAX_FRAMES 128
#define OT_CAP_MAX_LEVELS 16

enum ot_cap_kind {
  OT_CAP_SAMPLE = 1,
  OT_CAP_FORK = 2,
  OT_CAP_TASK = 3,
  OT_CAP_FORK_LEVELS = 4 /* argument of ot_capture_take only: a fork capture without frames */
};

/* One OMPT task level as ompt_get_task_info reported it. */
typedef struct ot_cap_level {
  uint64_t exit_fp;     /* frame->exit_frame.ptr (0 = NULL) */
  uint64_t enter_fp;    /* frame->enter_frame.ptr (0 = NULL) */
  uint64_t parallel_id; /* parallel_data value, OT_PARALLEL_CLEAN'ed */
  uint64_t task_id;     /* task_data value (record.h task id) */
  uint32_t flags;       /* ompt_task_flag_t */
  int32_t thread_num;
} ot_cap_level;

typedef struct ot_cap_frame {
  uint64_t pc;  /* interrupted pc (frame 0 of a sample) or return address */
  uint64_t cfa; /* canonical frame address; fp(F) = cfa - 16 */
} ot_cap_frame;

typedef struct ot_capture {
  uint64_t ts;      /* raw clock */
  uint64_t key;     /* fork: parallel id; task: task id; sample: 0 */
  uint64_t codeptr; /* fork/task: codeptr_ra of the construct */
  uint32_t state;   /* ompt_state_t at the sample */
  uint32_t size;    /* bytes of the whole capture, multiple of 8 */
  uint16_t nframes;
  uint16_t nlevels;
  uint8_t kind;      /* enum ot_cap_kind */
  uint8_t exact;     /* frames[0].pc is an interrupted pc, not a return address */
  uint8_t truncated; /* the walk stopped at OT_CAP_MAX_FRAMES */
  uint8_t pad;
  /* Lazy fork contexts repeated from the same call path carry no frames:
   * offset + 1 of the capture (same buffer) whose frames they share. */
  uint64_t frames_at;
} ot_capture;

static inline const ot_cap_level *ot_cap_levels(const ot_capture *c) {
  return (const ot_cap_level *)(c + 1);
}
static inline const ot_cap_frame *ot_cap_frames(const ot_capture *c) {
  return (const ot_cap_frame *)(ot_cap_levels(c) + c->nlevels);
}
#define OT_CAP_MAX_SIZE                                                                            \
  (sizeof(ot_capture) + OT_CAP_MAX_LEVELS * sizeof(ot_cap_level) +                                 \
   OT_CAP_MAX_FRAMES * sizeof(ot_cap_frame))

typedef struct ot_cap_buf {
  uint8_t *base;
  size_t cap, used;
} ot_cap_buf;

/* Recent fork call paths of one thread, by signature (sampler_hooks.c). */
#define OT_FORK_CACHE 16
typedef struct ot_fork_seen {
  uint64_t sig[4]; /* codeptr, enter frame, two return addresses above it */
  uint64_t at;     /* offset + 1 of the full capture */
} ot_fork_seen;

/* Per-thread sampler state (ot_thread.sampler). */
typedef struct ot_sampler_thread {
  ot_thread *thread;
  uintptr_t stack_lo, stack_hi; /* bounds for frame addresses */
  timer_t timer;
  atomic_int has_timer;         /* exchanged to 0 by whoever deletes the timer */
  volatile sig_atomic_t active; /* timer armed and buffers writable */
  volatile sig_atomic_t busy;   /* re-entry guard: only via services/sampler_guard.h */
  ot_cap_buf samples;
  ot_cap_buf contexts;
  size_t contexts_seen; /* finalize: bytes of contexts indexed */
  uint64_t taken;       /* samples stored */
  uint64_t full;        /* dropped: sample buffer full */
  uint64_t busy_skips;  /* dropped: arrived while the thread was unwinding already */
  uint64_t ctx_full;    /* fork/task contexts dropped: buffer full */
  uint64_t ctx_taken;   /* fork/task contexts captured */
  uint64_t ctx_reused;  /* of which shared the frames of an earlier one */
  ot_fork_seen fork_seen[OT_FORK_CACHE];
  uint64_t sample_ticks, ctx_ticks; /* raw clock spent taking them (cost report) */
  /* Coverage check at stop (sampler.c): timer expirations that reached
   * the handler (1 + si_overrun per signal) against the CPU time the
   * thread ran while armed (samples expected = that / period). */
  uint64_t expirations;
  uint64_t armed_ns, disarmed_ns; /* the timer's clock; disarmed 0 = still armed */
  clockid_t cpu_clock; /* that clock: the thread's CPU clock (pthread_getcpuclockid) or wall */
  /* The thread's perf_event task-clock counter (sampler_perf.h), or -1
   * when its timer is a POSIX timer. Set before the counter can fire. */
  volatile sig_atomic_t perf_fd;
  void *perf_ring; /* its ring buffer (NULL: re-armed by ioctl) */
} ot_sampler_thread;

/* Capture helpers (sampler_capture.c). ot_capture_take is signal-safe
 * (called from the sampling signal handler). ucontext != NULL: start at the
 * interrupted context (signal handler); NULL: at the caller. Returns the
 * capture written at buf's end, or NULL if it does not fit. */
ot_capture *ot_capture_take(ot_sampler_thread *st, ot_cap_buf *buf, void *ucontext, int kind);
void ot_capture_init(void);    /* caching policy and a first unwind */
void ot_capture_warm_up(void); /* one unwind outside any handler */

/* Iteration at finalize: p starts at NULL. */
static inline const ot_capture *ot_cap_next(const ot_cap_buf *b, const ot_capture *p) {
  const uint8_t *n = p ? (const uint8_t *)p + p->size : b->base;
  return (b->base && n < b->base + b->used) ? (const ot_capture *)n : NULL;
}

/* Global sampler facts for finalize. */
int ot_sampler_enabled(void);
uint64_t ot_sampler_period_ns(void);

#endif
