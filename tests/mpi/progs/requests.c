/* Request patterns between two ranks, each completed by one kind of call
 * (tests/mpi/mpi_tests.py, case requests_np2, derives exact counts from
 * this text): K small Isends in a row to posted receives (Open MPI
 * completes them at once and hands out one shared request handle),
 * completed by MPI_Waitall, by MPI_Wait on copies of the handles in
 * reverse order, by MPI_Test polling; receives completed by MPI_Waitsome,
 * MPI_Testany and MPI_Testsome loops; persistent requests started by
 * MPI_Start and MPI_Startall; freed requests (one that completed, an
 * active send, an active persistent send); MPI_Sendrecv_replace. Prints
 * nothing but "done". */
#include <mpi.h>
#include <stdio.h>

#define K 4
#define ITERS 3
#define BIG (1 << 20) /* past any eager limit: cannot complete before its receive is posted */
#define W MPI_COMM_WORLD

static int small[K], got[K];
static char big[2][BIG];

static void at_once(int rank) {
  MPI_Request q[K];
  if (rank == 1)
    for (int i = 0; i < K; i++)
      MPI_Irecv(&got[i], 1, MPI_INT, 0, 10 + i, W, &q[i]);
  MPI_Barrier(W);
  if (rank == 0)
    for (int i = 0; i < K; i++)
      MPI_Isend(&small[i], 1, MPI_INT, 1, 10 + i, W, &q[i]);
  MPI_Waitall(K, q, MPI_STATUSES_IGNORE);
}

static void copies_and_some(int rank) {
  MPI_Request q[K], c[K];
  if (rank == 0) {
    for (int i = 0; i < K; i++)
      MPI_Isend(&small[i], 1, MPI_INT, 1, 20 + i, W, &q[i]);
    for (int i = 0; i < K; i++)
      c[i] = q[K - 1 - i];
    for (int i = 0; i < K; i++)
      MPI_Wait(&c[i], MPI_STATUS_IGNORE);
    return;
  }
  for (int i = 0; i < K; i++)
    MPI_Irecv(&got[i], 1, MPI_INT, 0, 20 + i, W, &q[i]);
  for (int left = K; left > 0;) {
    int n, idx[K];
    MPI_Waitsome(K, q, &n, idx, MPI_STATUSES_IGNORE);
    left -= n;
  }
}

static void polling(int rank) {
  MPI_Request q[K];
  if (rank == 0) {
    for (int i = 0; i < K; i++)
      MPI_Isend(&small[i], 1, MPI_INT, 1, 30 + i, W, &q[i]);
    for (int i = 0; i < K; i++)
      for (int f = 0; !f;)
        MPI_Test(&q[i], &f, MPI_STATUS_IGNORE);
  } else {
    for (int i = 0; i < K; i++)
      MPI_Irecv(&got[i], 1, MPI_INT, 0, 30 + i, W, &q[i]);
    for (int left = K; left > 0;) {
      int idx, f;
      MPI_Testany(K, q, &idx, &f, MPI_STATUS_IGNORE);
      left -= f && idx != MPI_UNDEFINED;
    }
  }
  /* the other way, both sides by MPI_Testsome */
  for (int i = 0; i < K; i++) {
    if (rank == 1)
      MPI_Isend(&small[i], 1, MPI_INT, 0, 40 + i, W, &q[i]);
    else
      MPI_Irecv(&got[i], 1, MPI_INT, 1, 40 + i, W, &q[i]);
  }
  for (int left = K; left > 0;) {
    int n, idx[K];
    MPI_Testsome(K, q, &n, idx, MPI_STATUSES_IGNORE);
    left -= n != MPI_UNDEFINED ? n : 0;
  }
}

static void persistent(int rank) {
  MPI_Request p, x[2];
  int v = rank, a = rank, b;
  if (rank == 0)
    MPI_Send_init(&v, 1, MPI_INT, 1, 50, W, &p);
  else
    MPI_Recv_init(&v, 1, MPI_INT, 0, 50, W, &p);
  for (int i = 0; i < ITERS; i++) {
    MPI_Start(&p);
    MPI_Wait(&p, MPI_STATUS_IGNORE);
  }
  MPI_Request_free(&p); /* inactive: no records */
  MPI_Send_init(&a, 1, MPI_INT, 1 - rank, 51, W, &x[0]);
  MPI_Recv_init(&b, 1, MPI_INT, 1 - rank, 51, W, &x[1]);
  for (int i = 0; i < ITERS; i++) {
    MPI_Startall(2, x);
    MPI_Waitall(2, x, MPI_STATUSES_IGNORE);
  }
  MPI_Request_free(&x[0]);
  MPI_Request_free(&x[1]);
}

static void freed(int rank) {
  MPI_Request q;
  /* complete when freed: its completion in MPI_Request_free */
  if (rank == 0)
    MPI_Isend(&small[0], 1, MPI_INT, 1, 60, W, &q);
  else
    MPI_Irecv(&got[0], 1, MPI_INT, 0, 60, W, &q);
  for (int f = 0; !f;)
    MPI_Request_get_status(q, &f, MPI_STATUS_IGNORE);
  MPI_Request_free(&q);
  /* active when freed: the receive is posted only after the barrier */
  if (rank == 0) {
    MPI_Isend(big[0], BIG, MPI_CHAR, 1, 61, W, &q);
    MPI_Request_free(&q);
    MPI_Send_init(big[1], BIG, MPI_CHAR, 1, 62, W, &q);
    MPI_Start(&q);
    MPI_Request_free(&q);
  }
  MPI_Barrier(W);
  if (rank == 1) {
    MPI_Recv(big[0], BIG, MPI_CHAR, 0, 61, W, MPI_STATUS_IGNORE);
    MPI_Recv(big[1], BIG, MPI_CHAR, 0, 62, W, MPI_STATUS_IGNORE);
  }
  /* the same variable again: completed with its own request id */
  if (rank == 0) {
    MPI_Isend(&small[1], 1, MPI_INT, 1, 63, W, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&got[1], 1, MPI_INT, 0, 63, W, MPI_STATUS_IGNORE);
  }
}

int main(int argc, char **argv) {
  int rank, size, v;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(W, &rank);
  MPI_Comm_size(W, &size);
  if (size != 2) {
    printf("needs 2 ranks\n");
    MPI_Abort(W, 1);
  }
  at_once(rank);
  copies_and_some(rank);
  polling(rank);
  persistent(rank);
  freed(rank);
  v = rank;
  MPI_Sendrecv_replace(&v, 1, MPI_INT, 1 - rank, 70, 1 - rank, 70, W, MPI_STATUS_IGNORE);
  printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
