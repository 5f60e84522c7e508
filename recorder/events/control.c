/* omp_control_tool: start (resume), pause, flush and end recording, plus
 * the tool-specific commands of share/include/omptrace.h that name points
 * and regions. Not on the hot path: calls are serialized by one mutex so
 * the state changes and their records come in the same order. */
#include "events/control.h"
#include "core/filter.h"
#include "core/throttle.h"
#include "events/emit.h"
#include "events/handlers.h"
#include "log/flusher.h"

#include <omp.h>
#include <pthread.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The call's name, in LABEL records just before its CONTROL_TOOL record:
 * arg as a C string, else a nonzero modifier in decimal (Fortran has no
 * arg), else none. */
static void put_label(ot_thread *t, uint64_t modifier, const char *arg) {
  char buf[OT_LABEL_MAX + 1] = {0};
  size_t n = 0;
  if (arg) {
    n = strnlen(arg, OT_LABEL_MAX);
    memcpy(buf, arg, n);
  } else if (modifier) {
    char tmp[24];
    size_t k = 0;
    for (uint64_t v = modifier; v; v /= 10)
      tmp[k++] = (char)('0' + v % 10);
    while (k)
      buf[n++] = tmp[--k];
  }
  for (size_t at = 0; at < n; at += 20) {
    uint32_t a = 0;
    uint64_t b = 0, c = 0;
    memcpy(&a, buf + at, 4);
    memcpy(&b, buf + at + 4, 8);
    memcpy(&c, buf + at + 12, 8);
    ot_emit(t, OT_LABEL, (unsigned)(n - at < 20 ? n - at : 20), a, b, c);
  }
}

static void put(ot_thread *t, unsigned state, uint64_t command, uint64_t modifier, void *arg,
                const void *cp) {
  put_label(t, modifier, arg);
  ot_emit(t, OT_CONTROL_TOOL, state, ot_sat32(command), modifier, (uint64_t)cp);
}

/* start / pause / end: the new state, and which OT_CTL_* record says so.
 * Returns omp_control_tool_success, or _ignored after end. */
static int change(ot_thread *t, uint64_t command, uint64_t modifier, void *arg, const void *cp) {
  int want = command == omp_control_tool_start   ? OT_REC_ON
             : command == omp_control_tool_pause ? OT_REC_PAUSED
                                                 : OT_REC_ENDED;
  unsigned kind = want == OT_REC_ON       ? OT_CTL_RESUMED
                  : want == OT_REC_PAUSED ? OT_CTL_PAUSED
                                          : OT_CTL_ENDED;
  pthread_mutex_lock(&lock);
  int s = atomic_load(&ot_recording);
  int rc = omp_control_tool_success;
  if (s == OT_REC_ENDED || s == OT_REC_OFF) {
    rc = omp_control_tool_ignored;
  } else if (s == want) {
    if (s == OT_REC_ON) /* already recording: a plain marker */
      put(t, OT_CTL_NONE, command, modifier, arg, cp);
  } else if (want == OT_REC_ON) {
    ot_filter_new_epoch();             /* the filter's per-thread state missed the pause */
    atomic_store(&ot_recording, want); /* the record is the first one after the pause */
    put(t, kind, command, modifier, arg, cp);
  } else {
    put(t, kind, command, modifier, arg, cp); /* the record is the last one before it */
    atomic_store(&ot_recording, want);
    ot_filter_new_epoch();
  }
  pthread_mutex_unlock(&lock);
  return rc;
}

int on_ompt_callback_control_tool(uint64_t command, uint64_t modifier, void *arg,
                                  const void *codeptr_ra) {
  ot_thread *t = ot_self ? ot_self : ot_thr_hidden; /* in a throttled region */
  if (!t || atomic_load(&ot_recording) == OT_REC_OFF)
    return omp_control_tool_ignored; /* a thread the tool does not record, or finalize */
  switch (command) {
  case omp_control_tool_start:
  case omp_control_tool_pause:
  case omp_control_tool_end: {
    int rc = change(t, command, modifier, arg, codeptr_ra);
    if (command == omp_control_tool_end && rc == omp_control_tool_success)
      ot_log_flush(); /* what was recorded is safe on disk from here */
    return rc;
  }
  case omp_control_tool_flush:
  case OT_CMD_MARK:
  case OT_CMD_BEGIN:
  case OT_CMD_END:
    if (ot_enter())
      put(t, OT_CTL_NONE, command, modifier, arg, codeptr_ra);
    if (command != omp_control_tool_flush)
      return omp_control_tool_success;
    return ot_log_flush() == 0 ? omp_control_tool_success : omp_control_tool_ignored;
  default:
    return omp_control_tool_ignored;
  }
}

static void note_paused(ot_thread *t) {
  if (atomic_load(&ot_recording) == OT_REC_PAUSED)
    ot_emit(t, OT_CONTROL_TOOL, OT_CTL_PAUSED, 0, 0, 0);
}

void ot_control_thread_begin(ot_thread *t) {
  pthread_mutex_lock(&lock);
  note_paused(t);
  pthread_mutex_unlock(&lock);
}

void ot_control_fork_child(ot_thread *t) {
  pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
  lock = fresh; /* another thread of the parent may have held it */
  if (t)
    note_paused(t);
}
