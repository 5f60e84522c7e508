/* Region names and source positions for OpenMP constructs, cached per
 * (construct, code pointer). */
#include "finalize/regions.h"
#include "core/filter.h"
#include "finalize/defs.h"
#include "finalize/grow.h"
#include "finalize/intern.h"
#include "finalize/symbols.h"

#include <inttypes.h>
#include <omp-tools.h>
#include <stdlib.h>
#include <string.h>

static const struct {
  const char *name;
  OTF2_RegionRole role;
} table[OC_COUNT] = {
    [OC_PARALLEL] = {"parallel", OTF2_REGION_ROLE_PARALLEL},
    /* OTF2 has no teams role; a league forks threads like a parallel region */
    [OC_TEAMS] = {"teams", OTF2_REGION_ROLE_PARALLEL},
    [OC_IBARRIER] = {"implicit barrier", OTF2_REGION_ROLE_IMPLICIT_BARRIER},
    [OC_IBARRIER_WAIT] = {"implicit barrier wait", OTF2_REGION_ROLE_IMPLICIT_BARRIER},
    [OC_BARRIER] = {"barrier", OTF2_REGION_ROLE_BARRIER},
    [OC_BARRIER_WAIT] = {"barrier wait", OTF2_REGION_ROLE_BARRIER},
    [OC_IMPL_BARRIER] = {"implementation barrier", OTF2_REGION_ROLE_IMPLICIT_BARRIER},
    [OC_IMPL_BARRIER_WAIT] = {"implementation barrier wait", OTF2_REGION_ROLE_IMPLICIT_BARRIER},
    [OC_TASKWAIT] = {"taskwait", OTF2_REGION_ROLE_TASK_WAIT},
    [OC_TASKWAIT_WAIT] = {"taskwait wait", OTF2_REGION_ROLE_TASK_WAIT},
    [OC_TASKGROUP] = {"taskgroup", OTF2_REGION_ROLE_TASK_WAIT},
    [OC_TASKGROUP_WAIT] = {"taskgroup wait", OTF2_REGION_ROLE_TASK_WAIT},
    [OC_SYNC_REDUCTION] = {"reduction", OTF2_REGION_ROLE_WRAPPER},
    [OC_SYNC_REDUCTION_WAIT] = {"reduction wait", OTF2_REGION_ROLE_WRAPPER},
    [OC_LOOP] = {"loop", OTF2_REGION_ROLE_LOOP},
    [OC_TASKLOOP] = {"taskloop", OTF2_REGION_ROLE_LOOP},
    [OC_SECTIONS] = {"sections", OTF2_REGION_ROLE_SECTIONS},
    [OC_SINGLE] = {"single", OTF2_REGION_ROLE_SINGLE},
    [OC_SINGLE_SBLOCK] = {"single sblock", OTF2_REGION_ROLE_SINGLE_SBLOCK},
    [OC_WORKSHARE] = {"workshare", OTF2_REGION_ROLE_WORKSHARE},
    [OC_DISTRIBUTE] = {"distribute", OTF2_REGION_ROLE_LOOP},
    [OC_SCOPE] = {"scope", OTF2_REGION_ROLE_WRAPPER},
    [OC_MASKED] = {"masked", OTF2_REGION_ROLE_MASTER},
    [OC_CRITICAL] = {"critical", OTF2_REGION_ROLE_CRITICAL},
    [OC_CRITICAL_WAIT] = {"critical wait", OTF2_REGION_ROLE_CRITICAL},
    [OC_CRITICAL_SBLOCK] = {"critical sblock", OTF2_REGION_ROLE_CRITICAL_SBLOCK},
    [OC_ORDERED] = {"ordered", OTF2_REGION_ROLE_ORDERED},
    [OC_ORDERED_WAIT] = {"ordered wait", OTF2_REGION_ROLE_ORDERED},
    [OC_ORDERED_SBLOCK] = {"ordered sblock", OTF2_REGION_ROLE_ORDERED_SBLOCK},
    [OC_ATOMIC] = {"atomic", OTF2_REGION_ROLE_ATOMIC},
    [OC_ATOMIC_WAIT] = {"atomic wait", OTF2_REGION_ROLE_ATOMIC},
    [OC_ATOMIC_SBLOCK] = {"atomic sblock", OTF2_REGION_ROLE_ATOMIC},
    [OC_SET_LOCK] = {"omp_set_lock", OTF2_REGION_ROLE_WRAPPER},
    [OC_SET_NEST_LOCK] = {"omp_set_nest_lock", OTF2_REGION_ROLE_WRAPPER},
    [OC_LOCK_WAIT] = {"lock wait", OTF2_REGION_ROLE_ARTIFICIAL},
    [OC_REDUCTION] = {"reduction", OTF2_REGION_ROLE_WRAPPER},
    [OC_FLUSH] = {"flush", OTF2_REGION_ROLE_FLUSH},
    [OC_TASK_CREATE] = {"task create", OTF2_REGION_ROLE_TASK_CREATE},
    [OC_TASK] = {"task", OTF2_REGION_ROLE_TASK},
    [OC_UNTIED_TASK] = {"untied task", OTF2_REGION_ROLE_TASK_UNTIED},
    [OC_CONTROL_TOOL] = {"omp_control_tool", OTF2_REGION_ROLE_ARTIFICIAL},
    [OC_ERROR] = {"error", OTF2_REGION_ROLE_ARTIFICIAL},
    [OC_CANCEL_FIRST + 0] = {"cancel parallel activated", OTF2_REGION_ROLE_ARTIFICIAL},
    [OC_CANCEL_FIRST + 1] = {"cancel parallel detected", OTF2_REGION_ROLE_ARTIFICIAL},
    [OC_CANCEL_FIRST + 2] = {"cancel parallel discarded", OTF2_REGION_ROLE_ARTIFICIAL},
    [OC_CANCEL_FIRST + 3] = {"cancel sections activated", OTF2_REGION_ROLE_ARTIFICIAL},
    [OC_CANCEL_FIRST + 4] = {"cancel sections detected", OTF2_REGION_ROLE_ARTIFICIAL},
    [OC_CANCEL_FIRST + 5] = {"cancel sections discarded", OTF2_REGION_ROLE_ARTIFICIAL},
    [OC_CANCEL_FIRST + 6] = {"cancel loop activated", OTF2_REGION_ROLE_ARTIFICIAL},
    [OC_CANCEL_FIRST + 7] = {"cancel loop detected", OTF2_REGION_ROLE_ARTIFICIAL},
    [OC_CANCEL_FIRST + 8] = {"cancel loop discarded", OTF2_REGION_ROLE_ARTIFICIAL},
    [OC_CANCEL_FIRST + 9] = {"cancel taskgroup activated", OTF2_REGION_ROLE_ARTIFICIAL},
    [OC_CANCEL_FIRST + 10] = {"cancel taskgroup detected", OTF2_REGION_ROLE_ARTIFICIAL},
    [OC_CANCEL_FIRST + 11] = {"cancel taskgroup discarded", OTF2_REGION_ROLE_ARTIFICIAL},
};

static ot_u64map cache; /* (construct << 56 | codeptr) -> region id */
/* Region ids the filter excludes (OMPTRACE_FILTER): their Enter and Leave
 * are left out, what they contain is written. */
static uint8_t *excluded;
static uint32_t excluded_cap;
static char **excluded_names; /* of the constructs (not their waits and sblocks) */
static uint32_t nexcluded_names, names_cap;

enum ot_construct ot_cancel_construct(uint32_t flags) {
  int what = flags & ompt_cancel_parallel   ? 0
             : flags & ompt_cancel_sections ? 1
             : flags & ompt_cancel_loop     ? 2
                                            : 3; /* taskgroup */
  int how = flags & ompt_cancel_activated ? 0 : flags & ompt_cancel_detected ? 1 : 2;
  return (enum ot_construct)(OC_CANCEL_FIRST + what * 3 + how);
}

/* The construct whose filter decision a region follows: a wait or
 * sblock goes with its construct; OC_COUNT: never filtered (parallel
 * regions, teams and tasks keep the timeline's structure). */
static enum ot_construct primary(enum ot_construct c) {
  switch (c) {
  case OC_IBARRIER_WAIT:
  case OC_BARRIER_WAIT:
  case OC_IMPL_BARRIER_WAIT:
  case OC_TASKWAIT_WAIT:
  case OC_TASKGROUP_WAIT:
  case OC_SYNC_REDUCTION_WAIT:
  case OC_CRITICAL_WAIT:
  case OC_ORDERED_WAIT:
  case OC_ATOMIC_WAIT:
    return c - 1;
  case OC_SINGLE_SBLOCK:
  case OC_CRITICAL_SBLOCK:
  case OC_ORDERED_SBLOCK:
  case OC_ATOMIC_SBLOCK:
    return c - (c == OC_SINGLE_SBLOCK ? 1 : 2);
  case OC_PARALLEL:
  case OC_TEAMS:
  case OC_TASK_CREATE:
  case OC_TASK:
  case OC_UNTIED_TASK:
  case OC_CONTROL_TOOL:
  case OC_ERROR:
    return OC_COUNT;
  default:
    return c < OC_CANCEL_FIRST ? c : OC_COUNT;
  }
}

static int excluded_by_filter(enum ot_construct c, uint64_t codeptr, const ot_symbol *s, int n) {
  if (c == OC_LOCK_WAIT) /* shared by both lock kinds */
    return ot_filter_decide(table[OC_SET_LOCK].name, codeptr, s, n) ||
           ot_filter_decide(table[OC_SET_NEST_LOCK].name, codeptr, s, n);
  enum ot_construct p = primary(c);
  return p != OC_COUNT && ot_filter_decide(table[p].name, codeptr, s, n);
}

static void mark_excluded(uint32_t id, enum ot_construct c, const char *name) {
  uint8_t *e = ot_grow(excluded, &excluded_cap, (uint64_t)id + 1, 1, 256);
  if (!e)
    return;
  excluded = e;
  excluded[id] = 1;
  if (primary(c) != c) /* listed once, by its construct */
    return;
  char **n = ot_grow(excluded_names, &names_cap, (uint64_t)nexcluded_names + 1, sizeof *n, 16);
  if (n && (n[nexcluded_names] = strdup(name)) != NULL) {
    excluded_names = n;
    nexcluded_names++;
  } else if (n) {
    excluded_names = n;
  }
}

static uint32_t define(enum ot_construct c, uint64_t codeptr) {
  char name[1024];
  ot_symbol s[8];
  int n = codeptr ? ot_symbols_lookup(codeptr - 1, s, 8) : 0;
  ot_srcloc_region_name(name, sizeof name, table[c].name, codeptr, s, n);
  int known = n >= 1 && s[0].file && s[0].line;
  uint32_t line = known ? s[0].line : 0;
  uint32_t id = ot_defs_region(name, table[c].role, OTF2_PARADIGM_OPENMP, known ? s[0].file : NULL,
                               line, line);
  if (excluded_by_filter(c, codeptr, s, n))
    mark_excluded(id, c, name);
  return id;
}

int ot_region_excluded(uint32_t region) {
  return region < excluded_cap && excluded[region];
}

const char *ot_region_excluded_name(uint32_t i) {
  return i < nexcluded_names ? excluded_names[i] : NULL;
}

void ot_sync_constructs(unsigned kind, enum ot_construct *c, enum ot_construct *wait) {
  switch (kind) {
  case ompt_sync_region_barrier_explicit:
  case ompt_sync_region_barrier:
    *c = OC_BARRIER, *wait = OC_BARRIER_WAIT;
    break;
  case ompt_sync_region_barrier_implementation:
    *c = OC_IMPL_BARRIER, *wait = OC_IMPL_BARRIER_WAIT;
    break;
  case ompt_sync_region_taskwait:
    *c = OC_TASKWAIT, *wait = OC_TASKWAIT_WAIT;
    break;
  case ompt_sync_region_taskgroup:
    *c = OC_TASKGROUP, *wait = OC_TASKGROUP_WAIT;
    break;
  case ompt_sync_region_reduction:
    *c = OC_SYNC_REDUCTION, *wait = OC_SYNC_REDUCTION_WAIT;
    break;
  default: /* implicit barriers of every flavour */
    *c = OC_IBARRIER, *wait = OC_IBARRIER_WAIT;
    break;
  }
}

enum ot_construct ot_work_construct(unsigned kind) {
  switch (kind) {
  case ompt_work_sections:
    return OC_SECTIONS;
  case ompt_work_single_executor:
  case ompt_work_single_other:
    return OC_SINGLE;
  case ompt_work_workshare:
    return OC_WORKSHARE;
  case ompt_work_distribute:
    return OC_DISTRIBUTE;
  case ompt_work_taskloop:
    return OC_TASKLOOP;
  case ompt_work_scope:
    return OC_SCOPE;
  default:
    return OC_LOOP;
  }
}

void ot_mutex_constructs(unsigned kind, enum ot_construct *c, enum ot_construct *wait,
                         enum ot_construct *sblock) {
  switch (kind) {
  case ompt_mutex_critical:
    *c = OC_CRITICAL, *wait = OC_CRITICAL_WAIT, *sblock = OC_CRITICAL_SBLOCK;
    break;
  case ompt_mutex_ordered:
    *c = OC_ORDERED, *wait = OC_ORDERED_WAIT, *sblock = OC_ORDERED_SBLOCK;
    break;
  case ompt_mutex_atomic:
    *c = OC_ATOMIC, *wait = OC_ATOMIC_WAIT, *sblock = OC_ATOMIC_SBLOCK;
    break;
  case ompt_mutex_nest_lock:
  case ompt_mutex_test_nest_lock:
    *c = OC_SET_NEST_LOCK, *wait = OC_LOCK_WAIT, *sblock = OC_COUNT;
    break;
  default:
    *c = OC_SET_LOCK, *wait = OC_LOCK_WAIT, *sblock = OC_COUNT;
    break;
  }
}

uint32_t ot_region(enum ot_construct c, uint64_t codeptr) {
  uint64_t key = ((uint64_t)c << 56) | (codeptr & 0x00ffffffffffffffull);
  int is_new = 0;
  uint64_t *slot = ot_u64map_put(&cache, key, &is_new);
  if (slot && !is_new)
    return (uint32_t)*slot;
  uint32_t id = define(c, codeptr);
  if (slot)
    *slot = id;
  return id;
}

void ot_regions_free(void) {
  ot_u64map_free(&cache);
  free(excluded);
  excluded = NULL;
  excluded_cap = 0;
  for (uint32_t i = 0; i < nexcluded_names; i++)
    free(excluded_names[i]);
  free(excluded_names);
  excluded_names = NULL;
  nexcluded_names = names_cap = 0;
}
