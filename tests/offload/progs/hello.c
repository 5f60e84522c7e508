/* A parallel region and nothing else: which offload callbacks the runtime
 * accepts does not depend on the program (recorder.offload.accepted). */
#include <omp.h>
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
  n += 1;
  printf("%d threads\n", n);
  return n == 2 ? 0 : 1;
}
