/* Reductions; run with KMP_FORCE_REDUCTION=critical so that libomp reports
 * them (its default atomic method has no OMPT event). */
#include "common.h"
#include <stdio.h>

int main(void) {
  double s = 0.0, t = 0.0;
#pragma omp parallel num_threads(2) reduction(+ : s) /* @par */
  s += ot_work(1000);
#pragma omp parallel num_threads(2) /* @par2 */
  {
#pragma omp for reduction(+ : t) /* @loop */
    for (int i = 0; i < 10; i++)
      t += i;
  }
  printf("reduction %.1f %.1f\n", s, t);
  return 0;
}
