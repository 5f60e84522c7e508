/* A program that takes SIGSEGV over after the tool started: the runtime
 * starts the tool when it initializes, which clang calls at the entry of a
 * function holding an OpenMP construct (main here: the crash region), so
 * before main's first statement. It prints "start: tool" when SIGSEGV's
 * action is no longer the default there ("start: none" otherwise), then
 * runs the steps named on its command line.
 *   exit       installs a SIGSEGV handler (SA_SIGINFO) that writes
 *              "own handler 11" and _exits with status 42
 *   reraise    one (signal()) that writes the line, sets SIG_DFL and raises
 *              SIGSEGV again: the process dies of it
 *   resethand  one with SA_RESETHAND|SA_NODEFER that writes the line and
 *              returns: the fault repeats and kills (the line once)
 *   chain      one that saves the action it replaced, writes the line, puts
 *              that action back and returns: the fault repeats there
 *   again      installs the exit handler, waits until it is replaced, then
 *              installs another that _exits with status 43
 *   thread     installs the exit handler from another thread
 *   ign, dfl   sets SIGSEGV to SIG_IGN / SIG_DFL
 *   armed      waits (60 s at most) until SIGSEGV's action is no longer the
 *              one set last (the tool put its handler back), prints "armed"
 *   window     as armed, from the start of main, and prints
 *              "window <microseconds>" instead (a measurement, no test)
 *   par        PHASE parallel regions of THREADS threads, each with a barrier
 *   raise      raise(SIGSEGV), then prints "raised"
 *   segv       thread 1 of a parallel region stores to address 8 after the
 *              region's barrier
 *   fork       forks: the child runs the steps after it; the parent waits
 *              for it, prints "child <pid> exit N" (or "signal N") and
 *              returns 0
 * At the end it prints "done <sum>" and returns 0. */
#define _GNU_SOURCE /* sysv_signal-like flags, SA_RESETHAND */
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define THREADS 3
#define PHASE 8

static long sum;
static struct sigaction prev;           /* what "chain" replaced */
static void (*last_set)(int) = SIG_DFL; /* the action set last (sa_handler view) */

static void line(void) {
  static const char msg[] = "own handler 11\n";
  ssize_t w = write(STDOUT_FILENO, msg, sizeof msg - 1);
  (void)w;
}

static void on_exit_42(int sig, siginfo_t *si, void *uc) {
  (void)sig, (void)si, (void)uc;
  line();
  _exit(42);
}

static void on_exit_43(int sig, siginfo_t *si, void *uc) {
  (void)sig, (void)si, (void)uc;
  line();
  _exit(43);
}

static void on_reraise(int sig) {
  line();
  signal(sig, SIG_DFL);
  raise(sig);
}

static void on_return(int sig) {
  (void)sig;
  line();
}

static void on_chain(int sig) {
  line();
  sigaction(sig, &prev, NULL);
}

static void set(void (*h)(int), void (*info)(int, siginfo_t *, void *), int flags) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = flags;
  if (info) {
    sa.sa_sigaction = info;
    sa.sa_flags |= SA_SIGINFO;
  } else {
    sa.sa_handler = h;
  }
  if (sigaction(SIGSEGV, &sa, &prev) != 0)
    perror("own_segv: sigaction");
  last_set = sa.sa_handler; /* same storage as sa_sigaction */
}

static void *set_exit(void *arg) {
  (void)arg;
  set(NULL, on_exit_42, 0);
  return NULL;
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Polls (a condition; the time is only a far limit) until the action
 * differs from the one set last. */
static int wait_armed(void) {
  for (uint64_t t0 = now_ns(); now_ns() - t0 < 60000000000u;) {
    struct sigaction cur;
    sigaction(SIGSEGV, NULL, &cur);
    if (cur.sa_handler != last_set)
      return 1;
    struct timespec ts = {0, 100000};
    nanosleep(&ts, NULL);
  }
  return 0;
}

static void par(void) {
  for (int r = 0; r < PHASE; r++) {
#pragma omp parallel num_threads(THREADS) /* @par */
    {
#pragma omp barrier /* @bar */
#pragma omp atomic
      sum += 1;
    }
  }
}

int main(int argc, char **argv) {
  uint64_t t0 = now_ns();
  struct sigaction at_start;
  sigaction(SIGSEGV, NULL, &at_start);
  printf("start: %s\n", at_start.sa_handler == SIG_DFL ? "none" : "tool");
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    if (!strcmp(s, "exit")) {
      set(NULL, on_exit_42, 0);
    } else if (!strcmp(s, "reraise")) {
      signal(SIGSEGV, on_reraise);
      last_set = on_reraise;
    } else if (!strcmp(s, "resethand")) {
      set(on_return, NULL, SA_RESETHAND | SA_NODEFER);
    } else if (!strcmp(s, "chain")) {
      set(on_chain, NULL, 0);
    } else if (!strcmp(s, "again")) {
      set(NULL, on_exit_42, 0);
      if (!wait_armed())
        printf("not armed\n");
      set(NULL, on_exit_43, 0);
    } else if (!strcmp(s, "thread")) {
      pthread_t t;
      if (pthread_create(&t, NULL, set_exit, NULL) != 0 || pthread_join(t, NULL) != 0)
        return 2;
    } else if (!strcmp(s, "ign")) {
      set(SIG_IGN, NULL, 0);
    } else if (!strcmp(s, "dfl")) {
      set(SIG_DFL, NULL, 0);
    } else if (!strcmp(s, "armed")) {
      printf("%s\n", wait_armed() ? "armed" : "not armed");
    } else if (!strcmp(s, "window")) {
      int ok = wait_armed();
      printf("window %s%llu\n", ok ? "" : "over ", (unsigned long long)((now_ns() - t0) / 1000u));
    } else if (!strcmp(s, "par")) {
      par();
    } else if (!strcmp(s, "raise")) {
      raise(SIGSEGV);
      printf("raised\n");
    } else if (!strcmp(s, "fork")) {
      fflush(stdout);
      pid_t pid = fork();
      if (pid < 0)
        return 2;
      if (pid > 0) {
        int st = 0;
        if (waitpid(pid, &st, 0) != pid)
          return 2;
        printf("child %d %s %d\n", (int)pid, WIFEXITED(st) ? "exit" : "signal",
               WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
        return 0;
      }
    } else if (!strcmp(s, "segv")) {
      fflush(stdout);
#pragma omp parallel num_threads(THREADS) /* @crash */
      {
#pragma omp barrier /* @crashbar */
        if (omp_get_thread_num() == 1)
          *(volatile int *)(uintptr_t)8 = 1;
      }
    } else {
      fprintf(stderr, "own_segv: unknown step %s\n", s);
      return 2;
    }
    fflush(stdout);
  }
  printf("done %ld\n", sum);
  return 0;
}
