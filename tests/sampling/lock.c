/* Two threads take turns on one lock and hold it while working, so each
 * waits for the other about half of the time. */
#include <omp.h>
#include <stdio.h>

#define ROUNDS 20
#define ITERS 2000000L

__attribute__((noinline)) static double work(long n) {
  double x = 1;
  for (long i = 0; i < n; i++)
    x = x * 0.999999 + 1e-9;
  return x;
}

__attribute__((noinline)) static long contended(void) {
  omp_lock_t lock;
  long held = 0;
  omp_init_lock(&lock);
#pragma omp parallel num_threads(2) /* LINE_PARALLEL */
  for (int r = 0; r < ROUNDS; r++) {
    omp_set_lock(&lock); /* LINE_SET_LOCK */
    held += work(ITERS) > 0;
    omp_unset_lock(&lock);
  }
  omp_destroy_lock(&lock);
  return held;
}

int main(void) {
  long held = contended(); /* LINE_CALL_CONTENDED */
  printf("lock %s\n", held == 2L * ROUNDS ? "ok" : "bad");
  return held == 2L * ROUNDS ? 0 : 1;
}
