/* Counter test program that registers its SDE counters at the top of
 * main, in the same function as its parallel regions (a common pattern).
 * clang calls into the OpenMP runtime at the entry of such a function,
 * so omptrace starts, and first resolves the names, before the counters
 * exist; it must resolve them again at the first parallel region and
 * then record them exactly on every thread.
 *
 * Counters of library "Omplate" (see sde_regions.c for why a callback
 * returning a thread-local total gives each thread its own increments):
 *   units     thread-local total (INSTANT)
 *   units_x3  3 * units (INSTANT too: libsde keeps one start value per
 *             DELTA counter for the whole process, and the initial thread
 *             starts its counters here with units already at 5)
 * "never" is not registered at all.
 *
 * The markers (OWN, TASK, TOTAL) are those of sde_regions.c, read by
 * check_counters.py. With OMPTEST_SERIAL=1 no parallel region runs. */
#include <omp.h>
#include <papi.h>
#include <sde_lib.h>
#include <stdlib.h>
#include <string.h>

#include "sde_units.h"

int main(void) {
  papi_handle_t h = papi_sde_init("Omplate");
  papi_sde_register_counter_cb(h, "units", PAPI_SDE_RO | PAPI_SDE_INSTANT, PAPI_SDE_long_long,
                               read_units, NULL);
  papi_sde_register_counter_cb(h, "units_x3", PAPI_SDE_RO | PAPI_SDE_INSTANT, PAPI_SDE_long_long,
                               read_units_x3, NULL);
  const char *serial = getenv("OMPTEST_SERIAL");
  bump(5); /* serial, before the first region: only in the initial thread's total */
  if (serial && strcmp(serial, "1") == 0) {
    return 0;
  }

  /* Four threads: three workers start their counters concurrently. */
#pragma omp parallel num_threads(4) /* OWN parallel: 10 * (r + 1) */
  {
    int r = omp_get_thread_num();
    bump(10 * (r + 1));
#pragma omp for schedule(static) /* OWN loop: 4 * r + 3 */
    for (int i = 0; i < 8; i++)
      bump(i + 1);
#pragma omp single /* OWN single sblock: 7 */
    {
      bump(7);
      for (int k = 0; k < 3; k++) {
#pragma omp task firstprivate(k) /* TASK: 100 + k for k in range(3) */
        bump(100 + k);
      }
    }
#pragma omp masked /* OWN masked: 5 */
    bump(5);
  }

  bump(1000); /* serial: in no region */
  /* OWN loop: 9000 if r == 0 else 12000 */
#pragma omp parallel for num_threads(2) schedule(static, 1)
  for (int i = 0; i < 6; i++)
    bump(1000 * (i + 1));
  /* TOTAL: 22456 (sum of every bump above, all threads) */
  return 0;
}
