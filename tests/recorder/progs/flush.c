/* Flushes: one plain flush and three flushes of a list, per thread. */
#include <stdio.h>

int main(void) {
  int x = 0;
#pragma omp parallel num_threads(2) /* @par */
  {
#pragma omp flush /* @flush */
    for (int i = 0; i < 3; i++) {
#pragma omp atomic
      x += 1;
#pragma omp flush(x) /* @list */
    }
  }
  printf("flush %d\n", x);
  return 0;
}
