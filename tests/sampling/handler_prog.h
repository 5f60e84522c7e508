/* Shared by the test programs that install their own signal handlers next
 * to the tool's sampler: a handler that counts its signals, the work the
 * samples must land in, and the CPU time the tests derive sample bounds
 * from. */
#ifndef OMPTRACE_TEST_HANDLER_PROG_H
#define OMPTRACE_TEST_HANDLER_PROG_H

#include <signal.h>
#include <string.h>
#include <sys/resource.h>

static volatile sig_atomic_t hits;

static void count_hit(int sig) {
  (void)sig;
  hits++;
}

/* Installs count_hit for sig, as a program's own handler would be. */
static inline void install_counter(int sig) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = count_hit;
  sa.sa_flags = SA_RESTART;
  sigaction(sig, &sa, NULL);
}

__attribute__((noinline)) static long work(long n) {
  volatile long x = 0;
  for (long i = 0; i < n; i++)
    x += i & 3;
  return x;
}

static inline double cpu_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
         ru.ru_stime.tv_usec / 1e6;
}

#endif
