/* Constructs for the filter-file tests (tests/recorder/filter_tests.py):
 * two threads, ROUNDS rounds of a barrier, a loop, a critical section
 * holding a flush, a lock and a single; then a barrier and a masked
 * region in helper() and a barrier in another source file. With
 * "decided", a flush and a barrier after the first round. */
#include "common.h"

#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#define ROUNDS 6

void lib_step(void); /* filtered_lib.c */

static omp_lock_t lock;
static double total;

static void helper(void) {
#pragma omp barrier /* @helper_barrier */
#pragma omp masked  /* @helper_masked */
  total += ot_work(100);
}

int main(int argc, char **argv) {
  /* decided: every key is decided after the first round (the flush's
   * pass decides them), so later rounds are dropped while recording */
  int decided = argc > 1 && !strcmp(argv[1], "decided");
  omp_init_lock(&lock);
#pragma omp parallel num_threads(2) /* @parallel */
  {
    double mine = 0.0;
    for (int r = 0; r < ROUNDS; r++) {
#pragma omp barrier /* @barrier */
#pragma omp for     /* @loop */
      for (int i = 0; i < 8; i++)
        mine += ot_work(100 + i);
#pragma omp critical /* @critical */
      {
        total += mine;
#pragma omp flush /* @flush */
      }
      omp_set_lock(&lock); /* @lock */
      total += 1.0;
      omp_unset_lock(&lock);
#pragma omp single /* @single */
      total += 1.0;
      if (decided && r == 0) {
        omp_control_tool(omp_control_tool_flush, 0, NULL);
#pragma omp barrier /* @decided_barrier */
      }
    }
    helper();
    lib_step();
  }
  omp_destroy_lock(&lock);
  printf("total %.1f\n", total);
  if (argc > 1 && !strcmp(argv[1], "kill")) { /* a crash after everything is in the log */
    fflush(stdout);
    omp_control_tool(omp_control_tool_flush, 0, NULL);
    raise(SIGKILL);
  }
  return 0;
}
