/* Many short parallel loops (enough records to fill a small disk with
 * spill files), then 100 ms of serial work. */
#include "spin.h"

int main(void) {
  for (int r = 0; r < 3000; r++) {
#pragma omp parallel for num_threads(2)
    for (int i = 0; i < 2; i++)
      spin_ms(0.05);
  }
  spin_ms(100);
  return 0;
}
