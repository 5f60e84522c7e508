/* Snapshots (OMPTRACE_SNAPSHOT_SIGNAL, `omptrace snapshot PID`): the
 * handler only writes a byte to a pipe; a thread of ours, with every
 * signal blocked, flushes the log and runs omptrace-recover --keep --where
 * into <dir>/snapshot-<n>/ while the program runs on. `omptrace snapshot`
 * sends no signal: a program may install its own handler for the signal
 * after the tool started, and would take it. It writes a byte to a FIFO
 * the thread holds open, already unlinked, found as
 * /proc/PID/fd/N -> <dir>/.log/snapshot-request-<pid> (deleted). */
#define _GNU_SOURCE /* pipe2 */
#include "core/clock.h"
#include "core/config.h"
#include "core/config_table.h"
#include "core/log.h"
#include "core/output_dir.h"
#include "core/thread.h"
#include "faults/faults_int.h"
#include "log/flusher.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define STOP_BYTE 'q'

static int wake[2] = {-1, -1};
static int request = -1; /* the launcher's FIFO, or -1 */
static int snap_sig;
static pthread_t thread;
static int running;
static unsigned taken; /* snapshots written, numbers them */

/* signal-safe: one write(2) to a non-blocking pipe; a full pipe means a
 * snapshot is already pending. */
static void on_snapshot_signal(int sig) {
  (void)sig;
  int saved = errno;
  ssize_t w = write(wake[1], "s", 1);
  (void)w;
  errno = saved;
}

/* <dir>/snapshot-<n>, made new here (mkdirat: never through a link):
 * a name already there (another user's in a sticky directory) is passed
 * over for the next number. Its path into out; 0 or -1 after one line. */
static int make_dir(char *out, size_t size) {
  char why[PATH_MAX + 128], name[32];
  int dir = ot_dir_open(ot_cfg.output, 0, why, sizeof why);
  if (dir < 0) {
    ot_warn("snapshot %u: %s", taken + 1, why);
    return -1;
  }
  unsigned first = taken + 1;
  int rc = -1;
  for (unsigned tries = 0; rc != 0 && tries < 1000; tries++) {
    snprintf(name, sizeof name, "snapshot-%u", ++taken);
    rc = mkdirat(dir, name, 0755);
    if (rc != 0 && errno != EEXIST)
      break;
  }
  close(dir);
  if (rc != 0) {
    ot_warn("snapshot %u: cannot make %s/%s: %s", first, ot_cfg.output, name, strerror(errno));
    return -1;
  }
  if (taken != first)
    ot_warn("snapshot: %s/snapshot-%u is taken: writing to %s instead", ot_cfg.output, first, name);
  snprintf(out, size, "%s/%s", ot_cfg.output, name);
  return 0;
}

static void take_snapshot(void) {
  char out[sizeof ot_cfg.output + 32];
  if (make_dir(out, sizeof out) != 0)
    return;
  /* The instant of the snapshot: everything timed before it is in the
   * buffers the pass writes; what threads add while it writes them, one
   * after another, is left to the next snapshot (omptrace-recover --cut). */
  char cut[24];
  snprintf(cut, sizeof cut, "%llu", (unsigned long long)ot_clock_now());
  if (ot_log_flush() != 0)
    ot_warn("snapshot %u: part of the log could not be written; the snapshot lacks it", taken);
  char *argv[] = {NULL, "-q", "--keep", "--where", "--cut", cut, "-o", out, ot_cfg.output, NULL};
  pid_t pid = ot_recover_spawn(argv);
  int status = 0;
  if (pid < 0) {
    ot_warn("snapshot %u: cannot start omptrace-recover%s", taken,
            ot_recover_path[0] ? "" : " (not found next to libomptrace.so)");
    return;
  }
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    ot_warn("snapshot %u written to %s (where each thread is: %s/where.txt)", taken, out, out);
  else
    ot_warn("snapshot %u: omptrace-recover failed for %s", taken, out);
}

/* The FIFO in the log directory, opened read-write (never blocks, never
 * sees end-of-file) and unlinked at once: nothing is left behind, and only
 * who may open /proc/PID/fd (the user) can write to it. */
static void open_request(void) {
  char path[sizeof ot_cfg.output + 64];
  snprintf(path, sizeof path, "%s/snapshot-request-%d", ot_log_dir(), (int)getpid());
  if (mkfifo(path, 0600) != 0)
    return;
  int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
  struct stat st;
  if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode) || st.st_uid != geteuid())) {
    close(fd);
    fd = -1;
  }
  unlink(path);
  request = fd;
}

static void close_request(void) {
  if (request >= 0)
    close(request);
  request = -1;
}

static void *snapshot_main(void *arg) {
  (void)arg;
  for (;;) {
    struct pollfd p[2] = {{wake[0], POLLIN, 0}, {request, POLLIN, 0}};
    if (poll(p, request >= 0 ? 2 : 1, -1) < 0) {
      if (errno == EINTR)
        continue;
      return NULL;
    }
    char c = 's', drain[64];
    ssize_t r = 1;
    if (p[0].revents)
      r = read(wake[0], &c, 1);
    else /* requests that came together are served by one snapshot */
      while (read(request, drain, sizeof drain) > 0)
        ;
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0 || c == STOP_BYTE)
      return NULL;
    /* A signal arriving while a snapshot is taken is served by the next. */
    if (atomic_load(&ot_recording))
      take_snapshot();
  }
}

static int start_thread(void) {
  if (pipe2(wake, O_CLOEXEC) != 0)
    return -1;
  fcntl(wake[1], F_SETFL, O_NONBLOCK);
  open_request();
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int rc = pthread_create(&thread, NULL, snapshot_main, NULL);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (rc != 0) {
    close_request();
    close(wake[0]);
    close(wake[1]);
    wake[0] = wake[1] = -1;
    return -1;
  }
  running = 1;
  return 0;
}

int ot_snapshot_start(int sig, int explicit_set) {
  char name[32];
  struct sigaction old;
  if (!sig || sigaction(sig, NULL, &old) != 0)
    return 0;
  if (sig == ot_cfg.sampling_signal && ot_cfg.sampling_ns) {
    ot_warn("OMPTRACE_SNAPSHOT_SIGNAL: %s is the sampling signal; no snapshots",
            ot_signal_name(sig, name, sizeof name));
    return 0;
  }
  if (old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO)) {
    /* The program's signal: never taken from it. */
    if (explicit_set)
      ot_warn("OMPTRACE_SNAPSHOT_SIGNAL: the program handles %s itself; no snapshots",
              ot_signal_name(sig, name, sizeof name));
    return 0;
  }
  if (start_thread() != 0) {
    ot_warn("cannot start the snapshot thread: %s; no snapshots", strerror(errno));
    return 0;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_snapshot_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(sig, &sa, NULL);
  snap_sig = sig;
  ot_verbose("snapshots: `kill -%s %d` writes %s/snapshot-<n>/",
             ot_signal_name(sig, name, sizeof name) + 3, (int)getpid(), ot_cfg.output);
  return 1;
}

void ot_snapshot_stop(void) {
  if (snap_sig) {
    struct sigaction cur;
    if (sigaction(snap_sig, NULL, &cur) == 0 && cur.sa_handler == on_snapshot_signal) {
      struct sigaction dfl;
      memset(&dfl, 0, sizeof dfl);
      dfl.sa_handler = SIG_DFL;
      sigaction(snap_sig, &dfl, NULL);
    }
    snap_sig = 0;
  }
  if (!running)
    return;
  running = 0;
  char c = STOP_BYTE;
  while (write(wake[1], &c, 1) < 0 && errno == EAGAIN)
    usleep(1000); /* the pipe is full of pending requests: the thread drains it */
  pthread_join(thread, NULL);
  close_request();
  close(wake[0]);
  close(wake[1]);
  wake[0] = wake[1] = -1;
}

/* The parent's snapshot thread does not exist in a fork child, and the
 * pipe is shared with the parent: a new pipe and a new thread. */
void ot_snapshot_fork_child(void) {
  if (!running)
    return;
  close(wake[0]);
  close(wake[1]);
  wake[0] = wake[1] = -1;
  close_request(); /* the parent's: the child gets one in its own log directory */
  running = 0;
  taken = 0;
  if (start_thread() != 0)
    ot_warn("fork child: cannot start the snapshot thread; no snapshots");
}
