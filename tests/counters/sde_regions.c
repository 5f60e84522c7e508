/* Counter test program: a software-defined counter (PAPI SDE) that each
 * thread increments by known amounts inside known OpenMP regions.
 *
 * The counter is thread-aware: PAPI's SDE component reads a counter by
 * calling the library's callback on the reading thread, and libsde keeps
 * one start value per counter for the whole process. A callback that
 * returns a thread-local total, registered as PAPI_SDE_INSTANT, therefore
 * gives every thread exactly its own increments, so the metric delta
 * across any region instance equals what that thread added inside it.
 *
 * Counters of library "Omptest":
 *   units     thread-local total (INSTANT)
 *   units_x3  3 * units, registered as DELTA (PAPI subtracts a start value)
 *   c00..c49  (i + 1) * units (INSTANT), for the many-counters case
 *
 * The "OWN <construct>: <expr>" comments give, per construct (on the
 * pragma line or on a comment line right above it), what
 * the thread of team rank r adds directly inside that region (outside
 * nested regions); tests/counters/check_counters.py reads them. */
#include <omp.h>
#include <papi.h>
#include <sde_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sde_units.h"
static long long read_scaled(void *p) {
  return (long long)(size_t)p * units;
}

/* A constructor: clang may call into the OpenMP runtime (and so start
 * the tool, which validates counter names) at the entry of any function
 * that contains a parallel region, main included once phases inline. */
__attribute__((constructor(101))) static void register_counters(void) {
  static char names[50][8];
  papi_handle_t h = papi_sde_init("Omptest");
  papi_sde_register_counter_cb(h, "units", PAPI_SDE_RO | PAPI_SDE_INSTANT, PAPI_SDE_long_long,
                               read_units, NULL);
  papi_sde_register_counter_cb(h, "units_x3", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long,
                               read_units_x3, NULL);
  for (int i = 0; i < 50; i++) {
    snprintf(names[i], sizeof names[i], "c%02d", i);
    papi_sde_register_counter_cb(h, names[i], PAPI_SDE_RO | PAPI_SDE_INSTANT, PAPI_SDE_long_long,
                                 read_scaled, (void *)(size_t)(i + 1));
  }
}

/* With OMPTEST_BUSY_PAPI=1 the program runs a PAPI event set of its own
 * on the initial thread, as an application using PAPI directly would.
 * PAPI runs one event set per component and thread, so the tool cannot
 * start its counters on that thread. */
__attribute__((constructor(102))) static void busy_papi(void) {
  const char *e = getenv("OMPTEST_BUSY_PAPI");
  if (!e || strcmp(e, "1") != 0)
    return;
  int es = PAPI_NULL;
  if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT ||
      PAPI_create_eventset(&es) != PAPI_OK ||
      PAPI_add_named_event(es, "sde:::Omptest::units") != PAPI_OK || PAPI_start(es) != PAPI_OK)
    fprintf(stderr, "sde_regions: cannot start the program's own event set\n");
}

/* Work-sharing, barrier, single with tasks. */
static void phase_a(void) {
#pragma omp parallel num_threads(2) /* OWN parallel: 10 * (r + 1) */
  {
    int r = omp_get_thread_num();
    bump(10 * (r + 1));
#pragma omp for schedule(static) /* OWN loop: 10 if r == 0 else 26 */
    for (int i = 0; i < 8; i++)
      bump(i + 1);
#pragma omp barrier
#pragma omp single /* OWN single sblock: 7 */
    {
      bump(7);
      for (int k = 0; k < 4; k++) {
#pragma omp task firstprivate(k) /* TASK: 100 + k for k in range(4) */
        bump(100 + k);
      }
    }
#pragma omp masked /* OWN masked: 5 */
    bump(5);
  }
}

/* Tasks created on every thread, taskwait. */
static void phase_b(void) {
#pragma omp parallel num_threads(2) /* OWN parallel: 3 */
  {
    int r = omp_get_thread_num();
    for (int k = 0; k < 2; k++) {
      /* TASK: 200 + 10 * r + k for r in range(2) for k in range(2) */
#pragma omp task firstprivate(k, r)
      bump(200 + 10 * r + k);
    }
#pragma omp taskwait
    bump(3);
  }
}

/* Combined parallel loop with chunked static schedule. */
static void phase_c(void) {
  /* OWN loop: 9000 if r == 0 else 12000 */
#pragma omp parallel for num_threads(2) schedule(static, 1)
  for (int i = 0; i < 6; i++)
    bump(1000 * (i + 1));
}

int main(void) {
  phase_a();
  bump(1000000); /* serial: in no region, only in the thread's total */
  phase_b();
  phase_c();
  /* TOTAL: 1022312 (sum of every bump above, all threads) */
  return 0;
}
