/* The flusher thread (log/flusher.h): wakes on a pipe (kicks from the
 * buffer layer's hand-off, flush requests, also from signal handlers) or
 * every OMPTRACE_FLUSH_INTERVAL, and runs a pass of log/flush_pass.c. One
 * write lock serializes passes (the thread, the guard, inline passes,
 * fork), so the child of a fork never inherits a half-written frame.
 * The flusher runs at the lowest priority (SCHED_IDLE) where the guard may
 * lift it again, so its passes do not take a core from the program's
 * threads (docs/performance.md, "Background work"); the guard, a thread at
 * the program's priority that wakes four times per interval, writes a
 * periodic pass itself when the last one is more than an interval overdue
 * (the flusher starved on a machine with no CPU to spare), which bounds the
 * loss window of a kill. */
#define _GNU_SOURCE /* pipe2, pthread_setname_np */
#include "log/flusher.h"
#include "buffer/buffer.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/filter.h"
#include "core/log.h"
#include "core/output_dir.h"
#include "log/flush_pass.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static char log_dir[PATH_MAX];
static int req_pipe[2] = {-1, -1};   /* to the flusher: one byte per wake-up */
static int reply_pipe[2] = {-1, -1}; /* from the flusher: a requested flush is done */
static pthread_t flusher_tid;
static atomic_int running;  /* the thread exists */
static atomic_int stopping; /* ot_log_finish asked it to end */
static atomic_int ready;    /* ot_log_init succeeded and ot_log_finish has not run */
static atomic_flag kicked = ATOMIC_FLAG_INIT;
static atomic_uint_fast64_t req_gen, done_gen;
static atomic_int done_rc;
static atomic_int last_req; /* the process ends (a signal): passes are last ones */
static atomic_int write_lock;
static int guard_pipe[2] = {-1, -1}; /* to the guard: stop */
static pthread_t guard_tid;
static atomic_int guard_running;
/* start of the last pass that wrote everything: what is older is in the log */
static atomic_uint_fast64_t last_all_ns;
static atomic_uint_fast64_t guard_busy;  /* the guard found the flusher in a pass */
static atomic_uint_fast64_t guard_lifts; /* ... and lifted it to normal priority */
static atomic_int idle;                  /* the flusher was put at SCHED_IDLE */
static atomic_int lifted;                /* the flusher is at normal priority for now */
static atomic_uint_fast64_t guard_passes;
/* OMPTRACE_TEST_FLUSH_BUSY: 1, the flusher makes no periodic pass; 2, nor
 * any pass for a kick (a starved flusher, for the tests) */
static int test_busy;
static atomic_uint_fast64_t kick_ns; /* when the unanswered kick was sent, 0 none */
static atomic_uint_fast64_t kick_passes;
/* A kick the flusher has not taken up for this long is written by the
 * recording thread that kicks again (the one waiting for a chunk kicks
 * every 50 us): a starved flusher never stalls a thread for longer. */
#define OT_KICK_LATE_NS 100000000u

/* signal-safe: one compare-and-swap per try. */
static int lock_try(void) {
  int expected = 0;
  return atomic_compare_exchange_strong(&write_lock, &expected, 1);
}

static void lock_wait(void) {
  while (!lock_try()) {
    struct timespec nap = {0, 100000};
    nanosleep(&nap, NULL);
  }
}

static void unlock(void) {
  atomic_store(&write_lock, 0);
}

/* signal-safe: a byte to a non-blocking pipe (a full pipe already wakes). */
static void poke(int fd) {
  char b = 1;
  while (write(fd, &b, 1) < 0 && errno == EINTR) {
  }
}

static void drain(int fd) {
  char b[64];
  while (read(fd, b, sizeof b) > 0) {
  }
}

static int open_pipe(int p[2]) {
  return pipe2(p, O_CLOEXEC | O_NONBLOCK);
}

static void close_pipe(int p[2]) {
  for (int i = 0; i < 2; i++) {
    if (p[i] >= 0)
      close(p[i]);
    p[i] = -1;
  }
}

/* The first periodic pass comes after OT_FIRST_FLUSH_NS, and each pause
 * doubles up to OMPTRACE_FLUSH_INTERVAL (10, 20, 40 ... ms): a run killed
 * (SIGKILL, _exit) within its first second loses about the last half of
 * it, not all of it, for 6 more passes in that second. */
#define OT_FIRST_FLUSH_NS 10000000u

/* Whether the guard may lift a starved flusher back to SCHED_OTHER:
 * CAP_SYS_NICE in effect, or RLIMIT_NICE allowing nice 0 (>= 20). */
static int may_leave_idle(void) {
  struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3];
  memset(caps, 0, sizeof caps);
  if (syscall(SYS_capget, &hdr, caps) == 0 &&
      (caps[CAP_SYS_NICE / 32].effective & (1u << (CAP_SYS_NICE % 32))))
    return 1;
  struct rlimit rl;
  return getrlimit(RLIMIT_NICE, &rl) == 0 && (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= 20);
}

/* The lowest priority: the flusher runs when a CPU has nothing else to do
 * (or for its small share next to busy threads). Only where the guard can
 * lift it again for a pass it is starved in: otherwise a pass that holds
 * the write lock at SCHED_IDLE on a machine with every CPU busy keeps the
 * guard from writing (16-27% of regions kept by a SIGKILL after 3 s,
 * docs/recording.md), so the flusher stays at the program's priority. */
static void set_idle_policy(void) {
  static int allowed = -1;
  if (allowed < 0) {
    allowed = may_leave_idle();
    if (!allowed)
      ot_verbose("log: the flusher stays at normal priority (no CAP_SYS_NICE nor RLIMIT_NICE >= "
                 "20 to lift it again from SCHED_IDLE)");
  }
  if (!allowed)
    return;
  struct sched_param sp = {0};
  int rc = pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);
  if (rc != 0)
    ot_verbose("log: the flusher stays at normal priority (SCHED_IDLE: %s)", strerror(rc));
  else
    atomic_store(&idle, 1);
}

static void *flusher_main(void *arg) {
  (void)arg;
  set_idle_policy();
  uint64_t interval = ot_cfg.flush_ns;
  uint64_t step = interval < OT_FIRST_FLUSH_NS ? interval : OT_FIRST_FLUSH_NS;
  uint64_t next = interval ? ot_monotonic_ns() + step : 0;
  for (;;) {
    int timeout = -1;
    if (interval) {
      uint64_t now = ot_monotonic_ns();
      timeout = now >= next ? 0 : (int)((next - now + 999999) / 1000000);
    }
    struct pollfd pfd = {req_pipe[0], POLLIN, 0};
    poll(&pfd, 1, timeout);
    drain(req_pipe[0]);
    if (atomic_load(&stopping))
      return NULL;
    if (test_busy != 2) {
      atomic_store(&kick_ns, 0);
      atomic_flag_clear(&kicked); /* kicks from now on wake the next pass */
    }
    uint64_t gen = atomic_load(&req_gen);
    int periodic = interval && ot_monotonic_ns() >= next && !test_busy;
    int all = periodic || gen > atomic_load(&done_gen);
    if (!all && test_busy == 2)
      continue;
    lock_wait();
    uint64_t t_pass = ot_monotonic_ns();
    int rc = ot_pass_run(!all                     ? OT_PASS_FULL
                         : atomic_load(&last_req) ? OT_PASS_LAST
                                                  : OT_PASS_ALL,
                         0);
    unlock();
    if (atomic_exchange(&lifted, 0))
      set_idle_policy();         /* the guard lifted it for the pass it was in */
    ot_filter_resolve_pending(); /* filter decisions, off the hot path */
    if (all) {
      atomic_store(&last_all_ns, t_pass);
      if (interval) {
        step = step < interval / 2 ? 2 * step : interval;
        next = ot_monotonic_ns() + step;
      }
      atomic_store(&done_rc, rc);
      atomic_store(&done_gen, gen);
      poke(reply_pipe[1]);
    }
  }
}

/* The guard: at the program's priority, wakes four times per interval and
 * writes everything itself when the last such pass began more than two
 * intervals ago. A pass the flusher is in (it holds the lock) is left to it,
 * lifted to normal priority where the process may. */
static void *guard_main(void *arg) {
  (void)arg;
  uint64_t interval = ot_cfg.flush_ns;
  for (;;) {
    struct pollfd pfd = {guard_pipe[0], POLLIN, 0};
    poll(&pfd, 1, (int)((interval / 4 + 999999) / 1000000)); /* late by at most a quarter */
    if (atomic_load(&stopping))
      return NULL;
    if (ot_monotonic_ns() - atomic_load(&last_all_ns) <= 2 * interval)
      continue;
    if (!lock_try()) {
      /* The flusher is in a pass and may be starved at SCHED_IDLE: lift
       * it to normal priority for the rest of it (it is put at SCHED_IDLE
       * only where the process may do so: set_idle_policy). */
      struct sched_param sp = {0};
      atomic_fetch_add(&guard_busy, 1);
      if (atomic_load(&idle) && !atomic_load(&lifted) &&
          pthread_setschedparam(flusher_tid, SCHED_OTHER, &sp) == 0) {
        atomic_store(&lifted, 1);
        atomic_fetch_add(&guard_lifts, 1);
      }
      continue;
    }
    uint64_t t_pass = ot_monotonic_ns();
    ot_pass_run(OT_PASS_ALL, 0);
    unlock();
    atomic_store(&last_all_ns, t_pass);
    atomic_fetch_add(&guard_passes, 1);
  }
}

static void start_guard(void) {
  if (!ot_cfg.flush_ns || open_pipe(guard_pipe) != 0)
    return;
  /* created by the program's thread: its policy, not the flusher's */
  if (pthread_create(&guard_tid, NULL, guard_main, NULL) != 0) {
    close_pipe(guard_pipe);
    return;
  }
  pthread_setname_np(guard_tid, "omptrace-guard");
  atomic_store(&guard_running, 1);
}

static void stop_guard(void) {
  if (!atomic_load(&guard_running))
    return;
  poke(guard_pipe[1]); /* stopping is set */
  pthread_join(guard_tid, NULL);
  atomic_store(&guard_running, 0);
  close_pipe(guard_pipe);
  ot_verbose("log: %llu passes written by the guard (the flusher more than an interval late), "
             "%llu times the flusher was in a pass (lifted to normal priority %llu times)",
             (unsigned long long)atomic_load(&guard_passes),
             (unsigned long long)atomic_load(&guard_busy),
             (unsigned long long)atomic_load(&guard_lifts));
}

void ot_log_kick(void) {
  if (!atomic_load_explicit(&ready, memory_order_acquire))
    return;
  if (atomic_load_explicit(&running, memory_order_acquire)) {
    if (!atomic_flag_test_and_set(&kicked)) {
      atomic_store(&kick_ns, ot_monotonic_ns());
      poke(req_pipe[1]);
      return;
    }
    uint64_t t = atomic_load(&kick_ns);
    if (t && ot_monotonic_ns() - t > OT_KICK_LATE_NS && lock_try()) {
      ot_pass_run(OT_PASS_FULL, 0);
      unlock();
      atomic_fetch_add(&kick_passes, 1);
    }
    return;
  }
  /* No thread (it could not start): write from the recording thread. */
  if (lock_try()) {
    ot_pass_run(OT_PASS_FULL, 0);
    unlock();
  }
}

static int start_thread(void) {
  /* No signals here: sampler timers, crash and snapshot handlers are for
   * the program's threads. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  atomic_store(&stopping, 0);
  const char *busy = getenv("OMPTRACE_TEST_FLUSH_BUSY");
  test_busy = busy && (busy[0] == '1' || busy[0] == '2') && !busy[1] ? busy[0] - '0' : 0;
  atomic_store(&kick_passes, 0);
  atomic_store(&last_all_ns, ot_monotonic_ns());
  atomic_store(&guard_passes, 0);
  atomic_store(&guard_busy, 0);
  atomic_store(&guard_lifts, 0);
  atomic_store(&lifted, 0);
  atomic_store(&idle, 0);
  int rc = pthread_create(&flusher_tid, NULL, flusher_main, NULL);
  if (rc == 0) {
    pthread_setname_np(flusher_tid, "omptrace-flush");
    start_guard();
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (rc != 0) {
    ot_warn("cannot start the flusher thread: %s; the recording threads write the log",
            strerror(rc));
    return -1;
  }
  atomic_store(&running, 1);
  return 0;
}

static int open_log(const char *out_dir) {
  if (snprintf(log_dir, sizeof log_dir, "%s/" OT_LOG_NAME, out_dir) >= (int)sizeof log_dir) {
    errno = ENAMETOOLONG;
    return -1;
  }
  if (mkdir(log_dir, 0755) != 0 && errno != EEXIST)
    return -1;
  if (open_pipe(req_pipe) != 0 || open_pipe(reply_pipe) != 0)
    return -1;
  if (ot_pass_open(log_dir) != 0)
    return -1;
  atomic_store(&req_gen, 0);
  atomic_store(&done_gen, 0);
  /* META, the first CLOCK point and MAPS before any record. */
  ot_pass_run(OT_PASS_ALL, 0);
  atomic_store_explicit(&ready, 1, memory_order_release);
  start_thread();
  return 0;
}

int ot_log_init(const char *out_dir) {
  ot_buffer_set_kick(ot_log_kick);
  return open_log(out_dir);
}

const char *ot_log_dir(void) {
  return log_dir;
}

static int flush_inline(int what, int in_signal, int wait) {
  if (wait)
    lock_wait();
  else if (!lock_try())
    return -1;
  int rc = ot_pass_run(what, in_signal);
  unlock();
  return rc;
}

int ot_log_flush(void) {
  if (!atomic_load(&ready))
    return -1;
  if (!atomic_load(&running) || pthread_equal(pthread_self(), flusher_tid))
    return flush_inline(OT_PASS_ALL, 0, 1);
  uint64_t my = atomic_fetch_add(&req_gen, 1) + 1;
  poke(req_pipe[1]);
  while (atomic_load(&done_gen) < my) {
    if (!atomic_load(&running))
      return flush_inline(OT_PASS_ALL, 0, 1);
    struct pollfd pfd = {reply_pipe[0], POLLIN, 0};
    poll(&pfd, 1, 10); /* several waiters share the pipe: recheck often */
    drain(reply_pipe[0]);
  }
  return atomic_load(&done_rc);
}

/* signal-safe: atomics, pipe write, poll, clock_gettime; the inline pass
 * is flush_pass.c's (no allocation, no stdio). */
int ot_log_flush_from_signal(int timeout_ms) {
  if (!atomic_load(&ready))
    return -1;
  uint64_t deadline = ot_monotonic_ns() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) * 1000000u;
  atomic_store(&last_req, 1); /* what cannot be written is counted in the log's reserve */
  int on_flusher = atomic_load(&running) && pthread_equal(pthread_self(), flusher_tid);
  if (on_flusher || !atomic_load(&running)) {
    /* On the flusher itself the lock may be ours (interrupted mid-pass):
     * one try only. Otherwise wait for whoever holds it. */
    while (!lock_try()) {
      if (on_flusher || ot_monotonic_ns() >= deadline)
        return -1;
      struct timespec nap = {0, 1000000};
      nanosleep(&nap, NULL);
    }
    int rc = ot_pass_run(OT_PASS_LAST, 1);
    unlock();
    return rc;
  }
  uint64_t my = atomic_fetch_add(&req_gen, 1) + 1;
  poke(req_pipe[1]);
  for (;;) {
    if (atomic_load(&done_gen) >= my)
      return atomic_load(&done_rc);
    uint64_t now = ot_monotonic_ns();
    if (now >= deadline)
      return -1;
    uint64_t left = (deadline - now) / 1000000u;
    struct pollfd pfd = {reply_pipe[0], POLLIN, 0};
    poll(&pfd, 1, left > 10 ? 10 : (int)left + 1);
  }
}

static void stop_thread(void) {
  if (!atomic_load(&running))
    return;
  atomic_store(&stopping, 1);
  stop_guard();
  poke(req_pipe[1]);
  pthread_join(flusher_tid, NULL);
  atomic_store(&running, 0);
  ot_verbose("log: %llu passes written by recording threads (a kick not taken up in %u ms)",
             (unsigned long long)atomic_load(&kick_passes), OT_KICK_LATE_NS / 1000000u);
}

int ot_log_finish(void) {
  if (!atomic_load(&ready))
    return -1;
  uint64_t t0 = ot_monotonic_ns();
  struct timespec cpu = {0, 0}; /* every thread's CPU time so far */
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
  stop_thread();
  lock_wait();
  int rc = ot_pass_run(OT_PASS_FINISH, 0);
  int err = 0;
  uint64_t uncounted = ot_pass_uncounted(&err);
  if (uncounted)
    ot_warn("%llu records were lost: the record log %s could not hold them, nor their count (%s)",
            (unsigned long long)uncounted, log_dir, strerror(err));
  atomic_store(&ready, 0);
  ot_pass_close();
  unlock();
  close_pipe(req_pipe);
  close_pipe(reply_pipe);
  /* CLOCK_MONOTONIC times: bench/mpi_phases.py lines them up across ranks */
  ot_verbose("log: last flush from %.6f to %.6f s (CLOCK_MONOTONIC); process CPU time %.6f s "
             "at its start",
             (double)t0 * 1e-9, (double)ot_monotonic_ns() * 1e-9,
             (double)cpu.tv_sec + (double)cpu.tv_nsec * 1e-9);
  return rc;
}

void ot_log_remove(void) {
  DIR *d = opendir(log_dir);
  if (!d)
    return;
  struct dirent *e;
  char path[PATH_MAX + 300];
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    snprintf(path, sizeof path, "%s/%s", log_dir, e->d_name);
    unlink(path);
  }
  closedir(d);
  rmdir(log_dir);
}

void ot_log_fork_prepare(void) {
  if (atomic_load(&ready))
    lock_wait();
}

void ot_log_fork_parent(void) {
  if (atomic_load(&ready))
    unlock();
}

int ot_log_fork_child(const char *new_out_dir) {
  if (!atomic_load(&ready))
    return -1;
  /* The parent's flusher thread, pipes and files are not ours: forget
   * them (closing our copies does not touch the parent's). */
  atomic_store(&running, 0);
  atomic_store(&ready, 0);
  atomic_store(&last_req, 0);
  atomic_store(&guard_running, 0); /* the parent's */
  close_pipe(guard_pipe);
  close_pipe(req_pipe);
  close_pipe(reply_pipe);
  ot_pass_reset();
  ot_buffer_fork_child(ot_self);
  atomic_flag_clear(&kicked);
  unlock(); /* taken by ot_log_fork_prepare in the parent */
  return open_log(new_out_dir);
}
