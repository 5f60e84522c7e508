/* Two 10 ms parallel regions around 30 ms of serial work. The serial work
 * also lasts at least 3 x the run before it, so that it stays a large share
 * of the run on a loaded machine (where the regions can take longer). */
#include "spin.h"

int main(void) {
  double start = omp_get_wtime();
  /* start the worker threads first: their creation is not part of the test */
#pragma omp parallel num_threads(2)
  spin_ms(1);
#pragma omp parallel num_threads(2)
  spin_ms(10);
  double before_ms = (omp_get_wtime() - start) * 1e3;
  spin_ms(3 * before_ms > 30 ? 3 * before_ms : 30);
#pragma omp parallel num_threads(2)
  spin_ms(10);
  return 0;
}
