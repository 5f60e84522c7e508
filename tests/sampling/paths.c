/* One parallel construct reached alternately through two call paths with
 * identical frame sizes (so the forking frame sits at the same address):
 * repeated forks from a known path share its fork capture, and the
 * workers' samples must still go to the right caller. */
#include <omp.h>
#include <stdio.h>

#define ROUNDS 150
#define ITERS 600000L

__attribute__((noinline)) static double work(long n) {
  double x = 1;
  for (long i = 0; i < n; i++)
    x = x * 0.999999 + 1e-9;
  return x;
}

__attribute__((noinline)) static double region(long n) {
  double s = 0;
#pragma omp parallel num_threads(2) reduction(+ : s) /* LINE_PARALLEL */
  s += work(n);                                      /* LINE_CALL_WORK */
  return s;
}

__attribute__((noinline)) static double via_one(long n) {
  return region(n); /* LINE_ONE */
}

__attribute__((noinline)) static double via_two(long n) {
  return region(n); /* LINE_TWO */
}

int main(void) {
  double s = 0;
  for (int r = 0; r < ROUNDS; r++) {
    s += via_one(ITERS); /* LINE_CALL_ONE */
    s += via_two(ITERS); /* LINE_CALL_TWO */
  }
  printf("paths %s\n", s > 0 ? "ok" : "bad");
  return s > 0 ? 0 : 1;
}
