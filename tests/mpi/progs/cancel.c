/* MPI_Cancel between two ranks (tests/mpi/mpi_tests.py, case cancel_np2,
 * derives exact counts from this text). Rank 1 cancels receives that no
 * send matches (tag 80 completed by MPI_Wait, 81 by MPI_Test polling, 82
 * by MPI_Request_free, 83 by MPI_Waitall next to a received tag 84) and
 * frees an active receive (tag 85) that rank 0's MPI_Ssend then matches.
 * Rank 0 tries to cancel a small (tag 86) and a large (tag 87) Isend
 * before rank 1 posts their receives, and tells rank 1 which were
 * cancelled (tag 88); rank 1 cancels its receives of those. Prints each
 * cancellation flag as "tag T cancelled F". */
#include <mpi.h>
#include <stdio.h>

#define BIG (1 << 20) /* past any eager limit */
#define W MPI_COMM_WORLD

static int v[8];
static char big[2][BIG];

static void said(int tag, const MPI_Status *s) {
  int f = 0;
  MPI_Test_cancelled(s, &f);
  printf("tag %d cancelled %d\n", tag, f);
}

static void receives(int rank) {
  MPI_Request q[2];
  MPI_Status s[2];
  if (rank == 0) {
    MPI_Barrier(W);
    MPI_Send(&v[4], 1, MPI_INT, 1, 84, W);
    MPI_Barrier(W);
    MPI_Ssend(&v[5], 1, MPI_INT, 1, 85, W);
    return;
  }
  MPI_Irecv(&v[0], 1, MPI_INT, 0, 80, W, &q[0]);
  MPI_Cancel(&q[0]);
  MPI_Wait(&q[0], &s[0]);
  said(80, &s[0]);

  MPI_Irecv(&v[1], 1, MPI_INT, 0, 81, W, &q[0]);
  MPI_Cancel(&q[0]);
  for (int f = 0; !f;)
    MPI_Test(&q[0], &f, &s[0]);
  said(81, &s[0]);

  MPI_Irecv(&v[2], 1, MPI_INT, 0, 82, W, &q[0]);
  MPI_Cancel(&q[0]);
  MPI_Request_free(&q[0]);

  MPI_Irecv(&v[3], 1, MPI_INT, 0, 83, W, &q[0]);
  MPI_Irecv(&v[4], 1, MPI_INT, 0, 84, W, &q[1]);
  MPI_Cancel(&q[0]);
  MPI_Barrier(W);
  MPI_Waitall(2, q, s);
  said(83, &s[0]);
  said(84, &s[1]);

  MPI_Irecv(&v[5], 1, MPI_INT, 0, 85, W, &q[0]);
  MPI_Request_free(&q[0]);
  MPI_Barrier(W);
}

static void sends(int rank) {
  MPI_Request q[2];
  MPI_Status s[2];
  int flags[2];
  if (rank == 0) {
    MPI_Isend(&v[6], 1, MPI_INT, 1, 86, W, &q[0]);
    MPI_Isend(big[0], BIG, MPI_CHAR, 1, 87, W, &q[1]);
    MPI_Cancel(&q[0]);
    MPI_Cancel(&q[1]);
    MPI_Barrier(W);
    MPI_Waitall(2, q, s);
    for (int i = 0; i < 2; i++) {
      MPI_Test_cancelled(&s[i], &flags[i]);
      said(86 + i, &s[i]);
    }
    MPI_Send(flags, 2, MPI_INT, 1, 88, W);
    return;
  }
  MPI_Barrier(W);
  MPI_Irecv(&v[6], 1, MPI_INT, 0, 86, W, &q[0]);
  MPI_Irecv(big[1], BIG, MPI_CHAR, 0, 87, W, &q[1]);
  MPI_Recv(flags, 2, MPI_INT, 0, 88, W, MPI_STATUS_IGNORE);
  for (int i = 0; i < 2; i++)
    if (flags[i])
      MPI_Cancel(&q[i]);
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(W, &rank);
  receives(rank);
  sends(rank);
  MPI_Finalize();
  return 0;
}
