/* A static loop whose two iterations take 40 ms and 10 ms: with 2 threads
 * thread 0 works 40 ms, thread 1 10 ms and waits 30 ms at the barrier. */
#include "spin.h"

int main(void) {
  /* start the worker threads first: their creation is not part of the test */
#pragma omp parallel num_threads(2)
  spin_ms(1);
#pragma omp parallel num_threads(2)
  {
#pragma omp for schedule(static)
    for (int i = 0; i < 2; i++)
      spin_ms(i == 0 ? 40 : 10);
  }
  return 0;
}
