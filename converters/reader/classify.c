/* Region classification: the OTF2 region role decides first; the name
 * decides only for roles that do not say what the region is (wrappers,
 * artificial, function, unknown), so both omptrace's names ("implicit
 * barrier @ f.c:3") and Score-P's ("!$omp implicit barrier @f.c:3") work.
 * Score-P gives taskwait and taskgroup the role BARRIER: the name tells. */
#include "otr.h"

#include <string.h>

static const char *const class_names[OTR_C_COUNT] = {
    "user",    "parallel",       "loop",      "sections",  "section",
    "single",  "single sblock",  "masked",    "workshare", "implicit barrier",
    "barrier", "taskwait",       "taskgroup", "critical",  "critical sblock",
    "ordered", "ordered sblock", "lock",      "task",      "task create",
    "runtime"};

static const char *const cat_names[OTR_T_COUNT] = {
    "outside",  "work",    "implicit_barrier", "explicit_barrier", "taskwait", "taskgroup", "lock",
    "critical", "ordered", "fork_join",        "task_create",      "runtime",  "mpi"};

const char *otr_class_name(otr_class c) {
  return c < OTR_C_COUNT ? class_names[c] : "?";
}
const char *otr_cat_name(otr_cat c) {
  return c < OTR_T_COUNT ? cat_names[c] : "?";
}

static bool starts(const char *s, const char *p) {
  return strncmp(s, p, strlen(p)) == 0;
}

/* Name-based fallback; s has any "!$omp " prefix removed. */
static otr_class by_name(const char *s, bool openmp) {
  if (starts(s, "omp_set_lock") || starts(s, "omp_set_nest_lock") || starts(s, "omp_test_lock") ||
      starts(s, "omp_test_nest_lock") || starts(s, "lock wait"))
    return OTR_C_LOCK;
  if (!openmp)
    return OTR_C_USER;
  if (starts(s, "implicit barrier") || starts(s, "implementation barrier"))
    return OTR_C_IBARRIER;
  if (starts(s, "barrier"))
    return OTR_C_EBARRIER;
  if (starts(s, "taskwait"))
    return OTR_C_TASKWAIT;
  if (starts(s, "taskgroup"))
    return OTR_C_TASKGROUP;
  if (starts(s, "critical sblock"))
    return OTR_C_CRITICAL_SBLOCK;
  if (starts(s, "critical"))
    return OTR_C_CRITICAL;
  if (starts(s, "ordered sblock"))
    return OTR_C_ORDERED_SBLOCK;
  if (starts(s, "ordered"))
    return OTR_C_ORDERED;
  if (starts(s, "task create") || starts(s, "create task"))
    return OTR_C_TASK_CREATE;
  if (starts(s, "taskloop"))
    return OTR_C_LOOP;
  if (starts(s, "task") || starts(s, "untied task"))
    return OTR_C_TASK;
  if (starts(s, "parallel"))
    return OTR_C_PARALLEL;
  if (starts(s, "loop") || starts(s, "for") || starts(s, "do"))
    return OTR_C_LOOP;
  if (starts(s, "sections"))
    return OTR_C_SECTIONS;
  if (starts(s, "section"))
    return OTR_C_SECTION;
  if (starts(s, "single sblock"))
    return OTR_C_SINGLE_SBLOCK;
  if (starts(s, "single"))
    return OTR_C_SINGLE;
  if (starts(s, "masked") || starts(s, "master"))
    return OTR_C_MASTER;
  return OTR_C_RUNTIME;
}

otr_class otr_classify(const char *name, OTF2_RegionRole role, OTF2_Paradigm paradigm) {
  const char *s = name ? name : "";
  if (starts(s, "!$omp "))
    s += 6;
  bool omp = paradigm == OTF2_PARADIGM_OPENMP;
  if (paradigm == OTF2_PARADIGM_MPI) /* MPI_Barrier's role BARRIER is no OpenMP barrier */
    return OTR_C_USER;
  switch (role) {
  case OTF2_REGION_ROLE_PARALLEL:
    return OTR_C_PARALLEL;
  case OTF2_REGION_ROLE_LOOP:
    return OTR_C_LOOP;
  case OTF2_REGION_ROLE_SECTIONS:
    return OTR_C_SECTIONS;
  case OTF2_REGION_ROLE_SECTION:
    return OTR_C_SECTION;
  case OTF2_REGION_ROLE_SINGLE:
    return OTR_C_SINGLE;
  case OTF2_REGION_ROLE_SINGLE_SBLOCK:
    return OTR_C_SINGLE_SBLOCK;
  case OTF2_REGION_ROLE_MASTER:
    return OTR_C_MASTER;
  case OTF2_REGION_ROLE_WORKSHARE:
    return OTR_C_WORKSHARE;
  case OTF2_REGION_ROLE_IMPLICIT_BARRIER:
    return OTR_C_IBARRIER;
  case OTF2_REGION_ROLE_BARRIER: /* Score-P: also its taskwait and taskgroup */
    return starts(s, "taskwait")    ? OTR_C_TASKWAIT
           : starts(s, "taskgroup") ? OTR_C_TASKGROUP
                                    : OTR_C_EBARRIER;
  case OTF2_REGION_ROLE_TASK_WAIT:
    return strstr(s, "taskgroup") ? OTR_C_TASKGROUP : OTR_C_TASKWAIT;
  case OTF2_REGION_ROLE_CRITICAL:
    return OTR_C_CRITICAL;
  case OTF2_REGION_ROLE_CRITICAL_SBLOCK:
    return OTR_C_CRITICAL_SBLOCK;
  case OTF2_REGION_ROLE_ORDERED:
    return OTR_C_ORDERED;
  case OTF2_REGION_ROLE_ORDERED_SBLOCK:
    return OTR_C_ORDERED_SBLOCK;
  case OTF2_REGION_ROLE_TASK:
  case OTF2_REGION_ROLE_TASK_UNTIED:
    return OTR_C_TASK;
  case OTF2_REGION_ROLE_TASK_CREATE:
    return OTR_C_TASK_CREATE;
  case OTF2_REGION_ROLE_ATOMIC:
    return OTR_C_USER;
  case OTF2_REGION_ROLE_FLUSH:
    return omp ? OTR_C_RUNTIME : OTR_C_USER;
  default:
    return by_name(s, omp);
  }
}
