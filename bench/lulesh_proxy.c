/* ot_lulesh_proxy: LULESH 2.0's shape without its physics, for the sampling
 * benchmark: each time step runs a dozen short `parallel for` loops (tens of
 * microseconds each on a -s 20 sized mesh) at the bottom of a call chain
 * about ten functions deep, as LULESH's LagrangeLeapFrog does.
 *
 *   ot_lulesh_proxy [-s SIZE] [-i STEPS]   (defaults: -s 20 -i 400)
 *
 * Prints one line: steps, regions, elapsed seconds and a checksum. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long n; /* elements: size^3 */
static double *x, *y, *z, *e, *p, *q, *v, *f;
static long regions;

#define NOINLINE __attribute__((noinline))

/* One short region: a stencil-free update over every element, with a few
 * flops per element like LULESH's per-element kernels. */
NOINLINE static void kernel(double *out, const double *a, const double *b, double c) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++) {
    double t = a[i] * c + b[i];
    out[i] = t / (1.0 + t * t) + 0.5 * out[i];
  }
  regions++;
}

NOINLINE static void integrate_stress(double dt) {
  kernel(f, x, p, dt);
  kernel(f, y, q, dt);
  kernel(f, z, p, dt);
}
NOINLINE static void hourglass(double dt) {
  kernel(f, v, x, dt);
  kernel(f, v, y, dt);
}
NOINLINE static void calc_force(double dt) {
  integrate_stress(dt);
  hourglass(dt);
}
NOINLINE static void calc_position(double dt) {
  kernel(x, f, x, dt);
  kernel(y, f, y, dt);
  kernel(z, f, z, dt);
}
NOINLINE static void lagrange_nodal(double dt) {
  calc_force(dt);
  calc_position(dt);
}
NOINLINE static void eos(double dt) {
  kernel(p, e, q, dt);
  kernel(q, p, v, dt);
}
NOINLINE static void material(double dt) {
  eos(dt);
  kernel(e, p, q, dt);
}
NOINLINE static void lagrange_elements(double dt) {
  kernel(v, x, y, dt);
  material(dt);
}
NOINLINE static void leapfrog(double dt) {
  lagrange_nodal(dt);
  lagrange_elements(dt);
}
NOINLINE static double time_increment(int step) {
  return 1e-3 / (1.0 + step * 1e-4);
}
NOINLINE static void run(int steps) {
  for (int s = 0; s < steps; s++)
    leapfrog(time_increment(s));
}

static double *field(double init) {
  double *a = malloc(sizeof(double) * (size_t)n);
  if (!a) {
    perror("malloc");
    exit(1);
  }
  for (long i = 0; i < n; i++)
    a[i] = init + (double)(i % 97) * 1e-3;
  return a;
}

int main(int argc, char **argv) {
  long size = 20;
  int steps = 400;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-s") && i + 1 < argc)
      size = atol(argv[++i]);
    else if (!strcmp(argv[i], "-i") && i + 1 < argc)
      steps = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: ot_lulesh_proxy [-s SIZE] [-i STEPS]\n");
      return 2;
    }
  }
  if (size < 1 || size > 400 || steps < 1) {
    fprintf(stderr, "ot_lulesh_proxy: -s must be 1..400 and -i at least 1\n");
    return 2;
  }
  n = size * size * size;
  x = field(1), y = field(2), z = field(3), e = field(4);
  p = field(5), q = field(6), v = field(7), f = field(0);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  run(steps);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sum = 0;
  for (long i = 0; i < n; i++)
    sum += x[i] + e[i];
  printf("steps=%d regions=%ld elapsed_s=%.3f checksum=%.6g\n", steps, regions,
         (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec), sum);
  return 0;
}
