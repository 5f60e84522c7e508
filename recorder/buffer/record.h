/* Raw event record: the one format shared by the hot path (writer side) and
 * the finalize pipeline (reader side). Fixed 32-byte header, optionally
 * followed by `nval` 64-bit counter values (PAPI), so a record occupies
 * 32 + 8 * nval bytes. Records are 8-byte aligned. */
#ifndef OMPTRACE_RECORD_H
#define OMPTRACE_RECORD_H

#include <stdint.h>

/* Record types. Field use per type is documented next to each value:
 * a (u32), b (u64), c (u64), kind (u8). "cp" = codeptr_ra as recorded
 * (NULL allowed). Task ids are ot_task_id values (see below); parallel ids
 * are ot_parallel_id values. */
enum ot_rec_type {
  OT_NONE = 0,
  OT_THREAD_BEGIN,    /* kind=ompt_thread_t                                   */
  OT_THREAD_END,      /*                                                      */
  OT_PARALLEL_BEGIN,  /* a=requested team size, b=cp, c=parallel id, kind=OT_PAR_* flags */
  OT_PARALLEL_END,    /* b=cp, c=parallel id, kind=OT_PAR_* flags               */
  OT_IMPLICIT_BEGIN,  /* a=team size (actual), b=parallel id (0 = none), c=thread index in team,
                         kind=flags (ompt_task_initial/implicit bits)           */
  OT_IMPLICIT_END,    /* a=team size, b=parallel id as known (0 if NULL), c=index in team */
  OT_TASK_CREATE,     /* a=ompt task flags, b=cp, c=new task id                 */
  OT_TASK_SCHEDULE,   /* kind=prior status, b=prior task id, c=next task id     */
  OT_DEPENDENCE,      /* one per dependence of the task created just before on this thread:
                         kind=ompt_dependence_type_t, b=variable address, c=task id */
  OT_TASK_DEPENDENCE, /* b=source task id, c=sink task id                        */
  OT_SYNC_BEGIN,      /* kind=ompt_sync_region_t, b=cp, c=parallel id (0 if NULL) */
  OT_SYNC_END,        /* kind=ompt_sync_region_t, b=cp, c=parallel id (0 if NULL) */
  OT_SYNC_WAIT_BEGIN, /* kind=ompt_sync_region_t, b=cp, c=parallel id (0 if NULL) */
  OT_SYNC_WAIT_END,   /* kind=ompt_sync_region_t, b=cp, c=parallel id (0 if NULL) */
  OT_MUTEX_ACQUIRE,   /* kind=ompt_mutex_t, a=hint, b=wait id, c=cp             */
  OT_MUTEX_ACQUIRED,  /* kind=ompt_mutex_t, b=wait id, c=cp                      */
  OT_MUTEX_RELEASED,  /* kind=ompt_mutex_t, b=wait id, c=cp                      */
  OT_NEST_LOCK,       /* kind=ompt_scope_endpoint_t, b=wait id, c=cp (nested re-acquire/release) */
  OT_LOCK_INIT,       /* kind=ompt_mutex_t, a=hint, b=wait id, c=cp             */
  OT_LOCK_DESTROY,    /* kind=ompt_mutex_t, b=wait id, c=cp                      */
  OT_WORK_BEGIN,      /* kind=ompt_work_t, a=count (saturated), b=cp, c=parallel id */
  OT_WORK_END,        /* kind=ompt_work_t, a=count (saturated), b=cp, c=parallel id */
  OT_MASKED_BEGIN,    /* b=cp, c=parallel id                                     */
  OT_MASKED_END,      /* b=cp, c=parallel id                                     */
  OT_REDUCTION_BEGIN, /* kind=ompt_sync_region_t, b=cp, c=parallel id            */
  OT_REDUCTION_END,   /* kind=ompt_sync_region_t, b=cp, c=parallel id            */
  OT_FLUSH,           /* b=cp                                                     */
  OT_CANCEL,          /* a=ompt_cancel_flag_t bits, b=cp                          */
  OT_CONTROL_TOOL,    /* a=command, b=modifier, c=cp                              */
  OT_ERROR,           /* kind=ompt_severity_t, b=cp                               */
  OT_LOST,            /* records dropped before this one: a=count (saturated), b=first lost ts,
                         c=last lost ts. Written by the buffer layer, never by handlers. */
  OT_REC_TYPE_COUNT
};

/* Kind of parallel begin/end records: the invoker bits of
 * ompt_parallel_flag_t (0x1 program, 0x2 runtime) and its league/team bits
 * (0x40000000, 0x80000000) moved into the byte, so a `teams` league stays
 * distinguishable from a parallel region. */
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
