/* Region names and source positions for OpenMP constructs, cached per
 * (construct, code pointer). */
#include "finalize/regions.h"
#include "finalize/defs.h"
#include "finalize/intern.h"
#include "finalize/symbols.h"

#include <inttypes.h>
#include <omp-tools.h>
#include <stdio.h>
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

enum ot_construct ot_cancel_construct(uint32_t flags) {
  int what = flags & ompt_cancel_parallel   ? 0
             : flags & ompt_cancel_sections ? 1
             : flags & ompt_cancel_loop     ? 2
                                            : 3; /* taskgroup */
  int how = flags & ompt_cancel_activated ? 0 : flags & ompt_cancel_detected ? 1 : 2;
  return (enum ot_construct)(OC_CANCEL_FIRST + what * 3 + how);
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

static uint32_t define(enum ot_construct c, uint64_t codeptr) {
  const char *cname = table[c].name;
  char name[1024];
  const char *file = NULL;
  uint32_t line = 0;
  if (!codeptr) {
    snprintf(name, sizeof name, "%s", cname);
  } else {
    ot_symbol s[8];
    int n = ot_symbols_lookup(codeptr - 1, s, 8);
    if (n >= 1 && s[0].file && s[0].line) {
      file = s[0].file;
      line = s[0].line;
      snprintf(name, sizeof name, "%s @ %s:%u", cname, base_name(file), line);
    } else if (n >= 1 && s[0].function && strcmp(s[0].function, "??") != 0) {
      /* offset of the call site itself, so the name matches a disassembly */
      snprintf(name, sizeof name, "%s @ %s+0x%" PRIx64, cname, s[0].function, s[0].offset + 1);
    } else if (n >= 1 && s[0].module) {
      snprintf(name, sizeof name, "%s @ %s+0x%" PRIx64, cname, s[0].module, s[0].offset + 1);
    } else {
      snprintf(name, sizeof name, "%s @ 0x%" PRIx64, cname, codeptr);
    }
  }
  return ot_defs_region(name, table[c].role, OTF2_PARADIGM_OPENMP, file, line, line);
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
}
