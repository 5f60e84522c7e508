/* Start (with the first clock sync), end (the second) and abort. With
 * OMPTRACE_VERBOSE set, each rank prints how long its MPI_Init* and
 * MPI_Finalize took and the clock sync's share (bench/mpi_phases.py). */
#include "core/clock.h"
#include "mpi/clock_sync.h"
#include "mpi/wrap.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The OpenMP runtime loads the tool at its first call: made here, so the
 * initial thread is recorded already in MPI_Init (a program's first
 * OpenMP construct usually comes later). */
static void start_openmp(void) {
  void *sym = dlsym(RTLD_DEFAULT, "omp_get_max_threads");
  int (*f)(void) = NULL;
  if (sym) {
    __builtin_memcpy(&f, &sym, sizeof f);
    (void)f();
  }
  ot_mpi_hook_settle();
}

static int verbose(void) {
  const char *v = getenv("OMPTRACE_VERBOSE");
  return v && atoi(v) > 0;
}

/* One line, one write(2): the ranks share stderr. Times are
 * CLOCK_MONOTONIC, which every process of the host shares. started: when
 * the tool had started (MPI_Init*), else 0. */
static void phase_line(int rank, const char *call, uint64_t t0, uint64_t started, uint64_t sync0,
                       uint64_t sync1, uint64_t t1) {
  char line[300], start[64] = "";
  if (started)
    snprintf(start, sizeof start, ", tool start %.6f s", (double)(started - t0) * 1e-9);
  int n = snprintf(line, sizeof line,
                   "omptrace: mpi: rank %d: %s %.6f s, clock sync %.6f s; entered at %.6f s, "
                   "left at %.6f s (CLOCK_MONOTONIC)%s\n",
                   rank, call, (double)(t1 - t0) * 1e-9, (double)(sync1 - sync0) * 1e-9,
                   (double)t0 * 1e-9, (double)t1 * 1e-9, start);
  if (n > 0 && (size_t)n < sizeof line) {
    ssize_t w = write(STDERR_FILENO, line, (size_t)n);
    (void)w; /* nothing sensible to do if stderr is gone */
  }
}

/* The leave of the init call carries the rank (the archive's process name). */
static uint64_t world_rank(void) {
  int rank = -1;
  if (PMPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS || rank < 0)
    return 0;
  return (uint64_t)rank + 1;
}

int MPI_Init(int *argc, char ***argv) {
  const void *cp = __builtin_return_address(0);
  uint64_t t0 = ot_monotonic_ns();
  start_openmp();
  uint64_t started = ot_monotonic_ns();
  ot_mpi_hook(OT_MPI_Init, 0, cp, 0);
  int rc = PMPI_Init(argc, argv);
  ot_mpi_comms_init();
  uint64_t s0 = ot_monotonic_ns();
  if (rc == MPI_SUCCESS)
    ot_clock_sync();
  uint64_t s1 = ot_monotonic_ns();
  ot_mpi_hook(OT_MPI_Init, 1, cp, world_rank());
  if (rc == MPI_SUCCESS && verbose())
    phase_line((int)world_rank() - 1, "MPI_Init", t0, started, s0, s1, ot_monotonic_ns());
  return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  const void *cp = __builtin_return_address(0);
  uint64_t t0 = ot_monotonic_ns();
  start_openmp();
  uint64_t started = ot_monotonic_ns();
  ot_mpi_hook(OT_MPI_Init_thread, 0, cp, 0);
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  ot_mpi_comms_init();
  uint64_t s0 = ot_monotonic_ns();
  if (rc == MPI_SUCCESS)
    ot_clock_sync();
  uint64_t s1 = ot_monotonic_ns();
  ot_mpi_hook(OT_MPI_Init_thread, 1, cp, world_rank());
  if (rc == MPI_SUCCESS && verbose())
    phase_line((int)world_rank() - 1, "MPI_Init_thread", t0, started, s0, s1, ot_monotonic_ns());
  return rc;
}

/* The call never returns and mpirun then kills every rank: its Enter is
 * the thread's last record, and the archive is written before it. */
int MPI_Abort(MPI_Comm c, int code) {
  ot_mpi_hook(OT_MPI_Abort, 0, __builtin_return_address(0), 0);
  ot_mpi_hook_abort();
  return PMPI_Abort(c, code);
}

/* The second clock sync point, while every rank can still communicate. */
int MPI_Finalize(void) {
  const void *cp = __builtin_return_address(0);
  uint64_t t0 = ot_monotonic_ns();
  ot_mpi_hook(OT_MPI_Finalize, 0, cp, 0);
  uint64_t s0 = ot_monotonic_ns();
  ot_clock_sync();
  uint64_t s1 = ot_monotonic_ns();
  int rank = -1;
  if (verbose()) /* asked before PMPI_Finalize, which ends MPI */
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int rc = PMPI_Finalize();
  ot_mpi_hook(OT_MPI_Finalize, 1, cp, 0);
  if (rank >= 0)
    phase_line(rank, "MPI_Finalize", t0, 0, s0, s1, ot_monotonic_ns());
  return rc;
}
