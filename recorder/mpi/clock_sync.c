/* Clock alignment: every rank measures its own clock's offset to rank 0
 * by ping-pong, all ranks at once: rank 0 answers each ping (from any
 * rank) with its clock, so no rank waits for the others' rounds. A rank
 * pings at least MIN_ROUNDS times, more while its fastest round trip is
 * above GOOD_RTT_NS, and stops after MAX_ROUNDS or once BUDGET_NS have
 * passed since rank 0's first answer, giving up a round trip still open
 * then: on a loaded, oversubscribed machine a rank or rank 0 is often not
 * scheduled during a round trip, and only the fastest round counts.
 * Waiting ranks nap instead of spinning, with a short scheduler slice, so
 * the two ranks of a round trip get the CPUs. offset = rank 0's clock in
 * the fastest round - the middle of the rank's clock reads around it,
 * error bound = half that round trip (rank 0 read its clock inside it).
 * Every rank appends "<own time> <offset> <error>" (ns) to
 * DIR/rank-R/clock-sync, synced to disk at once so a rank that dies later
 * keeps it. omptrace-merge writes these as OTF2 ClockOffsets (docs/mpi.md,
 * "Clocks"). Times are CLOCK_MONOTONIC ns, the archive's time base. */
#include "mpi/clock_sync.h"
#include "core/clock.h"
#include "events/mpi_dir.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MIN_ROUNDS 10
#define MAX_ROUNDS 400
#define GOOD_RTT_NS 20000u
#define BUDGET_NS 15000000u /* per rank and sync point: 15 ms */
#define TAG 32123           /* below the smallest MPI_TAG_UB (32767) */
#define SPIN_NS 50000u      /* polling before sleeping between polls */
#define NAP_NS 10000        /* sleep between polls after that */

/* This library's copy of the test-only skew (core/clock.h), set when the
 * library is loaded, before any of its clock reads. */
int64_t ot_clock_skew_ns;
/* Test-only (docs/mpi.md, "Clocks"): OMPTRACE_TEST_CLOCK_SYNC_DELAY_MS
 * makes rank 0 answer every ping but a rank's first that late, so the
 * ranks give up their second round trip. */
static long answer_delay_ms;
__attribute__((constructor)) static void test_init(void) {
  ot_clock_skew_ns = ot_clock_test_skew();
  const char *d = getenv("OMPTRACE_TEST_CLOCK_SYNC_DELAY_MS");
  answer_delay_ms = d ? atol(d) : 0;
}

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

static int sync_point; /* sync points so far: tells their answers apart */
/* The receive of an answer given up at MPI_Init: left posted, so that the
 * answer lands here when it comes (a receive posted first matches first:
 * no receive of the program sees it), and completed at MPI_Finalize. */
static MPI_Request late = MPI_REQUEST_NULL;
static uint64_t late_answer[2];

/* Waits for q: polls for SPIN_NS, then sleeps NAP_NS between polls. A
 * waiting rank that spins competes for the CPUs with the ranks in a round
 * trip (and with anything else on an oversubscribed machine), and a
 * round trip needs both of its ranks on a CPU; a sleeping one is off the
 * run queue and, woken, runs at once. 1 when deadline (0: none) passed
 * first, 0 when done. */
static int wait_for(MPI_Request *q, MPI_Status *st, uint64_t deadline) {
  uint64_t start = ot_monotonic_ns();
  for (;;) {
    int done = 0;
    if (PMPI_Test(q, &done, st) != MPI_SUCCESS)
      return -1;
    if (done)
      return 0;
    uint64_t now = ot_monotonic_ns();
    if (deadline && now > deadline)
      return 1;
    if (now - start > SPIN_NS) {
      struct timespec nap = {0, NAP_NS};
      nanosleep(&nap, NULL);
    }
  }
}

/* A receive whose answer is given up: at MPI_Init left posted (late), at
 * MPI_Finalize cancelled (the program receives nothing after it). */
static int give_up(MPI_Request *q) {
  if (sync_point == 1) {
    late = *q;
    return 0;
  }
  return PMPI_Cancel(q) == MPI_SUCCESS && PMPI_Wait(q, MPI_STATUS_IGNORE) == MPI_SUCCESS ? 0 : -1;
}

/* The scheduler attributes of sched_setattr(2); runtime is the slice
 * a SCHED_OTHER thread asks for (Linux 6.12 and later; 0: the default). */
typedef struct sched_attrs {
  uint32_t size, policy;
  uint64_t flags;
  int32_t nice;
  uint32_t priority;
  uint64_t runtime, deadline, period;
  uint32_t util_min, util_max;
} sched_attrs;

/* A short slice while measuring: a thread woken from a nap with a slice
 * shorter than the running one's takes the CPU at once (EEVDF), instead
 * of waiting up to a slice of each busy thread. Returns whether it set
 * one (then short_slice(0) restores the default). */
static int short_slice(int on) {
#ifdef SYS_sched_setattr
  sched_attrs a = {0};
  if (syscall(SYS_sched_getattr, 0, &a, sizeof a, 0) != 0 || a.policy != 0 /* SCHED_OTHER */)
    return 0;
  a.size = sizeof a;
  a.runtime = on ? 100000 : 0; /* 0.1 ms, the shortest allowed */
  return syscall(SYS_sched_setattr, 0, &a, 0) == 0;
#else
  (void)on;
  return 0;
#endif
}

/* What one sync point took: entry, the first round trip done (rank 0:
 * the first ping), the end; rounds (rank 0: pings answered), the best. */
typedef struct sync_stats {
  uint64_t entry, first, end, best;
  int rounds;
} sync_stats;

/* Rank 0's side: answers every ping {1, id} with {id, its clock} until
 * each of the other ranks has said it is done ({0, 0}). */
static int serve(int others, sync_stats *s) {
  while (others > 0) {
    int ping[2] = {0, 0};
    MPI_Status st;
    MPI_Request q;
    if (PMPI_Irecv(ping, 2, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &q) != MPI_SUCCESS ||
        wait_for(&q, &st, 0) != 0)
      return -1;
    uint64_t answer[2] = {(uint64_t)ping[1], ot_monotonic_ns()};
    if (!s->first)
      s->first = answer[1];
    if (!ping[0]) {
      others--;
      continue;
    }
    s->rounds++;
    if (answer_delay_ms > 0 && (ping[1] & 0xffff)) {
      struct timespec d = {answer_delay_ms / 1000, answer_delay_ms % 1000 * 1000000};
      nanosleep(&d, NULL);
    }
    if (PMPI_Send(answer, 2, MPI_UINT64_T, st.MPI_SOURCE, TAG, MPI_COMM_WORLD) != MPI_SUCCESS)
      return -1;
  }
  return 0;
}

/* One round trip i: its answer (rank 0's clock) in *theirs, or 1 when it
 * was not there by the deadline (0: none). The answer carries the ping's
 * id: rank 0 answers the pings in turn, and one given up at MPI_Init was
 * received before the first ping of MPI_Finalize, so none other comes. */
static int round_trip(int i, uint64_t deadline, uint64_t *t0, uint64_t *theirs) {
  int ping[2] = {1, sync_point << 16 | i};
  uint64_t *answer = late_answer; /* the buffer a given-up receive keeps */
  MPI_Request q;
  MPI_Status st;
  *t0 = ot_monotonic_ns();
  if (PMPI_Send(ping, 2, MPI_INT, 0, TAG, MPI_COMM_WORLD) != MPI_SUCCESS)
    return -1;
  do { /* an answer to another ping (none expected) is skipped */
    if (PMPI_Irecv(answer, 2, MPI_UINT64_T, 0, TAG, MPI_COMM_WORLD, &q) != MPI_SUCCESS)
      return -1;
    int rc = wait_for(&q, &st, deadline);
    if (rc > 0)
      return give_up(&q) == 0 ? 1 : -1;
    if (rc < 0)
      return -1;
  } while (answer[0] != (uint64_t)ping[1]);
  *theirs = answer[1];
  return 0;
}

/* Another rank's side: {own time, offset, error} of its fastest round.
 * The budget starts with the first answer: until then the rank waits for
 * rank 0 to arrive (at MPI_Finalize, for rank 0's own work to end); a
 * round trip still open at its end is given up. */
static int measure(int64_t res[3], sync_stats *s) {
  uint64_t best = UINT64_MAX;
  for (int i = 0; i < MAX_ROUNDS; i++) {
    if (i > 0 && i >= MIN_ROUNDS && best <= GOOD_RTT_NS)
      break;
    uint64_t t0, theirs;
    int rc = round_trip(i, i ? s->first + BUDGET_NS : 0, &t0, &theirs);
    if (rc != 0) {
      if (rc < 0)
        best = UINT64_MAX; /* no point, but rank 0 must hear it is done */
      break;
    }
    uint64_t t1 = ot_monotonic_ns();
    if (!i)
      s->first = t1;
    s->rounds++;
    if (t1 - t0 < best) {
      best = t1 - t0;
      res[0] = (int64_t)(t0 + best / 2);
      res[1] = (int64_t)(theirs - (t0 + best / 2));
      res[2] = (int64_t)((best + 1) / 2);
    }
    if (ot_monotonic_ns() - s->first > BUDGET_NS)
      break;
  }
  s->best = best;
  int done[2] = {0, 0};
  if (PMPI_Send(done, 2, MPI_INT, 0, TAG, MPI_COMM_WORLD) != MPI_SUCCESS)
    return -1;
  return best == UINT64_MAX ? -1 : 0;
}

/* With OMPTRACE_VERBOSE set, one line per rank and sync point (one write:
 * the ranks share stderr). */
static void report(int rank, const sync_stats *s) {
  const char *v = getenv("OMPTRACE_VERBOSE");
  char line[256];
  if (!v || atoi(v) <= 0)
    return;
  uint64_t first = s->first ? s->first : s->end;
  int n = rank ? snprintf(line, sizeof line,
                          "omptrace: mpi: rank %d: clock sync: waited %.6f s for rank 0, "
                          "measured %.6f s (%d round trips, the best %.1f us)\n",
                          rank, (double)(first - s->entry) * 1e-9, (double)(s->end - first) * 1e-9,
                          s->rounds, (double)s->best * 1e-3)
               : snprintf(line, sizeof line,
                          "omptrace: mpi: rank 0: clock sync: waited %.6f s for the first "
                          "rank, answered %.6f s (%d round trips)\n",
                          (double)(first - s->entry) * 1e-9, (double)(s->end - first) * 1e-9,
                          s->rounds);
  if (n > 0 && (size_t)n < sizeof line && write(STDERR_FILENO, line, (size_t)n) < 0)
    return;
}

void ot_clock_sync(void) {
  int rank = -1, size = 0;
  if (PMPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS ||
      PMPI_Comm_size(MPI_COMM_WORLD, &size) != MPI_SUCCESS || rank < 0)
    return;
  int64_t res[3];
  sync_stats st = {.entry = ot_monotonic_ns()};
  sync_point++;
  if (late != MPI_REQUEST_NULL && PMPI_Wait(&late, MPI_STATUS_IGNORE) != MPI_SUCCESS)
    return; /* the answer given up at MPI_Init: rank 0 sent it before it ended */
  int slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0); /* naps of NAP_NS, not the default 50 us */
  if (slack > 0)
    prctl(PR_SET_TIMERSLACK, 1, 0, 0, 0);
  int sliced = short_slice(1);
  int ok = rank == 0 ? serve(size - 1, &st) : measure(res, &st);
  st.end = ot_monotonic_ns();
  if (slack > 0)
    prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0);
  if (sliced)
    short_slice(0);
  if (ok != 0)
    return;
  if (rank == 0)
    append(st.end, 0, 0);
  else
    append((uint64_t)res[0], res[1], (uint64_t)res[2]);
  report(rank, &st);
}
