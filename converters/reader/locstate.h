/* Per-location state of the event pass (reader/ only): the stack of open
 * regions and what the records of one location have set so far. */
#ifndef OMPTRACE_OTR_LOCSTATE_H
#define OMPTRACE_OTR_LOCSTATE_H

#include "archive.h"

struct otr_locstate {
  otr_loc pub;
  otr_frame *stack;
  double *snap; /* cap x n_metrics counter values at enter */
  uint32_t depth, cap;
  uint64_t last_t;
  otr_cat cat;
  bool seen;
  uint8_t state; /* OTR_S_*: what the location adds to the job's state */
  bool has_team;
  bool off; /* in a measurement gap since off_t */
  uint64_t off_t;
  uint64_t off_records; /* records lost in it, when off_known */
  bool off_known;
  bool off_stopped;    /* the OFF says recording stopped there for good */
  bool off_paused;     /* the OFF says recording was paused (nothing lost) */
  uint64_t lost_mark;  /* otr_lost_until(last_t) */
  uint64_t lost_first; /* otr_lost_until(first event) */
  uint32_t team_comm;
  uint32_t fork_n;
  uint64_t cur_task;
  bool mutex_open;
  uint32_t mutex_depth, mutex_site;
  uint64_t mutex_t0;
  uint64_t chunk_first; /* of the chunk whose iterations come next */
  /* counters */
  bool pm_valid, have_metrics;
  uint64_t pm_time;
  double *pm, *first, *lastv, *delta;
};

/* A location's part in the job's state, for serial and MPI-only time:
 * outside (serial or idle), in an MPI call, in a parallel region or fork. */
enum { OTR_S_OUTSIDE, OTR_S_MPI, OTR_S_PAR };

static inline uint64_t now(const otr_locstate *ls) {
  return ls->last_t;
}

/* stack.c. otr_loc_of counts a record of location id at time t and charges
 * the time since the location's previous record to its current category;
 * NULL for an unknown location. */
otr_locstate *otr_loc_of(otr_archive *a, OTF2_LocationRef id, uint64_t t);
void otr_enter_region(otr_archive *a, otr_locstate *ls, uint32_t region);
/* Closes region and everything opened inside it; ignores an unmatched Leave. */
void otr_leave_region(otr_archive *a, otr_locstate *ls, uint32_t region);
void otr_pop(otr_archive *a, otr_locstate *ls);
void otr_fork(otr_archive *a, otr_locstate *ls, uint32_t n);
void otr_join(otr_archive *a, otr_locstate *ls);
/* At the end of the pass: the last interval of the job's state. */
void otr_job_state_finish(otr_archive *a);
/* MeasurementOnOff: a gap closes everything open; its time is lost.
 * known: the OFF record says how many records were lost. */
void otr_measurement_off(otr_archive *a, otr_locstate *ls, bool known, uint64_t records,
                         bool stopped);
void otr_measurement_on(otr_archive *a, otr_locstate *ls);
/* Union of gaps up to t (t not before the last event read). */
uint64_t otr_lost_until(const otr_archive *a, uint64_t t);
void otr_gaps_finish(otr_archive *a);
/* Notes the first event outside the clock properties' range. */
void otr_check_range(otr_archive *a, otr_locstate *ls, uint64_t t);
void otr_range_message(const otr_archive *a, char *err, size_t errlen);

/* taskstack.c: a ThreadTaskSwitch to task (0: the implicit task). Regions
 * still open in the task left (Score-P) are closed and kept until it resumes. */
void otr_task_switch(otr_archive *a, otr_locstate *ls, uint64_t task);
void otr_tasks_free(otr_archive *a);

/* damage.c: the bound of the records the event files can hold; false with
 * a message once a location or the pass is past it; after a failed pass,
 * one line per location whose file holds other than its count (false when
 * none: err is left as it was). */
uint64_t otr_read_bound(const otr_archive *a);
bool otr_read_advances(const otr_archive *a, uint64_t read, uint64_t bound, char *err,
                       size_t errlen);
bool otr_damaged_locations(otr_archive *a, char *err, size_t errlen);
/* Definitions read no further than their files can hold (a damaged record
 * can make libotf2 read them again): *looped when stopped there. */
OTF2_ErrorCode otr_read_global_defs(otr_archive *a, OTF2_GlobalDefReader *gr, bool *looped);
void otr_read_local_defs(otr_archive *a, OTF2_DefReader *dr, uint64_t location);

/* records.c: OTF2 callbacks turning records into the calls above. */
OTF2_GlobalEvtReaderCallbacks *otr_callbacks(void);

#endif
