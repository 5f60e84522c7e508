/* Single, with and without its implicit barrier. */
#include "common.h"
#include <stdio.h>

int main(void) {
  double a = 0.0, b = 0.0;
#pragma omp parallel num_threads(2) /* @par */
  {
#pragma omp single /* @single */
    a = ot_work(1000);
#pragma omp single nowait /* @nowait */
    b = ot_work(1000);
  }
  printf("single %.1f\n", a + b);
  return 0;
}
