/* argv[1] parents, each an untied final task with one included child, in
 * a team of one: the run for the linear-finalize test (big sizes). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000, sum = 0;
#pragma omp parallel num_threads(1)
#pragma omp single
  for (long i = 0; i < n; i++) {
#pragma omp task untied final(1) shared(sum) firstprivate(i)
    {
#pragma omp task untied shared(sum) firstprivate(i)
      sum += i;
    }
  }
  printf("included_tasks %ld\n", sum);
  return 0;
}
