/* exit(3) from inside a parallel region right after a task creation: once
 * both threads passed a barrier, thread 0 creates a task and computes for
 * 20 ms (the task create is its last event; with sampling on, samples
 * follow it) while thread 1 waits in the end-of-region barrier (and may
 * run the task); then thread 0 exits. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void) {
  volatile long work = 0;
#pragma omp parallel num_threads(2) /* @par */
  {
#pragma omp barrier /* @barrier */
    if (omp_get_thread_num() == 0) {
#pragma omp task /* @task */
      work++;
      double t0 = now();
      while (now() - t0 < 0.02)
        work++;
      printf("exit_task leaving\n");
      fflush(stdout);
      exit(3);
    }
  }
  printf("exit_task not reached\n");
  return 0;
}
