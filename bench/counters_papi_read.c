/* Cost of the PAPI read call itself: event sets of 1, 2 and 4 SDE
 * counters on one thread, variants interleaved round by round. */
#include "counters_bench.h"

#include <papi.h>
#include <pthread.h>
#include <stdio.h>

#define READS 200000

/* As in the recorder: thread support on, so PAPI looks the thread up. */
static unsigned long thread_id(void) {
  return (unsigned long)pthread_self();
}

void ot_cb_papi_read(int rounds) {
  static const int sizes[] = {1, 2, 4};
  enum { NS = sizeof sizes / sizeof sizes[0] };
  int es[NS];
  if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT ||
      PAPI_thread_init(thread_id) != PAPI_OK) {
    printf("PAPI initialisation failed: no read figures\n");
    return;
  }
  for (int s = 0; s < NS; s++) {
    es[s] = PAPI_NULL;
    PAPI_create_eventset(&es[s]);
    for (int i = 0; i < sizes[s]; i++) {
      char name[64];
      snprintf(name, sizeof name, "sde:::Bench::b%d", i);
      int rc = PAPI_add_named_event(es[s], name);
      if (rc != PAPI_OK) {
        printf("%s: %s: no read figures\n", name, PAPI_strerror(rc));
        return;
      }
    }
  }
  double rd[NS][64], ts[NS][64];
  long long v[OT_CB_MAX_COUNTERS], cyc;
  if (rounds > 64)
    rounds = 64;
  for (int r = 0; r < rounds; r++)
    for (int k = 0; k < NS; k++) {
      int s = (k + r) % NS; /* rotate the order round by round */
      /* PAPI runs one event set per component and thread at a time. */
      PAPI_start(es[s]);
      double t0 = ot_cb_now_ns();
      for (int i = 0; i < READS; i++)
        PAPI_read(es[s], v);
      double t1 = ot_cb_now_ns();
      for (int i = 0; i < READS; i++)
        PAPI_read_ts(es[s], v, &cyc);
      double t2 = ot_cb_now_ns();
      PAPI_stop(es[s], v);
      rd[s][r] = (t1 - t0) / READS;
      ts[s][r] = (t2 - t1) / READS;
    }
  printf("PAPI read call, SDE counters, one thread, CPU time (median of %d interleaved rounds):\n",
         rounds);
  printf("  %-9s %12s %14s\n", "counters", "PAPI_read ns", "PAPI_read_ts ns");
  for (int s = 0; s < NS; s++)
    printf("  %-9d %12.1f %14.1f\n", sizes[s], ot_cb_median(rd[s], rounds),
           ot_cb_median(ts[s], rounds));
  for (int s = 0; s < NS; s++) {
    PAPI_cleanup_eventset(es[s]);
    PAPI_destroy_eventset(&es[s]);
  }
  PAPI_shutdown();
}
