/* Sections: three sections shared by a team of two. */
#include "common.h"
#include <stdio.h>

int main(void) {
  double r[3] = {0};
#pragma omp parallel num_threads(2) /* @par */
  {
#pragma omp sections /* @sections */
    {
#pragma omp section
      r[0] = ot_work(1000);
#pragma omp section
      r[1] = ot_work(2000);
#pragma omp section
      r[2] = ot_work(3000);
    }
  }
  printf("sections %.1f\n", r[0] + r[1] + r[2]);
  return 0;
}
