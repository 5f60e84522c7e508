/* Waits libomp 14 reports coarsely: a contended critical (reported as a
 * lock wait) and a taskwait on a task another thread runs (reported as
 * work while it spins). The recorded events name them exactly. */
#include <omp.h>
#include <stdio.h>

#define ROUNDS 20
#define ITERS 2000000L

__attribute__((noinline)) static double work(long n) {
  double x = 1;
  for (long i = 0; i < n; i++)
    x = x * 0.999999 + 1e-9;
  return x;
}

__attribute__((noinline)) static long critical_part(void) {
  long inside = 0;
#pragma omp parallel num_threads(2) /* LINE_CRITICAL_PARALLEL */
  for (int r = 0; r < ROUNDS; r++) {
#pragma omp critical /* LINE_CRITICAL */
    inside += work(ITERS) > 0;
  }
  return inside;
}

__attribute__((noinline)) static double taskwait_part(void) {
  double r = 0;
#pragma omp parallel num_threads(2) /* LINE_TASKWAIT_PARALLEL */
  if (omp_get_thread_num() == 0) {
#pragma omp task shared(r)
    r = work(30 * ITERS);
    work(ITERS);     /* thread 1 takes the task meanwhile, from its barrier */
#pragma omp taskwait /* LINE_TASKWAIT */
  }
  return r;
}

int main(void) {
  long inside = critical_part(); /* LINE_CALL_CRITICAL */
  double r = taskwait_part();    /* LINE_CALL_TASKWAIT */
  int ok = inside == 2L * ROUNDS && r > 0;
  printf("waits %s\n", ok ? "ok" : "bad");
  return ok ? 0 : 1;
}
