/* The sampling signal's handler: takes one sample on the interrupted
 * thread when one of the tool's timers sent the signal, and passes every
 * other one on to the program's own handler. */
#include "services/sampler_signal.h"
#include "buffer/record.h"
#include "core/clock.h"
#include "core/thread.h"
#include "services/sampler_buf.h"
#include "services/sampler_guard.h"
#include "services/sampler_ompt.h"
#include "services/sampler_perf.h"
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>

/* The program's handler. Two slots and an atomic index, so a handler
 * running on another thread never reads a half-written action. */
static struct sigaction old_actions[2];
static atomic_int old_slot;
static int installed;
static int signo;
static atomic_uint retaken;

/* signal-safe: reachable from the sampling signal handler. */
static void chain(int sig, siginfo_t *si, void *uc) {
  const struct sigaction *old = &old_actions[atomic_load(&old_slot)];
  if (old->sa_flags & SA_SIGINFO) {
    if (old->sa_sigaction)
      old->sa_sigaction(sig, si, uc);
  } else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
    old->sa_handler(sig);
  }
  /* SIG_DFL would terminate the process: a stray profiling signal that
   * is not ours is dropped instead. */
}

/* signal-safe: reachable from the sampling signal handler.
 * Flags every enclosing parallel region as sampled, so its master captures
 * the fork context at parallel_end (record.h, OT_PARALLEL_SAMPLED_BIT). */
static void mark_regions(void) {
  if (!ot_smp_get_parallel_info)
    return;
  for (int level = 0; level < OT_CAP_MAX_LEVELS; level++) {
    ompt_data_t *pd = NULL;
    int size = 0;
    if (ot_smp_get_parallel_info(level, &pd, &size) != 2)
      break;
    if (!ot_smp_plausible(pd))
      continue;
    uint64_t v = __atomic_load_n(&pd->value, __ATOMIC_RELAXED);
    if (v != 0 && !(v & OT_PARALLEL_SAMPLED_BIT))
      __atomic_fetch_or(&pd->value, OT_PARALLEL_SAMPLED_BIT, __ATOMIC_RELAXED);
  }
}

/* signal-safe: the sampling signal handler itself. */
static void on_signal(int sig, siginfo_t *si, void *uc) {
  int saved_errno = errno;
  ot_thread *t = ot_self;
  ot_sampler_thread *st = t ? (ot_sampler_thread *)t->sampler : NULL;
  /* Ours only when one of our timers sent it to its own thread: a POSIX
   * timer's cookie, or this thread's perf_event counter. */
  int perf_fd = st ? st->perf_fd : -1;
  void *ring = st ? st->perf_ring : NULL;
  int perf = ot_sampler_perf_is(si, perf_fd);
  if (!st || (!perf && (si->si_code != SI_TIMER || si->si_value.sival_ptr != st))) {
    chain(sig, si, uc);
    errno = saved_errno;
    return;
  }
  /* Expirations that merged while the signal was pending (the thread
   * not running) arrive as one signal with si_overrun set; a counter
   * signals once per refresh (no overruns). */
  st->expirations += 1u + (uint64_t)(!perf && si->si_overrun > 0 ? si->si_overrun : 0);
  /* No samples while paused or ended (omp_control_tool). */
  if (!st->active || atomic_load_explicit(&ot_recording, memory_order_relaxed) != OT_REC_ON) {
    if (perf && st->active)
      ot_sampler_perf_rearm(perf_fd, ring);
    errno = saved_errno;
    return;
  }
  if (!ot_safe_enter(st)) {
    st->busy_skips++;
    if (perf)
      ot_sampler_perf_rearm(perf_fd, ring);
    errno = saved_errno;
    return;
  }
  ot_capture *c = ot_capture_take(st, &st->samples, uc, OT_CAP_SAMPLE);
  if (c) {
    /* Release: the flusher copies captures below `used` while the program runs. */
    __atomic_store_n(&st->samples.used, st->samples.used + c->size, __ATOMIC_RELEASE);
    st->taken++;
    mark_regions();
    st->sample_ticks += ot_clock_now() - c->ts;
  } else {
    st->full++;
  }
  ot_safe_exit(st);
  if (perf)
    ot_sampler_perf_rearm(perf_fd, ring); /* after the sample, so none nests in it */
  errno = saved_errno;
}

int ot_sampler_signal_install(int sig) {
  struct sigaction sa, prev;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (sigaction(sig, &sa, &prev) != 0)
    return -1;
  signo = sig;
  int next = !atomic_load(&old_slot);
  old_actions[next] = prev;
  atomic_store(&old_slot, next);
  installed = 1;
  return 0;
}

int ot_sampler_signal_number(void) {
  return signo;
}

int ot_sampler_signal_is_ours(void) {
  struct sigaction cur;
  return installed && sigaction(signo, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
         cur.sa_sigaction == on_signal;
}

unsigned ot_sampler_signal_retaken(void) {
  return atomic_load(&retaken);
}

int ot_sampler_signal_reassert(void) {
  if (!installed)
    return -1;
  if (ot_sampler_signal_is_ours())
    return 0;
  /* The program installed its own handler after the tool started (libomp
   * may start the tool before main): take the signal back, pass the
   * program's own signals on to its handler. Not thread-safe against a
   * concurrent sigaction of the program; thread_begin calls are rare. */
  atomic_fetch_add(&retaken, 1);
  return ot_sampler_signal_install(signo);
}

void ot_sampler_signal_restore(void) {
  if (!installed)
    return;
  if (!ot_sampler_signal_is_ours())
    return; /* the program replaced our handler: leave its choice alone */
  struct sigaction back = old_actions[atomic_load(&old_slot)];
  if (!(back.sa_flags & SA_SIGINFO) && back.sa_handler == SIG_DFL)
    back.sa_handler = SIG_IGN;
  sigaction(signo, &back, NULL);
  installed = 0;
}
