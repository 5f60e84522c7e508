/* Reports on MPI jobs (tests/mpi/report_tests.py): each rank runs a serial
 * phase (a spin loop on its main thread), an OpenMP phase (a parallel loop
 * whose master thread then calls MPI_Allreduce inside the parallel region)
 * and MPI waits: rank 0 sleeps 20 ms before an MPI_Barrier the others wait
 * in, and every rank exchanges one message with every other rank by
 * MPI_Sendrecv (n(n-1) pairs of ranks). With the argument "mpi" it runs no
 * OpenMP construct: the messages and the barrier only. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static volatile unsigned long sink;

static void spin(unsigned long n) {
  for (unsigned long i = 0; i < n; i++)
    sink += i % 7;
}

/* Rank r sends to r + d and receives from r - d, for every d. */
static void all_pairs(int rank, int size) {
  for (int d = 1; d < size; d++) {
    int out = rank, in = -1;
    MPI_Sendrecv(&out, 1, MPI_INT, (rank + d) % size, d, &in, 1, MPI_INT, (rank - d + size) % size,
                 d, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

static long openmp_phase(void) {
  long work = 0, total = 0;
#pragma omp parallel num_threads(2) reduction(+ : work)
  {
#pragma omp for
    for (long i = 0; i < 2000000; i++)
      work += i % 7;
#pragma omp master
    MPI_Allreduce(&work, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
#pragma omp barrier
  }
  return total;
}

int main(int argc, char **argv) {
  int rank, size, provided;
  int omp = !(argc > 1 && strcmp(argv[1], "mpi") == 0);
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long total = 0;
  if (omp) {
    spin(60000000);
    total = openmp_phase();
  }
  if (rank == 0)
    nanosleep(&(struct timespec){0, 20000000}, NULL);
  MPI_Barrier(MPI_COMM_WORLD);
  all_pairs(rank, size);
  if (rank == 0)
    printf("report_phases: %d ranks, total %ld\n", size, total);
  MPI_Finalize();
  return 0;
}
