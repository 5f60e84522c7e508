/* MPI_Comm_split into even and odd ranks, a broadcast from each half's
 * first rank in a parallel region's master, MPI_Comm_dup and frees:
 * exact counts per rank for tests/mpi/mpi_tests.py. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank, value = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm half, copy;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_dup(half, &copy);
#pragma omp parallel num_threads(2)
  {
#pragma omp master
    {
      value = rank < 2 ? 100 + rank : 0;
      MPI_Bcast(&value, 1, MPI_INT, 0, copy);
    }
  }
  MPI_Comm_free(&copy);
  MPI_Comm_free(&half);
  printf("rank %d value %d\n", rank, value);
  MPI_Finalize();
  return 0;
}
