/* The program takes over the tool's sampling signal: after the OpenMP
 * runtime and both threads started, it installs its own handler for the
 * signal named in OMPTRACE_SAMPLING_SIGNAL (SIGPROF, SIGRTMIN+N or a
 * number), then computes. Its handler now receives the tool's timer
 * signals; the tool must say so at exit with the samples taken and
 * expected, and the program must run on unharmed. Prints the CPU time
 * of the computation (the test's lower bound for "expected"). */
#define _GNU_SOURCE
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static volatile sig_atomic_t hits;
static void on_signal(int sig) {
  (void)sig;
  hits++;
}

__attribute__((noinline)) static long work(long n) {
  volatile long x = 0;
  for (long i = 0; i < n; i++)
    x += i & 3;
  return x;
}

static int signal_of(const char *s) {
  if (!s || !strcmp(s, "SIGPROF"))
    return SIGPROF;
  if (!strncmp(s, "SIGRTMIN+", 9))
    return SIGRTMIN + atoi(s + 9);
  return atoi(s);
}

static double cpu_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
         ru.ru_stime.tv_usec / 1e6;
}

int main(void) {
  int team = 0;
#pragma omp parallel num_threads(2) /* the tool's timers start with the threads */
#pragma omp single
  team = omp_get_num_threads();

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESTART;
  sigaction(signal_of(getenv("OMPTRACE_SAMPLING_SIGNAL")), &sa, NULL);

  double cpu0 = cpu_seconds();
  long total = 0;
#pragma omp parallel num_threads(2) reduction(+ : total)
  total += work(40000000);
  double cpu = cpu_seconds() - cpu0;

  int ok = team == 2 && total == 2 * 60000000L && hits > 0;
  printf("takeover %s (the program's handler ran %d times) cpu_ms %.0f\n", ok ? "ok" : "bad",
         (int)hits, cpu * 1e3);
  return ok ? 0 : 1;
}
