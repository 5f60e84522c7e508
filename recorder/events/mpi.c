/* The entry points of libomptrace-mpi.so into the recording: MPI calls and
 * their messages, collectives and communicators go into the calling
 * thread's buffer like OpenMP events, so the record log, its flusher and
 * crash recovery cover them (buffer/mpi_calls.h). */
#include "buffer/mpi_calls.h"
#include "events/emit.h"

__attribute__((visibility("default"))) ot_mpi_event_fn omptrace_mpi_event;
__attribute__((visibility("default"))) ot_mpi_record_fn omptrace_mpi_record;
__attribute__((visibility("default"))) ot_mpi_message_fn omptrace_mpi_message;

_Static_assert(OT_MPI_MSG + OT_MR_MEMBER == OT_MPI_MEMBER,
               "enum ot_mpi_rec follows the MPI record types");

/* The time of the Enter of this thread's open MPI call (0: none
 * recorded): records asked with OT_MR_AT_ENTER take it rather than read
 * the clock again, so the records a wrapper writes before its PMPI call
 * (a send's) add no clock read before the message leaves. */
static __thread uint64_t enter_ts __attribute__((tls_model("initial-exec")));

void omptrace_mpi_event(unsigned call, int leave, const void *cp, uint64_t arg) {
  ot_thread *t = ot_enter();
  if (!t || call >= OT_MPI_CALL_COUNT) {
    enter_ts = 0; /* the call's records read the clock */
    return;
  }
  if (leave) {
    ot_emit(t, OT_MPI_LEAVE, 0, call, (uint64_t)cp, arg);
    return;
  }
  /* The Enter's time, read back from its record when it went where
   * expected (else 0: the records read the clock). */
  uint8_t *p = atomic_load_explicit(&t->cur, memory_order_relaxed);
  ot_emit(t, OT_MPI_ENTER, 0, call, (uint64_t)cp, arg);
  enter_ts = atomic_load_explicit(&t->cur, memory_order_relaxed) == p + sizeof(ot_rec)
                 ? ((const ot_rec *)p)->ts
                 : 0;
}

void omptrace_mpi_record(unsigned what, unsigned kind, uint32_t a, uint64_t b, uint64_t c) {
  uint64_t ts = what & OT_MR_AT_ENTER ? enter_ts : 0;
  what &= ~OT_MR_AT_ENTER;
  if (what >= OT_MR_COUNT)
    return;
  /* Definitions are kept while paused: later messages refer to them. */
  ot_thread *t = what >= OT_MR_COMM ? ot_enter_structural() : ot_enter();
  if (t)
    ot_emit_at(t, ts, OT_MPI_MSG + what, kind & 0xffu, a, b, c);
}

void omptrace_mpi_message(unsigned kind, uint32_t a, uint64_t b, uint64_t c, uint64_t request) {
  ot_thread *t = ot_enter();
  if (!t)
    return;
  uint64_t ts = kind & OT_MR_AT_ENTER ? enter_ts : 0;
  if (!ts)
    ts = ot_clock_now();
  ot_emit_at(t, ts, OT_MPI_REQ, OT_MSG_REQUEST, 0, 0, request);
  ot_emit_at(t, ts, OT_MPI_MSG, kind & 0xffu, a, b, c);
}
