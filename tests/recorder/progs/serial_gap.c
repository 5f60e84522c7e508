/* Two parallel regions separated by 200 ms of serial code. libomp reports
 * the workers' end-of-region barrier end only at the next fork; the trace
 * must not show that gap as barrier wait. */
#include "common.h"
#include <stdio.h>

int main(void) {
  double s = 0.0;
#pragma omp parallel num_threads(2) reduction(+ : s) /* @first */
  s += ot_work(1000);
  ot_sleep_ms(200);
#pragma omp parallel num_threads(2) reduction(+ : s) /* @second */
  s += ot_work(1000);
  printf("serial_gap %.1f\n", s);
  return 0;
}
