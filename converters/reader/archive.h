/* Internal state of an open archive (reader/ only). */
#ifndef OMPTRACE_OTR_ARCHIVE_H
#define OMPTRACE_OTR_ARCHIVE_H

#include "idmap.h"
#include "otr.h"

#include <stdio.h>

/* Raw definitions as read; resolved into otr_defs once all are known. */
typedef struct {
  uint64_t id;
  uint32_t a, b, c;
  uint64_t d;
  int32_t e;
} otr_raw;

typedef struct {
  otr_raw *v;
  uint32_t n, cap;
} otr_rawvec;

typedef struct {
  uint32_t first_slot; /* member slot of the class's first member */
  uint32_t n;
  uint32_t *slots; /* slot of each member */
} otr_mclass;

typedef struct otr_locstate otr_locstate;
typedef struct otr_mpi otr_mpi;
typedef struct otr_suspended otr_suspended;

struct otr_archive {
  char *anchor;
  OTF2_Reader *rd;
  otr_defs d;
  /* id maps, OTF2 id -> dense index */
  otr_idmap strings, regions, locations, contexts, generators, params, metrics;
  char **str;
  uint32_t nstr;
  otr_rawvec raw_regions, raw_locations, raw_members, raw_contexts, raw_scl, raw_gen, raw_params,
      raw_groups, raw_attrs;
  otr_mclass *mclasses; /* by metric ref index (classes and instances) */
  uint32_t nmclasses;
  otr_idmap scl;
  char **param_names; /* by param index */
  /* "omptrace::lost_records" (UINT64), when defined: records lost in a gap */
  bool has_lost_attr;
  OTF2_AttributeRef lost_attr;
  /* "omptrace::stopped" (any type), when defined: on an OFF written by
   * `omptrace recover`, the thread's recording ended there (program died) */
  bool has_stopped_attr;
  OTF2_AttributeRef stopped_attr;
  /* "omptrace::paused" (any type): the OFF of a paused interval (omp_control_tool) */
  bool has_paused_attr;
  OTF2_AttributeRef paused_attr;
  /* event pass */
  otr_locstate *ls;
  uint64_t first, last, serial, events, omp_events;
  uint64_t mpi_only;   /* time with a location in an MPI call, none in a parallel region */
  uint32_t in_par;     /* locations inside a parallel region or a fork (not in MPI) */
  uint32_t in_mpi;     /* locations inside an MPI call */
  uint64_t par_change; /* time the job's state (serial, MPI only, parallel) last changed */
  const otr_visitor *v;
  otr_team *teams; /* open parallel instances */
  uint64_t team_seq;
  otr_suspended **suspended; /* taskstack.c: regions of suspended tasks, by task */
  /* measurement gaps: n_off locations are off since off_since; lost is the
   * union of closed gaps, lost_at_change its value when par_change was set */
  uint32_t n_off;
  uint64_t off_since, lost, lost_at_change;
  otr_gap *gaps;
  uint32_t ngaps, capgaps;
  /* first event outside the clock properties' range (another run's file) */
  bool out_of_range;
  uint32_t bad_loc;
  uint64_t bad_t;
  otr_mpi *mpi; /* mpidefs.c, mpi.c: MPI definitions and the message matching */
};

/* Reads global and local definitions; false with a message on error. */
bool otr_defs_read(otr_archive *a, char *err, size_t errlen);
void otr_defs_free(otr_archive *a);
/* Region r (an implicit barrier Score-P could only name by an address)
 * takes the source location of region from, the construct it ends. */
void otr_region_site_from(otr_archive *a, uint32_t r, uint32_t from);
/* A ProgramBegin record names the program: the base name of its executable
 * replaces the location group's name (Score-P names its group "Process"). */
void otr_program_begin(otr_archive *a, OTF2_StringRef name);
/* First OTF2 error seen by the error callback since the last reset. */
const char *otr_last_error(void);
void otr_reset_error(void);
void otr_progress(const otr_archive *a, uint64_t done, bool final);

/* throttled.c: d.throttled from d.throttled_text, once the regions and
 * locations are known. */
void otr_throttled_resolve(otr_archive *a);

#endif
