/* A LULESH-like hybrid MPI + OpenMP job for bench/mpi_phases.py: the
 * ranks form a 3-D grid (2x2x2 for 8 ranks, MPI_Dims_create), each owns an
 * EDGE^3 block and per iteration runs PHASES halo exchanges with its face
 * neighbours (MPI_Irecv for each, pack in a parallel loop, MPI_Isend,
 * MPI_Waitall, unpack in a parallel loop), LOOPS small parallel loops over
 * the block (LULESH's many short loops per time step) and an
 * MPI_Allreduce of the time step. Rank 0 prints a checksum that is the same
 * at every thread count, the time from MPI_Init's return to the last
 * iteration, and the ranks' MPI_Init_thread times (median and slowest, as
 * the program sees them); each rank then prints its MPI_Finalize time.
 * Usage: ot_mpi_halo [EDGE] [ITERATIONS] [LOOPS] [PHASES]. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { DIRS = 6 };

typedef struct {
  int n, nbr[DIRS]; /* neighbour rank per direction (-x +x -y +y -z +z), or -1 */
  double *u, *send[DIRS], *recv[DIRS];
} block;

static size_t at(int n, int i, int j, int k) {
  return ((size_t)k * (size_t)n + (size_t)j) * (size_t)n + (size_t)i;
}

/* Index of the e-th cell of the face in direction d. */
static size_t face_cell(int n, int d, int e) {
  int a = e % n, b = e / n, edge = (d & 1) ? n - 1 : 0;
  switch (d >> 1) {
  case 0:
    return at(n, edge, a, b);
  case 1:
    return at(n, a, edge, b);
  default:
    return at(n, a, b, edge);
  }
}

static void neighbours(block *B, int rank, int size) {
  int dims[3] = {0, 0, 0}, c[3];
  MPI_Dims_create(size, 3, dims);
  c[0] = rank % dims[0];
  c[1] = rank / dims[0] % dims[1];
  c[2] = rank / (dims[0] * dims[1]);
  for (int d = 0; d < DIRS; d++) {
    int axis = d >> 1, step = (d & 1) ? 1 : -1, cc[3] = {c[0], c[1], c[2]};
    cc[axis] += step;
    B->nbr[d] =
        cc[axis] < 0 || cc[axis] >= dims[axis] ? -1 : (cc[2] * dims[1] + cc[1]) * dims[0] + cc[0];
  }
}

static void exchange(block *B, int tag) {
  int n = B->n, faces = n * n, q = 0;
  MPI_Request req[2 * DIRS];
  for (int d = 0; d < DIRS; d++)
    if (B->nbr[d] >= 0)
      MPI_Irecv(B->recv[d], faces, MPI_DOUBLE, B->nbr[d], tag, MPI_COMM_WORLD, &req[q++]);
  for (int d = 0; d < DIRS; d++) {
    if (B->nbr[d] < 0)
      continue;
    double *s = B->send[d];
#pragma omp parallel for
    for (int e = 0; e < faces; e++)
      s[e] = B->u[face_cell(n, d, e)];
    MPI_Isend(s, faces, MPI_DOUBLE, B->nbr[d], tag, MPI_COMM_WORLD, &req[q++]);
  }
  MPI_Waitall(q, req, MPI_STATUSES_IGNORE);
  for (int d = 0; d < DIRS; d++) {
    if (B->nbr[d] < 0)
      continue;
    double *r = B->recv[d];
#pragma omp parallel for
    for (int e = 0; e < faces; e++)
      B->u[face_cell(n, d, e)] += 0.001 * r[e];
  }
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double step(block *B, int loops, int it) {
  size_t cells = (size_t)B->n * (size_t)B->n * (size_t)B->n;
  double local = 1e30;
  for (int l = 0; l < loops; l++) {
    double f = 1.0 / (1.0 + l + it);
#pragma omp parallel for reduction(min : local)
    for (size_t i = 0; i < cells; i++) {
      B->u[i] = 0.999 * B->u[i] + f * (double)(i % 7);
      if (B->u[i] + 1.0 < local)
        local = B->u[i] + 1.0;
    }
  }
  return local;
}

int main(int argc, char **argv) {
  int provided, rank, size;
  int n = argc > 1 ? atoi(argv[1]) : 8, iters = argc > 2 ? atoi(argv[2]) : 20;
  int loops = argc > 3 ? atoi(argv[3]) : 40, phases = argc > 4 ? atoi(argv[4]) : 3;
  if (n < 2 || iters < 1 || loops < 0 || phases < 0) {
    fprintf(stderr, "usage: ot_mpi_halo [EDGE>=2] [ITERATIONS>=1] [LOOPS>=0] [PHASES>=0]\n");
    return 2;
  }
  double i0 = now();
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  double init = now() - i0, t0 = MPI_Wtime();
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double *inits = rank == 0 ? malloc((size_t)size * sizeof *inits) : NULL;
  MPI_Gather(&init, 1, MPI_DOUBLE, inits, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    qsort(inits, (size_t)size, sizeof *inits, by_value);
    printf("mpi_halo: MPI_Init_thread median %.1f ms, slowest %.1f ms\n", 1e3 * inits[size / 2],
           1e3 * inits[size - 1]);
    free(inits);
  }
  block B = {.n = n};
  neighbours(&B, rank, size);
  size_t cells = (size_t)n * (size_t)n * (size_t)n;
  B.u = malloc(cells * sizeof *B.u);
  for (int d = 0; d < DIRS; d++) {
    B.send[d] = malloc((size_t)n * (size_t)n * sizeof(double));
    B.recv[d] = malloc((size_t)n * (size_t)n * sizeof(double));
  }
  for (size_t i = 0; i < cells; i++)
    B.u[i] = (double)(rank + 1) + (double)(i % 13) * 0.01;
  double dt = 1.0;
  for (int it = 0; it < iters; it++) {
    for (int p = 0; p < phases; p++)
      exchange(&B, p);
    double local = step(&B, loops, it);
    MPI_Allreduce(&local, &dt, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  }
  double sum = 0, all = 0;
  for (size_t i = 0; i < cells; i++)
    sum += B.u[i];
  MPI_Reduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  double t1 = MPI_Wtime();
  if (rank == 0)
    printf("mpi_halo: %d ranks, edge %d, %d iterations, checksum %.6e dt %.6e, %.3f s\n", size, n,
           iters, all, dt, t1 - t0);
  free(B.u);
  for (int d = 0; d < DIRS; d++) {
    free(B.send[d]);
    free(B.recv[d]);
  }
  double f0 = now();
  MPI_Finalize();
  printf("mpi_halo: rank %d MPI_Finalize %.1f ms\n", rank, 1e3 * (now() - f0));
  return 0;
}
