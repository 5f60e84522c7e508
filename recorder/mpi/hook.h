/* The wrappers' one way into the recording (mpi/hook.c). */
#ifndef OMPTRACE_MPI_HOOK_H
#define OMPTRACE_MPI_HOOK_H

#include "buffer/mpi_calls.h"

/* An Enter (leave = 0) or Leave of `call` at call site cp; arg: see
 * ot_mpi_event_fn. */
void ot_mpi_hook(unsigned call, int leave, const void *cp, uint64_t arg);
/* A record inside a call (ot_mpi_record_fn). */
void ot_mpi_rec(unsigned what, unsigned kind, uint32_t a, uint64_t b, uint64_t c);
/* A request id and its message record (ot_mpi_message_fn). */
void ot_mpi_msg(unsigned kind, uint32_t a, uint64_t b, uint64_t c, uint64_t request);
/* 1 when the tool is loaded: the wrappers skip their bookkeeping otherwise. */
int ot_mpi_on(void);
/* At MPI_Init, once the OpenMP runtime has loaded its tool: the lookup is
 * final, so a program without the tool pays no lookups per call. */
void ot_mpi_hook_settle(void);
/* In MPI_Abort: the tool writes this rank's archive. */
void ot_mpi_hook_abort(void);

#endif
