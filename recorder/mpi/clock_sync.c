/* Clock alignment: rank 0 measures each other rank's clock offset in turn
 * by ping-pong (at least MIN_ROUNDS round trips, more while the best is
 * slower than GOOD_RTT_NS, up to MAX_ROUNDS or BUDGET_NS: on a loaded
 * machine a rank is often not scheduled in time, and the error bound is
 * half the best round trip; the one with the smallest round trip
 * wins: offset = rank 0's clock at its middle - the rank's clock read in
 * it, error bound = half the round trip), and every rank appends
 * "<own time> <offset> <error>" (ns) to DIR/rank-R/clock-sync, synced to
 * disk at once so a rank that dies later keeps it. omptrace-merge writes
 * these as OTF2 ClockOffsets (docs/mpi.md, "Clocks"). Times are
 * CLOCK_MONOTONIC ns, the archive's time base. */
#include "mpi/clock_sync.h"
#include "core/clock.h"
#include "events/mpi_dir.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIN_ROUNDS 10
#define MAX_ROUNDS 400
#define GOOD_RTT_NS 20000u
#define BUDGET_NS 100000000u /* per rank and sync point */
#define TAG 32123            /* below the smallest MPI_TAG_UB (32767) */

/* The recorder's directory, or NULL (not loaded, or recording nothing).
 * The OpenMP runtime loads the tool privately: then ask the library. */
static const char *record_dir(void) {
  void *sym = dlsym(RTLD_DEFAULT, OT_MPI_DIR_SYMBOL);
  const char *names[] = {"libomptrace.so", getenv("OMP_TOOL_LIBRARIES")};
  for (unsigned i = 0; !sym && i < sizeof names / sizeof names[0]; i++) {
    void *h = names[i] ? dlopen(names[i], RTLD_LAZY | RTLD_NOLOAD) : NULL;
    if (h) {
      sym = dlsym(h, OT_MPI_DIR_SYMBOL);
      dlclose(h);
    }
  }
  ot_mpi_dir_fn *f = NULL;
  if (!sym)
    return NULL;
  __builtin_memcpy(&f, &sym, sizeof f);
  return f();
}

static void append(uint64_t own, int64_t offset, uint64_t error) {
  const char *dir = record_dir();
  char path[4200], line[128];
  if (!dir)
    return;
  snprintf(path, sizeof path, "%s/clock-sync", dir);
  int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0)
    return; /* the trace stays readable, only unaligned */
  struct stat st;
  int n = 0;
  if (fstat(fd, &st) == 0 && st.st_size == 0)
    n = snprintf(line, sizeof line, "# own_time_ns offset_ns error_ns (offset: rank 0 - own)\n");
  n += snprintf(line + n, sizeof line - (size_t)n, "%" PRIu64 " %" PRId64 " %" PRIu64 "\n", own,
                offset, error);
  if (write(fd, line, (size_t)n) == n)
    (void)fsync(fd);
  close(fd);
}

/* Rank 0's side with rank r: {r's time, offset, error} of the best round.
 * Each ping carries 1 (answer it) or 0 (the result follows). */
static int measure(int r, int64_t res[3]) {
  uint64_t best = UINT64_MAX, start = ot_monotonic_ns();
  int ping = 1;
  for (int i = 0; i < MAX_ROUNDS; i++) {
    if (i >= MIN_ROUNDS && (best <= GOOD_RTT_NS || ot_monotonic_ns() - start > BUDGET_NS))
      break;
    uint64_t theirs = 0, t0 = ot_monotonic_ns();
    if (PMPI_Send(&ping, 1, MPI_INT, r, TAG, MPI_COMM_WORLD) != MPI_SUCCESS ||
        PMPI_Recv(&theirs, 1, MPI_UINT64_T, r, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS)
      return -1;
    uint64_t t1 = ot_monotonic_ns();
    if (t1 - t0 < best) {
      best = t1 - t0;
      res[0] = (int64_t)theirs;
      res[1] = (int64_t)(t0 + (t1 - t0) / 2 - theirs);
      res[2] = (int64_t)((best + 1) / 2);
    }
  }
  ping = 0;
  return PMPI_Send(&ping, 1, MPI_INT, r, TAG, MPI_COMM_WORLD) == MPI_SUCCESS &&
                 PMPI_Send(res, 3, MPI_INT64_T, r, TAG, MPI_COMM_WORLD) == MPI_SUCCESS
             ? 0
             : -1;
}

/* Rank r's side: answers each ping with its clock, then gets the result. */
static int answer(int64_t res[3]) {
  for (;;) {
    int ping = 0;
    if (PMPI_Recv(&ping, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS)
      return -1;
    if (!ping)
      break;
    uint64_t t = ot_monotonic_ns();
    if (PMPI_Send(&t, 1, MPI_UINT64_T, 0, TAG, MPI_COMM_WORLD) != MPI_SUCCESS)
      return -1;
  }
  return PMPI_Recv(res, 3, MPI_INT64_T, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS
             ? 0
             : -1;
}

void ot_clock_sync(void) {
  int rank = -1, size = 0;
  if (PMPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS ||
      PMPI_Comm_size(MPI_COMM_WORLD, &size) != MPI_SUCCESS || rank < 0)
    return;
  int64_t res[3];
  if (rank == 0) {
    for (int r = 1; r < size; r++)
      if (measure(r, res) != 0)
        return;
    append(ot_monotonic_ns(), 0, 0);
  } else if (answer(res) == 0) {
    append((uint64_t)res[0], res[1], (uint64_t)res[2]);
  }
}
