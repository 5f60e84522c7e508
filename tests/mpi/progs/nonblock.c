/* Nonblocking messages around a ring (each rank sends to rank + 1 and
 * receives from rank - 1): ROUNDS exchanges completed by MPI_Waitall, one
 * MPI_ANY_SOURCE/MPI_ANY_TAG receive completed by an MPI_Test loop, one
 * exchange by MPI_Waitany, one by an MPI_Testall loop (each then waits
 * on its completed, now null, requests), requests towards MPI_PROC_NULL
 * and one MPI_Sendrecv: exact message records per rank for
 * tests/mpi/mpi_tests.py. */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 3
#define INTS 100

static int out[INTS], in[INTS];

static void ring_rounds(int left, int right) {
  for (int r = 0; r < ROUNDS; r++) {
    MPI_Request q[2];
    MPI_Irecv(in, INTS, MPI_INT, left, r, MPI_COMM_WORLD, &q[0]);
    MPI_Isend(out, INTS, MPI_INT, right, r, MPI_COMM_WORLD, &q[1]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  }
}

/* 10 ints with tag 40 + rank; the receiver learns both from the status. */
static int any_source(int rank, int right) {
  MPI_Request a, b;
  MPI_Status st;
  int flag = 0;
  MPI_Irecv(in, INTS, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &a);
  MPI_Isend(out, 10, MPI_INT, right, 40 + rank, MPI_COMM_WORLD, &b);
  while (!flag)
    MPI_Test(&a, &flag, &st);
  MPI_Wait(&a, MPI_STATUS_IGNORE); /* a null request now: no records */
  MPI_Wait(&b, MPI_STATUS_IGNORE);
  return st.MPI_TAG;
}

static void any_and_all(int left, int right) {
  MPI_Request q[2];
  int idx, flag = 0;
  MPI_Irecv(in, 1, MPI_INT, left, 99, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(out, 1, MPI_INT, right, 99, MPI_COMM_WORLD, &q[1]);
  MPI_Waitany(2, q, &idx, MPI_STATUS_IGNORE);
  MPI_Waitany(2, q, &idx, MPI_STATUS_IGNORE);
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE); /* null requests now: no records */
  MPI_Request t[2];
  MPI_Irecv(in, 1, MPI_INT, left, 77, MPI_COMM_WORLD, &t[0]);
  MPI_Isend(out, 1, MPI_INT, right, 77, MPI_COMM_WORLD, &t[1]);
  while (!flag)
    MPI_Testall(2, t, &flag, MPI_STATUSES_IGNORE);
  MPI_Waitall(2, t, MPI_STATUSES_IGNORE); /* null requests now: no records */
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  ring_rounds(left, right);
  int tag = any_source(rank, right);
  any_and_all(left, right);
  MPI_Request q;
  MPI_Send(out, 1, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD);
  MPI_Irecv(in, 1, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  MPI_Sendrecv(out, 3, MPI_INT, right, 5, in, 3, MPI_INT, left, 5, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  printf("rank %d got tag %d\n", rank, tag);
  MPI_Finalize();
  return 0;
}
