/* Memory and start-up cost at scale (docs/performance.md, "Many threads"):
 *   ot_scale threads N R  R parallel regions of N threads; prints the time from
 *                         the master's fork to the first worker's implicit
 *                         task of the first region (threads created) and the
 *                         median of the later ones (threads reused), and
 *                         the time of all regions (thread start included)
 *   ot_scale tasks N      N tiny tasks created by one thread of two
 *   ot_scale fib N        BOTS-style fib(N): two untied tasks and a taskwait
 *                         per call above the leaves (fixed work, deep nesting)
 *   ot_scale health L S   BOTS-style health: a village tree L levels deep, S
 *                         time steps, a task per village and step (health.c)
 * Peak memory comes from /usr/bin/time -v around it (bench/scale.sh). */
#include "health.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void threads(int n, int regions) {
  double *first = calloc((size_t)regions, sizeof *first);
  double *start = calloc((size_t)n, sizeof *start);
  volatile double sink = 0;
  double all0 = omp_get_wtime();
  for (int r = 0; r < regions; r++) {
    double t0 = omp_get_wtime();
#pragma omp parallel num_threads(n)
    {
      start[omp_get_thread_num()] = omp_get_wtime();
      double x = 0;
      for (int i = 0; i < 20000; i++)
        x += i * 0.5;
      sink += x * 0; /* racy on purpose: only keeps the loop */
    }
    double m = 1e30;
    for (int i = 1; i < n; i++)
      if (start[i] < m)
        m = start[i];
    first[r] = m - t0;
  }
  double all = omp_get_wtime() - all0;
  double f0 = first[0];
  qsort(first + 1, (size_t)regions - 1, sizeof *first, cmp);
  printf("threads %d regions %d: first worker starts %.1f us after the fork (first region), "
         "%.1f us (median of the others); regions: %.3f s\n",
         n, regions, f0 * 1e6, first[1 + (regions - 1) / 2] * 1e6, all);
  free(first);
  free(start);
}

static void tasks(long n) {
  long done = 0;
  double t0 = omp_get_wtime();
#pragma omp parallel num_threads(2)
#pragma omp single
  for (long i = 0; i < n; i++) {
#pragma omp task shared(done)
    {
#pragma omp atomic
      done++;
    }
  }
  printf("tasks %ld: %.3f s\n", done, omp_get_wtime() - t0);
}

static long fib(int n) {
  long x, y;
  if (n < 2)
    return n;
#pragma omp task untied shared(x) firstprivate(n)
  x = fib(n - 1);
#pragma omp task untied shared(y) firstprivate(n)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

static void fib_run(int n) {
  long r = 0;
  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  r = fib(n);
  printf("fib %d = %ld: %.3f s\n", n, r, omp_get_wtime() - t0);
}

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "threads") == 0) {
    threads(atoi(argv[2]), argc > 3 ? atoi(argv[3]) : 5);
    return 0;
  }
  if (argc >= 3 && strcmp(argv[1], "tasks") == 0) {
    tasks(atol(argv[2]));
    return 0;
  }
  if (argc >= 3 && strcmp(argv[1], "fib") == 0) {
    fib_run(atoi(argv[2]));
    return 0;
  }
  if (argc >= 4 && strcmp(argv[1], "health") == 0) {
    health_run(atoi(argv[2]), atoi(argv[3]));
    return 0;
  }
  fprintf(stderr, "usage: %s threads N [REGIONS] | tasks N | fib N | health LEVELS STEPS\n",
          argv[0]);
  return 2;
}
