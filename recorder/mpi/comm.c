/* Communicators: MPI_COMM_WORLD, MPI_COMM_SELF and those made by
 * MPI_Comm_dup/split/create, each recorded once (MPI_COMM + MPI_MEMBER
 * records, so recovery has them) under a name unique across the job:
 * "<call> <W>.<K>", W the world rank of the new communicator's rank 0 and
 * K how many communicators that process had created (its value sent to
 * the others with PMPI_Bcast inside the creating call). The table is
 * append-only: a lookup reads it without a lock; MPI_Comm_free only
 * forgets the handle (the definition stays for the records). */
#include "mpi/wrap.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_COMMS 1024

static MPI_Comm _Atomic handles[MAX_COMMS];
static atomic_uint ncomms;
static atomic_uint created; /* communicators this process created */
static pthread_mutex_t add_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int full_said;

uint32_t ot_mpi_comm_id(MPI_Comm c) {
  if (c == MPI_COMM_NULL)
    return OT_COMM_NONE;
  unsigned n = atomic_load_explicit(&ncomms, memory_order_acquire);
  for (unsigned i = n; i-- > 0;) /* newest first: a freed handle may be reused */
    if (atomic_load_explicit(&handles[i], memory_order_relaxed) == c)
      return i;
  return OT_COMM_NONE;
}

static uint32_t add(MPI_Comm c) {
  pthread_mutex_lock(&add_lock);
  unsigned n = atomic_load_explicit(&ncomms, memory_order_relaxed);
  uint32_t id = OT_COMM_NONE;
  if (n < MAX_COMMS) {
    atomic_store_explicit(&handles[n], c, memory_order_relaxed);
    atomic_store_explicit(&ncomms, n + 1, memory_order_release);
    id = n;
  }
  pthread_mutex_unlock(&add_lock);
  if (id == OT_COMM_NONE && !atomic_exchange(&full_said, 1))
    fprintf(stderr,
            "omptrace: more than %d MPI communicators: later ones are recorded without "
            "messages and collectives\n",
            MAX_COMMS);
  return id;
}

void ot_mpi_comms_init(void) {
  if (!ot_mpi_on() || atomic_load(&ncomms))
    return;
  int size = 0;
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  uint32_t w = add(MPI_COMM_WORLD), s = add(MPI_COMM_SELF);
  ot_mpi_rec(OT_MR_COMM, OT_COMM_WORLD, w, OT_COMM_NONE, (uint64_t)size);
  ot_mpi_rec(OT_MR_COMM, OT_COMM_SELF, s, OT_COMM_NONE, 1);
}

/* The world rank of each member of c, in c's rank order. */
static int *world_ranks(MPI_Comm c, int n) {
  int *ranks = malloc(2 * (size_t)n * sizeof *ranks);
  MPI_Group g, wg;
  if (!ranks || PMPI_Comm_group(c, &g) != MPI_SUCCESS) {
    free(ranks);
    return NULL;
  }
  PMPI_Comm_group(MPI_COMM_WORLD, &wg);
  for (int i = 0; i < n; i++)
    ranks[n + i] = i;
  PMPI_Group_translate_ranks(g, n, ranks + n, wg, ranks);
  PMPI_Group_free(&g);
  PMPI_Group_free(&wg);
  return ranks;
}

/* A communicator call made *made from parent: its definition, collective
 * over the new communicator's members (every member runs this). */
static void created_comm(unsigned call, MPI_Comm parent, MPI_Comm made) {
  int inter = 0, n = 0;
  if (!ot_mpi_on() || made == MPI_COMM_NULL || PMPI_Comm_test_inter(made, &inter) != MPI_SUCCESS ||
      inter || PMPI_Comm_size(made, &n) != MPI_SUCCESS)
    return;
  unsigned k = atomic_fetch_add(&created, 1) + 1;
  PMPI_Bcast(&k, 1, MPI_UNSIGNED, 0, made); /* rank 0's K names it */
  int *ranks = world_ranks(made, n);
  uint32_t id = ranks ? add(made) : OT_COMM_NONE;
  if (id != OT_COMM_NONE) {
    uint32_t pid = ot_mpi_comm_id(parent);
    ot_mpi_rec(OT_MR_COMM, OT_COMM_CREATED, id, (uint64_t)call << 32 | pid,
               (uint64_t)k << 32 | (uint32_t)n);
    for (int i = 0; i < n; i++)
      ot_mpi_rec(OT_MR_MEMBER, 0, id, (uint64_t)i, (uint64_t)(uint32_t)ranks[i]);
  }
  free(ranks);
}

/* The handle goes (MPI may reuse it); the id and its definition stay. */
static void forget(MPI_Comm c) {
  uint32_t id = ot_mpi_comm_id(c);
  if (id != OT_COMM_NONE && id > 1)
    atomic_store_explicit(&handles[id], MPI_COMM_NULL, memory_order_relaxed);
}

#define COMM_CALL(name, call)                                                                      \
  const void *cp = __builtin_return_address(0);                                                    \
  ot_mpi_hook(OT_MPI_##name, 0, cp, 0);                                                            \
  int rc = call;                                                                                   \
  if (rc == MPI_SUCCESS)                                                                           \
    created_comm(OT_MPI_##name, c, *n);                                                            \
  ot_mpi_hook(OT_MPI_##name, 1, cp, 0);                                                            \
  return rc;

int MPI_Comm_dup(MPI_Comm c, MPI_Comm *n) {
  COMM_CALL(Comm_dup, PMPI_Comm_dup(c, n))
}

int MPI_Comm_split(MPI_Comm c, int color, int key, MPI_Comm *n) {
  COMM_CALL(Comm_split, PMPI_Comm_split(c, color, key, n))
}

int MPI_Comm_create(MPI_Comm c, MPI_Group g, MPI_Comm *n) {
  COMM_CALL(Comm_create, PMPI_Comm_create(c, g, n))
}

int MPI_Comm_free(MPI_Comm *c) {
  const void *cp = __builtin_return_address(0);
  ot_mpi_hook(OT_MPI_Comm_free, 0, cp, 0);
  MPI_Comm old = *c;
  int rc = PMPI_Comm_free(c);
  if (rc == MPI_SUCCESS)
    forget(old);
  ot_mpi_hook(OT_MPI_Comm_free, 1, cp, 0);
  return rc;
}
