/* Start (with the first clock sync), end (the second) and abort. */
#include "mpi/clock_sync.h"
#include "mpi/wrap.h"

#include <dlfcn.h>

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

/* The leave of the init call carries the rank (the archive's process name). */
static uint64_t world_rank(void) {
  int rank = -1;
  if (PMPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS || rank < 0)
    return 0;
  return (uint64_t)rank + 1;
}

int MPI_Init(int *argc, char ***argv) {
  const void *cp = __builtin_return_address(0);
  start_openmp();
  ot_mpi_hook(OT_MPI_Init, 0, cp, 0);
  int rc = PMPI_Init(argc, argv);
  ot_mpi_comms_init();
  if (rc == MPI_SUCCESS)
    ot_clock_sync();
  ot_mpi_hook(OT_MPI_Init, 1, cp, world_rank());
  return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  const void *cp = __builtin_return_address(0);
  start_openmp();
  ot_mpi_hook(OT_MPI_Init_thread, 0, cp, 0);
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  ot_mpi_comms_init();
  if (rc == MPI_SUCCESS)
    ot_clock_sync();
  ot_mpi_hook(OT_MPI_Init_thread, 1, cp, world_rank());
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
  ot_mpi_hook(OT_MPI_Finalize, 0, cp, 0);
  ot_clock_sync();
  int rc = PMPI_Finalize();
  ot_mpi_hook(OT_MPI_Finalize, 1, cp, 0);
  return rc;
}
