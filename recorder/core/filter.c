/* Filter state of the run: the rules of OMPTRACE_FILTER, the lock-free
 * decision table the handlers read, and the resolution of its pending
 * keys with the symbols of the live process (flusher thread). */
#define _GNU_SOURCE /* getpid */
#include "core/filter.h"
#include "core/filter_rules.h"
#include "core/log.h"
#include "core/thread.h"
#include "core/threads.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ot_filter_on;
_Atomic uint64_t ot_filter_keys[OT_FILTER_SLOTS];
_Atomic uint8_t ot_filter_state[OT_FILTER_SLOTS];
_Atomic unsigned ot_filter_epoch;

void ot_filter_new_epoch(void) {
  atomic_fetch_add_explicit(&ot_filter_epoch, 1, memory_order_seq_cst);
  if (!ot_filter_on)
    return;
  /* Flags after the epoch: a thread that clears its flag reads the new
   * one. A thread registering now is either seen here or reads the new
   * epoch itself (ot_filter_thread_begin: the fences pair). */
  atomic_thread_fence(memory_order_seq_cst);
  for (uint32_t i = 0, n = ot_thread_count(); i < n; i++) {
    ot_thread *t = ot_thread_get(i);
    if (t)
      atomic_fetch_or_explicit(&t->special, OT_SP_STALE, memory_order_relaxed);
  }
}

void ot_filter_thread_begin(ot_thread *t) {
  atomic_thread_fence(memory_order_seq_cst); /* after the thread's registration */
  t->filt =
      (ot_filter_stack){.epoch = atomic_load_explicit(&ot_filter_epoch, memory_order_relaxed)};
}

static ot_filter_rules rules;
static char *described;
static char abs_path[PATH_MAX]; /* of the file in force, for the log's META */
static Dwfl *dwfl;              /* the live process, opened at the first resolution */
static atomic_flag resolving = ATOMIC_FLAG_INIT;

/* The rules as the archive lists them, built once (finalize and snapshot
 * threads only read it). */
static void describe(void) {
  size_t len = 0;
  FILE *m = open_memstream(&described, &len);
  if (!m)
    return;
  for (size_t i = 0; i < rules.n; i++)
    fprintf(m, "%s %s%s\n", rules.rule[i].exclude ? "EXCLUDE" : "INCLUDE",
            rules.rule[i].file ? "file " : "", rules.rule[i].pattern);
  fclose(m);
}

int ot_filter_load(const char *path, char *err, size_t n) {
  if (ot_filter_rules_load(&rules, path, err, n) != 0)
    return -1;
  describe();
  ot_filter_on = rules.n > 0;
  if (!realpath(path, abs_path))
    abs_path[0] = '\0';
  return 0;
}

void ot_filter_init(const char *path) {
  if (!path || !*path)
    return;
  char err[512];
  if (ot_filter_load(path, err, sizeof err) != 0) {
    ot_warn("OMPTRACE_FILTER: %s; tracing goes on unfiltered", err);
    return;
  }
  ot_verbose("filter %s: %zu rules", path, rules.n);
}

/* signal-safe: reads a string set once at start-up (the log's META in a
 * crash handler). */
const char *ot_filter_path(void) {
  return ot_filter_on && abs_path[0] ? abs_path : NULL;
}

enum ot_construct ot_filter_construct_of(unsigned fclass, unsigned kind) {
  enum ot_construct c = OC_COUNT, wait, sblock;
  switch (fclass) {
  case OT_FC_SYNC:
    ot_sync_constructs(kind, &c, &wait);
    return c;
  case OT_FC_WORK:
    return ot_work_construct(kind);
  case OT_FC_MASKED:
    return OC_MASKED;
  case OT_FC_REDUCTION:
    return OC_REDUCTION;
  case OT_FC_MUTEX:
    ot_mutex_constructs(kind, &c, &wait, &sblock);
    /* nest locks: re-acquisitions carry other addresses; finalize decides */
    return c == OC_SET_NEST_LOCK ? OC_COUNT : c;
  case OT_FC_FLUSH:
    return OC_FLUSH;
  default:
    return OC_COUNT;
  }
}

const char *ot_filter_construct(unsigned fclass, unsigned kind) {
  return ot_construct_name(ot_filter_construct_of(fclass, kind));
}

int ot_filter_decide(const char *construct, uint64_t cp, const ot_symbol *s, int n) {
  if (!ot_filter_on)
    return 0;
  char name[1024];
  ot_srcloc_region_name(name, sizeof name, construct, cp, s, n);
  const char *names[5] = {name, construct, NULL, NULL, NULL};
  if (cp && n >= 1) {
    names[2] = s[0].function;            /* the innermost (inlined) function */
    names[3] = s[n - 1].function;        /* the function the code lies in */
    names[4] = s[n - 1].source_function; /* ... in the source, for a region body */
  }
  return ot_filter_rules_excluded(&rules, names, 5, cp && n >= 1 ? s[0].file : NULL);
}

/* Strings of one resolution: a bump arena, reset per key. */
static char arena[16384];
static size_t arena_used;

static const char *arena_keep(void *ctx, const char *s) {
  (void)ctx;
  if (!s)
    return NULL;
  size_t len = strlen(s) + 1;
  if (arena_used + len > sizeof arena)
    return "??";
  char *d = memcpy(arena + arena_used, s, len);
  arena_used += len;
  return d;
}

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
};

/* Reports the process's modules again when an address lies in none
 * (a library dlopen'ed since). */
static Dwfl_Module *module_of(uint64_t pc) {
  Dwfl_Module *m = dwfl ? dwfl_addrmodule(dwfl, pc) : NULL;
  if (m)
    return m;
  if (!dwfl && !(dwfl = dwfl_begin(&callbacks)))
    return NULL;
  dwfl_report_begin(dwfl);
  dwfl_linux_proc_report(dwfl, getpid());
  dwfl_report_end(dwfl, NULL, NULL);
  return dwfl_addrmodule(dwfl, pc);
}

static unsigned decide_key(uint64_t key) {
  unsigned fclass = (unsigned)(key >> 56), kind = (unsigned)(key >> 48) & 0xffu;
  uint64_t cp = key & 0xffffffffffffull;
  const char *construct = ot_filter_construct(fclass, kind);
  if (!construct || !module_of(cp - 1))
    return OT_FILT_KEEP;
  ot_symbol s[8];
  arena_used = 0;
  int n = ot_srcloc_resolve(dwfl, cp - 1, s, 8, arena_keep, NULL);
  /* An address inside the runtime: finalize names it after the enclosing
   * construct, so only finalize can decide it. */
  if (n >= 1 && s[0].module && strncmp(s[0].module, "libomp", 6) == 0)
    return OT_FILT_KEEP;
  return ot_filter_decide(construct, cp, s, n) ? OT_FILT_DROP : OT_FILT_KEEP;
}

void ot_filter_resolve_pending(void) {
  if (!ot_filter_on || atomic_flag_test_and_set(&resolving))
    return;
  for (uint32_t i = 0; i < OT_FILTER_SLOTS; i++) {
    uint64_t key = atomic_load_explicit(&ot_filter_keys[i], memory_order_acquire);
    if (key && atomic_load_explicit(&ot_filter_state[i], memory_order_relaxed) == OT_FILT_EMPTY)
      atomic_store_explicit(&ot_filter_state[i], (uint8_t)decide_key(key), memory_order_release);
  }
  atomic_flag_clear(&resolving);
}

const char *ot_filter_describe(void) {
  return ot_filter_on ? described : NULL;
}

void ot_filter_close(void) {
  while (atomic_flag_test_and_set(&resolving)) {
  }
  if (dwfl)
    dwfl_end(dwfl);
  dwfl = NULL;
  atomic_flag_clear(&resolving);
}
