/* The program installs its own SIGPROF and SIGALRM handlers and interval
 * timers in main. Both must keep firing while the tool samples with
 * SIGPROF, the program's handler must not receive the tool's signals (its
 * count stays within what its CPU-time timer explains), and the
 * computation must stay exact. */
#define _GNU_SOURCE
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>

static volatile sig_atomic_t prof_hits, alrm_hits;
static void on_prof(int sig) {
  (void)sig;
  prof_hits++;
}
static void on_alrm(int sig) {
  (void)sig;
  alrm_hits++;
}

__attribute__((noinline)) static long work(long n) {
  volatile long x = 0;
  for (long i = 0; i < n; i++)
    x += i & 3;
  return x;
}

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_prof;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGPROF, &sa, NULL);
  sa.sa_handler = on_alrm;
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval it = {{0, 5000}, {0, 5000}}; /* 5 ms */
  setitimer(ITIMER_PROF, &it, NULL);
  setitimer(ITIMER_REAL, &it, NULL);

  long total = 0;
#pragma omp parallel num_threads(2) reduction(+ : total)
  total += work(40000000);

  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_PROF, &off, NULL);
  setitimer(ITIMER_REAL, &off, NULL);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  double cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
               ru.ru_stime.tv_usec / 1e6;
  /* ITIMER_PROF expirations, with slack for tick granularity; the tool's
   * 1 kHz per thread would be 10 times more. */
  int bound = (int)(cpu / 0.005 * 3) + 10;
  int ok = total == 2 * 60000000L && prof_hits > 0 && alrm_hits > 0 && prof_hits <= bound;
  printf("own_handler %s (SIGPROF %d of at most %d, SIGALRM %d)\n", ok ? "ok" : "bad",
         (int)prof_hits, bound, (int)alrm_hits);
  return ok ? 0 : 1;
}
