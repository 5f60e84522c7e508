/* The tiny-construct cases of throttling (bench/throttle_bench.py):
 * argv[1] instances per thread of the construct named by argv[2], and the
 * program prints its wall time (omp_get_wtime around them):
 *   tasks     one parallel region; every thread creates tasks of a few
 *             instructions from one site, with a taskwait every 64
 *   loop      one parallel region; every thread runs a loop of one
 *             iteration per thread (with its implicit barrier) each time
 *   parallel  that many parallel regions, each a few instructions (the
 *             EPCC fine-grained case) */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long tasks(long n) {
  long sum = 0;
#pragma omp parallel reduction(+ : sum)
  {
    long mine = 0;
    for (long i = 0; i < n; i++) {
#pragma omp task firstprivate(i) shared(mine)
      {
#pragma omp atomic
        mine += i & 1;
      }
      if (i % 64 == 63) {
#pragma omp taskwait
      }
    }
#pragma omp taskwait
    sum += mine;
  }
  return sum;
}

static long loops(long n) {
  long sum = 0;
#pragma omp parallel reduction(+ : sum)
  for (long i = 0; i < n; i++) {
#pragma omp for
    for (int j = 0; j < omp_get_num_threads(); j++)
      sum += (i + j) & 1;
  }
  return sum;
}

static long regions(long n) {
  long sum = 0;
  for (long i = 0; i < n; i++) {
#pragma omp parallel reduction(+ : sum)
    sum += (i + omp_get_thread_num()) & 1;
  }
  return sum;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  const char *what = argc > 2 ? argv[2] : "tasks";
  double t0 = omp_get_wtime();
  long sum = !strcmp(what, "loop") ? loops(n) : !strcmp(what, "parallel") ? regions(n) : tasks(n);
  printf("wall_s=%.6f sum=%ld\n", omp_get_wtime() - t0, sum);
  return 0;
}
