/* ot_epcc: times one construct per process and prints one line of
 * key=value pairs for bench/run.sh. The process runs a warm-up block, then
 * `blocks` timed blocks of the same size and reports the median and the
 * best (minimum) time per instance over the blocks: on a loaded machine the
 * best block is the one where both threads kept their CPU. `end_ns`
 * (CLOCK_MONOTONIC, taken as main returns) lets the caller measure what
 * happens after main: the tool's finalize. */
#include "epcc_constructs.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void usage(FILE *out) {
  fprintf(out, "usage: ot_epcc [--blocks N] [--scale F] CONSTRUCT | --list\n");
}

int main(int argc, char **argv) {
  int blocks = 21;
  double scale = 1.0;
  const char *name = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--list") == 0) {
      for (size_t k = 0; k < ot_bench_construct_count; k++)
        printf("%-12s %s\n", ot_bench_constructs[k].name, ot_bench_constructs[k].what);
      return 0;
    } else if (strcmp(argv[i], "--blocks") == 0 && i + 1 < argc) {
      blocks = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--scale") == 0 && i + 1 < argc) {
      scale = atof(argv[++i]);
    } else if (argv[i][0] != '-' && !name) {
      name = argv[i];
    } else {
      usage(stderr);
      return 2;
    }
  }
  const ot_bench_construct *c = name ? ot_bench_find(name) : NULL;
  if (!c || blocks < 1 || blocks > 1000 || !(scale > 0)) {
    if (name && !c)
      fprintf(stderr, "ot_epcc: unknown construct '%s' (see --list)\n", name);
    usage(stderr);
    return 2;
  }
  uint64_t n = (uint64_t)((double)c->instances * scale);
  if (n < 1)
    n = 1;

  double per[1000];
  uint64_t t_start = now_ns();
  c->run(n); /* warm-up: thread creation, tool start, first-touch of buffers */
  for (int b = 0; b < blocks; b++) {
    uint64_t t0 = now_ns();
    c->run(n);
    per[b] = (double)(now_ns() - t0) / (double)n;
  }
  uint64_t t_end = now_ns();
  double sorted[1000];
  memcpy(sorted, per, sizeof(double) * (size_t)blocks);
  qsort(sorted, (size_t)blocks, sizeof(double), cmp_double);
  double med =
      blocks % 2 ? sorted[blocks / 2] : 0.5 * (sorted[blocks / 2 - 1] + sorted[blocks / 2]);
  printf("construct=%s threads=%d instances=%llu median_ns=%.2f min_ns=%.2f run_ms=%.1f "
         "end_ns=%llu\n",
         c->name, OT_BENCH_THREADS, (unsigned long long)n * (unsigned long long)(blocks + 1), med,
         sorted[0], (double)(t_end - t_start) / 1e6, (unsigned long long)now_ns());
  fflush(stdout);
  return 0;
}
