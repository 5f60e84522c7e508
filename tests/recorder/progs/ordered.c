/* An ordered loop of 8 iterations, schedule(static, 1) on two threads:
 * the ordered blocks alternate between the threads. */
#include <stdio.h>

int main(void) {
  int trace[8], n = 0;
#pragma omp parallel num_threads(2) /* @par */
  {
#pragma omp for ordered schedule(static, 1) /* @loop */
    for (int i = 0; i < 8; i++) {
#pragma omp ordered /* @ordered */
      trace[n++] = i;
    }
  }
  int ok = n == 8;
  for (int i = 0; i < n; i++)
    ok = ok && trace[i] == i;
  printf("ordered %d %d\n", n, ok);
  return 0;
}
