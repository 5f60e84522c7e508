/* main > a > b > parallel region > hot: both threads spend nearly all
 * their time in hot(), so their samples must show exactly that user-mode
 * path. Markers name the lines the checker expects. */
#include <omp.h>
#include <stdio.h>

#define ITERS 60000000L /* per thread, a few hundred ms at -O0 */

__attribute__((noinline)) static double hot(int tid) {
  double x = tid;
  for (long i = 0; i < ITERS; i++)
    x = x * 0.999999 + 1e-9; /* LINE_HOT */
  return x;
}

__attribute__((noinline)) static double b(void) {
  double sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum) /* LINE_PARALLEL */
  sum += hot(omp_get_thread_num()) + 1;                /* LINE_CALL_HOT */
  return sum;
}

__attribute__((noinline)) static double a(void) {
  return b(); /* LINE_CALL_B */
}

int main(void) {
  double r = a(); /* LINE_CALL_A */
  printf("callpath %s\n", r >= 2 ? "ok" : "bad");
  return r >= 2 ? 0 : 1;
}
