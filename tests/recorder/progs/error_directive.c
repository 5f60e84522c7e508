/* The error directive at run time (OpenMP 5.1; clang 19 and libomp 19
 * only): a warning per thread, then one on the master. */
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n) /* @par */
  {
#pragma omp error at(execution) severity(warning) message("omptrace test") /* @each */
    n += 1;
#pragma omp masked /* @masked */
    {
#pragma omp error at(execution) severity(warning) message("omptrace test") /* @master */
    }
  }
  printf("error_directive %d\n", n);
  return 0;
}
