/* Busy-waits for a wall-clock duration: the time a region takes does not
 * depend on how many cores the machine has free. */
#ifndef SUMMARY_SPIN_H
#define SUMMARY_SPIN_H
#include <omp.h>
#include <time.h>
static inline void spin_ms(double ms) {
  double end = omp_get_wtime() + ms / 1e3;
  while (omp_get_wtime() < end)
    ;
}
/* Sleeps for a wall-clock duration (absolute deadline, so signals do not
 * shorten it): "work" that needs no core, for runs with more threads than
 * cores. */
static inline void sleep_ms(double ms) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  long long ns = t.tv_nsec + (long long)(ms * 1e6);
  t.tv_sec += ns / 1000000000;
  t.tv_nsec = ns % 1000000000;
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL))
    ;
}
#endif
