/* Bundled example for the quick start: a small 2-D heat diffusion solver
 * with the OpenMP patterns omptrace is meant to explain — a stencil loop,
 * a triangular (imbalanced) loop, a lock-protected histogram, a critical
 * section, tasks and a serial phase.
 *
 *   clang -fopenmp -g -O2 heat.c -o heat -lm
 *   OMP_TOOL_LIBRARIES=libomptrace.so ./heat [n] [steps]
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double *grid, *next;
static int n = 512;

static void sweep(void) {
#pragma omp parallel for schedule(static)
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      next[i * n + j] = 0.25 * (grid[(i - 1) * n + j] + grid[(i + 1) * n + j] +
                                grid[i * n + j - 1] + grid[i * n + j + 1]);
  double *t = grid;
  grid = next;
  next = t;
}

/* Triangular work: later rows cost more, so a static schedule leaves the
 * first threads waiting in the implicit barrier. */
static double smooth_triangle(void) {
  double total = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : total)
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i * 4; j++)
      total += sin(grid[(i % n) * n + j % n] + j);
  return total;
}

static void histogram(long counts[16]) {
  omp_lock_t lock;
  omp_init_lock(&lock);
#pragma omp parallel for schedule(dynamic, 16)
  for (int i = 0; i < n * n; i += 61) {
    int bin = (int)(grid[i] * 16.0) & 15;
    omp_set_lock(&lock);
    counts[bin]++;
    omp_unset_lock(&lock);
  }
  omp_destroy_lock(&lock);
}

static double edge_sum(int row) {
  double s = 0.0;
  for (int j = 0; j < n; j++)
    s += grid[row * n + j];
  return s;
}

static double boundaries(void) {
  double top = 0.0, bottom = 0.0, maxv = 0.0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task shared(top)
    top = edge_sum(0);
#pragma omp task shared(bottom)
    bottom = edge_sum(n - 1);
#pragma omp taskwait
  }
#pragma omp parallel
  {
    double local = 0.0;
#pragma omp for nowait
    for (int i = 0; i < n * n; i++)
      local = fmax(local, grid[i]);
#pragma omp critical
    maxv = fmax(maxv, local);
  }
  return top + bottom + maxv;
}

static void serial_setup(void) {
  for (int i = 0; i < n * n; i++)
    grid[i] = next[i] = (i % n == 0) ? 1.0 : 0.0;
}

int main(int argc, char **argv) {
  int steps = 100;
  if (argc > 1)
    n = atoi(argv[1]);
  if (argc > 2)
    steps = atoi(argv[2]);
  if (n < 16 || steps < 1) {
    fprintf(stderr, "usage: heat [n>=16] [steps>=1]\n");
    return 2;
  }
  grid = calloc((size_t)n * n, sizeof *grid);
  next = calloc((size_t)n * n, sizeof *next);
  if (!grid || !next)
    return 1;
  serial_setup();
  double check = 0.0;
  long counts[16] = {0};
  for (int s = 0; s < steps; s++) {
    sweep();
    if (s % 5 == 0) {
      check += smooth_triangle();
      histogram(counts);
      check += boundaries();
    }
  }
  printf("heat: n=%d steps=%d threads=%d check=%.6f bin0=%ld\n", n, steps, omp_get_max_threads(),
         check, counts[0]);
  free(grid);
  free(next);
  return 0;
}
