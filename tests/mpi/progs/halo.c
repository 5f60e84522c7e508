/* A LULESH-style halo exchange: 8 ranks in a 2x2x2 grid, each exchanging
 * one face with its neighbour in each dimension (rank ^ 1, ^ 2, ^ 4) by
 * MPI_Irecv, MPI_Isend and MPI_Waitall, ITERS times after an OpenMP
 * parallel computation; even iterations exchange from the master thread
 * between parallel regions, odd ones from a masked construct inside one
 * (MPI_THREAD_FUNNELED). Iteration it sends dimension d's face with tag
 * 10 * it + d and count() doubles: small faces (Open MPI completes those
 * sends at once and shares their handle) and one past the eager limit.
 * tests/mpi/mpi_tests.py (case halo_np8) matches the messages. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

#define ITERS 4
#define DIMS 3
#define MAXN 2048

static double sbuf[DIMS][MAXN], rbuf[DIMS][MAXN];

/* Doubles that rank sends in dimension d at iteration it. */
static int count(int rank, int d, int it) {
  return d == 2 ? 1024 + it + rank : 1 + d + 3 * it + rank;
}

static void exchange(int rank, int it) {
  MPI_Request q[2 * DIMS];
  for (int d = 0; d < DIMS; d++) {
    int peer = rank ^ (1 << d);
    MPI_Irecv(rbuf[d], MAXN, MPI_DOUBLE, peer, 10 * it + d, MPI_COMM_WORLD, &q[d]);
  }
  for (int d = 0; d < DIMS; d++) {
    int peer = rank ^ (1 << d);
    MPI_Isend(sbuf[d], count(rank, d, it), MPI_DOUBLE, peer, 10 * it + d, MPI_COMM_WORLD,
              &q[DIMS + d]);
  }
  MPI_Waitall(2 * DIMS, q, MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv) {
  int rank, size, provided;
  double sum = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 8) {
    printf("needs 8 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (int it = 0; it < ITERS; it++) {
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < MAXN; i++)
      sum += sbuf[i % DIMS][i] + rbuf[i % DIMS][i];
    if (it % 2 == 0) {
      exchange(rank, it);
    } else {
#pragma omp parallel
      {
#pragma omp masked
        exchange(rank, it);
#pragma omp barrier
      }
    }
  }
  printf("rank %d done %g\n", rank, sum);
  MPI_Finalize();
  return 0;
}
