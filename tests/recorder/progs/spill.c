/* Many small records (about 60 000 on each of two threads) so that a small
 * OMPTRACE_BUFFER_SIZE forces many buffer hand-offs. Every count is fixed. */
#include <stdio.h>

int main(void) {
  long x = 0;
  for (int r = 0; r < 200; r++) {
#pragma omp parallel num_threads(2) /* @par */
    {
#pragma omp for schedule(static) /* @loop */
      for (int i = 0; i < 200; i++) {
#pragma omp critical /* @critical */
        x += i;
      }
#pragma omp barrier /* @barrier */
    }
  }
  printf("spill %ld\n", x);
  return 0;
}
