/* Context captures outside the signal handler: the master's call path at a
 * fork (lazily, for regions a sample fell into) and, in eager mode, at
 * every fork and task creation. Also the OMPT inquiry entry points. */
#include "buffer/record.h"
#include "core/clock.h"
#include "core/config.h"
#include "services/sampler.h"
#include "services/sampler_buf.h"
#include "services/sampler_guard.h"
#include "services/sampler_ompt.h"
#include <string.h>

ompt_get_state_t ot_smp_get_state;
ompt_get_task_info_t ot_smp_get_task_info;
ompt_get_parallel_info_t ot_smp_get_parallel_info;

void ot_sampler_set_lookup(ompt_function_lookup_t lookup) {
  if (!lookup)
    return;
  ot_smp_get_state = (ompt_get_state_t)lookup("ompt_get_state");
  ot_smp_get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
  ot_smp_get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
}

/* Signature of the master's call path at a fork, without unwinding: the
 * construct's return address, the frame address libomp stored as the
 * encountering task's enter frame (the forking function's frame), and the
 * return addresses found above it (fp + 8, and one frame further up the
 * saved frame-pointer chain), read only within this thread's stack. Two
 * forks with equal signatures come from the same call path unless the
 * paths differ further up at identical stack depths. */
static int in_stack(const ot_sampler_thread *st, const void *p) {
  uintptr_t a = (uintptr_t)p;
  return a >= st->stack_lo && a + 16 <= st->stack_hi && !(a & 7);
}

static int fork_signature(ot_sampler_thread *st, const void *codeptr, uint64_t sig[4]) {
  int flags = 0, thread_num = 0;
  ompt_data_t *task = NULL, *par = NULL;
  ompt_frame_t *frame = NULL;
  if (!ot_smp_get_task_info || !codeptr ||
      ot_smp_get_task_info(0, &flags, &task, &frame, &par, &thread_num) != 2 ||
      (uintptr_t)frame < 65536)
    return 0;
  /* A frame: saved frame pointer, then return address. */
  const uint64_t *const *fp = frame->enter_frame.ptr;
  if (!in_stack(st, fp))
    return 0;
  sig[0] = (uint64_t)(uintptr_t)codeptr;
  sig[1] = (uint64_t)(uintptr_t)fp;
  sig[2] = (uint64_t)(uintptr_t)fp[1];
  const uint64_t *const *up = (const uint64_t *const *)fp[0];
  sig[3] = (uintptr_t)up > (uintptr_t)fp && in_stack(st, up) ? (uint64_t)(uintptr_t)up[1] : 0;
  return 1;
}

static void take_context(ot_thread *t, int kind, uint64_t key, const void *codeptr) {
  ot_sampler_thread *st = t ? (ot_sampler_thread *)t->sampler : NULL;
  if (!st || !st->contexts.base)
    return;
  /* Keeps our own signal handler out of libunwind while we walk. Never
   * inside already: hooks run from OMPT callbacks, not from the handler. */
  if (!ot_safe_enter(st))
    return;
  uint64_t sig[4];
  ot_fork_seen *seen = NULL;
  int take = kind;
  if (kind == OT_CAP_FORK && ot_cfg.sample_contexts == 0 && fork_signature(st, codeptr, sig)) {
    uint64_t h = (sig[0] ^ sig[1] ^ sig[2] ^ sig[3]) * 0x9e3779b97f4a7c15ull;
    /* Two ways: the slot of the hash and its neighbour; a miss replaces
     * the one not used last time. */
    ot_fork_seen *a = &st->fork_seen[(h >> 60) % OT_FORK_CACHE];
    ot_fork_seen *b = &st->fork_seen[((h >> 60) + 1) % OT_FORK_CACHE];
    if (a->at && !memcmp(a->sig, sig, sizeof a->sig))
      seen = a;
    else if (b->at && !memcmp(b->sig, sig, sizeof b->sig))
      seen = b;
    if (seen)
      take = OT_CAP_FORK_LEVELS; /* same path as before: levels only */
    else
      seen = !a->at || (b->at && a->at < b->at) ? a : b;
  }
  size_t at = st->contexts.used;
  ot_capture *c = ot_capture_take(st, &st->contexts, NULL, take);
  if (c) {
    c->kind = (uint8_t)kind;
    c->key = key;
    c->codeptr = (uint64_t)(uintptr_t)codeptr;
    if (take == OT_CAP_FORK_LEVELS) {
      c->frames_at = seen->at;
      st->ctx_reused++;
    } else if (seen) {
      memcpy(seen->sig, sig, sizeof seen->sig);
      seen->at = at + 1;
    }
    /* Release: the flusher copies captures below `used` while the program runs. */
    __atomic_store_n(&st->contexts.used, st->contexts.used + c->size, __ATOMIC_RELEASE);
    st->ctx_taken++;
    st->ctx_ticks += ot_clock_now() - c->ts;
  } else {
    st->ctx_full++;
  }
  ot_safe_exit(st);
}

void ot_sampler_fork_context(ot_thread *t, uint64_t parallel_id, const void *codeptr) {
  take_context(t, OT_CAP_FORK, OT_PARALLEL_CLEAN(parallel_id), codeptr);
}

void ot_sampler_task_context(ot_thread *t, uint64_t task_id, const void *codeptr) {
  take_context(t, OT_CAP_TASK, task_id, codeptr);
}
