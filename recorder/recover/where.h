/* "Where is each thread": the state of every location at its last record,
 * rebuilt from the record log alone (a snapshot, or a run killed in a
 * hang). Per location the stack of open constructs, the locks it holds,
 * and for each lock it waits for, who holds it. omptrace-recover --where
 * prints it (recover/where_print.c). */
#ifndef OMPTRACE_RECOVER_WHERE_H
#define OMPTRACE_RECOVER_WHERE_H

#include <stdint.h>
#include <stdio.h>

/* One open construct. `what` is a where_kind; id is the parallel id,
 * task id or wait id it concerns; cp its recorded code pointer (0 when
 * unknown: then finished by where_print.c from the parallel or task). */
enum where_kind {
  W_PARALLEL,  /* encountering thread, between parallel begin and end */
  W_IMPLICIT,  /* implicit task: a = index in team, b = team size */
  W_INITIAL,   /* the initial task of a thread */
  W_TASK,      /* explicit task running */
  W_SYNC,      /* barrier, taskwait, taskgroup, reduction: a = ompt_sync_region_t */
  W_SYNC_WAIT, /* waiting in it */
  W_WORK,      /* worksharing: a = ompt_work_t */
  W_MASKED,
  W_REDUCTION,
  W_ACQUIRE /* waiting for a mutex: a = ompt_mutex_t */
};

typedef struct where_frame {
  uint8_t what;
  uint32_t a, b;
  uint64_t id, cp, raw; /* raw: time it opened */
} where_frame;

typedef struct where_held {
  uint64_t wait_id, cp, raw; /* cp, raw: where and when it was acquired */
  uint64_t outer_cp;         /* the innermost code pointer around the acquisition */
  uint32_t kind;             /* ompt_mutex_t */
  uint32_t depth;            /* nest lock re-acquisitions + 1 */
} where_held;

typedef struct where_loc {
  uint32_t loc;
  int32_t type, tid; /* from the THREAD frame */
  uint64_t records, first_raw, last_raw;
  uint8_t last_type; /* enum ot_rec_type of its last record */
  int ended;         /* its last record is THREAD_END */
  int damaged;       /* its log ends in a frame that did not validate */
  where_frame *stack;
  uint32_t depth, cap;
  where_held *held;
  uint32_t nheld, capheld;
} where_loc;

typedef struct ot_where {
  where_loc *locs; /* by location index; present ones have records or a THREAD frame */
  uint8_t *present;
  uint32_t nlocs;
  uint64_t first_raw; /* earliest record of any location */
  int stacks;         /* rebuild the stacks (else only the last records) */
} ot_where;

/* Reads every location's records of a loaded run; with stacks = 0 only
 * each location's last record (enough for ot_where_ended_early). With
 * stacks it opens the symbols (finalize/symbols.h; the caller closes
 * them) to name mutexes as the archive does. 0, or -1 (out of memory). */
typedef struct ot_run ot_run;
int ot_where_scan(ot_where *w, const ot_run *run, int stacks);
/* As ot_where_scan with stacks = 0, but without a pass of its own: w
 * follows the records of finalize's scan pass (finalize/scan.h), so it is
 * complete once ot_finalize_write has returned 0. */
int ot_where_follow(ot_where *w, const ot_run *run);
/* Locations whose last record is not their THREAD_END; *n gets how many
 * locations there are. */
uint32_t ot_where_ended_early(const ot_where *w, uint32_t *n);
/* The report (symbols must be open: finalize/symbols.h). */
void ot_where_print(const ot_where *w, FILE *f, const char *title);
void ot_where_free(ot_where *w);

#endif
