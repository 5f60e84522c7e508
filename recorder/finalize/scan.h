/* First finalize pass over every thread's records: the facts the writer
 * needs from other threads (finalize/scan.c). */
#ifndef OMPTRACE_SCAN_H
#define OMPTRACE_SCAN_H

#include <stdint.h>

typedef struct ot_parallel_info {
  uint64_t id;        /* parallel id (record.h) */
  uint64_t parent_id; /* encountering thread's innermost parallel at the fork, 0 = none */
  uint64_t begin_raw; /* master's parallel_begin */
  uint64_t end_raw;   /* master's parallel_end (UINT64_MAX if never seen) */
  uint64_t codeptr;
  uint32_t master_loc;
  uint32_t team_size; /* actual, from the implicit tasks */
} ot_parallel_info;

int ot_scan_run(void);                                 /* 0 on success */
const ot_parallel_info *ot_scan_parallel(uint64_t id); /* NULL if unknown */

#endif
