/* Rank 1 sends itself a message (MPI_Isend, MPI_Recv, MPI_Wait), flushes
 * its record log and dies by SIGKILL after a parallel region and a
 * barrier; rank 0 then waits in a receive until mpirun ends
 * the job. Rank 1's archive comes from its log by omptrace recover
 * (tests/mpi/mpi_tests.py). */
#include <mpi.h>
#include <omp.h>
#include <signal.h>

int main(int argc, char **argv) {
  int rank, x = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma omp parallel num_threads(2)
  {
#pragma omp barrier
  } MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    MPI_Request q;
    int y = 7;
    MPI_Isend(&y, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &q);
    MPI_Recv(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    omp_control_tool(omp_control_tool_flush, 0, NULL);
    raise(SIGKILL);
  }
  MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
