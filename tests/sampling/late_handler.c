/* The program installs its own SIGPROF handler and ITIMER_PROF timer
 * after the OpenMP runtime (and so the tool) started, then computes in a
 * second parallel region. Its handler must receive its own signals and
 * only those, and the tool must keep sampling on its own signal. Prints
 * the CPU time of the computation, from which the test derives how many
 * samples the tool must at least have taken. */
#define _GNU_SOURCE
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>

#include "handler_prog.h"

int main(void) {
  int team = 0;
#pragma omp parallel num_threads(2) /* the runtime, the tool and both threads start here */
#pragma omp single
  team = omp_get_num_threads();

  install_counter(SIGPROF);
  struct itimerval it = {{0, 5000}, {0, 5000}}; /* 5 ms of process CPU time */
  setitimer(ITIMER_PROF, &it, NULL);

  double cpu0 = cpu_seconds();
  long total = 0;
#pragma omp parallel num_threads(2) reduction(+ : total) /* LINE_WORK_PARALLEL */
  total += work(40000000);
  double cpu = cpu_seconds() - cpu0;

  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_PROF, &off, NULL);
  /* ITIMER_PROF expirations with slack for tick granularity; the tool's
   * 1 kHz per thread would be 5 times more. */
  int bound = (int)(cpu / 0.005 * 2) + 10;
  int ok = team == 2 && total == 2 * 60000000L && hits > 0 && hits <= bound;
  printf("late_handler %s (SIGPROF %d of at most %d) cpu_ms %.0f\n", ok ? "ok" : "bad", (int)hits,
         bound, cpu * 1e3);
  return ok ? 0 : 1;
}
