/* 256 threads in a few parallel regions, run under an address-space limit
 * by the test: the tool's buffers must fit in it. */
#include <omp.h>
#include <stdio.h>

#define THREADS 256
#define REGIONS 3

int main(void) {
  long sum = 0;
  for (int r = 0; r < REGIONS; r++) {
#pragma omp parallel num_threads(THREADS) reduction(+ : sum) /* @par */
    {
#pragma omp barrier /* @bar */
      sum += omp_get_num_threads() == THREADS;
    } /* @red */ /* the reduction at the region end: a tree with 256 threads */
  }
  printf("many %ld\n", sum);
  return sum == THREADS * REGIONS ? 0 : 1;
}
