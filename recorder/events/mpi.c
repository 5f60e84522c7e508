/* The entry point of libomptrace-mpi.so into the recording: MPI calls go
 * into the calling thread's buffer like OpenMP events, so the record log,
 * its flusher and crash recovery cover them (buffer/mpi_calls.h). */
#include "buffer/mpi_calls.h"
#include "events/emit.h"

__attribute__((visibility("default"))) ot_mpi_event_fn omptrace_mpi_event;

void omptrace_mpi_event(unsigned call, int leave, const void *cp, uint64_t arg) {
  ot_thread *t = ot_enter();
  if (t && call < OT_MPI_CALL_COUNT)
    ot_emit(t, leave ? OT_MPI_LEAVE : OT_MPI_ENTER, 0, call, (uint64_t)cp, arg);
}
