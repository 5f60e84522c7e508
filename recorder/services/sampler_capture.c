/* Stack capture: libunwind local walk + OMPT task levels, written raw into a
 * pre-mapped buffer. Async-signal-safe as far as libunwind's local walk is:
 * no allocation, no locks of our own, no symbol lookup. */
#define UNW_LOCAL_ONLY
#include "buffer/record.h"
#include "core/clock.h"
#include "services/sampler_buf.h"
#include "services/sampler_ompt.h"
#include <libunwind.h>

/* signal-safe: reachable from the sampling signal handler. */
static unsigned take_levels(ot_cap_level *lv) {
  if (!ot_smp_get_task_info)
    return 0;
  unsigned n = 0;
  while (n < OT_CAP_MAX_LEVELS) {
    int flags = 0, thread_num = 0;
    ompt_data_t *task = NULL, *par = NULL;
    ompt_frame_t *frame = NULL;
    if (ot_smp_get_task_info((int)n, &flags, &task, &frame, &par, &thread_num) != 2)
      break;
    int fr_ok = ot_smp_plausible(frame);
    lv[n].exit_fp = fr_ok ? (uint64_t)(uintptr_t)frame->exit_frame.ptr : 0;
    lv[n].enter_fp = fr_ok ? (uint64_t)(uintptr_t)frame->enter_frame.ptr : 0;
    lv[n].parallel_id = ot_smp_plausible(par) ? OT_PARALLEL_CLEAN(par->value) : 0;
    lv[n].task_id = ot_smp_plausible(task) ? task->value : 0;
    lv[n].flags = (uint32_t)flags;
    lv[n].thread_num = thread_num;
    n++;
  }
  return n;
}

/* signal-safe: reachable from the sampling signal handler. */
static unsigned take_frames(ot_sampler_thread *st, ot_cap_frame *fr, void *ucontext,
                            uint8_t *truncated) {
  unw_cursor_t cur;
  unw_context_t here;
  if (ucontext) {
    if (unw_init_local2(&cur, (unw_context_t *)ucontext, UNW_INIT_SIGNAL_FRAME) < 0)
      return 0;
  } else {
    if (unw_getcontext(&here) < 0 || unw_init_local(&cur, &here) < 0)
      return 0;
  }
  unsigned n = 0;
  for (;;) {
    unw_word_t ip = 0, cfa = 0;
    if (unw_get_reg(&cur, UNW_REG_IP, &ip) < 0 || ip == 0)
      break;
    if (unw_get_reg(&cur, UNW_X86_64_CFA, &cfa) < 0)
      cfa = 0;
    /* A CFA outside this thread's stack means the walk left it (ancestor
     * tasks continue on other threads) or went wrong: stop before
     * libunwind reads memory there. */
    int in_stack = cfa > st->stack_lo && cfa <= st->stack_hi;
    fr[n].pc = ip;
    fr[n].cfa = in_stack ? cfa : 0;
    n++;
    if (!in_stack)
      break;
    if (n == OT_CAP_MAX_FRAMES) {
      *truncated = 1;
      break;
    }
    if (unw_step(&cur) <= 0)
      break;
  }
  return n;
}

/* signal-safe: reachable from the sampling signal handler. */
ot_capture *ot_capture_take(ot_sampler_thread *st, ot_cap_buf *buf, void *ucontext, int kind) {
  if (!buf->base || buf->cap - buf->used < OT_CAP_MAX_SIZE)
    return NULL;
  ot_capture *c = (ot_capture *)(buf->base + buf->used);
  c->ts = ot_clock_now();
  c->key = 0;
  c->codeptr = 0;
  c->state = 0;
  if (ot_smp_get_state)
    c->state = (uint32_t)ot_smp_get_state(NULL);
  c->kind = (uint8_t)kind;
  c->exact = ucontext != NULL;
  c->truncated = 0;
  c->pad = 0;
  c->frames_at = 0;
  ot_cap_level *lv = (ot_cap_level *)(c + 1);
  c->nlevels = (uint16_t)take_levels(lv);
  ot_cap_frame *fr = (ot_cap_frame *)(lv + c->nlevels);
  c->nframes =
      kind == OT_CAP_FORK_LEVELS ? 0 : (uint16_t)take_frames(st, fr, ucontext, &c->truncated);
  c->size = (uint32_t)((uint8_t *)(fr + c->nframes) - (uint8_t *)c);
  /* Committed by the caller (buf->used += size) once the header is final. */
  return c;
}

void ot_capture_init(void) {
  /* Per-thread caches: no global cache lock that a handler interrupting
   * another unwinder could wait on forever. */
  unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
  ot_capture_warm_up();
}

void ot_capture_warm_up(void) {
  /* The first walk loads unwind tables and libunwind's per-thread cache
   * (dynamic TLS of a dlopen'ed library may allocate on first touch). */
  unw_context_t uc;
  unw_cursor_t cur;
  if (unw_getcontext(&uc) < 0 || unw_init_local(&cur, &uc) < 0)
    return;
  for (int i = 0; i < OT_CAP_MAX_FRAMES && unw_step(&cur) > 0; i++) {
    unw_word_t ip, cfa;
    unw_get_reg(&cur, UNW_REG_IP, &ip);
    unw_get_reg(&cur, UNW_X86_64_CFA, &cfa);
  }
}
