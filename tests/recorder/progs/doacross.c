/* Doacross loop: ordered depend(sink) / depend(source) arrive as
 * dependences of the implicit task (issue 12). */
#include "common.h"
#include <stdio.h>

#define N 6

int main(void) {
  double v[N] = {0};
#pragma omp parallel for ordered(1) num_threads(2) schedule(static, 1) /* @loop */
  for (int i = 0; i < N; i++) {
#pragma omp ordered depend(sink : i - 1) /* @sink */
    v[i] = (i ? v[i - 1] : 0.0) + ot_work(1000);
#pragma omp ordered depend(source) /* @source */
  }
  printf("doacross %.1f\n", v[N - 1]);
  return 0;
}
