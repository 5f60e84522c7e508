/* The nonblocking collectives on MPI_COMM_WORLD (4 ranks) with the counts
 * and roots of progs/colls.c, so each one's bytes match its blocking
 * twin, completed by different calls: MPI_Ibarrier by MPI_Wait, the
 * rooted ones by one MPI_Waitall (rank 0's of the requests in reverse
 * order, so it completes them in another order than it issued them), Iallgather(v) by MPI_Waitsome,
 * Ialltoall by MPI_Test polling, Ialltoallv and Ireduce_scatter by
 * MPI_Testall polling, an in-place Iallreduce by MPI_Waitany: exact
 * NonBlockingCollective records per rank for tests/mpi/mpi_tests.py. */
#include <mpi.h>
#include <stdio.h>

#define N 4
#define W MPI_COMM_WORLD

static int a[16][64], b[16][64];

static int cnt[N] = {1, 2, 3, 4}, dsp[N] = {0, 1, 3, 6}, one[N] = {1, 1, 1, 1},
           seq[N] = {0, 1, 2, 3};

int main(int argc, char **argv) {
  int rank, size;
  MPI_Request q[6];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(W, &rank);
  MPI_Comm_size(W, &size);
  if (size != N) {
    printf("needs %d ranks\n", N);
    MPI_Abort(W, 1);
  }
  MPI_Ibarrier(W, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);

  MPI_Ibcast(a[0], 2, MPI_INT, 1, W, &q[0]);
  MPI_Ireduce(a[1], b[1], 3, MPI_INT, MPI_SUM, 2, W, &q[1]);
  MPI_Igather(a[2], 1, MPI_INT, b[2], 1, MPI_INT, 0, W, &q[2]);
  MPI_Igatherv(a[3], rank + 1, MPI_INT, b[3], cnt, dsp, MPI_INT, 3, W, &q[3]);
  MPI_Iscatter(a[4], 2, MPI_INT, b[4], 2, MPI_INT, 0, W, &q[4]);
  MPI_Iscatterv(a[5], cnt, dsp, MPI_INT, b[5], rank + 1, MPI_INT, 1, W, &q[5]);
  for (int i = 0; rank == 0 && i < 3; i++) {
    MPI_Request t = q[i];
    q[i] = q[5 - i], q[5 - i] = t;
  }
  MPI_Waitall(6, q, MPI_STATUSES_IGNORE);

  MPI_Iallgather(a[6], 1, MPI_INT, b[6], 1, MPI_INT, W, &q[0]);
  MPI_Iallgatherv(a[7], rank + 1, MPI_INT, b[7], cnt, dsp, MPI_INT, W, &q[1]);
  for (int left = 2; left > 0;) {
    int n, idx[2];
    MPI_Waitsome(2, q, &n, idx, MPI_STATUSES_IGNORE);
    left -= n;
  }

  MPI_Ialltoall(a[8], 1, MPI_INT, b[8], 1, MPI_INT, W, &q[0]);
  for (int f = 0; !f;)
    MPI_Test(&q[0], &f, MPI_STATUS_IGNORE);

  MPI_Ialltoallv(a[9], one, seq, MPI_INT, b[9], one, seq, MPI_INT, W, &q[0]);
  MPI_Ireduce_scatter(a[10], b[10], one, MPI_INT, MPI_SUM, W, &q[1]);
  for (int f = 0; !f;)
    MPI_Testall(2, q, &f, MPI_STATUSES_IGNORE);

  int idx;
  MPI_Iallreduce(MPI_IN_PLACE, a[11], 5, MPI_INT, MPI_SUM, W, &q[0]);
  MPI_Waitany(1, q, &idx, MPI_STATUS_IGNORE);
  printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
