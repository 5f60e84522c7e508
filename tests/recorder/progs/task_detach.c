/* Detached tasks: one whose event is fulfilled after its body ended (late
 * fulfill) and one that fulfills its own event (early). Both are if(0), so
 * the creating thread runs them at once and the order is exact; a team of
 * two because libomp 14 asserts at the end of a team of one after detach. */
#include "common.h"
#include <omp.h>
#include <stdio.h>

static double sum;

int main(void) {
#pragma omp parallel num_threads(2) /* @par */
#pragma omp single                  /* @single */
  {
    omp_event_handle_t late, early;
#pragma omp task detach(late) if (0) /* @late */
    sum += ot_work(1000);
    omp_fulfill_event(late);          /* the body has ended: late fulfill */
#pragma omp task detach(early) if (0) /* @early */
    {
      sum += ot_work(1000);
      omp_fulfill_event(early);
    }
#pragma omp taskwait /* @wait */
  }
  printf("task_detach %.1f\n", sum);
  return 0;
}
