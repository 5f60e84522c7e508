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

static const OTF2_RegionRole roles[OC_COUNT] = {
    [OC_PARALLEL] = OTF2_REGION_ROLE_PARALLEL,
    /* OTF2 has no teams role; a league forks threads like a parallel region */
    [OC_TEAMS] = OTF2_REGION_ROLE_PARALLEL,
    [OC_IBARRIER] = OTF2_REGION_ROLE_IMPLICIT_BARRIER,
    [OC_IBARRIER_WAIT] = OTF2_REGION_ROLE_IMPLICIT_BARRIER,
    [OC_BARRIER] = OTF2_REGION_ROLE_BARRIER,
    [OC_BARRIER_WAIT] = OTF2_REGION_ROLE_BARRIER,
    [OC_IMPL_BARRIER] = OTF2_REGION_ROLE_IMPLICIT_BARRIER,
    [OC_IMPL_BARRIER_WAIT] = OTF2_REGION_ROLE_IMPLICIT_BARRIER,
    [OC_TASKWAIT] = OTF2_REGION_ROLE_TASK_WAIT,
    [OC_TASKWAIT_WAIT] = OTF2_REGION_ROLE_TASK_WAIT,
    [OC_TASKGROUP] = OTF2_REGION_ROLE_TASK_WAIT,
    [OC_TASKGROUP_WAIT] = OTF2_REGION_ROLE_TASK_WAIT,
    [OC_SYNC_REDUCTION] = OTF2_REGION_ROLE_WRAPPER,
    [OC_SYNC_REDUCTION_WAIT] = OTF2_REGION_ROLE_WRAPPER,
    [OC_LOOP] = OTF2_REGION_ROLE_LOOP,
    [OC_TASKLOOP] = OTF2_REGION_ROLE_LOOP,
    [OC_SECTIONS] = OTF2_REGION_ROLE_SECTIONS,
    [OC_SINGLE] = OTF2_REGION_ROLE_SINGLE,
    [OC_SINGLE_SBLOCK] = OTF2_REGION_ROLE_SINGLE_SBLOCK,
    [OC_WORKSHARE] = OTF2_REGION_ROLE_WORKSHARE,
    [OC_DISTRIBUTE] = OTF2_REGION_ROLE_LOOP,
    [OC_SCOPE] = OTF2_REGION_ROLE_WRAPPER,
    [OC_MASKED] = OTF2_REGION_ROLE_MASTER,
    [OC_CRITICAL] = OTF2_REGION_ROLE_CRITICAL,
    [OC_CRITICAL_WAIT] = OTF2_REGION_ROLE_CRITICAL,
    [OC_CRITICAL_SBLOCK] = OTF2_REGION_ROLE_CRITICAL_SBLOCK,
    [OC_ORDERED] = OTF2_REGION_ROLE_ORDERED,
    [OC_ORDERED_WAIT] = OTF2_REGION_ROLE_ORDERED,
    [OC_ORDERED_SBLOCK] = OTF2_REGION_ROLE_ORDERED_SBLOCK,
    [OC_ATOMIC] = OTF2_REGION_ROLE_ATOMIC,
    [OC_ATOMIC_WAIT] = OTF2_REGION_ROLE_ATOMIC,
    [OC_ATOMIC_SBLOCK] = OTF2_REGION_ROLE_ATOMIC,
    [OC_SET_LOCK] = OTF2_REGION_ROLE_WRAPPER,
    [OC_SET_NEST_LOCK] = OTF2_REGION_ROLE_WRAPPER,
    [OC_LOCK_WAIT] = OTF2_REGION_ROLE_ARTIFICIAL,
    [OC_REDUCTION] = OTF2_REGION_ROLE_WRAPPER,
    [OC_FLUSH] = OTF2_REGION_ROLE_FLUSH,
    [OC_TASK_CREATE] = OTF2_REGION_ROLE_TASK_CREATE,
    [OC_TASK] = OTF2_REGION_ROLE_TASK,
    [OC_UNTIED_TASK] = OTF2_REGION_ROLE_TASK_UNTIED,
    [OC_CONTROL_TOOL] = OTF2_REGION_ROLE_ARTIFICIAL,
    [OC_ERROR] = OTF2_REGION_ROLE_ARTIFICIAL,
    [OC_CANCEL_FIRST + 0] = OTF2_REGION_ROLE_ARTIFICIAL,
    [OC_CANCEL_FIRST + 1] = OTF2_REGION_ROLE_ARTIFICIAL,
    [OC_CANCEL_FIRST + 2] = OTF2_REGION_ROLE_ARTIFICIAL,
    [OC_CANCEL_FIRST + 3] = OTF2_REGION_ROLE_ARTIFICIAL,
    [OC_CANCEL_FIRST + 4] = OTF2_REGION_ROLE_ARTIFICIAL,
    [OC_CANCEL_FIRST + 5] = OTF2_REGION_ROLE_ARTIFICIAL,
    [OC_CANCEL_FIRST + 6] = OTF2_REGION_ROLE_ARTIFICIAL,
    [OC_CANCEL_FIRST + 7] = OTF2_REGION_ROLE_ARTIFICIAL,
    [OC_CANCEL_FIRST + 8] = OTF2_REGION_ROLE_ARTIFICIAL,
    [OC_CANCEL_FIRST + 9] = OTF2_REGION_ROLE_ARTIFICIAL,
    [OC_CANCEL_FIRST + 10] = OTF2_REGION_ROLE_ARTIFICIAL,
    [OC_CANCEL_FIRST + 11] = OTF2_REGION_ROLE_ARTIFICIAL,
};

static ot_u64map cache; /* (construct << 56 | codeptr) -> region id */
/* The regions asked last, in front of the cache: a two-way table by key
 * (key 0, construct 0 at NULL, is never kept there), so two keys that map
 * to one place do not evict each other at every turn. */
enum { RECENT = 256 };
static uint64_t recent_key[RECENT];
static uint32_t recent_id[RECENT];
/* Region ids the filter excludes (OMPTRACE_FILTER): their Enter and Leave
 * are left out, what they contain is written. */
uint8_t *ot_regions_excluded;
uint32_t ot_regions_excluded_cap;
static char **excluded_names; /* of the constructs (not their waits and sblocks) */
static uint32_t nexcluded_names, names_cap;

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
    return ot_filter_decide(ot_construct_name(OC_SET_LOCK), codeptr, s, n) ||
           ot_filter_decide(ot_construct_name(OC_SET_NEST_LOCK), codeptr, s, n);
  enum ot_construct p = primary(c);
  return p != OC_COUNT && ot_filter_decide(ot_construct_name(p), codeptr, s, n);
}

static void mark_excluded(uint32_t id, enum ot_construct c, const char *name) {
  uint8_t *e = ot_grow(ot_regions_excluded, &ot_regions_excluded_cap, (uint64_t)id + 1, 1, 256);
  if (!e)
    return;
  ot_regions_excluded = e;
  ot_regions_excluded[id] = 1;
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
  ot_srcloc_region_name(name, sizeof name, ot_construct_name(c), codeptr, s, n);
  int known = n >= 1 && s[0].file && s[0].line;
  uint32_t line = known ? s[0].line : 0;
  uint32_t id =
      ot_defs_region(name, roles[c], OTF2_PARADIGM_OPENMP, known ? s[0].file : NULL, line, line);
  if (excluded_by_filter(c, codeptr, s, n))
    mark_excluded(id, c, name);
  return id;
}

const char *ot_region_excluded_name(uint32_t i) {
  return i < nexcluded_names ? excluded_names[i] : NULL;
}

uint32_t ot_region(enum ot_construct c, uint64_t codeptr) {
  uint64_t key = ((uint64_t)c << 56) | (codeptr & 0x00ffffffffffffffull);
  uint32_t r = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 56) & ~1u; /* log2(RECENT) bits */
  if (key && recent_key[r] == key)
    return recent_id[r];
  if (key && recent_key[r + 1] == key)
    return recent_id[r + 1];
  int is_new = 0;
  uint64_t *slot = ot_u64map_put(&cache, key, &is_new);
  uint32_t id = slot && !is_new ? (uint32_t)*slot : define(c, codeptr);
  if (slot && is_new)
    *slot = id;
  if (slot) { /* the newest in the first way, the one before in the second */
    recent_key[r + 1] = recent_key[r];
    recent_id[r + 1] = recent_id[r];
    recent_key[r] = key;
    recent_id[r] = id;
  }
  return id;
}

void ot_regions_free(void) {
  ot_u64map_free(&cache);
  memset(recent_key, 0, sizeof recent_key);
  free(ot_regions_excluded);
  ot_regions_excluded = NULL;
  ot_regions_excluded_cap = 0;
  for (uint32_t i = 0; i < nexcluded_names; i++)
    free(excluded_names[i]);
  free(excluded_names);
  excluded_names = NULL;
  nexcluded_names = names_cap = 0;
}
