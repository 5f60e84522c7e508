/* Two 10 ms parallel regions around 30 ms of serial work. */
#include "spin.h"

int main(void) {
  /* start the worker threads first: their creation is not part of the test */
#pragma omp parallel num_threads(2)
  spin_ms(1);
#pragma omp parallel num_threads(2)
  spin_ms(10);
  spin_ms(30);
#pragma omp parallel num_threads(2)
  spin_ms(10);
  return 0;
}
