/* First finalize pass over every thread's records: the facts the writer
 * needs from other threads (finalize/scan.c). */
#ifndef OMPTRACE_SCAN_H
#define OMPTRACE_SCAN_H

#include "buffer/record.h"

#include <stdint.h>

/* What a parallel id stands for. A host `teams` construct is a league
 * (ompt_parallel_league) whose members run initial tasks; libomp then
 * forks, from each of them, one runtime-internal parallel region per team
 * (NULL code pointer): the writer folds that into the league. */
enum ot_parallel_kind { OT_PK_PARALLEL, OT_PK_LEAGUE, OT_PK_TEAM };

typedef struct ot_parallel_info {
  uint64_t id;        /* parallel id (record.h) */
  uint64_t parent_id; /* encountering thread's innermost parallel at the fork, 0 = none */
  uint64_t begin_raw; /* master's parallel_begin */
  uint64_t end_raw;   /* master's parallel_end (UINT64_MAX if never seen) */
  uint64_t codeptr;
  uint32_t master_loc;
  uint32_t team_size; /* actual, from the implicit tasks */
  uint8_t kind;       /* enum ot_parallel_kind */
} ot_parallel_info;

typedef struct ot_run ot_run;
int ot_scan_run(const ot_run *run); /* 0 on success */
/* Called with every record ot_scan_run reads, location by location, in
 * stream order (recovery's where.c takes what it needs from this decode
 * instead of reading the log once more); NULL: nobody. */
typedef void (*ot_scan_observer)(void *ctx, uint32_t loc, const ot_rec *r);
void ot_scan_observe(ot_scan_observer fn, void *ctx);
const ot_parallel_info *ot_scan_parallel(uint64_t id); /* NULL if unknown */

#endif
