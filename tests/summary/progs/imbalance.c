/* A static loop whose two iterations take 40 ms and 10 ms: with 2 threads
 * thread 0 works 40 ms, thread 1 10 ms and waits about 30 ms at the barrier.
 *
 * The imbalance is enforced, not timed, so that it holds on a loaded machine:
 * - thread 1 enters the loop only after thread 0 is inside it;
 * - thread 0 leaves its iteration only after thread 1 ran, inside the loop's
 *   barrier, a task thread 0 created (a barrier is a task scheduling point;
 *   thread 0 spins without one, so it cannot run the task itself). Thread 1
 *   thus arrives at the barrier first;
 * - thread 0 works at least 4 times as long as thread 1 could have: until
 *   4 x the time from its start to the task's run (40 ms unless thread 1
 *   was slowed down). */
#include "spin.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_int started, task_ran;
static double task_time; /* written by the task before task_ran is set */

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void thread0_work(void) {
  double t0 = now_ms();
  atomic_store(&started, 1);
#pragma omp task
  {
    if (omp_get_thread_num() != 1) { /* the handshake would prove nothing */
      fprintf(stderr, "imbalance: the task ran on thread %d, not in thread 1's barrier\n",
              omp_get_thread_num());
      exit(2);
    }
    task_time = now_ms();
    atomic_store(&task_ran, 1);
  }
  while (!atomic_load(&task_ran))
    ;
  double end = t0 + 4 * (task_time - t0);
  spin_ms((end > t0 + 40 ? end : t0 + 40) - now_ms());
}

int main(void) {
  /* start the worker threads first: their creation is not part of the test */
#pragma omp parallel num_threads(2)
  spin_ms(1);
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 1)
      while (!atomic_load(&started))
        ;
#pragma omp for schedule(static)
    for (int i = 0; i < 2; i++) {
      if (i == 0)
        thread0_work();
      else
        spin_ms(10);
    }
  }
  return 0;
}
