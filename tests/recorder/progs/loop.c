/* Work-sharing loops: static, dynamic and static nowait. */
#include "common.h"
#include <stdio.h>

int main(void) {
  double a[100] = {0};
#pragma omp parallel num_threads(2) /* @par */
  {
#pragma omp for schedule(static) /* @static */
    for (int i = 0; i < 100; i++)
      a[i] += ot_work(100);
#pragma omp for schedule(dynamic, 4) /* @dynamic */
    for (int i = 0; i < 100; i++)
      a[i] += ot_work(100);
#pragma omp for schedule(static) nowait /* @nowait */
    for (int i = 0; i < 100; i++)
      a[i] += 1.0;
  }
  double s = 0.0;
  for (int i = 0; i < 100; i++)
    s += a[i];
  printf("loop %.1f\n", s);
  return 0;
}
