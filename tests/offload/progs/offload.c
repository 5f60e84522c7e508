/* Host offload (clang -fopenmp-targets=x86_64-pc-linux-gnu): two target
 * regions mapping 8000 bytes to and 8000 bytes from device 0, then an
 * enter data, an update and an exit data of one 8000-byte array, then two
 * `target nowait` (libomp 19 runs them on its hidden helper threads), one
 * after the other, each mapping 8000 bytes both ways. */
#include <omp.h>
#include <stdio.h>

#define N 1000

int main(void) {
  static double a[N], b[N], c[N];
  for (int i = 0; i < N; i++)
    a[i] = c[i] = i;
  for (int r = 0; r < 2; r++) {
#pragma omp target teams distribute parallel for map(to : a [0:N]) map(from : b [0:N]) num_teams(2)
    for (int i = 0; i < N; i++)
      b[i] = 2 * a[i] + r;
  }
#pragma omp target enter data map(to : c [0:N])
#pragma omp target update from(c [0:N])
#pragma omp target exit data map(delete : c [0:N])
  for (int r = 0; r < 2; r++) {
#pragma omp target map(tofrom : c [0:N]) nowait
    for (int i = 0; i < N; i++)
      c[i] += 1;
#pragma omp taskwait
  }
  printf("b[10]=%g devices=%d\n", b[10], omp_get_num_devices());
  return b[10] == 21 && c[10] == 12 ? 0 : 1;
}
