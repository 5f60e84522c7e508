/* Imbalance across ranks: rank R runs R + 1 parallel regions of 2 threads
 * before everyone meets in MPI_Barrier and MPI_Reduce to rank 0
 * (tests/mpi/mpi_tests.py). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank;
  long work = 0, total = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int r = 0; r <= rank; r++) {
#pragma omp parallel for num_threads(2) reduction(+ : work)
    for (long i = 0; i < 100000; i++)
      work += i % 7;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Reduce(&work, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("total %ld\n", total);
  MPI_Finalize();
  return 0;
}
