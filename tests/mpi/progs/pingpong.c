/* Ping-pong between ranks 0 and 1 (others idle), then an MPI_Allreduce
 * in the master of a parallel region and a final barrier: exact counts
 * per rank for tests/mpi/mpi_tests.py. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

#define ROUNDS 5
#define INTS 100

int main(int argc, char **argv) {
  int provided, rank, size, buf[INTS] = {0};
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < ROUNDS && size > 1; i++) {
    if (rank == 0) {
      MPI_Send(buf, INTS, MPI_INT, 1, i, MPI_COMM_WORLD); /* @send0 */
      MPI_Recv(buf, INTS, MPI_INT, 1, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, INTS, MPI_INT, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, INTS, MPI_INT, 0, i, MPI_COMM_WORLD);
    }
  }
  long sum = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp master
    {
      long mine = rank + 1;
      MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD); /* @allreduce */
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf("sum %ld\n", sum);
  MPI_Finalize();
  return 0;
}
