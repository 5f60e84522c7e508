/* Cancellation of tasks (OMP_CANCELLATION=true): in a team of one each
 * task runs at its creation; the first cancels the taskgroup, so the
 * runtime discards the other three without running them. */
#include "common.h"
#include <stdio.h>

#define NTASKS 4

int main(void) {
  int ran = 0;
#pragma omp parallel num_threads(1) /* @par */
#pragma omp single                  /* @single */
#pragma omp taskgroup               /* @group */
  for (int i = 0; i < NTASKS; i++) {
#pragma omp task shared(ran) /* @task */
    {
      ran++;
      if (i == 0) {
#pragma omp cancel taskgroup /* @cancel */
      }
    }
  }
  printf("task_cancel %d\n", ran);
  return 0;
}
