/* Explicit barriers in a team of three. */
#include "common.h"
#include <stdio.h>

int main(void) {
  double s = 0.0;
#pragma omp parallel num_threads(3) /* @par */
  {
    double v = ot_work(100);
#pragma omp barrier /* @first */
    v += ot_work(100);
#pragma omp barrier /* @second */
    for (int i = 0; i < 3; i++) {
#pragma omp barrier /* @loop */
    }
#pragma omp atomic
    s += v;
  }
  printf("barrier %.1f\n", s);
  return 0;
}
