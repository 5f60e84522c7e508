/* Finalize's OTF2 events, made at once or encoded for the writer thread:
 * both sides of the encoding live here. An event is a few 64-bit words in a
 * batch (finalize/evt_queue.c): a head (kind, a small argument, location),
 * the time, then its arguments; the writer thread decodes it into the same
 * OTF2 call the direct mode makes. A location's writer opens on demand
 * (finalize/evt_stage.c): until then its events are encoded and kept, in
 * the direct mode too. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "finalize/evt_out.h"
#include "core/config.h"
#include "core/log.h"
#include "finalize/evt_queue.h"
#include "finalize/evt_stage.h"

#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

enum evt_kind {
  K_ENTER,
  K_LEAVE,
  K_METRIC,
  K_FORK,
  K_JOIN,
  K_TEAM_BEGIN,
  K_TEAM_END,
  K_TASK_CREATE,
  K_TASK_SWITCH,
  K_TASK_COMPLETE,
  K_ACQUIRE_LOCK,
  K_RELEASE_LOCK,
  K_MEASUREMENT,
  K_PARAMETER,
  K_SAMPLE,
  K_MPI_SEND,
  K_MPI_RECV,
  K_MPI_ISEND,
  K_MPI_IRECV,
  K_MPI_ISEND_COMPLETE,
  K_MPI_IRECV_REQUEST,
  K_MPI_COLL_BEGIN,
  K_MPI_COLL_END,
  K_MPI_NBC_REQUEST,
  K_MPI_NBC_COMPLETE,
  K_MPI_REQUEST_CANCELLED,
  K_COUNT
};

/* Words of each kind, head and time included (a metric adds its values). */
static const uint8_t words_of[K_COUNT] = {[K_ENTER] = 3,
                                          [K_LEAVE] = 3,
                                          [K_METRIC] = 3,
                                          [K_FORK] = 3,
                                          [K_JOIN] = 2,
                                          [K_TEAM_BEGIN] = 3,
                                          [K_TEAM_END] = 3,
                                          [K_TASK_CREATE] = 4,
                                          [K_TASK_SWITCH] = 4,
                                          [K_TASK_COMPLETE] = 4,
                                          [K_ACQUIRE_LOCK] = 4,
                                          [K_RELEASE_LOCK] = 4,
                                          [K_MEASUREMENT] = 3,
                                          [K_PARAMETER] = 4,
                                          [K_SAMPLE] = 4,
                                          [K_MPI_SEND] = 5,
                                          [K_MPI_RECV] = 5,
                                          [K_MPI_ISEND] = 6,
                                          [K_MPI_IRECV] = 6,
                                          [K_MPI_ISEND_COMPLETE] = 3,
                                          [K_MPI_IRECV_REQUEST] = 3,
                                          [K_MPI_COLL_BEGIN] = 2,
                                          [K_MPI_COLL_END] = 5,
                                          [K_MPI_NBC_REQUEST] = 3,
                                          [K_MPI_NBC_COMPLETE] = 6,
                                          [K_MPI_REQUEST_CANCELLED] = 3};

/* Below this many records one batch or two hold the whole replay: nothing
 * to overlap. */
#define MIN_RECORDS 4096

static OTF2_EvtWriter **writers;
static int threaded;
/* Without the thread: the one event being encoded for a location whose
 * writer is not open yet. */
static uint64_t scratch[OT_EVTQ_MAX_APPEND];

/* Whether an event of location loc is an OTF2 call at once. */
static inline int direct(uint32_t loc) {
  return !threaded && writers[loc];
}

static uint64_t *put(enum evt_kind k, uint8_t aux, uint32_t loc, uint64_t t, uint32_t extra) {
  uint64_t *p = threaded ? ot_evtq_append((size_t)words_of[k] + extra) : scratch;
  p[0] = (uint64_t)k | (uint64_t)aux << 8 | (uint64_t)loc << 32;
  p[1] = t;
  return p;
}

/* Words of the encoded event at p. */
static size_t words(const uint64_t *p) {
  enum evt_kind k = (enum evt_kind)(p[0] & 0xff);
  return words_of[k] + (k == K_METRIC ? (uint8_t)(p[0] >> 8) : 0);
}

/* After put's words are written: to the writer thread's batch, or (without
 * the thread) played or kept for the location's writer. */
static OTF2_ErrorCode appended(void) {
  if (threaded)
    return ot_evtq_appended();
  return ot_stage_event((uint32_t)(scratch[0] >> 32), scratch, words(scratch));
}

static uint64_t pair(uint32_t lo, uint32_t hi) {
  return (uint64_t)lo | (uint64_t)hi << 32;
}

/* One encoded event into its OTF2 call to w. */
static OTF2_ErrorCode play_one(OTF2_EvtWriter *w, const uint64_t *p) {
  enum evt_kind k = (enum evt_kind)(p[0] & 0xff);
  uint8_t aux = (uint8_t)(p[0] >> 8);
  uint64_t t = p[1];
/* The halves of the first argument word (an event of two words has none). */
#define LO ((uint32_t)p[2])
#define HI ((uint32_t)(p[2] >> 32))
  switch (k) {
  case K_ENTER:
    return OTF2_EvtWriter_Enter(w, NULL, t, LO);
  case K_LEAVE:
    return OTF2_EvtWriter_Leave(w, NULL, t, LO);
  case K_METRIC: {
    OTF2_Type types[64];
    OTF2_MetricValue vals[64];
    for (unsigned i = 0; i < aux; i++) {
      types[i] = OTF2_TYPE_UINT64;
      vals[i].unsigned_int = p[3 + i];
    }
    return OTF2_EvtWriter_Metric(w, NULL, t, LO, aux, types, vals);
  }
  case K_FORK:
    return OTF2_EvtWriter_ThreadFork(w, NULL, t, aux, LO);
  case K_JOIN:
    return OTF2_EvtWriter_ThreadJoin(w, NULL, t, aux);
  case K_TEAM_BEGIN:
    return OTF2_EvtWriter_ThreadTeamBegin(w, NULL, t, LO);
  case K_TEAM_END:
    return OTF2_EvtWriter_ThreadTeamEnd(w, NULL, t, LO);
  case K_TASK_CREATE:
    return OTF2_EvtWriter_ThreadTaskCreate(w, NULL, t, LO, HI, (uint32_t)p[3]);
  case K_TASK_SWITCH:
    return OTF2_EvtWriter_ThreadTaskSwitch(w, NULL, t, LO, HI, (uint32_t)p[3]);
  case K_TASK_COMPLETE:
    return OTF2_EvtWriter_ThreadTaskComplete(w, NULL, t, LO, HI, (uint32_t)p[3]);
  case K_ACQUIRE_LOCK:
    return OTF2_EvtWriter_ThreadAcquireLock(w, NULL, t, aux, LO, (uint32_t)p[3]);
  case K_RELEASE_LOCK:
    return OTF2_EvtWriter_ThreadReleaseLock(w, NULL, t, aux, LO, (uint32_t)p[3]);
  case K_MEASUREMENT:
    return OTF2_EvtWriter_MeasurementOnOff(w, (OTF2_AttributeList *)(uintptr_t)p[2], t, aux);
  case K_PARAMETER:
    return OTF2_EvtWriter_ParameterUnsignedInt(w, NULL, t, LO, p[3]);
  case K_SAMPLE:
    return OTF2_EvtWriter_CallingContextSample(w, NULL, t, LO, HI, (uint32_t)p[3]);
  case K_MPI_SEND:
    return OTF2_EvtWriter_MpiSend(w, NULL, t, LO, HI, (uint32_t)p[3], p[4]);
  case K_MPI_RECV:
    return OTF2_EvtWriter_MpiRecv(w, NULL, t, LO, HI, (uint32_t)p[3], p[4]);
  case K_MPI_ISEND:
    return OTF2_EvtWriter_MpiIsend(w, NULL, t, LO, HI, (uint32_t)p[3], p[4], p[5]);
  case K_MPI_IRECV:
    return OTF2_EvtWriter_MpiIrecv(w, NULL, t, LO, HI, (uint32_t)p[3], p[4], p[5]);
  case K_MPI_ISEND_COMPLETE:
    return OTF2_EvtWriter_MpiIsendComplete(w, NULL, t, p[2]);
  case K_MPI_IRECV_REQUEST:
    return OTF2_EvtWriter_MpiIrecvRequest(w, NULL, t, p[2]);
  case K_MPI_COLL_BEGIN:
    return OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, t);
  case K_MPI_COLL_END:
    return OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, t, aux, LO, HI, p[3], p[4]);
  case K_MPI_NBC_REQUEST:
    return OTF2_EvtWriter_NonBlockingCollectiveRequest(w, NULL, t, p[2]);
  case K_MPI_NBC_COMPLETE:
    return OTF2_EvtWriter_NonBlockingCollectiveComplete(w, NULL, t, aux, LO, HI, p[3], p[4], p[5]);
  case K_MPI_REQUEST_CANCELLED:
    return OTF2_EvtWriter_MpiRequestCancelled(w, NULL, t, p[2]);
  case K_COUNT:
    break;
  }
  return OTF2_ERROR_INVALID_ARGUMENT;
#undef LO
#undef HI
}

/* An encoded event played into w (NULL: not played), then what it owns
 * released: evt_stage.c's play function. */
static OTF2_ErrorCode play_owned(OTF2_EvtWriter *w, const uint64_t *p) {
  OTF2_ErrorCode e = w ? play_one(w, p) : OTF2_SUCCESS;
  if ((p[0] & 0xff) == K_MEASUREMENT && p[2])
    OTF2_AttributeList_Delete((OTF2_AttributeList *)(uintptr_t)p[2]);
  return e;
}

/* The writer thread's side: a batch's events in order. After the first
 * error the rest is only released (attribute lists). */
static void play(const uint64_t *p, size_t n, OTF2_ErrorCode *err) {
  const uint64_t *end = p + n;
  while (p < end) {
    enum evt_kind k = (enum evt_kind)(p[0] & 0xff);
    if (k >= K_COUNT) { /* never written: the rest of the batch cannot be read */
      if (*err == OTF2_SUCCESS)
        *err = OTF2_ERROR_INVALID_DATA;
      return;
    }
    size_t w = words(p);
    if (*err == OTF2_SUCCESS) {
      OTF2_ErrorCode e = ot_stage_event((uint32_t)(p[0] >> 32), p, w);
      if (e != OTF2_SUCCESS)
        *err = e;
    } else {
      play_owned(NULL, p);
    }
    p += w;
  }
}

/* CPUs the calling thread may run on (a program that binds its threads
 * binds the one finalizing too). */
static int cpus_allowed(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0)
    return 1;
  return CPU_COUNT(&set);
}

/* Threads running or ready to run on the machine now, the caller included
 * (/proc/loadavg's fourth field); 0 when unknown. A second thread only
 * helps where a CPU is idle: on a busy machine it costs hand-offs and
 * waits for the writer and saves nothing. */
static unsigned runnable(void) {
  FILE *f = fopen("/proc/loadavg", "r");
  if (!f)
    return 0;
  unsigned n = 0;
  if (fscanf(f, "%*s %*s %*s %u", &n) != 1)
    n = 0;
  fclose(f);
  return n;
}

void ot_evt_open(OTF2_Archive *archive, OTF2_EvtWriter **w, uint64_t *events, uint32_t nloc,
                 uint64_t records) {
  writers = w;
  threaded = 0;
  ot_stage_open(archive, w, events, nloc, play_owned);
  const char *why = NULL;
  if (ot_cfg.writer_thread == OT_WRITER_THREAD_OFF)
    why = "OMPTRACE_WRITER_THREAD=off";
  else if (ot_cfg.writer_thread == OT_WRITER_THREAD_AUTO && records < MIN_RECORDS)
    why = "a small trace";
  else if (ot_cfg.writer_thread == OT_WRITER_THREAD_AUTO && cpus_allowed() < 2)
    why = "one CPU";
  else if (ot_cfg.writer_thread == OT_WRITER_THREAD_AUTO &&
           runnable() >= (unsigned)sysconf(_SC_NPROCESSORS_ONLN))
    why = "no idle CPU";
  else if (ot_evtq_start(play) != 0)
    why = "cannot start a thread";
  else
    threaded = 1;
  if (why)
    ot_verbose("finalize: events written by the replaying thread (%s)", why);
  else
    ot_verbose("finalize: events written by a second thread");
}

OTF2_ErrorCode ot_evt_close(int ok) {
  OTF2_ErrorCode e = OTF2_SUCCESS;
  if (threaded) {
    threaded = 0;
    e = ot_evtq_finish();
  }
  OTF2_ErrorCode se = ot_stage_close(ok && e == OTF2_SUCCESS);
  return e != OTF2_SUCCESS ? e : se;
}

OTF2_ErrorCode ot_evt_enter(uint32_t loc, uint64_t t, OTF2_RegionRef region) {
  if (direct(loc))
    return OTF2_EvtWriter_Enter(writers[loc], NULL, t, region);
  put(K_ENTER, 0, loc, t, 0)[2] = region;
  return appended();
}

OTF2_ErrorCode ot_evt_leave(uint32_t loc, uint64_t t, OTF2_RegionRef region) {
  if (direct(loc))
    return OTF2_EvtWriter_Leave(writers[loc], NULL, t, region);
  put(K_LEAVE, 0, loc, t, 0)[2] = region;
  return appended();
}

OTF2_ErrorCode ot_evt_metric(uint32_t loc, uint64_t t, OTF2_MetricRef metric, uint8_t n,
                             const uint64_t *values) {
  if (n > 64)
    n = 64;
  if (direct(loc)) {
    OTF2_Type types[64];
    OTF2_MetricValue vals[64];
    for (unsigned i = 0; i < n; i++) {
      types[i] = OTF2_TYPE_UINT64;
      vals[i].unsigned_int = values[i];
    }
    return OTF2_EvtWriter_Metric(writers[loc], NULL, t, metric, n, types, vals);
  }
  uint64_t *p = put(K_METRIC, n, loc, t, n);
  p[2] = metric;
  for (unsigned i = 0; i < n; i++)
    p[3 + i] = values[i];
  return appended();
}

OTF2_ErrorCode ot_evt_fork(uint32_t loc, uint64_t t, OTF2_Paradigm paradigm, uint32_t threads) {
  if (direct(loc))
    return OTF2_EvtWriter_ThreadFork(writers[loc], NULL, t, paradigm, threads);
  put(K_FORK, paradigm, loc, t, 0)[2] = threads;
  return appended();
}

OTF2_ErrorCode ot_evt_join(uint32_t loc, uint64_t t, OTF2_Paradigm paradigm) {
  if (direct(loc))
    return OTF2_EvtWriter_ThreadJoin(writers[loc], NULL, t, paradigm);
  put(K_JOIN, paradigm, loc, t, 0);
  return appended();
}

OTF2_ErrorCode ot_evt_team_begin(uint32_t loc, uint64_t t, OTF2_CommRef team) {
  if (direct(loc))
    return OTF2_EvtWriter_ThreadTeamBegin(writers[loc], NULL, t, team);
  put(K_TEAM_BEGIN, 0, loc, t, 0)[2] = team;
  return appended();
}

OTF2_ErrorCode ot_evt_team_end(uint32_t loc, uint64_t t, OTF2_CommRef team) {
  if (direct(loc))
    return OTF2_EvtWriter_ThreadTeamEnd(writers[loc], NULL, t, team);
  put(K_TEAM_END, 0, loc, t, 0)[2] = team;
  return appended();
}

static void put_task(enum evt_kind k, uint32_t loc, uint64_t t, OTF2_CommRef team, uint32_t thread,
                     uint32_t generation) {
  uint64_t *p = put(k, 0, loc, t, 0);
  p[2] = pair(team, thread);
  p[3] = generation;
}

OTF2_ErrorCode ot_evt_task_create(uint32_t loc, uint64_t t, OTF2_CommRef team, uint32_t thread,
                                  uint32_t generation) {
  if (direct(loc))
    return OTF2_EvtWriter_ThreadTaskCreate(writers[loc], NULL, t, team, thread, generation);
  put_task(K_TASK_CREATE, loc, t, team, thread, generation);
  return appended();
}

OTF2_ErrorCode ot_evt_task_switch(uint32_t loc, uint64_t t, OTF2_CommRef team, uint32_t thread,
                                  uint32_t generation) {
  if (direct(loc))
    return OTF2_EvtWriter_ThreadTaskSwitch(writers[loc], NULL, t, team, thread, generation);
  put_task(K_TASK_SWITCH, loc, t, team, thread, generation);
  return appended();
}

OTF2_ErrorCode ot_evt_task_complete(uint32_t loc, uint64_t t, OTF2_CommRef team, uint32_t thread,
                                    uint32_t generation) {
  if (direct(loc))
    return OTF2_EvtWriter_ThreadTaskComplete(writers[loc], NULL, t, team, thread, generation);
  put_task(K_TASK_COMPLETE, loc, t, team, thread, generation);
  return appended();
}

OTF2_ErrorCode ot_evt_acquire_lock(uint32_t loc, uint64_t t, OTF2_Paradigm paradigm, uint32_t lock,
                                   uint32_t order) {
  if (direct(loc))
    return OTF2_EvtWriter_ThreadAcquireLock(writers[loc], NULL, t, paradigm, lock, order);
  uint64_t *p = put(K_ACQUIRE_LOCK, paradigm, loc, t, 0);
  p[2] = lock;
  p[3] = order;
  return appended();
}

OTF2_ErrorCode ot_evt_release_lock(uint32_t loc, uint64_t t, OTF2_Paradigm paradigm, uint32_t lock,
                                   uint32_t order) {
  if (direct(loc))
    return OTF2_EvtWriter_ThreadReleaseLock(writers[loc], NULL, t, paradigm, lock, order);
  uint64_t *p = put(K_RELEASE_LOCK, paradigm, loc, t, 0);
  p[2] = lock;
  p[3] = order;
  return appended();
}

OTF2_ErrorCode ot_evt_measurement(uint32_t loc, uint64_t t, OTF2_AttributeList *attributes,
                                  OTF2_MeasurementMode mode) {
  if (direct(loc)) {
    OTF2_ErrorCode e = OTF2_EvtWriter_MeasurementOnOff(writers[loc], attributes, t, mode);
    if (attributes)
      OTF2_AttributeList_Delete(attributes);
    return e;
  }
  put(K_MEASUREMENT, mode, loc, t, 0)[2] = (uint64_t)(uintptr_t)attributes;
  return appended();
}

OTF2_ErrorCode ot_evt_parameter_uint(uint32_t loc, uint64_t t, OTF2_ParameterRef parameter,
                                     uint64_t value) {
  if (direct(loc))
    return OTF2_EvtWriter_ParameterUnsignedInt(writers[loc], NULL, t, parameter, value);
  uint64_t *p = put(K_PARAMETER, 0, loc, t, 0);
  p[2] = parameter;
  p[3] = value;
  return appended();
}

OTF2_ErrorCode ot_evt_sample(uint32_t loc, uint64_t t, OTF2_CallingContextRef context,
                             uint32_t unwind_distance, OTF2_InterruptGeneratorRef generator) {
  if (direct(loc))
    return OTF2_EvtWriter_CallingContextSample(writers[loc], NULL, t, context, unwind_distance,
                                               generator);
  uint64_t *p = put(K_SAMPLE, 0, loc, t, 0);
  p[2] = pair(context, unwind_distance);
  p[3] = generator;
  return appended();
}

static void put_msg(enum evt_kind k, uint32_t loc, uint64_t t, uint32_t peer, OTF2_CommRef comm,
                    uint32_t tag, uint64_t length, uint64_t request) {
  uint64_t *p = put(k, 0, loc, t, 0);
  p[2] = pair(peer, comm);
  p[3] = tag;
  p[4] = length;
  if (words_of[k] > 5)
    p[5] = request;
}

OTF2_ErrorCode ot_evt_mpi_send(uint32_t loc, uint64_t t, uint32_t receiver, OTF2_CommRef comm,
                               uint32_t tag, uint64_t length) {
  if (direct(loc))
    return OTF2_EvtWriter_MpiSend(writers[loc], NULL, t, receiver, comm, tag, length);
  put_msg(K_MPI_SEND, loc, t, receiver, comm, tag, length, 0);
  return appended();
}

OTF2_ErrorCode ot_evt_mpi_recv(uint32_t loc, uint64_t t, uint32_t sender, OTF2_CommRef comm,
                               uint32_t tag, uint64_t length) {
  if (direct(loc))
    return OTF2_EvtWriter_MpiRecv(writers[loc], NULL, t, sender, comm, tag, length);
  put_msg(K_MPI_RECV, loc, t, sender, comm, tag, length, 0);
  return appended();
}

OTF2_ErrorCode ot_evt_mpi_isend(uint32_t loc, uint64_t t, uint32_t receiver, OTF2_CommRef comm,
                                uint32_t tag, uint64_t length, uint64_t request) {
  if (direct(loc))
    return OTF2_EvtWriter_MpiIsend(writers[loc], NULL, t, receiver, comm, tag, length, request);
  put_msg(K_MPI_ISEND, loc, t, receiver, comm, tag, length, request);
  return appended();
}

OTF2_ErrorCode ot_evt_mpi_irecv(uint32_t loc, uint64_t t, uint32_t sender, OTF2_CommRef comm,
                                uint32_t tag, uint64_t length, uint64_t request) {
  if (direct(loc))
    return OTF2_EvtWriter_MpiIrecv(writers[loc], NULL, t, sender, comm, tag, length, request);
  put_msg(K_MPI_IRECV, loc, t, sender, comm, tag, length, request);
  return appended();
}

OTF2_ErrorCode ot_evt_mpi_isend_complete(uint32_t loc, uint64_t t, uint64_t request) {
  if (direct(loc))
    return OTF2_EvtWriter_MpiIsendComplete(writers[loc], NULL, t, request);
  put(K_MPI_ISEND_COMPLETE, 0, loc, t, 0)[2] = request;
  return appended();
}

OTF2_ErrorCode ot_evt_mpi_irecv_request(uint32_t loc, uint64_t t, uint64_t request) {
  if (direct(loc))
    return OTF2_EvtWriter_MpiIrecvRequest(writers[loc], NULL, t, request);
  put(K_MPI_IRECV_REQUEST, 0, loc, t, 0)[2] = request;
  return appended();
}

OTF2_ErrorCode ot_evt_mpi_request_cancelled(uint32_t loc, uint64_t t, uint64_t request) {
  if (direct(loc))
    return OTF2_EvtWriter_MpiRequestCancelled(writers[loc], NULL, t, request);
  put(K_MPI_REQUEST_CANCELLED, 0, loc, t, 0)[2] = request;
  return appended();
}

OTF2_ErrorCode ot_evt_mpi_collective_begin(uint32_t loc, uint64_t t) {
  if (direct(loc))
    return OTF2_EvtWriter_MpiCollectiveBegin(writers[loc], NULL, t);
  put(K_MPI_COLL_BEGIN, 0, loc, t, 0);
  return appended();
}

OTF2_ErrorCode ot_evt_mpi_collective_end(uint32_t loc, uint64_t t, OTF2_CollectiveOp op,
                                         OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                         uint64_t received) {
  if (direct(loc))
    return OTF2_EvtWriter_MpiCollectiveEnd(writers[loc], NULL, t, op, comm, root, sent, received);
  uint64_t *p = put(K_MPI_COLL_END, op, loc, t, 0);
  p[2] = pair(comm, root);
  p[3] = sent;
  p[4] = received;
  return appended();
}

OTF2_ErrorCode ot_evt_mpi_nbc_request(uint32_t loc, uint64_t t, uint64_t request) {
  if (direct(loc))
    return OTF2_EvtWriter_NonBlockingCollectiveRequest(writers[loc], NULL, t, request);
  put(K_MPI_NBC_REQUEST, 0, loc, t, 0)[2] = request;
  return appended();
}

OTF2_ErrorCode ot_evt_mpi_nbc_complete(uint32_t loc, uint64_t t, OTF2_CollectiveOp op,
                                       OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                       uint64_t received, uint64_t request) {
  if (direct(loc))
    return OTF2_EvtWriter_NonBlockingCollectiveComplete(writers[loc], NULL, t, op, comm, root, sent,
                                                        received, request);
  uint64_t *p = put(K_MPI_NBC_COMPLETE, op, loc, t, 0);
  p[2] = pair(comm, root);
  p[3] = sent;
  p[4] = received;
  p[5] = request;
  return appended();
}
