/* The tiny-task case of throttling (bench/throttle_bench.py): every
 * thread of one parallel region creates argv[1] tasks of a few
 * instructions each from one site, with a taskwait every 64, and the
 * program prints its wall time (omp_get_wtime around the region). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  long sum = 0;
  double t0 = omp_get_wtime();
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
  printf("wall_s=%.6f sum=%ld\n", omp_get_wtime() - t0, sum);
  return 0;
}
