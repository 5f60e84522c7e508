/* Compiled with gcc -fopenmp and run on libomp through its GOMP ABI:
 * work-sharing loops. gcc runs schedule(static) loops without calling the
 * runtime (only their barrier, GOMP_barrier, reaches it); dynamic, guided
 * and ordered loops call GOMP_loop_*_start/next/end. Each construct sits
 * in its own function: gcc gives its runtime calls the line of the code
 * before them, here the function's opening line. */
#include <stdio.h>

#define N 100
static double a[N], b[N], c[N]; /* b, c: the nowait loops' own */

static void loop_static(void) {
#pragma omp for schedule(static)
  for (int i = 0; i < N; i++)
    a[i] += 1.0; /* @static_body */
}

static void loop_dynamic(void) { /* @dynamic */
#pragma omp for schedule(dynamic, 4)
  for (int i = 0; i < N; i++)
    a[i] += 1.0;
}

static void loop_guided(void) { /* @guided */
#pragma omp for schedule(guided, 2)
  for (int i = 0; i < N; i++)
    a[i] += 1.0;
}

static void loop_dynamic_nowait(void) { /* @dynamic_nowait */
#pragma omp for schedule(dynamic) nowait
  for (int i = 0; i < N; i++)
    b[i] += 1.0;
}

static void loop_static_nowait(void) { /* @static_nowait */
#pragma omp for schedule(static) nowait
  for (int i = 0; i < N; i++)
    c[i] += 1.0;
}

static void loop_ordered(void) { /* @ordered */
#pragma omp for ordered schedule(static, 1)
  for (int i = 0; i < 8; i++) {
#pragma omp ordered
    a[i] += 1.0;
  }
}

static void team(void) { /* @par */
#pragma omp parallel num_threads(2)
  {
    loop_static();
    loop_dynamic();
    loop_guided();
    loop_dynamic_nowait();
    loop_static_nowait();
    loop_ordered();
  }
}

static double combined(void) {
  double s = 0.0;
#pragma omp parallel for num_threads(2) schedule(dynamic, 10) reduction(+ : s) /* @par_for */
  for (int i = 0; i < N; i++)
    s += a[i] + b[i] + c[i];
  return s;
}

int main(void) {
  team();
  printf("gcc_loops %.1f\n", combined());
  return 0;
}
