/* A parallel region inside an explicit task: inside it the thread runs
 * the inner team's implicit task, so switches there must not suspend the
 * enclosing explicit task (issue 12). */
#include "common.h"
#include <stdio.h>

static double sum;

static void add(double v) {
#pragma omp atomic
  sum += v;
}

int main(void) {
#pragma omp parallel num_threads(1) /* @outer */
#pragma omp single                  /* @single */
  {
#pragma omp task /* @task */
    {
#pragma omp parallel num_threads(2) /* @inner */
#pragma omp single                  /* @inner_single */
      for (int i = 0; i < 2; i++) {
#pragma omp task /* @child */
        add(ot_work(20000));
      }
      add(1.0);
    }
  }
  printf("task_nested_par %.1f\n", sum);
  return 0;
}
