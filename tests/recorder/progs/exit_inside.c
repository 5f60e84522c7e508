/* exit(3) from inside a parallel region: thread 0 exits after a barrier
 * while thread 1 waits in the end-of-region barrier. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
#pragma omp parallel num_threads(2) /* @par */
  {
#pragma omp barrier /* @barrier */
    if (omp_get_thread_num() == 0) {
      printf("exit_inside leaving\n");
      fflush(stdout);
      exit(3);
    }
  }
  printf("exit_inside not reached\n");
  return 0;
}
