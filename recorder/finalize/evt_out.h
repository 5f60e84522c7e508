/* Every OTF2 event finalize writes, by location (finalize/evt_out.c). With a
 * second CPU the replay only encodes each event into a batch and a writer
 * thread (finalize/evt_queue.h) makes the OTF2 calls, in the same order,
 * while the replay goes on; otherwise the calls are made at once. Either
 * way each location gets the same events in the same order.
 *
 * Each function returns OTF2_SUCCESS or an OTF2 error: with the thread, the
 * writer's first error as of the last batch handed over (the replay stops
 * on it as on its own). */
#ifndef OMPTRACE_EVT_OUT_H
#define OMPTRACE_EVT_OUT_H

#include <otf2/otf2.h>
#include <stdint.h>

/* Starts writing the events of locations 0..nloc) of `archive` for a
 * replay of `records` records: on a second thread when
 * OMPTRACE_WRITER_THREAD allows it (auto: the calling thread may run on two
 * CPUs or more and the run is not tiny), the thread starts, and memory
 * allows; else directly. writers[loc] (NULL at first) is set when the
 * location's writer opens (finalize/evt_stage.h). */
void ot_evt_open(OTF2_Archive *archive, OTF2_EvtWriter **writers, uint64_t *events, uint32_t nloc,
                 uint64_t records);
/* Waits until every event is written (the thread joined). ok (the replay
 * went through): the locations whose writer did not open are written and
 * closed now, events[loc] holding their counts, writers[loc] NULL again;
 * the writers still set may then be counted and closed. Returns the first
 * OTF2 error. */
OTF2_ErrorCode ot_evt_close(int ok);

OTF2_ErrorCode ot_evt_enter(uint32_t loc, uint64_t t, OTF2_RegionRef region);
OTF2_ErrorCode ot_evt_leave(uint32_t loc, uint64_t t, OTF2_RegionRef region);
/* n UINT64 values (at most 64), copied. */
OTF2_ErrorCode ot_evt_metric(uint32_t loc, uint64_t t, OTF2_MetricRef metric, uint8_t n,
                             const uint64_t *values);
OTF2_ErrorCode ot_evt_fork(uint32_t loc, uint64_t t, OTF2_Paradigm paradigm, uint32_t threads);
OTF2_ErrorCode ot_evt_join(uint32_t loc, uint64_t t, OTF2_Paradigm paradigm);
OTF2_ErrorCode ot_evt_team_begin(uint32_t loc, uint64_t t, OTF2_CommRef team);
OTF2_ErrorCode ot_evt_team_end(uint32_t loc, uint64_t t, OTF2_CommRef team);
OTF2_ErrorCode ot_evt_task_create(uint32_t loc, uint64_t t, OTF2_CommRef team, uint32_t thread,
                                  uint32_t generation);
OTF2_ErrorCode ot_evt_task_switch(uint32_t loc, uint64_t t, OTF2_CommRef team, uint32_t thread,
                                  uint32_t generation);
OTF2_ErrorCode ot_evt_task_complete(uint32_t loc, uint64_t t, OTF2_CommRef team, uint32_t thread,
                                    uint32_t generation);
OTF2_ErrorCode ot_evt_acquire_lock(uint32_t loc, uint64_t t, OTF2_Paradigm paradigm, uint32_t lock,
                                   uint32_t order);
OTF2_ErrorCode ot_evt_release_lock(uint32_t loc, uint64_t t, OTF2_Paradigm paradigm, uint32_t lock,
                                   uint32_t order);
/* Takes the attribute list (NULL: none) and deletes it once written. */
OTF2_ErrorCode ot_evt_measurement(uint32_t loc, uint64_t t, OTF2_AttributeList *attributes,
                                  OTF2_MeasurementMode mode);
OTF2_ErrorCode ot_evt_parameter_uint(uint32_t loc, uint64_t t, OTF2_ParameterRef parameter,
                                     uint64_t value);
OTF2_ErrorCode ot_evt_sample(uint32_t loc, uint64_t t, OTF2_CallingContextRef context,
                             uint32_t unwind_distance, OTF2_InterruptGeneratorRef generator);
OTF2_ErrorCode ot_evt_mpi_send(uint32_t loc, uint64_t t, uint32_t receiver, OTF2_CommRef comm,
                               uint32_t tag, uint64_t length);
OTF2_ErrorCode ot_evt_mpi_recv(uint32_t loc, uint64_t t, uint32_t sender, OTF2_CommRef comm,
                               uint32_t tag, uint64_t length);
OTF2_ErrorCode ot_evt_mpi_isend(uint32_t loc, uint64_t t, uint32_t receiver, OTF2_CommRef comm,
                                uint32_t tag, uint64_t length, uint64_t request);
OTF2_ErrorCode ot_evt_mpi_irecv(uint32_t loc, uint64_t t, uint32_t sender, OTF2_CommRef comm,
                                uint32_t tag, uint64_t length, uint64_t request);
OTF2_ErrorCode ot_evt_mpi_isend_complete(uint32_t loc, uint64_t t, uint64_t request);
OTF2_ErrorCode ot_evt_mpi_irecv_request(uint32_t loc, uint64_t t, uint64_t request);
OTF2_ErrorCode ot_evt_mpi_request_cancelled(uint32_t loc, uint64_t t, uint64_t request);
OTF2_ErrorCode ot_evt_mpi_collective_begin(uint32_t loc, uint64_t t);
OTF2_ErrorCode ot_evt_mpi_collective_end(uint32_t loc, uint64_t t, OTF2_CollectiveOp op,
                                         OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                         uint64_t received);
OTF2_ErrorCode ot_evt_mpi_nbc_request(uint32_t loc, uint64_t t, uint64_t request);
OTF2_ErrorCode ot_evt_mpi_nbc_complete(uint32_t loc, uint64_t t, OTF2_CollectiveOp op,
                                       OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                       uint64_t received, uint64_t request);

#endif
