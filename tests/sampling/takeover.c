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

#include "handler_prog.h"

static int signal_of(const char *s) {
  if (!s || !strcmp(s, "SIGPROF"))
    return SIGPROF;
  if (!strncmp(s, "SIGRTMIN+", 9))
    return SIGRTMIN + atoi(s + 9);
  return atoi(s);
}

int main(void) {
  int team = 0;
#pragma omp parallel num_threads(2) /* the tool's timers start with the threads */
#pragma omp single
  team = omp_get_num_threads();

  install_counter(signal_of(getenv("OMPTRACE_SAMPLING_SIGNAL")));

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
