/* ot_sampling_app: the workload of the sampling benchmark. `tiny` times
 * empty 2-thread parallel regions (the worst case for lazy context
 * capture: nearly every sample falls into a region of its own), `work`
 * times regions of about 1 ms of computation per thread. Prints one line
 * of key=value pairs: the median time per region over the timed blocks. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

__attribute__((noinline)) static double compute(long n) {
  double x = 1;
  for (long i = 0; i < n; i++)
    x = x * 0.999999 + 1e-9;
  return x;
}

static volatile double sink;

static void tiny_block(int regions) {
  for (int r = 0; r < regions; r++) {
#pragma omp parallel num_threads(2)
    {
      if (omp_get_thread_num() == 0)
        sink = r;
    }
  }
}

static void work_block(int regions, long iters) {
  for (int r = 0; r < regions; r++) {
#pragma omp parallel num_threads(2)
    sink = compute(iters);
  }
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "tiny";
  int blocks = 11, regions;
  long iters = 400000; /* about 1 ms at -O2 on the reference VM */
  int tiny = strcmp(mode, "tiny") == 0;
  if (!tiny && strcmp(mode, "work") != 0) {
    fprintf(stderr, "usage: ot_sampling_app tiny|work\n");
    return 2;
  }
  regions = tiny ? 20000 : 40;
  double t[64];
  for (int b = -1; b < blocks; b++) { /* block -1 warms up */
    double t0 = now_ns();
    if (tiny)
      tiny_block(regions);
    else
      work_block(regions, iters);
    if (b >= 0)
      t[b] = (now_ns() - t0) / regions;
  }
  qsort(t, (size_t)blocks, sizeof t[0], cmp);
  printf("mode=%s regions=%d median_ns=%.1f min_ns=%.1f\n", mode, regions * blocks, t[blocks / 2],
         t[0]);
  return 0;
}
