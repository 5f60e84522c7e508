/* Cancellation (run with OMP_CANCELLATION=true). Every thread requests the
 * cancellation itself, so each reports it as activated whatever the timing. */
#include <stdio.h>

int main(void) {
  int reached = 0, iters = 0;
#pragma omp parallel num_threads(2) /* @par */
  {
#pragma omp cancel parallel /* @cancel_par */
#pragma omp atomic
    reached++;
  }
#pragma omp parallel num_threads(2) /* @par2 */
  {
#pragma omp for schedule(static, 1) /* @loop */
    for (int i = 0; i < 2; i++) {
#pragma omp cancel for /* @cancel_for */
#pragma omp atomic
      iters++;
    }
  }
  printf("cancel %d %d\n", reached, iters);
  return 0;
}
