/* Scan pass: reads every thread's records once and collects the parallel
 * table (master times, code pointer, parent, team members), the set of
 * untied tasks and which dependent-wait pseudo tasks belong to an if(0)
 * task. Memory grows with regions and tasks, not with events. */
#include "finalize/scan.h"
#include "finalize/intern.h"
#include "finalize/pauses.h"
#include "finalize/run.h"
#include "finalize/scan_ext.h"
#include "finalize/symbols.h"
#include "finalize/throttled.h"

#include <omp-tools.h>
#include <stdlib.h>
#include <string.h>

#define NEST_MAX 64

#define INLINE_MEMBERS 4

/* Teams of up to INLINE_MEMBERS threads (the common case) need no extra
 * allocation: a million small parallel regions cost about 100 bytes each. */
typedef struct par_rec {
  ot_parallel_info info;
  uint32_t nmembers;
  union {
    uint32_t few[INLINE_MEMBERS];
    uint32_t *many;
  } m;
} par_rec;

static uint32_t *members_of(par_rec *p) {
  return p->nmembers <= INLINE_MEMBERS ? p->m.few : p->m.many;
}

static par_rec *pars;
static uint64_t npars, cappars;
static ot_u64map par_index; /* parallel id -> index + 1 */
/* Untied tasks: by creation site (every task of a pragma has its clauses,
 * and there are few sites), by task only where the site is unknown (0:
 * the site table was full), so this grows with sites, not tasks. */
static ot_u64map untied_sites, untied_tasks;
static ot_u64map end_barriers; /* (loc << 40 | record index) of ambiguous barrier begins */
static ot_u64map wait_cp;      /* wait id -> first non-NULL code pointer of its acquisitions */
static ot_u64map if0_of;       /* pseudo task of `task if(0) depend` -> that task's id */
static ot_u64map site_cp;      /* task creation site id -> its code pointer */
static uint64_t lost_total, records_total;
static ot_scan_observer observer;
static void *observer_ctx;

void ot_scan_observe(ot_scan_observer fn, void *ctx) {
  observer = fn;
  observer_ctx = ctx;
}

static par_rec *par_get(uint64_t id) {
  int is_new = 0;
  uint64_t *slot = ot_u64map_put(&par_index, id, &is_new);
  if (!slot)
    return NULL;
  if (!is_new)
    return &pars[*slot - 1];
  if (npars == cappars) {
    uint64_t cap = cappars ? cappars * 2 : 256;
    par_rec *p = realloc(pars, cap * sizeof *p);
    if (!p)
      return NULL;
    pars = p;
    cappars = cap;
  }
  par_rec *p = &pars[npars++];
  memset(p, 0, sizeof *p);
  p->info.id = id;
  p->info.end_raw = UINT64_MAX;
  p->info.master_loc = UINT32_MAX;
  *slot = npars;
  return p;
}

/* Team indexes and sizes come from the runtime; beyond this they are not
 * plausible (and index + 1 could wrap): such a member is left out. */
#define TEAM_MAX (1u << 20)

static int add_member(par_rec *p, uint32_t index, uint32_t loc, uint32_t size) {
  if (index >= TEAM_MAX || size > TEAM_MAX)
    return 0;
  uint32_t need = index + 1 > size ? index + 1 : size;
  if (need > p->nmembers) {
    uint32_t *m = p->m.few;
    if (need > INLINE_MEMBERS) {
      m = malloc(need * sizeof *m);
      if (!m)
        return -1;
      memcpy(m, members_of(p), p->nmembers * sizeof *m);
      if (p->nmembers > INLINE_MEMBERS)
        free(p->m.many);
    }
    for (uint32_t i = p->nmembers; i < need; i++)
      m[i] = UINT32_MAX;
    if (need > INLINE_MEMBERS)
      p->m.many = m;
    p->nmembers = need;
  }
  members_of(p)[index] = loc;
  if (size > p->info.team_size)
    p->info.team_size = size;
  return 0;
}

/* Same source line: the pseudo task of `task if(0) depend(...)` is reported
 * from another call (another address) on the task's own line. */
static int same_line(uint64_t a, uint64_t b) {
  ot_symbol x, y;
  if (!ot_symbols_user_cp(a) || !ot_symbols_user_cp(b) || ot_symbols_lookup(a - 1, &x, 1) < 1 ||
      ot_symbols_lookup(b - 1, &y, 1) < 1)
    return 0;
  return x.file && y.file && x.line && x.line == y.line && strcmp(x.file, y.file) == 0;
}

static int scan_location(const ot_run *run, uint32_t loc) {
  ot_reader *s = ot_run_records(run, loc);
  uint64_t stack[NEST_MAX]; /* parallel ids of the open implicit tasks */
  uint8_t league[NEST_MAX]; /* 1 where that task is a league member's initial task */
  int depth = 0;
  /* A league begun by this thread whose member task has not begun yet: the
   * only team of a league of one gets another region's parallel_data. */
  uint64_t pending_league = 0;
  /* An implicit barrier with no usable code pointer right after a
   * work-sharing end is that construct's barrier, unless its end shows (NULL
   * parallel_data) that it ends the parallel region (a nowait construct
   * last in the region): remember those few. */
  uint64_t index = 0, begin_index = 0;
  int after_work = 0, ambiguous = 0;
  /* Pseudo tasks of dependent waits open on this thread (they nest when a
   * task run during the wait waits too), and the one that just ended. */
  uint64_t pseudo[NEST_MAX][2], done_pseudo = 0, done_cp = 0;
  int npseudo = 0;
  /* Creation sites (16 bits) whose code pointer, and untied mark, are
   * noted already: most tasks come from a few sites. */
  uint64_t site_noted[65536 / 64] = {0}, untied_noted[65536 / 64] = {0};
  const ot_rec *r;
  while ((r = ot_run_next(s)) != NULL) {
    if (observer)
      observer(observer_ctx, loc, r);
    uint64_t this_index = index++;
    int was_after_work = after_work;
    after_work = r->type == OT_WORK_END;
    if (done_pseudo && r->type != OT_DEPENDENCE) { /* rare: a dependent wait just ended */
      if (r->type == OT_TASK_CREATE && !(r->a & ompt_task_taskwait) && same_line(r->b, done_cp)) {
        uint64_t *slot = ot_u64map_put(&if0_of, done_pseudo, NULL);
        if (!slot)
          goto oom;
        *slot = r->c;
      }
      done_pseudo = 0;
    }
    par_rec *p;
    switch (r->type) {
    case OT_SYNC_BEGIN:
      if (ot_sync_is_implicit_barrier(r->kind)) {
        begin_index = this_index;
        ambiguous =
            r->a == OT_SYNC_AFTER_THROTTLED || (was_after_work && !ot_symbols_user_cp(r->b));
      }
      break;
    case OT_SYNC_END:
      if (ambiguous && ot_sync_is_implicit_barrier(r->kind) && r->c == 0 &&
          !ot_u64map_put(&end_barriers, ((uint64_t)loc << 40) | begin_index, NULL))
        goto oom;
      ambiguous = 0;
      break;
    case OT_PARALLEL_BEGIN:
      if (!(p = par_get(r->c)))
        goto oom;
      p->info.parent_id = depth > 0 ? stack[depth - 1] : 0;
      p->info.begin_raw = r->ts;
      p->info.codeptr = r->b;
      p->info.master_loc = loc;
      if (r->kind & OT_PAR_LEAGUE) {
        p->info.kind = OT_PK_LEAGUE;
        pending_league = r->c;
      } else if (depth > 0 && league[depth - 1]) {
        p->info.kind = OT_PK_TEAM; /* forked by a league member's initial task */
      }
      break;
    case OT_PARALLEL_END:
      pending_league = 0;
      if (!(p = par_get(r->c)))
        goto oom;
      p->info.end_raw = r->ts;
      if (!p->info.codeptr)
        p->info.codeptr = r->b;
      break;
    case OT_IMPLICIT_BEGIN: {
      /* An initial task with a parallel id is a league member's (the
       * thread's own initial task has none). */
      uint64_t pid = r->b;
      int member = 0;
      if (r->kind & ompt_task_initial) {
        pid = pending_league ? pending_league : pid;
        if (!pid)
          break;
        member = 1;
      }
      pending_league = 0;
      if (pid && (!(p = par_get(pid)) || add_member(p, (uint32_t)r->c, loc, r->a) != 0))
        goto oom;
      if (depth < NEST_MAX) {
        stack[depth] = pid;
        league[depth] = (uint8_t)member;
        depth++;
      }
      break;
    }
    case OT_IMPLICIT_END:
      if (depth > 0 && (!(r->kind & ompt_task_initial) || league[depth - 1]))
        depth--;
      break;
    case OT_TASK_CREATE: {
      uint32_t site = OT_TASK_SITE(r->c);
      uint64_t bit = 1ull << (site % 64);
      if (site && r->b && !(site_noted[site / 64] & bit)) {
        /* The task id carries its creation site; this record its code pointer. */
        uint64_t *slot = ot_u64map_put(&site_cp, site, NULL);
        if (!slot)
          goto oom;
        if (!*slot)
          *slot = r->b;
        site_noted[site / 64] |= bit;
      }
      if (r->a & ompt_task_untied && !(site && (untied_noted[site / 64] & bit))) {
        if (!ot_u64map_put(site ? &untied_sites : &untied_tasks, site ? site : r->c, NULL))
          goto oom;
        if (site)
          untied_noted[site / 64] |= bit;
      }
      if (r->a & ompt_task_taskwait && npseudo < NEST_MAX) {
        pseudo[npseudo][0] = r->c;
        pseudo[npseudo++][1] = r->b;
      }
      break;
    }
    case OT_TASK_SCHEDULE:
      if (r->kind == ompt_taskwait_complete)
        for (int i = npseudo; i-- > 0;)
          if (pseudo[i][0] == r->b) {
            done_pseudo = r->b;
            done_cp = pseudo[i][1];
            npseudo = i;
            break;
          }
      break;
    case OT_MUTEX_ACQUIRE:
      if (ot_symbols_user_cp(r->c)) {
        uint64_t *slot = ot_u64map_put(&wait_cp, r->b, NULL);
        if (!slot)
          goto oom;
        if (!*slot)
          *slot = r->c;
      }
      break;
    case OT_LOST:
      lost_total += r->a;
      break;
    case OT_THROTTLED:
      if (ot_throttled_note(loc, r) != 0)
        goto oom;
      break;
    case OT_CONTROL_TOOL: /* a pause, resume or end (finalize/pauses.c) */
      if (r->kind != OT_CTL_NONE && ot_pauses_note(r->ts, r->kind, r->a) != 0)
        goto oom;
      break;
    default:
      break;
    }
  }
  records_total += index;
  ot_run_records_close(s);
  return 0;
oom:
  records_total += index;
  ot_run_records_close(s);
  return -1;
}

int ot_scan_run(const ot_run *run) {
  for (uint32_t loc = 0; loc < run->nthreads; loc++)
    if (scan_location(run, loc) != 0)
      return -1;
  /* Team size of a team whose members were partly lost: trust the largest seen. */
  for (uint64_t i = 0; i < npars; i++)
    if (pars[i].info.team_size < pars[i].nmembers)
      pars[i].info.team_size = pars[i].nmembers;
  /* A team's internal region reports the threads libomp reserved for the
   * team (thread_limit), but only the team's initial thread runs it. */
  for (uint64_t i = 0; i < npars; i++) {
    if (pars[i].info.kind != OT_PK_TEAM)
      continue;
    uint32_t seen = 0, n = pars[i].nmembers;
    const uint32_t *m = members_of(&pars[i]);
    for (uint32_t k = 0; k < n; k++)
      seen += m[k] != UINT32_MAX;
    pars[i].info.team_size = seen;
  }
  ot_pauses_build();
  return 0;
}

const ot_parallel_info *ot_scan_parallel(uint64_t id) {
  uint64_t *slot = ot_u64map_find(&par_index, id);
  return slot ? &pars[*slot - 1].info : NULL;
}

uint64_t ot_scan_parallel_count(void) {
  return npars;
}
int64_t ot_scan_parallel_index(uint64_t id) {
  uint64_t *slot = ot_u64map_find(&par_index, id);
  return slot ? (int64_t)*slot - 1 : -1;
}
const ot_parallel_info *ot_scan_parallel_at(uint64_t index) {
  return &pars[index].info;
}
const uint32_t *ot_scan_members(uint64_t index, uint32_t *n) {
  *n = pars[index].nmembers;
  return members_of(&pars[index]);
}
int ot_scan_task_untied(uint64_t task_id) {
  uint32_t site = OT_TASK_SITE(task_id);
  return (site ? ot_u64map_find(&untied_sites, site) : ot_u64map_find(&untied_tasks, task_id)) !=
         NULL;
}
int ot_scan_ends_parallel(uint32_t loc, uint64_t index) {
  return ot_u64map_find(&end_barriers, ((uint64_t)loc << 40) | index) != NULL;
}
uint64_t ot_scan_wait_codeptr(uint64_t wait_id) {
  uint64_t *slot = ot_u64map_find(&wait_cp, wait_id);
  return slot ? *slot : 0;
}
uint64_t ot_scan_if0_task(uint64_t pseudo_task) {
  uint64_t *slot = ot_u64map_find(&if0_of, pseudo_task);
  return slot ? *slot : 0;
}
uint64_t ot_scan_site_codeptr(uint32_t site) {
  uint64_t *slot = site ? ot_u64map_find(&site_cp, site) : NULL;
  return slot ? *slot : 0;
}
uint64_t ot_scan_lost(void) {
  return lost_total;
}
uint64_t ot_scan_records(void) {
  return records_total;
}

void ot_scan_free(void) {
  for (uint64_t i = 0; i < npars; i++)
    if (pars[i].nmembers > INLINE_MEMBERS)
      free(pars[i].m.many);
  free(pars);
  pars = NULL;
  npars = cappars = 0;
  ot_u64map_free(&par_index);
  ot_u64map_free(&untied_sites);
  ot_u64map_free(&untied_tasks);
  ot_u64map_free(&wait_cp);
  ot_u64map_free(&if0_of);
  ot_u64map_free(&site_cp);
  ot_u64map_free(&end_barriers);
  lost_total = records_total = 0;
  ot_pauses_free();
}
