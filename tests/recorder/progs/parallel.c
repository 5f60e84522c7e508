/* Parallel regions: nested 2x2, if(0), and teams of 3, 4 and 2 in turn. */
#include "common.h"
#include <omp.h>
#include <stdio.h>

static double sum;

static void add(double v) {
#pragma omp atomic
  sum += v;
}

int main(void) {
  omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2) /* @outer */
  {
#pragma omp parallel num_threads(2) /* @inner */
    add(ot_work(1000));
  }
#pragma omp parallel if (0) /* @serial */
  add(ot_work(1000));
#pragma omp parallel num_threads(3) /* @three */
  add(ot_work(1000));
#pragma omp parallel num_threads(4) /* @four */
  add(ot_work(1000));
#pragma omp parallel num_threads(2) /* @two */
  add(ot_work(1000));
  printf("parallel %.1f\n", sum);
  return 0;
}
