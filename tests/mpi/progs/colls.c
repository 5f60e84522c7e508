/* Every wrapped collective once on MPI_COMM_WORLD (4 ranks; counts and
 * roots differ per call so each byte figure is distinct), an in-place
 * MPI_Allreduce, and a barrier on a communicator from MPI_Cart_create
 * (not wrapped: a region without collective records): exact
 * MpiCollectiveEnd fields per rank for tests/mpi/mpi_tests.py. */
#include <mpi.h>
#include <stdio.h>

#define N 4

static int a[64], b[64];

/* Counts i + 1 and their displacements, for the v variants. */
static int cnt[N] = {1, 2, 3, 4}, dsp[N] = {0, 1, 3, 6}, one[N] = {1, 1, 1, 1},
           seq[N] = {0, 1, 2, 3};

static void rooted(int r) {
  MPI_Bcast(a, 2, MPI_INT, 1, MPI_COMM_WORLD);
  MPI_Reduce(a, b, 3, MPI_INT, MPI_SUM, 2, MPI_COMM_WORLD);
  MPI_Gather(a, 1, MPI_INT, b, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gatherv(a, r + 1, MPI_INT, b, cnt, dsp, MPI_INT, 3, MPI_COMM_WORLD);
  MPI_Scatter(a, 2, MPI_INT, b, 2, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Scatterv(a, cnt, dsp, MPI_INT, b, r + 1, MPI_INT, 1, MPI_COMM_WORLD);
}

static void all(int r) {
  MPI_Allgather(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Allgatherv(a, r + 1, MPI_INT, b, cnt, dsp, MPI_INT, MPI_COMM_WORLD);
  MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Alltoallv(a, one, seq, MPI_INT, b, one, seq, MPI_INT, MPI_COMM_WORLD);
  MPI_Reduce_scatter(a, b, one, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, a, 5, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  int rank, size, dims[1] = {0}, periods[1] = {0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != N) {
    printf("needs %d ranks\n", N);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  rooted(rank);
  all(rank);
  MPI_Comm cart;
  MPI_Dims_create(size, 1, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
  MPI_Barrier(cart);
  MPI_Comm_free(&cart);
  printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
