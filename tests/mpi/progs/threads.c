/* MPI_THREAD_MULTIPLE with nonblocking messages: in a parallel region of
 * 2 threads on each of 2 ranks, every thread ROUNDS times posts K small
 * receives from the same thread of the other rank, sends it K small
 * messages (tag = 100 * thread + K * round + i; Open MPI completes such
 * sends at once, both threads' under one shared handle) and completes
 * the 2K requests with one MPI_Waitall: each thread's completions belong
 * on its own location (tests/mpi/mpi_tests.py, case threads_np2). */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

#define ROUNDS 3
#define K 4

int main(int argc, char **argv) {
  int provided, rank;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    printf("no MPI_THREAD_MULTIPLE\n");
    MPI_Finalize();
    return 0;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num(), out[K] = {0}, in[K];
    for (int r = 0; r < ROUNDS; r++) {
      MPI_Request q[2 * K];
      for (int i = 0; i < K; i++)
        MPI_Irecv(&in[i], 1, MPI_INT, 1 - rank, 100 * me + K * r + i, MPI_COMM_WORLD, &q[i]);
      for (int i = 0; i < K; i++)
        MPI_Isend(&out[i], 1, MPI_INT, 1 - rank, 100 * me + K * r + i, MPI_COMM_WORLD, &q[K + i]);
      MPI_Waitall(2 * K, q, MPI_STATUSES_IGNORE);
    }
  }
  printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
