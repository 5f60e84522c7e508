/* Host offload (clang -fopenmp-targets=x86_64-pc-linux-gnu): two target
 * regions mapping 8000 bytes to and 8000 bytes from device 0, then an
 * enter data, an update and an exit data of one 8000-byte array. */
#include <omp.h>
#include <stdio.h>

#define N 1000

int main(void) {
  static double a[N], b[N], c[N];
  for (int i = 0; i < N; i++)
    a[i] = c[i] = i;
  for (int r = 0; r < 2; r++) {
#pragma omp target teams distribute parallel for map(to : a[0:N]) map(from : b[0:N]) num_teams(2)
    for (int i = 0; i < N; i++)
      b[i] = 2 * a[i] + r;
  }
#pragma omp target enter data map(to : c[0:N])
#pragma omp target update from(c[0:N])
#pragma omp target exit data map(delete : c[0:N])
  printf("b[10]=%g devices=%d\n", b[10], omp_get_num_devices());
  return b[10] == 21 ? 0 : 1;
}
