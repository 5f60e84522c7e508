/* Workloads and SDE counters for ot_counters_bench. The counters are
 * thread-local totals (see tests/counters/sde_regions.c), registered in a
 * constructor so they exist before the OpenMP runtime starts the tool. */
#include "counters_bench.h"

#include <omp.h>
#include <papi.h>
#include <sde_lib.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static __thread long long work_units;

static long long read_units(void *p) {
  return (long long)(size_t)p * work_units;
}

__attribute__((constructor)) static void register_counters(void) {
  static const char *names[OT_CB_MAX_COUNTERS] = {"b0", "b1", "b2", "b3"};
  papi_handle_t h = papi_sde_init("Bench");
  for (size_t i = 0; i < OT_CB_MAX_COUNTERS; i++)
    papi_sde_register_counter_cb(h, names[i], PAPI_SDE_RO | PAPI_SDE_INSTANT, PAPI_SDE_long_long,
                                 read_units, (void *)(i + 1));
}

/* CPU time of the calling thread: on a shared, loaded machine wall time
 * also counts the time the thread was descheduled. */
double ot_cb_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Team size from OMP_NUM_THREADS (the driver uses 1: on a loaded 2-core
 * machine a waiting thread is descheduled and hides the per-record cost).
 * Explicit barriers: 4 records per thread each (sync and wait, begin and
 * end), all in the default OMPTRACE_METRICS_ON groups. */
static double barriers(long iters) {
  double t0 = 0, t1 = 0;
#pragma omp parallel
  {
#pragma omp barrier
#pragma omp masked
    t0 = ot_cb_now_ns();
    for (long i = 0; i < iters; i++) {
      work_units++;
#pragma omp barrier
    }
#pragma omp masked
    t1 = ot_cb_now_ns();
  }
  return (t1 - t0) / (double)iters;
}

/* Critical sections: 3 mutex records per thread each; not in the default
 * groups, so they show what adding "mutex" costs. */
static double criticals(long iters) {
  double t0 = 0, t1 = 0;
  long shared = 0;
#pragma omp parallel
  {
#pragma omp barrier
#pragma omp masked
    t0 = ot_cb_now_ns();
    for (long i = 0; i < iters; i++) {
#pragma omp critical
      shared++;
    }
#pragma omp barrier
#pragma omp masked
    t1 = ot_cb_now_ns();
  }
  return (t1 - t0) / (double)iters;
}

int ot_cb_child(const char *workload, long iters) {
  double ns;
  if (workload[0] == 'b')
    ns = barriers(iters);
  else if (workload[0] == 'c')
    ns = criticals(iters);
  else
    return 2;
  printf("%.3f\n", ns);
  return 0;
}
