/* Scan results beyond scan.h, for the writer itself (finalize/scan.c;
 * read by finalize/replay.c, out.c and teams.c). */
#ifndef OMPTRACE_SCAN_EXT_H
#define OMPTRACE_SCAN_EXT_H

#include "finalize/scan.h"
#include <omp-tools.h>
#include <stdint.h>

uint64_t ot_scan_parallel_count(void);
int64_t ot_scan_parallel_index(uint64_t id); /* -1 if unknown */
const ot_parallel_info *ot_scan_parallel_at(uint64_t index);
/* Team members by index in team (UINT32_MAX where none was seen). */
const uint32_t *ot_scan_members(uint64_t index, uint32_t *n);
int ot_scan_task_untied(uint64_t task_id);
/* A code pointer outside the runtime recorded by some acquisition of this
 * wait id (0 if none): libomp occasionally reports NULL or one of its own
 * addresses for a critical. Needs ot_symbols_open before ot_scan_run. */
uint64_t ot_scan_wait_codeptr(uint64_t wait_id);
/* 1 when the implicit barrier begun by loc's record number `index` (from 0)
 * has no usable code pointer (NULL or inside the runtime), follows a
 * work-sharing end and yet ends the parallel region. Needs ot_symbols_open
 * before ot_scan_run. */
int ot_scan_ends_parallel(uint32_t loc, uint64_t index);
/* Sync region kinds libomp uses for implicit barriers (the deprecated
 * barrier and barrier_implicit, and the 5.1 workshare/parallel ones). */
static inline int ot_sync_is_implicit_barrier(uint8_t kind) {
  return kind == ompt_sync_region_barrier || kind == ompt_sync_region_barrier_implicit ||
         kind == ompt_sync_region_barrier_implicit_workshare ||
         kind == ompt_sync_region_barrier_implicit_parallel;
}
/* The task `task if(0) depend(...)` created right after this pseudo task
 * (libomp puts the dependences on the pseudo task), 0 when the pseudo task
 * is a `taskwait depend(...)`. Needs ot_symbols_open before ot_scan_run. */
uint64_t ot_scan_if0_task(uint64_t pseudo_task);
/* Code pointer of a task creation site id (OT_TASK_SITE), from the
 * TASK_CREATE records; 0 when unknown. */
uint64_t ot_scan_site_codeptr(uint32_t site);
uint64_t ot_scan_lost(void); /* records dropped, from OT_LOST records */
uint64_t ot_scan_records(void);
/* Bit d set: the run has a target construct on device d (d < 64). */
uint64_t ot_scan_devices(void);
void ot_scan_free(void);

#endif
