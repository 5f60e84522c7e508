/* Sampler life cycle: one timer per OpenMP thread that signals its own
 * thread: by default (OMPTRACE_SAMPLING_CLOCK=cpu) on the thread's own CPU
 * time, so a thread costs signals only while it runs (a blocked wait gets
 * none; the trace's wait intervals give its time), as a perf_event
 * task-clock counter (sampler_perf.h) or, where perf_event_open is
 * refused, a POSIX CPU-time timer (tick-grained); with wall, a POSIX timer
 * on CLOCK_MONOTONIC. At stop the check that the signals reached the
 * tool. */
#define _GNU_SOURCE
#include "services/sampler.h"
#include "core/config.h"
#include "core/config_table.h"
#include "core/log.h"
#include "core/threads.h"
#include "services/sampler_buf.h"
#include "services/sampler_perf.h"
#include "services/sampler_signal.h"
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

/* Virtual size per buffer; pages are touched only as samples arrive. */
#define OT_SAMPLE_BUF_BYTES (256u << 20) /* about 900 000 samples of 10 frames */
#define OT_CONTEXT_BUF_BYTES (16u << 20)
#define OT_CONTEXT_BUF_EAGER_BYTES (256u << 20) /* a capture per fork and task */

static int enabled;
/* Set by finalize; thread_begin/end may run on other threads meanwhile. */
static atomic_int stopped;
static uint64_t period_ns;
static pid_t owner_pid; /* a fork()ed child inherits no timers: no coverage check there */
static atomic_uint perf_refused;

int ot_sampler_enabled(void) {
  return enabled;
}
uint64_t ot_sampler_period_ns(void) {
  return period_ns;
}

/* exit() runs the program's atexit handlers, then destructors (for
 * example a leak checker walking the loaded objects under the loader
 * lock), and only then the tool's finalize. Samples stop at the first
 * atexit handler the tool registered, before those destructors. */
static void stop_at_exit(void) {
  ot_sampler_stop();
}

void ot_sampler_init(void) {
  if (ot_cfg.sampling_ns == 0)
    return;
  period_ns = ot_cfg.sampling_ns;
  owner_pid = getpid();
  ot_capture_init();
  if (ot_sampler_signal_install(ot_cfg.sampling_signal) != 0) {
    char name[32];
    ot_warn("sampling off: cannot install the handler of %s",
            ot_signal_name(ot_cfg.sampling_signal, name, sizeof name));
    return;
  }
  enabled = 1;
  atexit(stop_at_exit);
}

static int map_buf(ot_cap_buf *b, size_t bytes) {
  void *p =
      mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    return -1;
  b->base = p;
  b->cap = bytes;
  b->used = 0;
  return 0;
}

static void stack_bounds(ot_sampler_thread *st) {
  pthread_attr_t attr;
  void *addr = NULL;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_destroy(&attr);
  }
  st->stack_lo = (uintptr_t)addr;
  st->stack_hi = (uintptr_t)addr + size;
}

/* The time of a thread's timer clock (at least 1: 0 means "not read"), or
 * 0 when its clock cannot be read (the thread is gone). */
static uint64_t cpu_ns(clockid_t clock) {
  struct timespec ts;
  if (clock_gettime(clock, &ts) != 0)
    return 0;
  uint64_t ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  return ns ? ns : 1;
}

static void disarm(ot_sampler_thread *st, int own);

void ot_sampler_thread_begin(ot_thread *t) {
  if (!enabled || atomic_load(&stopped) || t->sampler)
    return;
  ot_sampler_signal_reassert();
  ot_sampler_thread *st = ot_thread_memory(sizeof *st);
  if (!st)
    return;
  st->thread = t;
  stack_bounds(st);
  if (map_buf(&st->samples, OT_SAMPLE_BUF_BYTES) != 0 ||
      map_buf(&st->contexts, ot_cfg.sample_contexts == 1 ? OT_CONTEXT_BUF_EAGER_BYTES
                                                         : OT_CONTEXT_BUF_BYTES) != 0) {
    ot_warn("sampling off on thread %u: cannot map its sample buffer", t->loc);
    __atomic_store_n(&t->sampler, st, __ATOMIC_RELEASE); /* kept: the thread shows, no samples */
    return;
  }
  ot_capture_warm_up(); /* this thread's libunwind cache, outside the handler */
  __atomic_store_n(&t->sampler, st, __ATOMIC_RELEASE); /* the flusher reads the buffers */

  struct sigevent sev = {0};
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = ot_sampler_signal_number();
  sev.sigev_value.sival_ptr = st;
  sev.sigev_notify_thread_id = (pid_t)syscall(SYS_gettid);
  /* The coverage check reads the timer's own clock: the thread's CPU
   * time, or the wall clock. */
  int wall = ot_cfg.sampling_clock == 1;
  if (wall)
    st->cpu_clock = CLOCK_MONOTONIC;
  else if (pthread_getcpuclockid(pthread_self(), &st->cpu_clock) != 0)
    st->cpu_clock = CLOCK_THREAD_CPUTIME_ID; /* fails the timer_create below too */
  st->perf_fd = -1;
  if (!wall) {
    void *ring = NULL;
    int fd = ot_sampler_perf_open(ot_sampler_signal_number(), period_ns, &ring);
    if (fd >= 0) {
      st->armed_ns = cpu_ns(st->cpu_clock);
      st->perf_ring = ring;
      st->perf_fd = fd; /* both before its first signal */
      atomic_store(&st->has_timer, 1);
      st->active = 1;
      if (ot_sampler_perf_start(fd, ring) != 0)
        ot_warn("sampling off on thread %u: the perf_event counter did not start", t->loc);
      if (atomic_load(&stopped))
        disarm(st, 1);
      return;
    }
    if (!perf_refused++)
      ot_verbose("sampling: perf_event_open refused (perf_event_paranoid?): CPU-time POSIX "
                 "timers instead, checked at each scheduler tick");
  }
  if (timer_create(wall ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &sev, &st->timer) != 0) {
    ot_warn("sampling off on thread %u: timer_create failed", t->loc);
    return;
  }
  atomic_store(&st->has_timer, 1);
  st->active = 1;
  struct itimerspec its = {0};
  its.it_interval.tv_sec = (time_t)(period_ns / 1000000000u);
  its.it_interval.tv_nsec = (long)(period_ns % 1000000000u);
  its.it_value = its.it_interval;
  st->armed_ns = cpu_ns(st->cpu_clock);
  timer_settime(st->timer, 0, &its, NULL);
  if (atomic_load(&stopped)) /* finalize ran meanwhile and may have missed this timer */
    disarm(st, 1);
}

/* Thread end and finalize may both get here for one thread: only the one
 * that takes has_timer deletes the timer. A counter's ring is unmapped
 * only on its own thread (own), where no handler can be reading it. */
static void disarm(ot_sampler_thread *st, int own) {
  st->active = 0;
  if (atomic_exchange(&st->has_timer, 0)) {
    st->disarmed_ns = cpu_ns(st->cpu_clock);
    int fd = st->perf_fd;
    if (fd >= 0) {
      st->perf_fd = -1;
      ot_sampler_perf_close(fd, own ? st->perf_ring : NULL);
    } else {
      timer_delete(st->timer);
    }
  }
}

void ot_sampler_thread_end(ot_thread *t) {
  if (t->sampler)
    disarm(t->sampler, t == ot_self);
}

/* A program that installs its own handler for the sampling signal after
 * tracing started takes every sample: compare the timer expirations that
 * reached the handler (si_overrun counts those merged while the signal
 * was pending) with the CPU time the thread ran while armed, and say once
 * what was lost. */
static void check_coverage(void) {
  if (getpid() != owner_pid)
    return;
  uint64_t expected = 0, reached = 0, taken = 0;
  uint32_t n = ot_thread_count();
  for (uint32_t i = 0; i < n; i++) {
    ot_thread *t = ot_thread_get(i);
    ot_sampler_thread *st = t ? t->sampler : NULL;
    if (!st || !st->armed_ns)
      continue;
    uint64_t end = st->disarmed_ns ? st->disarmed_ns : cpu_ns(st->cpu_clock);
    expected += end > st->armed_ns ? (end - st->armed_ns) / period_ns : 0;
    reached += st->expirations;
    taken += st->taken;
  }
  int replaced = !ot_sampler_signal_is_ours();
  unsigned retaken = ot_sampler_signal_retaken();
  char name[32];
  ot_signal_name(ot_sampler_signal_number(), name, sizeof name);
  ot_verbose("sampling: %llu samples taken, %llu of about %llu timer expirations reached the "
             "handler of %s",
             (unsigned long long)taken, (unsigned long long)reached, (unsigned long long)expected,
             name);
  /* One signal per thread may be in flight at disarm: no warning for a
   * shortfall of a few expirations. */
  int lost = expected >= 20 && reached * 2 < expected;
  if (!replaced && !retaken && !lost)
    return;
  const char *why = replaced  ? "the program replaced the handler of the sampling signal"
                    : retaken ? "the program replaced the handler of the sampling signal (taken "
                                "back at a later thread start)"
                              : "the sampling signal was blocked or handled elsewhere";
  ot_warn("sampling: %s %s: %llu samples taken of about %llu expected; set "
          "OMPTRACE_SAMPLING_SIGNAL to a signal the program does not use",
          why, name, (unsigned long long)taken, (unsigned long long)expected);
}

void ot_sampler_fork_child(void) {
  if (!enabled)
    return;
  uint32_t n = ot_thread_count();
  for (uint32_t i = 0; i < n; i++) {
    ot_thread *t = ot_thread_get(i);
    ot_sampler_thread *st = t ? t->sampler : NULL;
    if (!st)
      continue;
    st->active = 0;
    atomic_store(&st->has_timer, 0);
    if (st->perf_fd >= 0)
      close(st->perf_fd); /* no PERF_EVENT_IOC_DISABLE: it would stop the parent's */
    st->perf_fd = -1;
    st->perf_ring = NULL; /* the address may hold the child's own mappings now */
  }
}

void ot_sampler_stop(void) {
  if (!enabled || atomic_exchange(&stopped, 1))
    return;
  uint32_t n = ot_thread_count();
  for (uint32_t i = 0; i < n; i++) {
    ot_thread *t = ot_thread_get(i);
    if (t && t->sampler)
      disarm(t->sampler, t == ot_self);
  }
  check_coverage();
  ot_sampler_signal_restore();
}
