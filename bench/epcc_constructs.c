/* The construct kernels. Bodies hold a short fixed delay (as EPCC's
 * delay()) so lock and critical measure a held mutex, not only the hand-off;
 * the parallel kernel keeps an empty body so a region stays near 1 us. */
#include "epcc_constructs.h"

#include <omp.h>
#include <string.h>

/* A few nanoseconds of work the compiler cannot remove. */
static void delay(int n) {
  for (int i = 0; i < n; i++)
    __asm__ volatile("" ::: "memory");
}

#define BODY 16       /* delay() iterations inside a construct body */
#define BODY_1US 3000 /* delay() iterations, ~0.7 us */

static void run_parallel(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
#pragma omp parallel num_threads(OT_BENCH_THREADS)
    __asm__ volatile("" ::: "memory");
  }
}

/* The same region with ~0.7 us of work per thread: about 1 us in all
 * without a tool, the size the overhead target is stated for. */
static void run_parallel_1us(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
#pragma omp parallel num_threads(OT_BENCH_THREADS)
    delay(BODY_1US);
  }
}

static void run_barrier(uint64_t n) {
#pragma omp parallel num_threads(OT_BENCH_THREADS)
  for (uint64_t i = 0; i < n; i++) {
    delay(BODY);
#pragma omp barrier
  }
}

static void run_for_static(uint64_t n) {
#pragma omp parallel num_threads(OT_BENCH_THREADS)
  for (uint64_t i = 0; i < n; i++) {
#pragma omp for schedule(static)
    for (int j = 0; j < OT_BENCH_THREADS; j++)
      delay(BODY);
  }
}

static void run_for_dynamic(uint64_t n) {
#pragma omp parallel num_threads(OT_BENCH_THREADS)
  for (uint64_t i = 0; i < n; i++) {
#pragma omp for schedule(dynamic, 1)
    for (int j = 0; j < 4 * OT_BENCH_THREADS; j++)
      delay(BODY);
  }
}

/* EPCC's PARALLEL FOR: a combined construct per instance, one iteration
 * per thread. */
static void run_parallel_for(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
#pragma omp parallel for num_threads(OT_BENCH_THREADS) schedule(static)
    for (int j = 0; j < OT_BENCH_THREADS; j++)
      delay(BODY);
  }
}

/* EPCC's REDUCTION: a region with a reduction clause per instance. */
static volatile int reduction_sink;
static void run_reduction(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
    int s = 0;
#pragma omp parallel num_threads(OT_BENCH_THREADS) reduction(+ : s)
    {
      delay(BODY);
      s += 1;
    }
    reduction_sink = s;
  }
}

/* Every thread creates its share of the tasks; the region's end barrier
 * runs what is left. */
static void run_task(uint64_t n) {
#pragma omp parallel num_threads(OT_BENCH_THREADS)
  {
    uint64_t t = (uint64_t)omp_get_thread_num();
    uint64_t mine = n / OT_BENCH_THREADS + (t < n % OT_BENCH_THREADS);
    for (uint64_t i = 0; i < mine; i++) {
#pragma omp task
      delay(BODY);
    }
  }
}

/* Lock and critical, uncontended: each thread uses a mutex of its own.
 * With one shared mutex the time per instance switches between two modes
 * (about 50 and 175 ns here, one thread re-acquiring or the two taking
 * turns) from process to process, which hides a tool's cost; what a tool
 * adds per mutex event does not depend on contention. */
static void run_lock(uint64_t n) {
  omp_lock_t locks[OT_BENCH_THREADS];
  for (int t = 0; t < OT_BENCH_THREADS; t++)
    omp_init_lock(&locks[t]);
#pragma omp parallel num_threads(OT_BENCH_THREADS)
  {
    omp_lock_t *mine = &locks[omp_get_thread_num()];
    for (uint64_t i = 0; i < n; i++) {
      omp_set_lock(mine);
      delay(BODY);
      omp_unset_lock(mine);
    }
  }
  for (int t = 0; t < OT_BENCH_THREADS; t++)
    omp_destroy_lock(&locks[t]);
}

static void run_critical(uint64_t n) {
#pragma omp parallel num_threads(OT_BENCH_THREADS)
  {
    int even = omp_get_thread_num() % 2 == 0;
    for (uint64_t i = 0; i < n; i++) {
      if (even) {
#pragma omp critical(ot_bench_even)
        delay(BODY);
      } else {
#pragma omp critical(ot_bench_odd)
        delay(BODY);
      }
    }
  }
}

/* EPCC's ORDERED: one loop whose iterations (static, 1: the threads take
 * turns) each run an ordered block; an instance is one iteration. */
static void run_ordered(uint64_t n) {
#pragma omp parallel num_threads(OT_BENCH_THREADS)
  {
#pragma omp for ordered schedule(static, 1)
    for (uint64_t i = 0; i < n; i++) {
#pragma omp ordered
      delay(BODY);
    }
  }
}

/* Coarse-grained work (~70 us per region): what most applications look
 * like; the tool's overhead should vanish here. */
static volatile double work_sink;
static void run_work(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
    double s = 0;
#pragma omp parallel for num_threads(OT_BENCH_THREADS) schedule(static) reduction(+ : s)
    for (int j = 0; j < 200000; j++)
      s += (double)(j & 1023) * 1e-3;
    work_sink = s;
  }
}

const ot_bench_construct ot_bench_constructs[] = {
    {"parallel", "empty parallel region (fork, 2 implicit tasks, end barrier, join)", 6000,
     run_parallel},
    {"parallel_1us", "parallel region with ~0.7 us of work per thread (~1 us in all)", 3000,
     run_parallel_1us},
    {"parallel_for", "combined parallel for, 1 iteration per thread", 6000, run_parallel_for},
    {"reduction", "parallel region with reduction(+), as EPCC's REDUCTION", 6000, run_reduction},
    {"barrier", "explicit barrier inside one region", 12000, run_barrier},
    {"for_static", "worksharing loop, schedule(static), 1 iteration per thread", 10000,
     run_for_static},
    {"for_dynamic", "worksharing loop, schedule(dynamic,1), 4 iterations per thread", 1500,
     run_for_dynamic},
    {"task", "explicit task with a tiny body, created by both threads", 60000, run_task},
    {"lock", "omp_set_lock/omp_unset_lock, each thread on its own lock", 100000, run_lock},
    {"critical", "named critical, a different name per thread", 60000, run_critical},
    {"ordered", "ordered loop, schedule(static,1): one ordered block per iteration", 15000,
     run_ordered},
    {"work", "parallel for over 200k iterations (~70 us of work)", 60, run_work},
};
const size_t ot_bench_construct_count = sizeof ot_bench_constructs / sizeof ot_bench_constructs[0];

const ot_bench_construct *ot_bench_find(const char *name) {
  for (size_t i = 0; i < ot_bench_construct_count; i++)
    if (strcmp(ot_bench_constructs[i].name, name) == 0)
      return &ot_bench_constructs[i];
  return NULL;
}
