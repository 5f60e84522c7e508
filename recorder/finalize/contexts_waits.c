/* What a thread waited for, from its own records: libomp 14 reports
 * coarse states (a critical wait as wait_lock, taskwait spinning as
 * work_parallel), while the recorded mutex_acquire / sync_region_wait
 * events say exactly which construct the thread was waiting in. */
#include "buffer/record.h"
#include "finalize/contexts.h"
#include "finalize/run.h"
#include <omp-tools.h>
#include <stdlib.h>

typedef struct wait_iv {
  uint64_t begin, end; /* raw clock, [begin, end) */
  const char *leaf;
} wait_iv;

static wait_iv *ivs;
static size_t n_ivs, cap_ivs, cursor;

static const char *mutex_leaf(unsigned kind) {
  switch (kind) {
  case ompt_mutex_critical:
    return "<OMP-critical_section_wait>";
  case ompt_mutex_ordered:
    return "<OMP-ordered_wait>";
  default:
    return "<OMP-lock_wait>";
  }
}

static const char *sync_leaf(unsigned kind) {
  switch (kind) {
  case ompt_sync_region_barrier_explicit:
    return "<OMP-explicit_barrier>";
  case ompt_sync_region_taskwait:
  case ompt_sync_region_taskgroup:
    return "<OMP-taskwait>";
  case ompt_sync_region_reduction:
    return "<OMP-reduction>";
  default:
    return "<OMP-implicit_barrier>";
  }
}

static void add(uint64_t begin, uint64_t end, const char *leaf) {
  if (end <= begin)
    return;
  if (n_ivs == cap_ivs) {
    size_t ncap = cap_ivs ? cap_ivs * 2 : 256;
    wait_iv *n = realloc(ivs, ncap * sizeof *n);
    if (!n)
      return;
    ivs = n;
    cap_ivs = ncap;
  }
  ivs[n_ivs].begin = begin;
  ivs[n_ivs].end = end;
  ivs[n_ivs].leaf = leaf;
  n_ivs++;
}

int ot_ctx_waits_load(const ot_run *run, uint32_t loc) {
  n_ivs = cursor = 0;
  ot_reader *s = ot_run_records(run, loc);
  /* A mutex wait ends at the thread's next record: its acquisition, or
   * whatever follows a failed omp_test_lock (as the archive writer closes
   * it). A sync wait ends at the matching wait end. */
  uint64_t mutex_at = 0, sync_at = 0;
  const char *mutex_what = NULL, *sync_what = NULL;
  for (const ot_rec *r; (r = ot_run_next(s));) {
    if (mutex_what) {
      add(mutex_at, r->ts, mutex_what);
      mutex_what = NULL;
    }
    switch (r->type) {
    case OT_MUTEX_ACQUIRE:
      mutex_at = r->ts;
      mutex_what = mutex_leaf(r->kind);
      break;
    case OT_SYNC_WAIT_BEGIN:
      sync_at = r->ts;
      sync_what = sync_leaf(r->kind);
      break;
    case OT_SYNC_WAIT_END:
      if (sync_what)
        add(sync_at, r->ts, sync_what);
      sync_what = NULL;
      break;
    default:
      break;
    }
  }
  ot_run_records_close(s);
  return 0;
}

const char *ot_ctx_wait_at(uint64_t ts) {
  /* Samples come in time order: move forward, step back when asked for an
   * earlier time (never happens within one location). */
  if (cursor > 0 && cursor <= n_ivs && ts < ivs[cursor - 1].begin)
    cursor = 0;
  while (cursor < n_ivs && ivs[cursor].end <= ts)
    cursor++;
  if (cursor < n_ivs && ivs[cursor].begin <= ts)
    return ivs[cursor].leaf;
  return NULL;
}

void ot_ctx_waits_free(void) {
  free(ivs);
  ivs = NULL;
  n_ivs = cap_ivs = cursor = 0;
}
