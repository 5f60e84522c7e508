/* Run with OMP_NUM_THREADS=1, 2, 4. The first region divides 8 iterations
 * of 15 ms among the threads and gets faster (120, 60, 30 ms); the second
 * one puts its whole inner loop in a critical section that every thread
 * runs, so it takes 50 ms per thread and gets slower with every thread
 * added (50, 100, 200 ms). The work sleeps, so 4 threads on 2 cores behave;
 * the durations are long enough for a loaded machine's noise. */
#include "spin.h"

int main(void) {
  /* start the worker threads first: their creation is not part of the test */
#pragma omp parallel
  sleep_ms(1);
#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (int i = 0; i < 8; i++)
      sleep_ms(15);
  }
#pragma omp parallel
  {
#pragma omp critical
    for (int i = 0; i < 5; i++)
      sleep_ms(10);
  }
  return 0;
}
