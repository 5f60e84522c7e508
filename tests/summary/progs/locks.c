/* Two threads take one lock 5 times each and hold it 2 ms; then enter a
 * critical section 4 times each for 1 ms.
 *
 * At least one acquisition is contended whatever the load: thread 0 takes
 * the lock first and keeps it 2 ms past the moment thread 1 says it is
 * calling omp_set_lock (only a 2 ms preemption between that store and the
 * call could defeat it). */
#include "spin.h"

#include <stdatomic.h>

static atomic_int held, wanted;

int main(void) {
  omp_lock_t lock;
  omp_init_lock(&lock);
  /* start the worker threads first: their creation is not part of the test */
#pragma omp parallel num_threads(2)
  spin_ms(1);
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    if (me == 1)
      while (!atomic_load(&held))
        ;
    for (int k = 0; k < 5; k++) {
      if (me == 1 && k == 0)
        atomic_store(&wanted, 1);
      omp_set_lock(&lock);
      if (me == 0 && k == 0) {
        atomic_store(&held, 1);
        while (!atomic_load(&wanted))
          ;
      }
      spin_ms(2);
      omp_unset_lock(&lock);
    }
    for (int k = 0; k < 4; k++) {
#pragma omp critical
      spin_ms(1);
    }
  }
  omp_destroy_lock(&lock);
  return 0;
}
