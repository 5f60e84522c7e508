/* Two levels of nested parallelism and explicit tasks: samples of every
 * thread must be stitched below the right fork and creation sites. */
#include <omp.h>
#include <stdio.h>

#define ITERS 25000000L

__attribute__((noinline)) static double leaf(long n) {
  double x = 1;
  for (long i = 0; i < n; i++)
    x = x * 0.999999 + 1e-9; /* LINE_LEAF */
  return x;
}

__attribute__((noinline)) static double inner(void) {
  double s = 0;
#pragma omp parallel num_threads(2) reduction(+ : s) /* LINE_INNER_PARALLEL */
  s += leaf(ITERS);                                  /* LINE_CALL_LEAF */
  return s;
}

__attribute__((noinline)) static double outer(void) {
  double s = 0;
#pragma omp parallel num_threads(2) reduction(+ : s) /* LINE_OUTER_PARALLEL */
  s += inner();                                      /* LINE_CALL_INNER */
  return s;
}

__attribute__((noinline)) static double task_body(long n) {
  double x = 2;
  for (long i = 0; i < n; i++)
    x = x * 0.999999 + 1e-9; /* LINE_TASK_BODY */
  return x;
}

__attribute__((noinline)) static double tasks(void) {
  double r[4] = {0};
#pragma omp parallel num_threads(2) /* LINE_TASK_PARALLEL */
#pragma omp single
  for (int i = 0; i < 4; i++) {
#pragma omp task firstprivate(i) shared(r) /* LINE_TASK */
    r[i] = task_body(ITERS / 2);           /* LINE_CALL_TASK_BODY */
  }
  return r[0] + r[1] + r[2] + r[3];
}

int main(void) {
  omp_set_max_active_levels(2);
  double n = outer(); /* LINE_CALL_OUTER */
  double t = tasks(); /* LINE_CALL_TASKS */
  int ok = n > 0 && t > 0;
  printf("nested %s\n", ok ? "ok" : "bad");
  return ok ? 0 : 1;
}
