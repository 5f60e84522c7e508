/* Raw event record: the one format shared by the hot path (writer side) and
 * the finalize pipeline (reader side). Fixed 32-byte header, optionally
 * followed by `nval` 64-bit counter values (PAPI), so a record occupies
 * 32 + 8 * nval bytes. Records are 8-byte aligned. */
#ifndef OMPTRACE_RECORD_H
#define OMPTRACE_RECORD_H

#include <stdint.h>

/* Record types: the one description every use derives from (the enum
 * below, the emit fast-path mask's width, the debug dump in
 * buffer/record_dump.c). X(type, kind, a, b, c) names what each field
 * holds, 0 where the type leaves it unused: a (u32), b (u64), c (u64),
 * kind (u8). "cp" = codeptr_ra as recorded (NULL allowed). Task ids are
 * ot_task_id values (see below); parallel ids are ot_parallel_id values. */
// clang-format off
#define OT_REC_TYPES(X)                                                                            \
  X(THREAD_BEGIN, "ompt_thread_t", 0, 0, 0)                                                        \
  X(THREAD_END, 0, 0, 0, 0)                                                                        \
  X(PARALLEL_BEGIN, "OT_PAR_* flags", "requested team size", "cp", "parallel id")                  \
  X(PARALLEL_END, "OT_PAR_* flags", 0, "cp", "parallel id")                                        \
  /* kind: ompt_task_initial/implicit bits; b of a begin: 0 = none */                               \
  X(IMPLICIT_BEGIN, "task flags", "team size (actual)", "parallel id", "index in team")            \
  X(IMPLICIT_END, "task flags", "team size", "parallel id (0 if NULL)", "index in team")           \
  X(TASK_CREATE, 0, "ompt task flags", "cp", "new task id")                                        \
  X(TASK_SCHEDULE, "prior status", 0, "prior task id", "next task id")                             \
  /* one per dependence of the task created just before on this thread */                          \
  X(DEPENDENCE, "ompt_dependence_type_t", 0, "variable address", "task id")                        \
  X(TASK_DEPENDENCE, 0, 0, "source task id", "sink task id")                                       \
  /* a OT_SYNC_AFTER_THROTTLED: the runtime gave no cp; b is the throttled work-sharing construct's */ \
  X(SYNC_BEGIN, "ompt_sync_region_t", "0 or OT_SYNC_AFTER_THROTTLED", "cp", "parallel id (0 if NULL)") \
  X(SYNC_END, "ompt_sync_region_t", 0, "cp", "parallel id (0 if NULL)")                            \
  X(SYNC_WAIT_BEGIN, "ompt_sync_region_t", 0, "cp", "parallel id (0 if NULL)")                     \
  X(SYNC_WAIT_END, "ompt_sync_region_t", 0, "cp", "parallel id (0 if NULL)")                       \
  X(MUTEX_ACQUIRE, "ompt_mutex_t", "hint", "wait id", "cp")                                        \
  X(MUTEX_ACQUIRED, "ompt_mutex_t", 0, "wait id", "cp")                                            \
  X(MUTEX_RELEASED, "ompt_mutex_t", 0, "wait id", "cp")                                            \
  /* nested re-acquire/release */                                                                  \
  X(NEST_LOCK, "ompt_scope_endpoint_t", 0, "wait id", "cp")                                        \
  X(LOCK_INIT, "ompt_mutex_t", "hint", "wait id", "cp")                                            \
  X(LOCK_DESTROY, "ompt_mutex_t", 0, "wait id", "cp")                                              \
  X(WORK_BEGIN, "ompt_work_t", "count (saturated)", "cp", "parallel id")                           \
  X(WORK_END, "ompt_work_t", "count (saturated)", "cp", "parallel id")                             \
  X(MASKED_BEGIN, 0, 0, "cp", "parallel id")                                                       \
  X(MASKED_END, 0, 0, "cp", "parallel id")                                                         \
  X(REDUCTION_BEGIN, "ompt_sync_region_t", 0, "cp", "parallel id")                                 \
  X(REDUCTION_END, "ompt_sync_region_t", 0, "cp", "parallel id")                                   \
  X(FLUSH, 0, 0, "cp", 0)                                                                          \
  X(CANCEL, 0, "ompt_cancel_flag_t bits", "cp", 0)                                                 \
  /* kind: the OT_CTL_* recording state the call switched to; 0 = none */                          \
  X(CONTROL_TOOL, "OT_CTL_* state", "command", "modifier", "cp")                                   \
  X(ERROR, "ompt_severity_t", 0, "cp", 0)                                                          \
  /* records dropped before this one; written by the buffer layer, never by handlers */            \
  X(LOST, 0, "count (saturated)", "first lost ts", "last lost ts")                                 \
  /* up to 20 bytes of the name of the CONTROL_TOOL record that follows (events/control.c) */      \
  X(LABEL, "bytes in this piece", "bytes 0-3", "bytes 4-11", "bytes 12-19")                      \
  /* throttled instances since the last such record of this construct (core/throttle.h) */        \
  X(THROTTLED, "OT_THR_* class", "instances", "cp (a task's creation site)", "summed ticks")     \
  /* an MPI call (libomptrace-mpi.so, buffer/mpi_calls.h) begins / ends */                         \
  X(MPI_ENTER, 0, "enum ot_mpi_call", "cp", 0)                                                     \
  X(MPI_LEAVE, 0, "enum ot_mpi_call", "cp", "MPI_Init*: world rank + 1")                         \
  /* inside an MPI call's Enter/Leave (buffer/mpi_calls.h); comm id: the rank's own numbering */   \
  X(MPI_MSG, "OT_MSG_* kind", "comm id", "peer << 32 | tag", "bytes")                              \
  X(MPI_REQ, "OT_MSG_* kind", 0, 0, "request id")                                                  \
  X(MPI_COLL_BEGIN, 0, "root in comm (UINT32_MAX: none)", 0, 0)                                    \
  X(MPI_COLL_END, "OTF2_CollectiveOp", "comm id", "bytes sent", "bytes received")                  \
  X(MPI_COMM, "OT_COMM_* kind", "comm id", "creating call << 32 | parent id", "K << 32 | size")    \
  X(MPI_MEMBER, 0, "comm id", "rank in comm", "world rank")                                       \
  /* offload (events/target.c); devices as OT_DEV_NUM, cp of a data op as the runtime gives it */  \
  X(TARGET_BEGIN, "ompt_target_t", "device", "cp", 0)                                              \
  X(TARGET_END, "ompt_target_t", "device", "cp", 0)                                                \
  X(TARGET_DATA_OP, "optype | OT_TGT_* endpoint", "src device << 16 | dest device", "bytes", "cp") \
  X(TARGET_SUBMIT, "OT_TGT_* endpoint", "requested teams", 0, 0)                                   \
  X(DEVICE, "OT_DEVICE_* event", "device", "bytes loaded", 0)                                    \
  /* a loop chunk (ompt_callback_dispatch): c 0 for a section or iteration, whose value is in b */ \
  X(DISPATCH, "ompt_dispatch_t", 0, "first iteration (or the instance's value)", "iterations")
// clang-format on

enum ot_rec_type {
  OT_NONE = 0,
#define OT_REC_ENUM(type, kind, a, b, c) OT_##type,
  OT_REC_TYPES(OT_REC_ENUM)
#undef OT_REC_ENUM
      OT_REC_TYPE_COUNT
};

/* events/emit.h keeps one bit per record type in a uint64_t. */
_Static_assert(OT_REC_TYPE_COUNT <= 64, "record types must fit the emit fast-path mask");

/* Kind of a CONTROL_TOOL record: the recording state it switched to
 * (omp_control_tool, or a thread or fork child that began paused). */
enum { OT_CTL_NONE = 0, OT_CTL_PAUSED = 1, OT_CTL_RESUMED = 2, OT_CTL_ENDED = 3 };
/* Longest name a control call carries (LABEL records, 20 bytes each). */
#define OT_LABEL_MAX 120
/* Offload records (events/target.c): the endpoint of an _emi callback in
 * the kind's top bits (neither: the old callback, one record per event);
 * a device number in 16 bits, 0xffff for none (-1). */
enum { OT_TGT_BEGIN = 0x40, OT_TGT_END = 0x80, OT_TGT_OPTYPE = 0x3f };
enum { OT_DEVICE_INIT = 1, OT_DEVICE_FINI = 2, OT_DEVICE_LOAD = 3, OT_DEVICE_UNLOAD = 4 };
#define OT_DEV_NUM(d) ((uint32_t)(uint16_t)(d))
/* Tool-specific omp_control_tool commands (share/include/omptrace.h). */
enum { OT_CMD_MARK = 64, OT_CMD_BEGIN = 65, OT_CMD_END = 66 };

/* Kind of parallel begin/end records: the invoker bits of
 * ompt_parallel_flag_t (0x1 program, 0x2 runtime) and its league/team bits
 * (0x40000000, 0x80000000) moved into the byte, so a `teams` league stays
 * distinguishable from a parallel region. */
/* a of an OT_SYNC_BEGIN: an implicit barrier without code address right
 * after a throttled work-sharing construct, whose address is in b. */
#define OT_SYNC_AFTER_THROTTLED 1u

#define OT_PAR_INVOKER_MASK 0x3fu
#define OT_PAR_LEAGUE 0x40u
#define OT_PAR_TEAM 0x80u

typedef struct ot_rec {
  uint64_t ts;  /* raw clock ticks (see core/clock.h), converted at finalize */
  uint8_t type; /* enum ot_rec_type */
  uint8_t kind;
  uint16_t nval; /* number of uint64 counter values following the header */
  uint32_t a;
  uint64_t b;
  uint64_t c;
} ot_rec;

_Static_assert(sizeof(ot_rec) == 32, "record header must stay 32 bytes");

/* Counter values of a record (valid when nval > 0). */
static inline const uint64_t *ot_rec_values(const ot_rec *r) {
  return (const uint64_t *)(r + 1);
}
static inline uint64_t *ot_rec_values_mut(ot_rec *r) {
  return (uint64_t *)(r + 1);
}
static inline uint32_t ot_rec_size(const ot_rec *r) {
  return (uint32_t)sizeof(ot_rec) + 8u * r->nval;
}

/* Task id stored in a task's ompt_data_t at creation: creating thread's
 * location index (16 bits), call-site id (16 bits, see core/sites.h; 0 =
 * unknown) and the creator's generation number (32 bits, starts at 1 for
 * explicit tasks). Implicit/initial tasks have generation 0 and site 0. */
#define OT_TASK_ID(thread, site, gen)                                                              \
  (((uint64_t)(thread) << 48) | ((uint64_t)((site)&0xffffu) << 32) | (uint64_t)(uint32_t)(gen))
#define OT_TASK_THREAD(id) ((uint32_t)((id) >> 48))
#define OT_TASK_SITE(id) ((uint32_t)(((id) >> 32) & 0xffffu))
#define OT_TASK_GEN(id) ((uint32_t)(id))

/* Parallel id stored in parallel_data at parallel_begin: encountering
 * thread's location index (16 bits) and that thread's parallel-region
 * sequence number (47 bits, starts at 1). 0 means "unknown". */
#define OT_PARALLEL_ID(thread, seq)                                                                \
  (((uint64_t)(thread) << 48) | ((uint64_t)(seq)&0x7fffffffffffull))
#define OT_PARALLEL_THREAD(id) ((uint32_t)((id) >> 48))
/* Bit 47 of the value kept in parallel_data is set (atomically, by the
 * sampler of any team member) when a sample fell into the region; the
 * master then captures its fork context lazily at parallel_end. Records
 * always carry the id with this bit cleared. */
#define OT_PARALLEL_SAMPLED_BIT (1ull << 47)
#define OT_PARALLEL_CLEAN(id) ((id) & ~OT_PARALLEL_SAMPLED_BIT)

#endif
