/* The entry points of libomptrace-mpi.so into the recording: MPI calls and
 * their messages, collectives and communicators go into the calling
 * thread's buffer like OpenMP events, so the record log, its flusher and
 * crash recovery cover them (buffer/mpi_calls.h). */
#include "buffer/mpi_calls.h"
#include "events/emit.h"

__attribute__((visibility("default"))) ot_mpi_event_fn omptrace_mpi_event;
__attribute__((visibility("default"))) ot_mpi_record_fn omptrace_mpi_record;

_Static_assert(OT_MPI_MSG + OT_MR_MEMBER == OT_MPI_MEMBER,
               "enum ot_mpi_rec follows the MPI record types");

void omptrace_mpi_event(unsigned call, int leave, const void *cp, uint64_t arg) {
  ot_thread *t = ot_enter();
  if (t && call < OT_MPI_CALL_COUNT)
    ot_emit(t, leave ? OT_MPI_LEAVE : OT_MPI_ENTER, 0, call, (uint64_t)cp, arg);
}

void omptrace_mpi_record(unsigned what, unsigned kind, uint32_t a, uint64_t b, uint64_t c) {
  if (what >= OT_MR_COUNT)
    return;
  /* Definitions are kept while paused: later messages refer to them. */
  ot_thread *t = what >= OT_MR_COMM ? ot_enter_structural() : ot_enter();
  if (t)
    ot_emit(t, OT_MPI_MSG + what, kind & 0xffu, a, b, c);
}
