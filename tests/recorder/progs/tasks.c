/* Explicit tasks, all created by one thread: taskwait, taskgroup, a
 * depend(out) -> 2 x depend(in) -> depend(inout) chain, untied, if(0) and a
 * taskloop of 4 tasks (20 iterations, grainsize 5). 17 tasks in all. */
#include "common.h"
#include <stdio.h>

static double sum;

static void add(double v) {
#pragma omp atomic
  sum += v;
}

int main(void) {
  int x = 0, seen_in[2] = {0, 0}, seen_inout = 0;
#pragma omp parallel num_threads(2) /* @par */
#pragma omp single                  /* @single */
  {
    for (int i = 0; i < 4; i++) {
#pragma omp task /* @plain */
      add(ot_work(1000));
    }
#pragma omp taskwait  /* @taskwait */
#pragma omp taskgroup /* @taskgroup */
    {
      for (int i = 0; i < 3; i++) {
#pragma omp task /* @grouped */
        add(ot_work(1000));
      }
    }
#pragma omp task depend(out : x) /* @dep_out */
    x = 1;
    for (int i = 0; i < 2; i++) {
#pragma omp task depend(in : x) /* @dep_in */
      seen_in[i] = x;
    }
#pragma omp task depend(inout : x) /* @dep_inout */
    seen_inout = ++x;
#pragma omp taskwait    /* @taskwait2 */
#pragma omp task untied /* @untied */
    add(ot_work(1000));
#pragma omp task if (0) /* @undeferred */
    add(ot_work(1000));
#pragma omp taskloop grainsize(5) /* @taskloop */
    for (int i = 0; i < 20; i++)
      add(1.0);
  }
  printf("tasks %.1f %d %d %d\n", sum, seen_in[0], seen_in[1], seen_inout);
  return 0;
}
