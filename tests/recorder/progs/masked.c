/* master, masked and masked filter(1): each runs on exactly one thread. */
#include "common.h"
#include <stdio.h>

int main(void) {
  double a = 0.0, b = 0.0, c = 0.0;
#pragma omp parallel num_threads(2) /* @par */
  {
#pragma omp master /* @master */
    a = ot_work(1000);
#pragma omp masked /* @masked */
    b = ot_work(1000);
#pragma omp masked filter(1) /* @filter */
    c = ot_work(1000);
  }
  printf("masked %.1f\n", a + b + c);
  return 0;
}
