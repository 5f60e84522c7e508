/* Deep task recursion in a team of one: untied tasks that become final
 * (included) below depth 3, and mergeable ones. libomp reports an untied
 * included child C of P as P->C, C->P, C->C, ... C done ->P, P->P: the
 * replay must not stack P again at each return (issue 12). */
#include "common.h"
#include <stdio.h>

#define DEPTH 10

static long rec(int d) {
  if (d == 0)
    return 1;
  long a = 0, b = 0;
#pragma omp task untied final(d <= 3) shared(a) /* @fin */
  a = rec(d - 1);
#pragma omp task mergeable shared(b) /* @merge */
  b = rec(d - 1);
#pragma omp taskwait /* @fwait */
  return a + b;
}

int main(void) {
  long r = 0;
#pragma omp parallel num_threads(1) /* @par */
#pragma omp single                  /* @single */
  r = rec(DEPTH);
  printf("task_final %ld\n", r);
  return 0;
}
