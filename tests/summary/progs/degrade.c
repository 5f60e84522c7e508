/* Usage: degrade [ITER_MS HOLD_MS]; run with OMP_NUM_THREADS=1, 2, 4.
 * The first region divides 8 iterations of ITER_MS (default 15) among the
 * threads: 120, 60, 30 ms when the caller halves ITER_MS x 8 / threads from
 * one run to the next. The second one puts its whole inner loop, HOLD_MS
 * (default 50) in 5 steps, in a critical section that every thread runs, so
 * it takes threads x HOLD_MS. The caller sets HOLD_MS from the previous
 * run's time T (2T / threads): the region's slowest thread then takes at
 * least 2T by construction, whatever the load: the first thread in the
 * critical section leaves the region only after all of them ran it.
 * The work sleeps, so 4 threads on 2 cores behave. */
#include "spin.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  double iter_ms = argc > 2 ? atof(argv[1]) : 15, hold_ms = argc > 2 ? atof(argv[2]) : 50;
  /* start the worker threads first: their creation is not part of the test */
#pragma omp parallel
  sleep_ms(1);
#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (int i = 0; i < 8; i++)
      sleep_ms(iter_ms);
  }
#pragma omp parallel
  {
#pragma omp critical
    for (int i = 0; i < 5; i++)
      sleep_ms(hold_ms / 5);
  }
  return 0;
}
