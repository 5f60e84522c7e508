/* Tasks that create child tasks and wait for them. In a team of one
 * thread, each child runs at its creation while its parent is suspended;
 * in a team of two, parents may be suspended in their taskwait while they
 * run children, and resume afterwards. */
#include "common.h"
#include <stdio.h>

static double sum;

static void add(double v) {
#pragma omp atomic
  sum += v;
}

static void parent(void) {
  for (int i = 0; i < 2; i++) {
#pragma omp task /* @child */
    add(ot_work(20000));
  }
#pragma omp taskwait /* @wait */
  add(1.0);
}

int main(void) {
#pragma omp parallel num_threads(1) /* @solo */
  {
#pragma omp task /* @solo_parent */
    parent();
#pragma omp taskwait /* @solo_wait */
  }
#pragma omp parallel num_threads(2) /* @team */
#pragma omp single                  /* @single */
  {
    for (int i = 0; i < 2; i++) {
#pragma omp task /* @team_parent */
      parent();
    }
  }
  printf("nested_tasks %.1f\n", sum);
  return 0;
}
