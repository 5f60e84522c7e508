/* OMPTRACE_METRICS_ON: which record types carry counter values.
 * Syntax: comma-separated items applied left to right, case-insensitive:
 *   <group>   add a group (names as in OMPTRACE_EVENTS)
 *   -<group>  remove a group
 *   all | none | default
 * A list that starts with a group name starts from nothing ("work,sync"
 * is exactly those two); one that starts with "-<group>" starts from the
 * default. Empty means "default". Only records the OTF2 writer turns into
 * Enter/Leave are ever selected: values on other records would be read
 * and then dropped. */
#include "buffer/record.h"
#include "core/config.h"
#include "core/log.h"
#include "services/counters.h"
#include "services/counters_internal.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

#define B(t) (1ull << (t))

typedef struct group {
  const char *name;
  uint32_t event_group; /* enum ot_event_group */
  uint64_t types;       /* record types that become Enter/Leave */
} group;

static const group groups[] = {
    {"parallel", OT_EV_PARALLEL, B(OT_IMPLICIT_BEGIN) | B(OT_IMPLICIT_END)},
    {"tasks", OT_EV_TASKS, B(OT_TASK_CREATE) | B(OT_TASK_SCHEDULE)},
    {"sync", OT_EV_SYNC,
     B(OT_SYNC_BEGIN) | B(OT_SYNC_END) | B(OT_SYNC_WAIT_BEGIN) | B(OT_SYNC_WAIT_END)},
    {"mutex", OT_EV_MUTEX,
     B(OT_MUTEX_ACQUIRE) | B(OT_MUTEX_ACQUIRED) | B(OT_MUTEX_RELEASED) | B(OT_NEST_LOCK)},
    {"work", OT_EV_WORK, B(OT_WORK_BEGIN) | B(OT_WORK_END)},
    {"masked", OT_EV_MASKED, B(OT_MASKED_BEGIN) | B(OT_MASKED_END)},
    {"reduction", OT_EV_REDUCTION, B(OT_REDUCTION_BEGIN) | B(OT_REDUCTION_END)},
    {"flush", OT_EV_FLUSH, B(OT_FLUSH)},
    {"cancel", OT_EV_CANCEL, B(OT_CANCEL)},
    {"control", OT_EV_CONTROL, B(OT_CONTROL_TOOL) | B(OT_ERROR)},
};
#define NGROUPS (sizeof groups / sizeof groups[0])

/* The default keeps counters where work and waiting happen (parallel
 * regions, tasks, loops, barriers) and leaves out the short, frequent
 * lock and critical events; docs/counters.md has the measurements. */
static uint64_t default_mask(void) {
  return groups[0].types | groups[1].types | groups[2].types | groups[4].types;
}

static uint64_t all_mask(void) {
  uint64_t m = 0;
  for (size_t i = 0; i < NGROUPS; i++)
    m |= groups[i].types;
  return m;
}

uint64_t ot_counters_enter_leave_types(uint32_t events) {
  uint64_t m = 0;
  for (size_t i = 0; i < NGROUPS; i++)
    if ((events & groups[i].event_group) || groups[i].event_group == OT_EV_PARALLEL)
      m |= groups[i].types;
  return m;
}

static int item_is(const char *p, size_t n, const char *word) {
  return strlen(word) == n && strncasecmp(p, word, n) == 0;
}

uint64_t ot_counters_parse_groups(const char *spec) {
  uint64_t mask = default_mask();
  const char *p = spec ? spec : "";
  int first = 1;
  while (*p) {
    while (*p == ',' || *p == ' ')
      p++;
    size_t n = strcspn(p, ", ");
    if (!n)
      break;
    int remove = p[0] == '-';
    const char *w = p + remove;
    size_t wn = n - (size_t)remove;
    if (!remove && item_is(w, wn, "all")) {
      mask = all_mask();
    } else if (!remove && item_is(w, wn, "none")) {
      mask = 0;
    } else if (!remove && item_is(w, wn, "default")) {
      mask = default_mask();
    } else {
      size_t i = 0;
      while (i < NGROUPS && !item_is(w, wn, groups[i].name))
        i++;
      if (i == NGROUPS)
        ot_warn("OMPTRACE_METRICS_ON: %.*s: unknown group (parallel, tasks, sync, mutex, work, "
                "masked, reduction, flush, cancel, control, all, none, default); ignored",
                (int)n, p);
      else if (remove)
        mask &= ~groups[i].types;
      else
        mask = (first ? 0 : mask) | groups[i].types;
    }
    first = 0;
    p += n;
  }
  return mask;
}
