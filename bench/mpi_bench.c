/* Cost of MPI calls under the tool: rank 0 and 1 ping-pong 8-byte
 * messages, then exchange 8-byte messages with MPI_Irecv + MPI_Isend +
 * MPI_Waitall, then every rank runs barriers, then MPI_Test on a null
 * request (no communication: the wrapper's own cost shows); rank 0 prints
 * ns per message (half a round trip: one MPI_Send + one MPI_Recv per
 * rank), per nonblocking exchange (each rank sends and receives one
 * message), per barrier and per MPI_Test. A parallel region first starts
 * the OpenMP runtime (and the tool) in every variant. Run by
 * bench/mpi_bench.py. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double per_message(int rank, int n) {
  long v = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < n; i++) {
    if (rank == 0) {
      MPI_Send(&v, 1, MPI_LONG, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(&v, 1, MPI_LONG, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(&v, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&v, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD);
    }
  }
  return (MPI_Wtime() - t0) * 1e9 / (2.0 * n);
}

static double per_exchange(int rank, int n) {
  long v = 0, w = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < n && rank < 2; i++) {
    MPI_Request q[2];
    MPI_Irecv(&w, 1, MPI_LONG, 1 - rank, 0, MPI_COMM_WORLD, &q[0]);
    MPI_Isend(&v, 1, MPI_LONG, 1 - rank, 0, MPI_COMM_WORLD, &q[1]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  }
  return (MPI_Wtime() - t0) * 1e9 / n;
}

static double per_barrier(int n) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < n; i++)
    MPI_Barrier(MPI_COMM_WORLD);
  return (MPI_Wtime() - t0) * 1e9 / n;
}

static double per_test(int n) {
  MPI_Request q = MPI_REQUEST_NULL;
  int done = 0;
  double t0 = MPI_Wtime();
  for (int i = 0; i < n; i++)
    MPI_Test(&q, &done, MPI_STATUS_IGNORE);
  return (MPI_Wtime() - t0) * 1e9 / n;
}

int main(int argc, char **argv) {
  int rank, size, n = argc > 1 ? atoi(argv[1]) : 20000;
  int sum = 0;
#pragma omp parallel reduction(+ : sum)
  sum += 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* one rank (mpi_bench.py --np 1): no messages, only the local calls */
  double msg = size > 1 ? per_message(rank, n) : 0;
  double xchg = size > 1 ? per_exchange(rank, n) : 0;
  double bar = per_barrier(n);
  double test = per_test(10 * n);
  if (rank == 0)
    printf("message_ns %.1f exchange_ns %.1f barrier_ns %.1f test_ns %.1f threads %d\n", msg, xchg,
           bar, test, sum);
  MPI_Finalize();
  return 0;
}
