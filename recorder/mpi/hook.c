/* How the MPI wrappers reach libomptrace.so: its entry point looked up
 * with dlsym, so this library works whichever of the two loads first, and
 * records nothing (the program runs as without it) when the tool is not
 * loaded. The OpenMP runtime loads the tool privately (RTLD_LOCAL), so the
 * global scope may not see it: then the loaded library itself is asked. */
#include "mpi/hook.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdlib.h>

static ot_mpi_event_fn *_Atomic hook;
static ot_mpi_record_fn *_Atomic rec_hook;
static ot_mpi_message_fn *_Atomic msg_hook;
static atomic_int settled;

static void *find_symbol(const char *name) {
  void *sym = dlsym(RTLD_DEFAULT, name);
  const char *names[] = {"libomptrace.so", getenv("OMP_TOOL_LIBRARIES")};
  for (unsigned i = 0; !sym && i < sizeof names / sizeof names[0]; i++) {
    void *h = names[i] ? dlopen(names[i], RTLD_LAZY | RTLD_NOLOAD) : NULL;
    if (h) {
      sym = dlsym(h, name);
      dlclose(h);
    }
  }
  return sym;
}

static ot_mpi_event_fn *lookup(void) {
  ot_mpi_event_fn *f = NULL;
  void *sym = find_symbol(OT_MPI_EVENT_SYMBOL);
  if (sym) {
    _Static_assert(sizeof sym == sizeof f, "function and data pointers must have one size");
    __builtin_memcpy(&f, &sym, sizeof f);
    void *rsym = find_symbol(OT_MPI_RECORD_SYMBOL);
    ot_mpi_record_fn *r = NULL;
    __builtin_memcpy(&r, &rsym, sizeof r);
    void *msym = find_symbol(OT_MPI_MESSAGE_SYMBOL);
    ot_mpi_message_fn *m = NULL;
    __builtin_memcpy(&m, &msym, sizeof m);
    atomic_store(&msg_hook, m);
    atomic_store(&rec_hook, r);
    atomic_store(&hook, f);
  }
  return f;
}

void ot_mpi_hook_settle(void) {
  if (!atomic_load(&hook))
    lookup();
  atomic_store(&settled, 1);
}

void ot_mpi_hook(unsigned call, int leave, const void *cp, uint64_t arg) {
  ot_mpi_event_fn *f = atomic_load_explicit(&hook, memory_order_relaxed);
  if (!f && !atomic_load_explicit(&settled, memory_order_relaxed))
    f = lookup();
  if (f)
    f(call, leave, cp, arg);
}

int ot_mpi_on(void) {
  return atomic_load_explicit(&rec_hook, memory_order_relaxed) != NULL;
}

void ot_mpi_rec(unsigned what, unsigned kind, uint32_t a, uint64_t b, uint64_t c) {
  ot_mpi_record_fn *f = atomic_load_explicit(&rec_hook, memory_order_relaxed);
  if (f)
    f(what, kind, a, b, c);
}

void ot_mpi_msg(unsigned kind, uint32_t a, uint64_t b, uint64_t c, uint64_t request) {
  ot_mpi_message_fn *f = atomic_load_explicit(&msg_hook, memory_order_relaxed);
  if (f) {
    f(kind, a, b, c, request);
    return;
  }
  ot_mpi_rec(OT_MR_REQ | (kind & OT_MR_AT_ENTER), OT_MSG_REQUEST, 0, 0, request);
  ot_mpi_rec(OT_MR_MSG | (kind & OT_MR_AT_ENTER), kind & 0xffu, a, b, c);
}

void ot_mpi_hook_abort(void) {
  void *sym = find_symbol(OT_MPI_ABORT_SYMBOL);
  void (*f)(void) = NULL;
  if (sym) {
    __builtin_memcpy(&f, &sym, sizeof f);
    f();
  }
}
