/* Counters registered at the top of main (as in sde_late.c), then three
 * initial threads at once: main and two application threads each begin
 * their first parallel region concurrently, so their deferred counter
 * starts (and the one completion of the counter set) race. The barrier
 * holds every thread until all three are known to the runtime (clang
 * calls into it at the entry of team() and main()), so all three wait for
 * the counter set. Every thread must record the same, exact counters.
 *
 * Counter "units" of library "Omplate": thread-local total (INSTANT).
 * The markers (OWN, TOTAL) are those of sde_regions.c. */
#include <omp.h>
#include <papi.h>
#include <pthread.h>
#include <sde_lib.h>

#include "sde_units.h"

static pthread_barrier_t all_known;

static void *team(void *arg) {
  (void)arg;
  /* Before this thread's region: only in its total. */
  bump(7);
  pthread_barrier_wait(&all_known);
#pragma omp parallel num_threads(2) /* OWN parallel: 100 * (r + 1) */
  bump(100 * (omp_get_thread_num() + 1));
  return NULL;
}

int main(void) {
  papi_handle_t h = papi_sde_init("Omplate");
  papi_sde_register_counter_cb(h, "units", PAPI_SDE_RO | PAPI_SDE_INSTANT, PAPI_SDE_long_long,
                               read_units, NULL);
  pthread_t th[2];
  pthread_barrier_init(&all_known, NULL, 3);
  for (int i = 0; i < 2; i++)
    if (pthread_create(&th[i], NULL, team, NULL) != 0)
      return 1;
  pthread_barrier_wait(&all_known);
#pragma omp parallel num_threads(2) /* OWN parallel: 10 * (r + 1) */
  bump(10 * (omp_get_thread_num() + 1));
  for (int i = 0; i < 2; i++)
    pthread_join(th[i], NULL);
  /* TOTAL: 644 (2 * 7 + 2 * (100 + 200) + 10 + 20) */
  return 0;
}
