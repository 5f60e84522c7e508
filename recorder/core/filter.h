/* Filter decisions per construct and code address (OMPTRACE_FILTER,
 * docs/control.md). The hot path reads a fixed-size lock-free table of
 * keys (record type, kind, code address) -> decision; an unknown key is
 * recorded and claimed as pending, and ot_filter_resolve_pending decides
 * it later on the flusher thread. Finalize decides every region with the
 * same rules (ot_filter_decide) and drops what they exclude, so records
 * taken before a decision was known end up the same way. */
#ifndef OMPTRACE_FILTER_H
#define OMPTRACE_FILTER_H

#include "core/constructs.h"
#include "core/srcloc.h"
#include "core/thread.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

enum { OT_FILT_EMPTY = 0, OT_FILT_PENDING, OT_FILT_KEEP, OT_FILT_DROP };

/* Families of records the filter may drop; with the record's kind they
 * name the construct (ot_filter_construct). */
enum ot_filter_class {
  OT_FC_SYNC = 1, /* ompt_sync_region_t */
  OT_FC_WORK,     /* ompt_work_t */
  OT_FC_MASKED,
  OT_FC_REDUCTION,
  OT_FC_MUTEX, /* ompt_mutex_t */
  OT_FC_FLUSH
};

#define OT_FILTER_SLOTS 4096u /* power of two; a full table means "record" */
#define OT_FILTER_PROBES 16u

/* 1 when a filter file is in force. */
extern int ot_filter_on;
extern _Atomic uint64_t ot_filter_keys[OT_FILTER_SLOTS];
extern _Atomic uint8_t ot_filter_state[OT_FILTER_SLOTS];

/* Bumped when recording pauses or resumes: ends and releases that fall in
 * a pause never reach the handlers, so each thread starts afresh. */
extern _Atomic unsigned ot_filter_epoch;

static inline uint64_t ot_filter_key(unsigned fclass, unsigned kind, uint64_t cp) {
  return ((uint64_t)((fclass << 8) | (kind & 0xffu)) << 48) | (cp & 0xffffffffffffull);
}

/* The key's home slot in the table. */
static inline uint32_t ot_filter_hash(uint64_t key) {
  return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 52) & (OT_FILTER_SLOTS - 1);
}

/* Decision for key: OT_FILT_DROP, OT_FILT_KEEP, or OT_FILT_PENDING (and
 * *claimed = 1 when this call claimed the key). No lock, no allocation. */
static inline unsigned ot_filter_lookup(uint64_t key, int *claimed) {
  uint32_t h = ot_filter_hash(key);
  for (unsigned i = 0; i < OT_FILTER_PROBES; i++, h = (h + 1) & (OT_FILTER_SLOTS - 1)) {
    uint64_t k = atomic_load_explicit(&ot_filter_keys[h], memory_order_acquire);
    if (k == 0) {
      if (atomic_compare_exchange_strong_explicit(&ot_filter_keys[h], &k, key, memory_order_acq_rel,
                                                  memory_order_acquire)) {
        *claimed = 1;
        return OT_FILT_PENDING;
      }
    }
    if (k == key) {
      unsigned s = atomic_load_explicit(&ot_filter_state[h], memory_order_acquire);
      return s == OT_FILT_EMPTY ? OT_FILT_PENDING : s;
    }
  }
  return OT_FILT_KEEP;
}

/* Recording paused or resumed (events/control.c): every thread's state
 * is reset before its next decision (OT_SP_STALE). */
void ot_filter_new_epoch(void);
/* A thread begins: its state (t->filt) of the current epoch (events/thread.c). */
void ot_filter_thread_begin(ot_thread *t);

/* Loads OMPTRACE_FILTER's file (path empty: no filter). A bad file is
 * one line on stderr and no filter. */
void ot_filter_init(const char *path);
/* Loads a filter file for recovery: 0, or -1 with the reason in err. */
int ot_filter_load(const char *path, char *err, size_t n);
/* signal-safe: the absolute path of the file in force, or NULL. */
const char *ot_filter_path(void);
/* The construct a class and kind stand for, OC_COUNT when the filter
 * never drops it at recording; its name, or NULL. */
enum ot_construct ot_filter_construct_of(unsigned fclass, unsigned kind);
const char *ot_filter_construct(unsigned fclass, unsigned kind);
/* 1 when the rules exclude construct at cp (frames of cp - 1, n of them). */
int ot_filter_decide(const char *construct, uint64_t cp, const ot_symbol *s, int n);
/* Decides the pending keys (symbols of the live process). Flusher thread. */
void ot_filter_resolve_pending(void);
/* Patterns in force, for the archive: "EXCLUDE pattern", one per line. */
const char *ot_filter_describe(void);
void ot_filter_close(void);

#endif
