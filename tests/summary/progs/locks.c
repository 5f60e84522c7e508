/* Two threads take one lock 5 times each and hold it 2 ms; then enter a
 * critical section 4 times each for 1 ms. */
#include "spin.h"

int main(void) {
  omp_lock_t lock;
  omp_init_lock(&lock);
  /* start the worker threads first: their creation is not part of the test */
#pragma omp parallel num_threads(2)
  spin_ms(1);
#pragma omp parallel num_threads(2)
  {
    for (int k = 0; k < 5; k++) {
      omp_set_lock(&lock);
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
