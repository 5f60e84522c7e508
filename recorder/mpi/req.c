/* The request table: open addressing on the handle with linear probing
 * and backward-shift deletion, bounded, under one mutex (requests may
 * complete on another thread than the one that started them; this is
 * the wrappers' path, never the OpenMP callbacks'). */
#include "mpi/req.h"
#include "mpi/hook.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define SLOTS 4096u /* a power of two */
#define MAX_USED (SLOTS - SLOTS / 8)

static ot_mpi_req table[SLOTS];
static unsigned used;
/* used, readable without the lock: a completion with nothing pending (a
 * null request, a program without nonblocking calls) takes no lock. */
static atomic_uint pending;
static uint64_t next_id;
static int ready;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int full_said;

static unsigned home(MPI_Request q) {
  uint64_t h = (uint64_t)(uintptr_t)q * 0x9e3779b97f4a7c15ull;
  return (unsigned)(h >> 40) & (SLOTS - 1);
}

/* MPI_REQUEST_NULL is a link-time constant only after MPI's headers; the
 * table starts empty = all slots set to it. */
static void init_locked(void) {
  if (ready)
    return;
  for (unsigned i = 0; i < SLOTS; i++)
    table[i].handle = MPI_REQUEST_NULL;
  ready = 1;
}

uint64_t ot_mpi_req_add(MPI_Request q, uint32_t comm, int send) {
  uint64_t id = 0;
  pthread_mutex_lock(&lock);
  init_locked();
  if (q != MPI_REQUEST_NULL && used < MAX_USED) {
    unsigned i = home(q);
    while (table[i].handle != MPI_REQUEST_NULL && table[i].handle != q)
      i = (i + 1) & (SLOTS - 1);
    used += table[i].handle == MPI_REQUEST_NULL;
    atomic_store_explicit(&pending, used, memory_order_relaxed);
    id = ++next_id;
    table[i] = (ot_mpi_req){.handle = q, .id = id, .comm = comm, .send = send};
  }
  pthread_mutex_unlock(&lock);
  if (!id && q != MPI_REQUEST_NULL && !atomic_exchange(&full_said, 1))
    fprintf(stderr,
            "omptrace: more than %u MPI requests pending: later ones are recorded "
            "without message records\n",
            MAX_USED);
  return id;
}

/* Removes slot i, moving later entries of its probe run back. */
static void remove_at(unsigned i) {
  for (unsigned j = (i + 1) & (SLOTS - 1); table[j].handle != MPI_REQUEST_NULL;
       j = (j + 1) & (SLOTS - 1)) {
    unsigned h = home(table[j].handle);
    /* j's entry may move to i when its home is not in (i, j] cyclically */
    if (((j - h) & (SLOTS - 1)) >= ((j - i) & (SLOTS - 1))) {
      table[i] = table[j];
      i = j;
    }
  }
  table[i].handle = MPI_REQUEST_NULL;
  used--;
  atomic_store_explicit(&pending, used, memory_order_relaxed);
}

static int take(MPI_Request q, ot_mpi_req *out) {
  int found = 0;
  if (q == MPI_REQUEST_NULL || !atomic_load_explicit(&pending, memory_order_relaxed))
    return 0;
  pthread_mutex_lock(&lock);
  init_locked();
  for (unsigned i = home(q); q != MPI_REQUEST_NULL && table[i].handle != MPI_REQUEST_NULL;
       i = (i + 1) & (SLOTS - 1)) {
    if (table[i].handle == q) {
      *out = table[i];
      remove_at(i);
      found = 1;
      break;
    }
  }
  pthread_mutex_unlock(&lock);
  return found;
}

void ot_mpi_req_done(MPI_Request q, const MPI_Status *s) {
  ot_mpi_req r;
  if (!take(q, &r))
    return;
  if (r.send) {
    ot_mpi_rec(OT_MR_REQ, OT_MSG_ISEND_COMPLETE, 0, 0, r.id);
    return;
  }
  int cancelled = 0, bytes = 0;
  PMPI_Test_cancelled(s, &cancelled);
  if (cancelled || s->MPI_SOURCE == MPI_PROC_NULL)
    return;
  if (PMPI_Get_count(s, MPI_BYTE, &bytes) != MPI_SUCCESS || bytes == MPI_UNDEFINED)
    bytes = 0;
  ot_mpi_rec(OT_MR_REQ, OT_MSG_REQUEST, 0, 0, r.id);
  ot_mpi_rec(OT_MR_MSG, OT_MSG_IRECV, r.comm,
             (uint64_t)(uint32_t)s->MPI_SOURCE << 32 | (uint32_t)s->MPI_TAG, (uint64_t)bytes);
}
