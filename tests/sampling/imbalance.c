/* An imbalanced region: thread 0 works, thread 1 has nothing to do and
 * waits in the region's implicit barrier. */
#include <omp.h>
#include <stdio.h>

#define ITERS 60000000L

__attribute__((noinline)) static double work(long n) {
  double x = 1;
  for (long i = 0; i < n; i++)
    x = x * 0.999999 + 1e-9;
  return x;
}

__attribute__((noinline)) static double imbalanced(void) {
  double sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum) /* LINE_PARALLEL */
  {
    if (omp_get_thread_num() == 0)
      sum += work(ITERS); /* LINE_CALL_WORK */
  }
  return sum;
}

int main(void) {
  double r = imbalanced(); /* LINE_CALL_IMBALANCED */
  printf("imbalance %s\n", r > 0 ? "ok" : "bad");
  return r > 0 ? 0 : 1;
}
