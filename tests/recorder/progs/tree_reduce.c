/* A tree reduction (LLVM's OMPT test synchronization/reduction/tree_reduce;
 * run with KMP_FORCE_REDUCTION=tree): libomp combines the worker's values
 * on the master inside the reduction barrier's wait, so the master's wait
 * holds a reduction region and is written (docs/otf2-mapping.md); the
 * worker's spans its barrier and is left out. */
#include <stdio.h>

int main(void) {
  int sum = 0, a = 0, b = 0;
#pragma omp parallel num_threads(2)      /* @par */
#pragma omp for reduction(+ : sum, a, b) /* @loop */
  for (int i = 0; i < 10000; i++)
    a = b = sum += i;
  printf("tree_reduce %d %d %d\n", sum, a, b);
  return 0;
}
