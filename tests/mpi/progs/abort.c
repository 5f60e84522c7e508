/* Rank 1 calls MPI_Abort after a parallel region; rank 0 waits in a
 * receive that never completes. Each rank leaves its record log, from
 * which omptrace recover builds its archive (tests/mpi/mpi_tests.py). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank, x = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma omp parallel num_threads(2)
  {
#pragma omp barrier
  } MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1)
    MPI_Abort(MPI_COMM_WORLD, 3); /* @abort */
  MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
