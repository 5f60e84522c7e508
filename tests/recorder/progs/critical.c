/* Unnamed and named critical sections, 10 and 5 entries per thread. */
#include <stdio.h>

int main(void) {
  int x = 0, y = 0;
#pragma omp parallel num_threads(2) /* @par */
  {
    for (int i = 0; i < 10; i++) {
#pragma omp critical /* @unnamed */
      x++;
    }
    for (int i = 0; i < 5; i++) {
#pragma omp critical(counter) /* @named */
      y++;
    }
  }
  printf("critical %d %d\n", x, y);
  return 0;
}
