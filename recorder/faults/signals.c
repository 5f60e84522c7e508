/* Terminating and crash signals: the handler stops recording, flushes the
 * record log, runs omptrace-recover on it in a child, prints one line and
 * then lets the signal do what it would have done without the tool (same
 * exit status, same core dump, the program's own crash handler still
 * called). Everything it runs is async-signal-safe. A crash handler the
 * program installs later is found by the watch (sigwatch.c), which puts
 * ours back in front of it (ot_faults_signals_rearm). */
#define _GNU_SOURCE /* gettid via syscall */
#include "core/config.h"
#include "core/log.h"
#include "core/output_dir.h"
#include "core/thread.h"
#include "faults/faults.h"
#include "faults/faults_int.h"
#include "finalize/out.h"
#include "log/flusher.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long the handler waits: for the flusher to write what is in memory,
 * then for omptrace-recover (which goes on alone if it is not done). */
#define FLUSH_WAIT_MS 5000
#define RECOVER_WAIT_MS 60000
#define POLL_MS 10

static const int term_sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
static const int crash_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

/* The action to pass a signal on to: the one found at install, or the
 * program's that the watch found later; first_act is always the former. */
static struct sigaction old_act[NSIG], first_act[NSIG];
static atomic_int old_ignores[NSIG]; /* old_act[sig] is SIG_IGN */
static struct sigaction our_act;
static int installed[NSIG];
/* The watch is changing old_act (a handler reads it only once the end is
 * claimed and this is 0: see ot_faults_signals_rearm). */
static atomic_int watch_busy;
/* Signals this thread passed on to a program's handler (1 << sig), and
 * those it came back with (the program's handler called ours again, as
 * its previous action): the next pass goes further down, never round. */
static __thread unsigned long passed_once __attribute__((tls_model("initial-exec")));
static __thread unsigned long passed_twice __attribute__((tls_model("initial-exec")));
/* Who ends the run: 0 nobody yet, END_SIGNAL (a signal handler, or a fork
 * child that records nothing), END_FINALIZE (the normal finalize). */
enum { END_SIGNAL = 1, END_FINALIZE = 2 };
static atomic_int end_claimed;
static atomic_int handler_tid; /* the thread writing the archive, 0 = none */
static char *recover_argv[4];  /* [0] set at spawn; "-q", the directory */

/* signal-safe: one lock-free atomic exchange. */
int ot_faults_claim_end(void) {
  int none = 0;
  return atomic_compare_exchange_strong(&end_claimed, &none, END_SIGNAL);
}

int ot_faults_claim_finalize(void) {
  int none = 0;
  return atomic_compare_exchange_strong(&end_claimed, &none, END_FINALIZE);
}

static int is_term(int sig) {
  for (size_t i = 0; i < sizeof term_sigs / sizeof term_sigs[0]; i++)
    if (term_sigs[i] == sig)
      return 1;
  return 0;
}

/* signal-safe: write(2) of pieces into a stack buffer. */
static void say6(const char *a, const char *b, const char *c, const char *d, const char *e,
                 const char *f) {
  char line[3 * 4096 + 256];
  size_t n = 0;
  const char *parts[] = {"omptrace: ", a, b, c, d, e, f, "\n"};
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
    for (const char *p = parts[i]; p && *p && n < sizeof line - 1; p++)
      line[n++] = *p;
  if (line[n - 1] != '\n')
    line[n++] = '\n';
  ssize_t w = write(STDERR_FILENO, line, n);
  (void)w;
}

static void say(const char *a, const char *b, const char *c, const char *d) {
  say6(a, b, c, d, NULL, NULL);
}

/* signal-safe: nanosleep, retried after EINTR. */
static void nap(void) {
  struct timespec ts = {0, POLL_MS * 1000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
    ;
}

/* signal-safe: decimal without snprintf. */
static const char *decimal(long v, char *buf, size_t n) {
  char *p = buf + n - 1;
  *p = '\0';
  do {
    *--p = (char)('0' + v % 10);
    v /= 10;
  } while (v && p > buf);
  return p;
}

/* signal-safe: access(2) of <dir>/traces.otf2. */
static int archive_exists(const char *dir, char *path, size_t size) {
  size_t n = 0;
  for (const char *p = dir; *p && n < size - 16; p++)
    path[n++] = *p;
  for (const char *p = "/" OT_ARCHIVE_NAME ".otf2"; *p; p++)
    path[n++] = *p;
  path[n] = '\0';
  return access(path, F_OK) == 0;
}

/* signal-safe: say. */
static void report(int sig, const char *dir, int ok) {
  if (ok)
    say(ot_faults_signal_name(sig), " received: archive written to ", dir, NULL);
  else
    say(ot_faults_signal_name(sig), " received: omptrace-recover failed; run `omptrace recover ",
        dir, "`");
}

/* signal-safe: posix_spawn, waitpid(WNOHANG) and nanosleep. Flushes the
 * log, runs omptrace-recover and says how it went. */
static void write_archive(int sig) {
  const char *name = ot_faults_signal_name(sig);
  const char *dir = ot_cfg.output;
  atomic_store(&ot_recording, 0);
  ot_log_flush_from_signal(FLUSH_WAIT_MS);
  pid_t pid = ot_recover_spawn(recover_argv);
  if (pid < 0) {
    say(name, " received: the archive was not written; run `omptrace recover ", dir, "`");
    return;
  }
  for (int waited = 0; waited < RECOVER_WAIT_MS; waited += POLL_MS) {
    int status;
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) {
      report(sig, dir, WIFEXITED(status) && WEXITSTATUS(status) == 0);
      return;
    }
    if (r < 0 && errno != EINTR) {
      /* ECHILD: the program ignores SIGCHLD, children are reaped at once.
       * The process exists while it runs; the archive tells the rest. */
      if (kill(pid, 0) == 0) {
        nap();
        continue;
      }
      char path[4096 + 32];
      report(sig, dir, archive_exists(dir, path, sizeof path));
      return;
    }
    nap();
  }
  char num[24];
  say(name, " received: omptrace-recover (pid ", decimal(pid, num, sizeof num),
      ") is still writing the archive; if it stops, run `omptrace recover DIR`");
}

/* signal-safe: access, unlink, write. A signal while the normal finalize
 * writes the archive: the process ends with the signal now, so what is left
 * must not look like an archive unless it is one. The anchor goes (OTF2
 * writes it last, at the archive's close; it may be partial) and the line
 * says where the log is; a finished archive is only named. */
static void cut_finalize(int sig) {
  const char *name = ot_faults_signal_name(sig), *dir = ot_cfg.output;
  char path[4096 + 32];
  if (atomic_load(&ot_finalize_archive_done)) {
    say(name, " during the exit: archive written to ", dir, NULL);
    return;
  }
  if (archive_exists(dir, path, sizeof path))
    unlink(path);
  say6(name, " during the archive's writing: the record log is kept in ", ot_log_dir(),
       "; `omptrace recover ", dir, "` writes the archive");
}

/* signal-safe: sigaction, sigprocmask, raise. Dies of sig at once. */
static void die_now(int sig) {
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigaction(sig, &dfl, NULL);
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, sig);
  sigprocmask(SIG_UNBLOCK, &s, NULL);
  raise(sig);
  _exit(128 + sig); /* a signal whose default is to be ignored */
}

/* signal-safe: atomic loads and nanosleep. Once the end is claimed the
 * watch changes nothing more; this waits for a change it has begun. */
static void wait_watch(void) {
  for (int waited = 0; atomic_load(&watch_busy) && waited < FLUSH_WAIT_MS; waited += POLL_MS)
    nap();
}

/* signal-safe: sigaction, sigprocmask, raise, and the program's own
 * handler (its concern). What the signal would have done without the
 * tool: the program's handler as the kernel would have run it (its
 * sa_mask and the signal blocked unless SA_NODEFER, the action reset first
 * for SA_RESETHAND), or the default action. A thread that comes back here
 * for the same signal (the program's handler, installed after ours, called
 * ours as its previous action) goes on to the action from before the
 * program's, and the time after to the default: never round in a loop. */
static void pass_on(int sig, siginfo_t *si, void *uc) {
  wait_watch();
  unsigned long bit = 1ul << sig;
  struct sigaction act = old_act[sig];
  if (passed_twice & bit) {
    memset(&act, 0, sizeof act);
    act.sa_handler = SIG_DFL;
  } else if (passed_once & bit) {
    act = first_act[sig];
    passed_twice |= bit;
  }
  void (*info)(int, siginfo_t *, void *) = NULL;
  void (*plain)(int) = NULL;
  if (act.sa_flags & SA_SIGINFO)
    info = act.sa_sigaction;
  else if (act.sa_handler != SIG_DFL && act.sa_handler != SIG_IGN)
    plain = act.sa_handler;
  if ((info || plain) && (act.sa_flags & SA_RESETHAND)) {
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, NULL);
  } else {
    sigaction(sig, &act, NULL);
  }
  if (info || plain) {
    sigset_t block = act.sa_mask; /* undone when our handler returns */
    if (!(act.sa_flags & SA_NODEFER))
      sigaddset(&block, sig);
    sigprocmask(SIG_BLOCK, &block, NULL);
    passed_once |= bit;
    if (info)
      info(sig, si, uc);
    else if (plain)
      plain(sig);
    return;
  }
  if (act.sa_handler == SIG_IGN)
    return; /* a fault then repeats and the kernel kills */
  /* Sent (kill, raise, abort): send it again. A fault (si_code > 0) is
   * re-executed on return and now takes the default action. */
  if (is_term(sig) || !si || si->si_code <= 0)
    die_now(sig);
}

/* signal-safe: getpid. A crash signal the program ignores, sent by kill,
 * raise or sigqueue, is ignored as the program asked: no archive, the
 * recording goes on. abort() (SIGABRT the process sent itself) and faults
 * kill the process whatever the program set, so the archive is written. */
static int ignored(int sig, const siginfo_t *si) {
  if (!atomic_load(&old_ignores[sig]) || !si || si->si_code > 0)
    return 0;
  return !(sig == SIGABRT && si->si_pid == getpid());
}

/* signal-safe: see write_archive and pass_on; the rest is atomics and
 * gettid. A second signal while the archive is written (Ctrl-C twice, or a
 * crash in the handler itself) ends the process at once; a crash on
 * another thread meanwhile waits for the first to finish. The program's own
 * handler is called outside that window: it may siglongjmp away. */
static void on_fault(int sig, siginfo_t *si, void *uc) {
  int saved = errno;
  if (ignored(sig, si))
    return;
  int self = (int)syscall(SYS_gettid), owner = 0;
  if (!atomic_compare_exchange_strong(&handler_tid, &owner, self)) {
    if (owner == self || is_term(sig))
      die_now(sig);
    /* The first handler usually ends the process meanwhile. */
    for (int waited = 0; waited < FLUSH_WAIT_MS + RECOVER_WAIT_MS && atomic_load(&handler_tid);
         waited += POLL_MS)
      nap();
  } else {
    if (ot_faults_claim_end())
      write_archive(sig);
    else if (atomic_load(&end_claimed) == END_FINALIZE)
      cut_finalize(sig); /* then dies of sig (terminating signals only are left) */
    atomic_store(&handler_tid, 0);
  }
  pass_on(sig, si, uc);
  errno = saved;
}

static void install(int sig, int crash) {
  struct sigaction old, sa;
  if (sigaction(sig, NULL, &old) != 0)
    return;
  if (!crash && (old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO)))
    return; /* the program ignores it or handles it: its business */
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sigemptyset(&sa.sa_mask);
  /* NODEFER: a second signal reaches on_fault and ends the process. */
  sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK | SA_RESTART;
  our_act = sa;
  old_act[sig] = first_act[sig] = old;
  atomic_store(&old_ignores[sig], !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN);
  if (sigaction(sig, &sa, NULL) == 0)
    installed[sig] = 1;
}

static int is_ours(const struct sigaction *a) {
  return (a->sa_flags & SA_SIGINFO) && a->sa_sigaction == on_fault;
}

/* On the watch's thread. Where the program replaced one of our crash
 * handlers, ours goes back in front and the program's action becomes the
 * one passed on to. watch_busy is set before end_claimed is read, and a
 * handler claims the end before it waits for watch_busy (both seq_cst):
 * either the watch sees the end and changes nothing, or the handler waits
 * until old_act is whole. The swap returns the action it replaced, so a
 * handler the program sets between the look and the swap is the one kept. */
int ot_faults_signals_rearm(unsigned long *handlers) {
  *handlers = 0;
  atomic_store(&watch_busy, 1);
  int any = 0;
  for (size_t i = 0; !atomic_load(&end_claimed) && i < sizeof crash_sigs / sizeof crash_sigs[0];
       i++) {
    int sig = crash_sigs[i];
    struct sigaction cur, prev;
    if (!installed[sig])
      continue;
    any = 1;
    if (sigaction(sig, NULL, &cur) != 0 || is_ours(&cur) || sigaction(sig, &our_act, &prev) != 0)
      continue;
    if (is_ours(&prev))
      continue;
    old_act[sig] = prev;
    int ign = !(prev.sa_flags & SA_SIGINFO) && prev.sa_handler == SIG_IGN;
    atomic_store(&old_ignores[sig], ign);
    if ((prev.sa_flags & SA_SIGINFO) || (!ign && prev.sa_handler != SIG_DFL))
      *handlers |= 1ul << sig;
  }
  int over = !any || atomic_load(&end_claimed);
  atomic_store(&watch_busy, 0);
  return over ? -1 : 0;
}

void ot_faults_signals_rearm_forked(void) {
  atomic_store(&watch_busy, 0);
}

void ot_faults_signals_install(unsigned long mask) {
  recover_argv[1] = "-q";
  recover_argv[2] = ot_cfg.output; /* a fork child changes it in place */
  recover_argv[3] = NULL;
  for (size_t i = 0; i < sizeof term_sigs / sizeof term_sigs[0]; i++)
    if (mask & (1ul << term_sigs[i]))
      install(term_sigs[i], 0);
  int crash = 0;
  for (size_t i = 0; i < sizeof crash_sigs / sizeof crash_sigs[0]; i++)
    if (mask & (1ul << crash_sigs[i])) {
      install(crash_sigs[i], 1);
      crash |= installed[crash_sigs[i]];
    }
  if (crash)
    ot_sigwatch_start();
}

/* Puts the program's actions back where ours are still installed; a
 * handler the program set meanwhile stays. */
void ot_faults_signals_remove(int crash_only) {
  ot_sigwatch_stop(); /* it re-arms nothing from now on */
  for (int sig = 1; sig < NSIG; sig++) {
    struct sigaction cur;
    if (!installed[sig] || (crash_only && is_term(sig)) || sigaction(sig, NULL, &cur) != 0)
      continue;
    if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_fault)
      sigaction(sig, &old_act[sig], NULL);
    installed[sig] = 0;
  }
}
