/* taskwait depend(...) and task if(0) depend(...): libomp reports both as
 * a pseudo task carrying the dependences (issue 12). A team of one makes
 * the order exact. */
#include "common.h"
#include <stdio.h>

static int x, y;

int main(void) {
#pragma omp parallel num_threads(1) /* @par */
#pragma omp single                  /* @single */
  {
#pragma omp task depend(out : x) /* @producer */
    x = 1;
#pragma omp taskwait depend(in : x)       /* @dwait */
#pragma omp task if (0) depend(inout : y) /* @if0 */
    y = x + 1;
#pragma omp taskwait /* @wait */
  }
  printf("task_depwait %d %d\n", x, y);
  return 0;
}
