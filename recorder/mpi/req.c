/* The request table. Open MPI 4.1 returns one shared, already complete
 * request for every send it completes at once, so one handle may stand
 * for several pending requests: slots are keyed by handle (open
 * addressing, linear probing, backward-shift deletion) and each holds a
 * list of pending entries, oldest first, plus a persistent request's
 * definition. A completion of handle h takes h's entry started through
 * the same program variable (the MPI_Request the starting call wrote),
 * looked for among its first SCAN entries, else h's oldest: each entry
 * is completed once per completion the program makes, and where requests
 * are completed in the variables that started them (the usual array of
 * requests) by the call completing its own request. Entries that share a
 * handle were all complete at once, so a swap between them only changes
 * which call writes which id. Keying by variable alone would fail
 * programs that complete a copy of the handle.
 *
 * Ids are taken before the starting call (its send record precedes the
 * message), by each thread in blocks of an atomic counter (unique, in
 * order per thread); the entry is added after the call. One mutex
 * (requests may complete on another thread than the one that started
 * them), taken once per call and never on the OpenMP callbacks' path; a
 * completing call writes its records under it (no copies). */
#include "mpi/req.h"
#include "mpi/hook.h"

#include <pthread.h>
#include <stdio.h>

#define SLOTS 4096u                 /* a power of two */
#define ENTRIES (SLOTS - SLOTS / 8) /* pending entries and definitions */
/* beyond OT_MPI_REQ_ROOM: entries of starts racing past the room check */
_Static_assert(OT_MPI_REQ_ROOM + 64 <= ENTRIES, "room for racing starts");
#define NIL UINT32_MAX
#define SCAN 8
#define ID_BLOCK 64

typedef struct slot {
  MPI_Request handle;  /* MPI_REQUEST_NULL: a free slot */
  uint32_t head, tail; /* pending entries, oldest first */
  uint32_t def;        /* persistent definition, or NIL */
} slot;

typedef struct entry {
  ot_mpi_req r;
  const MPI_Request *var; /* the program's variable that started it */
  uint32_t next;          /* in its slot's list, or the free list */
} entry;

static slot table[SLOTS];
static entry pool[ENTRIES];
static uint32_t free_head;
static int ready;
/* entries in use, readable without the lock: a completion with nothing
 * pending (a null request, a program without nonblocking calls) takes no
 * lock */
atomic_uint ot_mpi_req_used;
#define used ot_mpi_req_used
static atomic_uint_least64_t next_id;
/* each thread's ids: no atomic operation per request */
__thread uint64_t ot_mpi_req_next __attribute__((tls_model("initial-exec")));
__thread uint64_t ot_mpi_req_end __attribute__((tls_model("initial-exec")));
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int full_said;

static void say_full(void) {
  if (!atomic_exchange(&full_said, 1))
    fprintf(stderr,
            "omptrace: more than %u MPI requests pending: later ones are recorded "
            "without message records\n",
            OT_MPI_REQ_ROOM);
}

static unsigned home(MPI_Request q) {
  uint64_t h = (uint64_t)(uintptr_t)q * 0x9e3779b97f4a7c15ull;
  return (unsigned)(h >> 40) & (SLOTS - 1);
}

/* MPI_REQUEST_NULL is a link-time constant only after MPI's headers: the
 * table starts empty = all slots set to it. */
static void init_locked(void) {
  if (ready)
    return;
  for (unsigned i = 0; i < SLOTS; i++)
    table[i] = (slot){MPI_REQUEST_NULL, NIL, NIL, NIL};
  for (uint32_t e = 0; e < ENTRIES; e++)
    pool[e].next = e + 1 < ENTRIES ? e + 1 : NIL;
  free_head = 0;
  ready = 1;
}

static void lock_table(void) {
  pthread_mutex_lock(&lock);
  init_locked();
}

static uint32_t entry_new(void) {
  uint32_t e = free_head;
  if (e != NIL) {
    free_head = pool[e].next;
    pool[e].next = NIL;
    atomic_store_explicit(&used, atomic_load_explicit(&used, memory_order_relaxed) + 1,
                          memory_order_relaxed);
  }
  return e;
}

static void entry_drop(uint32_t e) {
  pool[e].next = free_head;
  free_head = e;
  atomic_store_explicit(&used, atomic_load_explicit(&used, memory_order_relaxed) - 1,
                        memory_order_relaxed);
}

static uint32_t find(MPI_Request q) {
  for (unsigned i = home(q); table[i].handle != MPI_REQUEST_NULL; i = (i + 1) & (SLOTS - 1))
    if (table[i].handle == q)
      return i;
  return NIL;
}

/* q's slot, made if need be: slots in use never outnumber entries in
 * use, so a free one exists. */
static uint32_t find_or_add(MPI_Request q) {
  unsigned i = home(q);
  while (table[i].handle != MPI_REQUEST_NULL && table[i].handle != q)
    i = (i + 1) & (SLOTS - 1);
  if (table[i].handle == MPI_REQUEST_NULL)
    table[i] = (slot){q, NIL, NIL, NIL};
  return i;
}

/* Frees slot i once it holds nothing, moving later entries of its probe
 * run back. */
static void release_if_empty(unsigned i) {
  if (table[i].head != NIL || table[i].def != NIL)
    return;
  for (unsigned j = (i + 1) & (SLOTS - 1); table[j].handle != MPI_REQUEST_NULL;
       j = (j + 1) & (SLOTS - 1)) {
    unsigned h = home(table[j].handle);
    /* j's slot may move to i when its home is not in (i, j] cyclically */
    if (((j - h) & (SLOTS - 1)) >= ((j - i) & (SLOTS - 1))) {
      table[i] = table[j];
      i = j;
    }
  }
  table[i].handle = MPI_REQUEST_NULL;
}

/* Slot i's entry of variable var among its first SCAN, else its oldest
 * (NIL when the list is empty); *before: the entry before it or NIL. */
static uint32_t pick(uint32_t i, const MPI_Request *var, uint32_t *before) {
  uint32_t prev = NIL, e = table[i].head;
  for (unsigned k = 0; e != NIL && k < SCAN && pool[e].var != var; k++) {
    prev = e;
    e = pool[e].next;
  }
  if (e == NIL || pool[e].var != var) {
    prev = NIL;
    e = table[i].head;
  }
  *before = prev;
  return e;
}

/* Unlinks slot i's entry of variable var (else its oldest) from its list:
 * the entry, still to be dropped, or NIL when the list is empty. */
static uint32_t take(uint32_t i, const MPI_Request *var) {
  slot *s = &table[i];
  uint32_t prev, e = pick(i, var, &prev);
  if (e == NIL)
    return NIL;
  if (prev == NIL)
    s->head = pool[e].next;
  else
    pool[prev].next = pool[e].next;
  if (s->tail == e)
    s->tail = prev;
  return e;
}

uint64_t ot_mpi_req_id_slow(void) {
  if (atomic_load_explicit(&used, memory_order_relaxed) >= OT_MPI_REQ_ROOM) {
    say_full();
    return 0;
  }
  if (ot_mpi_req_next == ot_mpi_req_end) {
    ot_mpi_req_next = atomic_fetch_add_explicit(&next_id, ID_BLOCK, memory_order_relaxed) + 1;
    ot_mpi_req_end = ot_mpi_req_next + ID_BLOCK;
  }
  return ot_mpi_req_next++;
}

/* A new entry of q started through var, appended to q's list; NULL when
 * none is left. Under the lock. */
static ot_mpi_req *append(MPI_Request q, const MPI_Request *var) {
  uint32_t e = entry_new();
  if (e == NIL)
    return NULL;
  pool[e].var = var;
  uint32_t i = find_or_add(q);
  if (table[i].tail == NIL)
    table[i].head = e;
  else
    pool[table[i].tail].next = e;
  table[i].tail = e;
  return &pool[e].r;
}

void ot_mpi_req_add(MPI_Request q, const MPI_Request *var, const ot_mpi_req *r) {
  if (q == MPI_REQUEST_NULL)
    return;
  lock_table();
  ot_mpi_req *e = append(q, var);
  if (e)
    *e = *r;
  pthread_mutex_unlock(&lock);
  if (!e)
    say_full();
}

void ot_mpi_req_add_msg(MPI_Request q, const MPI_Request *var, uint64_t id, uint32_t comm,
                        int kind) {
  if (q == MPI_REQUEST_NULL)
    return;
  lock_table();
  ot_mpi_req *e = append(q, var);
  if (e) { /* the other fields are not read for sends and receives */
    e->id = id;
    e->comm = comm;
    e->kind = (uint8_t)kind;
    e->cancel = 0;
  }
  pthread_mutex_unlock(&lock);
  if (!e)
    say_full();
}

/* The completion records of r, completed with status s: a cancelled
 * send or receive has MpiRequestCancelled instead (OTF2's way). */
static inline __attribute__((always_inline)) void complete(const ot_mpi_req *r,
                                                           const MPI_Status *s) {
  int cancelled = 0, bytes = 0;
  if (r->kind == OT_REQ_SEND) {
    if (r->cancel)
      PMPI_Test_cancelled(s, &cancelled);
    ot_mpi_rec(OT_MR_REQ, cancelled ? OT_MSG_CANCELLED : OT_MSG_ISEND_COMPLETE, 0, 0, r->id);
    return;
  }
  if (r->kind == OT_REQ_NBC) {
    ot_mpi_rec(OT_MR_REQ, OT_MSG_NBC_COMPLETE, 0, 0, r->id);
    ot_mpi_rec(OT_MR_COLL_BEGIN, 0, r->root, 0, 0);
    ot_mpi_rec(OT_MR_COLL_END, r->op, r->comm, r->b, r->c);
    return;
  }
  PMPI_Test_cancelled(s, &cancelled);
  if (cancelled)
    ot_mpi_rec(OT_MR_REQ, OT_MSG_CANCELLED, 0, 0, r->id);
  if (cancelled || s->MPI_SOURCE == MPI_PROC_NULL)
    return;
  if (PMPI_Get_count(s, MPI_BYTE, &bytes) != MPI_SUCCESS || bytes == MPI_UNDEFINED)
    bytes = 0;
  ot_mpi_msg(OT_MSG_IRECV, r->comm, (uint64_t)(uint32_t)s->MPI_SOURCE << 32 | (uint32_t)s->MPI_TAG,
             (uint64_t)bytes, r->id);
}

void ot_mpi_req_done(int n, const MPI_Request old[], const MPI_Request var[], const MPI_Status s[],
                     const int idx[]) {
  if (!atomic_load_explicit(&used, memory_order_relaxed))
    return;
  lock_table();
  for (int k = 0; k < n; k++) {
    int j = idx ? idx[k] : k;
    uint32_t i = old[j] != MPI_REQUEST_NULL ? find(old[j]) : NIL;
    uint32_t e = i != NIL ? take(i, &var[j]) : NIL;
    if (e != NIL) {
      complete(&pool[e].r, &s[k]);
      entry_drop(e);
      release_if_empty(i);
    }
  }
  pthread_mutex_unlock(&lock);
}

void ot_mpi_req_free(MPI_Request q, const MPI_Request *var, const MPI_Status *s) {
  if (q == MPI_REQUEST_NULL || !atomic_load_explicit(&used, memory_order_relaxed))
    return;
  lock_table();
  uint32_t i = find(q);
  if (i != NIL) {
    uint32_t e = take(i, var);
    if (e != NIL && s)
      complete(&pool[e].r, s);
    if (e != NIL)
      entry_drop(e);
    if (table[i].def != NIL) {
      entry_drop(table[i].def);
      table[i].def = NIL;
    }
    release_if_empty(i);
  }
  pthread_mutex_unlock(&lock);
}

void ot_mpi_req_cancel(MPI_Request q, const MPI_Request *var) {
  if (q == MPI_REQUEST_NULL || !atomic_load_explicit(&used, memory_order_relaxed))
    return;
  lock_table();
  uint32_t i = find(q), prev;
  uint32_t e = i != NIL ? pick(i, var, &prev) : NIL;
  if (e != NIL)
    pool[e].r.cancel = 1;
  pthread_mutex_unlock(&lock);
}

int ot_mpi_req_held(MPI_Request q) {
  if (q == MPI_REQUEST_NULL || !atomic_load_explicit(&used, memory_order_relaxed))
    return 0;
  lock_table();
  int held = find(q) != NIL;
  pthread_mutex_unlock(&lock);
  return held;
}

int ot_mpi_req_define(MPI_Request q, const ot_mpi_req *d) {
  if (q == MPI_REQUEST_NULL)
    return 0;
  lock_table();
  uint32_t e =
      atomic_load_explicit(&used, memory_order_relaxed) < OT_MPI_REQ_ROOM ? entry_new() : NIL;
  if (e != NIL) {
    pool[e].r = *d;
    uint32_t i = find_or_add(q);
    if (table[i].def != NIL) /* a handle freed where the table could not see it */
      entry_drop(table[i].def);
    table[i].def = e;
  }
  pthread_mutex_unlock(&lock);
  if (e == NIL)
    say_full();
  return e != NIL;
}

int ot_mpi_req_definition(MPI_Request q, ot_mpi_req *d) {
  if (q == MPI_REQUEST_NULL || !atomic_load_explicit(&used, memory_order_relaxed))
    return 0;
  lock_table();
  uint32_t i = find(q), e = i != NIL ? table[i].def : NIL;
  if (e != NIL)
    *d = pool[e].r;
  pthread_mutex_unlock(&lock);
  return e != NIL;
}
