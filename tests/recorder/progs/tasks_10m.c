/* Ten million tiny tasks from one producer on two threads: far more
 * records (about 30 million, ~1 GB raw) than the default per-thread budget
 * holds, so buffers must be handed off and spilled while memory stays
 * bounded. The task count can be given as argv[1]. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 10000000;
  long odd = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  for (long i = 0; i < n; i++) {
#pragma omp task firstprivate(i) shared(odd)
    {
      if (i & 1) {
#pragma omp atomic
        odd++;
      }
    }
  }
  printf("tasks_10m: %ld tasks, %ld odd\n", n, odd);
  return odd == n / 2 ? 0 : 1;
}
