/* Compiled with gcc -fopenmp and run on libomp through its libgomp
 * compatibility layer. */
#include <stdio.h>

int main(void) {
  int a = 0, b = 0;
#pragma omp parallel num_threads(2) reduction(+ : a) /* @first */
  a += 1;
#pragma omp parallel num_threads(2) reduction(+ : b) /* @second */
  {
#pragma omp for schedule(dynamic, 1)
    for (int i = 0; i < 10; i++)
      b += i;
  }
  printf("gcc_parallel %d %d\n", a, b);
  return 0;
}
