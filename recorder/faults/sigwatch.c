/* The watch over the crash handlers: the runtime starts the tool before
 * main, so a program that installs its own SIGSEGV (SIGBUS, SIGFPE, SIGILL,
 * SIGABRT) handler in main replaces ours, and a crash would then leave only
 * the log up to the last flush. A thread of ours, with every signal
 * blocked, looks at the crash signals' actions (sigaction(sig, NULL, ...):
 * a system call, never on the OMPT hot path) every 1 ms in the first 20 ms,
 * then every twentieth of the time since the start, at most every 100 ms,
 * and puts our handler back in front of what it finds (signals.c). The
 * program's handler is then called after the archive is written, and one
 * line per signal says so, once. */
#define _GNU_SOURCE /* pipe2 */
#include "core/clock.h"
#include "core/log.h"
#include "core/thread.h"
#include "faults/faults_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define FIRST_NS 20000000u /* checks every MIN_PAUSE_NS until then */
#define MIN_PAUSE_NS 1000000u
#define MAX_PAUSE_NS 100000000u

static int wake[2] = {-1, -1}; /* a byte stops the thread */
static pthread_t thread;
static int running;
static int hooked; /* pthread_atfork done */
static uint64_t start_ns;
static unsigned long said; /* signals whose line was printed (on the thread only) */
/* Held for each look, and across fork(): the child never inherits half a
 * re-arm (our action installed, the program's not yet saved). */
static pthread_mutex_t look_lock = PTHREAD_MUTEX_INITIALIZER;

static void tell(unsigned long found) {
  for (int sig = 1; sig < 64; sig++) {
    unsigned long bit = 1ul << sig;
    if (!(found & bit) || (said & bit))
      continue;
    said |= bit;
    const char *name = ot_faults_signal_name(sig);
    ot_info("the program installed its own %s handler; on a %s omptrace writes the archive "
            "first, then calls it",
            name, name);
  }
}

static void *watch_main(void *arg) {
  (void)arg;
  for (;;) {
    uint64_t age = ot_monotonic_ns() - start_ns;
    uint64_t pause = age < FIRST_NS ? MIN_PAUSE_NS : age / 20;
    if (pause > MAX_PAUSE_NS)
      pause = MAX_PAUSE_NS;
    struct pollfd pfd = {wake[0], POLLIN, 0};
    if (poll(&pfd, 1, (int)(pause / 1000000u)) > 0)
      return NULL; /* ot_sigwatch_stop */
    unsigned long found;
    pthread_mutex_lock(&look_lock);
    int over = ot_faults_signals_rearm(&found);
    pthread_mutex_unlock(&look_lock);
    tell(found);
    if (over) { /* the end is claimed: nothing to re-arm any more; joined by ot_sigwatch_stop */
      poll(&pfd, 1, -1);
      return NULL;
    }
  }
}

static void close_wake(void) {
  for (int i = 0; i < 2; i++) {
    if (wake[i] >= 0)
      close(wake[i]);
    wake[i] = -1;
  }
}

static void start_thread(void) {
  if (pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0) {
    ot_warn("cannot watch the crash handlers (pipe: %s); a handler the program installs later "
            "replaces omptrace's",
            strerror(errno));
    return;
  }
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int rc = pthread_create(&thread, NULL, watch_main, NULL);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (rc != 0) {
    ot_warn("cannot watch the crash handlers (thread: %s); a handler the program installs later "
            "replaces omptrace's",
            strerror(rc));
    close_wake();
    return;
  }
  running = 1;
}

static void fork_prepare(void) {
  pthread_mutex_lock(&look_lock);
}

static void fork_parent(void) {
  pthread_mutex_unlock(&look_lock);
}

/* The child has no watch thread: a new one, when the parent had one and
 * the child records (a child that records nothing has claimed the end by
 * the time the thread first looks, and the thread ends). */
static void fork_child(void) {
  pthread_mutex_unlock(&look_lock);
  ot_faults_signals_rearm_forked();
  if (!running)
    return;
  running = 0;
  close_wake();
  start_ns = ot_monotonic_ns(); /* the child's handlers are new too: look often at first */
  if (atomic_load(&ot_recording))
    start_thread();
}

void ot_sigwatch_start(void) {
  if (running)
    return;
  start_ns = ot_monotonic_ns();
  if (!hooked && pthread_atfork(fork_prepare, fork_parent, fork_child) == 0)
    hooked = 1;
  start_thread();
}

void ot_sigwatch_stop(void) {
  if (!running)
    return;
  char b = 'q';
  while (write(wake[1], &b, 1) < 0 && errno == EINTR)
    ;
  pthread_join(thread, NULL);
  running = 0;
  close_wake();
}
