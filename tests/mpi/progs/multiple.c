/* MPI_THREAD_MULTIPLE: in a parallel region of 2 threads on each of 2
 * ranks, every thread exchanges ROUNDS messages with the same thread of
 * the other rank (tag = thread number) by MPI_Sendrecv: each thread's
 * calls belong on its own location (tests/mpi/mpi_tests.py). */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

#define ROUNDS 3

int main(int argc, char **argv) {
  int provided, rank;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    printf("no MPI_THREAD_MULTIPLE\n");
    MPI_Finalize();
    return 0;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int ok = 1;
#pragma omp parallel num_threads(2) reduction(&& : ok)
  {
    int me = omp_get_thread_num(), got = -1;
    for (int i = 0; i < ROUNDS; i++) {
      MPI_Sendrecv(&me, 1, MPI_INT, 1 - rank, me, &got, 1, MPI_INT, 1 - rank, me, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
      ok = ok && got == me;
    }
  }
  printf("rank %d exchanged %s\n", rank, ok ? "ok" : "wrong");
  MPI_Finalize();
  return 0;
}
