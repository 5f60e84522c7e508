/* Scan: every thread's records once, for the parallel table (master times,
 * code pointer, parent, team members), the set of untied tasks and which
 * dependent-wait pseudo tasks belong to an if(0) task. Memory grows with
 * regions and tasks, not with events.
 *
 * The records come from a pass over the log after the run, location by
 * location, or (in the process that recorded them) from the flusher as it
 * writes them (ot_scan_feed), interleaved across locations, so that
 * finalize need not decode the log twice. Both give the same tables: what
 * depends on the order of locations (the table's order, the first code
 * pointer of a wait id, pauses, throttled counts) or on symbols (not
 * readable during the run) is noted with its (location, record number) and
 * settled once every record is in (settle()). */
#include "finalize/scan.h"
#include "core/config.h"
#include "core/log.h"
#include "finalize/grow.h"
#include "finalize/intern.h"
#include "finalize/pauses.h"
#include "finalize/run.h"
#include "finalize/scan_ext.h"
#include "finalize/scan_feed.h"
#include "finalize/symbols.h"
#include "finalize/throttled.h"

#include <malloc.h>
#include <omp-tools.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NEST_MAX 64

#define INLINE_MEMBERS 4

/* Teams of up to INLINE_MEMBERS threads (the common case) need no extra
 * allocation: a million small parallel regions cost about 100 bytes each. */
typedef struct par_rec {
  ot_parallel_info info;
  uint32_t nmembers;
  uint32_t first_loc; /* where the scan order first saw it */
  uint64_t first_index;
  union {
    uint32_t few[INLINE_MEMBERS];
    uint32_t *many;
  } m;
} par_rec;

/* Where a record is in the scan order: location, then record number. */
typedef struct place {
  uint32_t loc;
  uint64_t index;
} place;

static int before(place a, place b) {
  return a.loc < b.loc || (a.loc == b.loc && a.index < b.index);
}

/* An implicit barrier begun right after a work-sharing end, or after a
 * throttled one, that ends with NULL parallel data: it ends the parallel
 * region unless its code pointer is the user's (settle()). */
typedef struct barrier_note {
  uint64_t key; /* loc << 40 | record index of its begin */
  uint64_t cp;
  int throttled;
} barrier_note;

/* A code pointer an acquisition of a wait id recorded, first seen at `at`. */
typedef struct wait_note {
  uint64_t wait, cp;
  place at;
} wait_note;

/* A task created right after a dependent wait's pseudo task ended. */
typedef struct if0_note {
  uint64_t pseudo, task, cp, pseudo_cp;
  place at;
} if0_note;

/* A pause/resume or throttled-count record, applied in scan order. */
typedef struct late_note {
  place at;
  ot_rec rec;
} late_note;

/* What the scan of one location keeps between its records. */
typedef struct scan_loc {
  uint64_t stack[NEST_MAX]; /* parallel ids of the open implicit tasks */
  uint8_t league[NEST_MAX]; /* 1 where that task is a league member's initial task */
  int depth;
  /* A league begun by this thread whose member task has not begun yet: the
   * only team of a league of one gets another region's parallel_data. */
  uint64_t pending_league;
  /* An implicit barrier right after a work-sharing end (see barrier_note). */
  uint64_t index, begin_index, begin_cp;
  int after_work, candidate, throttled;
  /* Pseudo tasks of dependent waits open on this thread (they nest when a
   * task run during the wait waits too), and the one that just ended. */
  uint64_t pseudo[NEST_MAX][2], done_pseudo, done_cp;
  int npseudo;
  uint64_t last_wait, last_wait_cp; /* the last acquisition noted */
  uint64_t records, lost;           /* fed: records (LOST records apart) and lost count */
  /* Creation sites (16 bits) whose code pointer, and untied mark, are
   * noted already: most tasks come from a few sites. */
  uint64_t site_noted[65536 / 64], untied_noted[65536 / 64];
} scan_loc;

static par_rec *pars;
static uint64_t npars, cappars;
static uint64_t many_bytes; /* member arrays of teams over INLINE_MEMBERS */
static ot_u64map par_index; /* parallel id -> index + 1 */
/* Untied tasks: by creation site (every task of a pragma has its clauses,
 * and there are few sites), by task only where the site is unknown (0:
 * the site table was full), so this grows with sites, not tasks. */
static ot_u64map untied_sites, untied_tasks;
static ot_u64map end_barriers; /* (loc << 40 | record index) of ambiguous barrier begins */
static ot_u64map wait_cp;      /* wait id -> first user code pointer of its acquisitions */
static ot_u64map if0_of;       /* pseudo task of `task if(0) depend` -> that task's id */
static ot_u64map site_cp;      /* task creation site id -> its code pointer */
static uint64_t lost_total, records_total;
/* bit d: a target construct on device d < 64 (finalize/offload.h) */
static uint64_t devices_seen;
static ot_scan_observer observer;
static void *observer_ctx;

/* Notes settled by settle(). */
static barrier_note *barriers;
static uint32_t nbarriers, capbarriers;
static ot_intern wait_pairs; /* (wait id, code pointer) -> index in waits */
static wait_note *waits;
static uint32_t capwaits;
static if0_note *if0s;
static uint32_t nif0s, capif0s;
static late_note *lates;
static uint32_t nlates, caplates;

/* The feed (scan_feed.h): the state of each location, whether every
 * frame written so far reached it, and the process it belongs to. */
static scan_loc **fed;
static uint32_t capfed;
static atomic_int feed_broken;
static int feed_over; /* given up past its budget (feed_give_up) */
static pid_t feed_pid;
static int was_fed;

void ot_scan_observe(ot_scan_observer fn, void *ctx) {
  observer = fn;
  observer_ctx = ctx;
}

static par_rec *par_get(uint64_t id, place at) {
  int is_new = 0;
  uint64_t *slot = ot_u64map_put(&par_index, id, &is_new);
  if (!slot)
    return NULL;
  if (!is_new) {
    par_rec *p = &pars[*slot - 1];
    place first = {p->first_loc, p->first_index};
    if (before(at, first)) { /* fed out of scan order: an earlier sighting */
      p->first_loc = at.loc;
      p->first_index = at.index;
    }
    return p;
  }
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
  p->first_loc = at.loc;
  p->first_index = at.index;
  *slot = npars;
  return p;
}

static uint32_t *members_of(par_rec *p) {
  return p->nmembers <= INLINE_MEMBERS ? p->m.few : p->m.many;
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
      many_bytes += need * sizeof *m;
      if (p->nmembers > INLINE_MEMBERS) {
        free(p->m.many);
        many_bytes -= p->nmembers * sizeof *m;
      }
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

static int note_wait(scan_loc *st, uint64_t wait, uint64_t cp, place at) {
  if (wait == st->last_wait && cp == st->last_wait_cp)
    return 0; /* the same lock from the same site again: nothing new */
  st->last_wait = wait;
  st->last_wait_cp = cp;
  uint64_t key[2] = {wait, cp};
  int is_new = 0;
  uint32_t id = ot_intern_get(&wait_pairs, key, sizeof key, &is_new);
  if (id == UINT32_MAX)
    return -1;
  if (is_new) {
    wait_note *w = ot_grow(waits, &capwaits, (uint64_t)id + 1, sizeof *w, 64);
    if (!w)
      return -1;
    waits = w;
    waits[id] = (wait_note){wait, cp, at};
  } else if (before(at, waits[id].at)) {
    waits[id].at = at;
  }
  return 0;
}

static int note_late(const ot_rec *r, place at) {
  late_note *l = ot_grow(lates, &caplates, (uint64_t)nlates + 1, sizeof *l, 16);
  if (!l)
    return -1;
  lates = l;
  lates[nlates].at = at;
  lates[nlates].rec = *r;
  lates[nlates++].rec.nval = 0; /* the fixed part only */
  return 0;
}

/* One record of location loc, in that location's order. 0, or -1 when
 * memory runs out. */
static int scan_record(scan_loc *st, uint32_t loc, const ot_rec *r) {
  records_total++;
  place at = {loc, st->index++};
  int was_after_work = st->after_work;
  st->after_work = r->type == OT_WORK_END;
  if (st->done_pseudo && r->type != OT_DEPENDENCE) { /* rare: a dependent wait just ended */
    if (r->type == OT_TASK_CREATE && !(r->a & ompt_task_taskwait)) {
      if0_note *n = ot_grow(if0s, &capif0s, (uint64_t)nif0s + 1, sizeof *n, 16);
      if (!n)
        return -1;
      if0s = n;
      if0s[nif0s++] = (if0_note){st->done_pseudo, r->c, r->b, st->done_cp, at};
    }
    st->done_pseudo = 0;
  }
  par_rec *p;
  switch (r->type) {
  case OT_SYNC_BEGIN:
    if (ot_sync_is_implicit_barrier(r->kind)) {
      st->begin_index = at.index;
      st->begin_cp = r->b;
      st->throttled = r->a == OT_SYNC_AFTER_THROTTLED;
      st->candidate = st->throttled || was_after_work;
    }
    break;
  case OT_SYNC_END:
    if (st->candidate && ot_sync_is_implicit_barrier(r->kind) && r->c == 0) {
      barrier_note *b = ot_grow(barriers, &capbarriers, (uint64_t)nbarriers + 1, sizeof *b, 16);
      if (!b)
        return -1;
      barriers = b;
      barriers[nbarriers++] =
          (barrier_note){((uint64_t)loc << 40) | st->begin_index, st->begin_cp, st->throttled};
    }
    st->candidate = 0;
    break;
  case OT_PARALLEL_BEGIN:
    if (!(p = par_get(r->c, at)))
      return -1;
    p->info.parent_id = st->depth > 0 ? st->stack[st->depth - 1] : 0;
    p->info.begin_raw = r->ts;
    p->info.codeptr = r->b;
    p->info.master_loc = loc;
    if (r->kind & OT_PAR_LEAGUE) {
      p->info.kind = OT_PK_LEAGUE;
      st->pending_league = r->c;
    } else if (st->depth > 0 && st->league[st->depth - 1]) {
      p->info.kind = OT_PK_TEAM; /* forked by a league member's initial task */
    }
    break;
  case OT_PARALLEL_END:
    st->pending_league = 0;
    if (!(p = par_get(r->c, at)))
      return -1;
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
      pid = st->pending_league ? st->pending_league : pid;
      if (!pid)
        break;
      member = 1;
    }
    st->pending_league = 0;
    if (pid && (!(p = par_get(pid, at)) || add_member(p, (uint32_t)r->c, loc, r->a) != 0))
      return -1;
    if (st->depth < NEST_MAX) { /* deeper nesting is not followed */
      st->stack[st->depth] = pid;
      st->league[st->depth] = (uint8_t)member;
      st->depth++;
    }
    break;
  }
  case OT_IMPLICIT_END:
    if (st->depth > 0 && (!(r->kind & ompt_task_initial) || st->league[st->depth - 1]))
      st->depth--;
    break;
  case OT_TASK_CREATE: {
    uint32_t site = OT_TASK_SITE(r->c);
    uint64_t bit = 1ull << (site % 64);
    if (site && r->b && !(st->site_noted[site / 64] & bit)) {
      /* The task id carries its creation site; this record its code pointer. */
      uint64_t *slot = ot_u64map_put(&site_cp, site, NULL);
      if (!slot)
        return -1;
      if (!*slot)
        *slot = r->b;
      st->site_noted[site / 64] |= bit;
    }
    if (r->a & ompt_task_untied && !(site && (st->untied_noted[site / 64] & bit))) {
      if (!ot_u64map_put(site ? &untied_sites : &untied_tasks, site ? site : r->c, NULL))
        return -1;
      if (site)
        st->untied_noted[site / 64] |= bit;
    }
    if (r->a & ompt_task_taskwait && st->npseudo < NEST_MAX) {
      st->pseudo[st->npseudo][0] = r->c;
      st->pseudo[st->npseudo++][1] = r->b;
    }
    break;
  }
  case OT_TASK_SCHEDULE:
    if (r->kind == ompt_taskwait_complete)
      for (int i = st->npseudo; i-- > 0;)
        if (st->pseudo[i][0] == r->b) {
          st->done_pseudo = r->b;
          st->done_cp = st->pseudo[i][1];
          st->npseudo = i;
          break;
        }
    break;
  case OT_MUTEX_ACQUIRE:
    if (r->c && note_wait(st, r->b, r->c, at) != 0)
      return -1;
    break;
  case OT_LOST:
    lost_total += r->a;
    break;
  case OT_TARGET_BEGIN:
    if (r->a < 64)
      devices_seen |= 1ull << r->a;
    break;
  case OT_THROTTLED:
    if (note_late(r, at) != 0)
      return -1;
    break;
  case OT_CONTROL_TOOL: /* a pause, resume or end (finalize/pauses.c) */
    if (r->kind != OT_CTL_NONE && note_late(r, at) != 0)
      return -1;
    break;
  default:
    break;
  }
  return 0;
}

static int scan_location(const ot_run *run, uint32_t loc, scan_loc *st) {
  memset(st, 0, sizeof *st);
  ot_reader *s = ot_run_records(run, loc);
  const ot_rec *r;
  int rc = 0;
  while (rc == 0 && (r = ot_run_next(s)) != NULL) {
    if (observer)
      observer(observer_ctx, loc, r);
    rc = scan_record(st, loc, r);
  }
  ot_run_records_close(s);
  return rc;
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

static int place_cmp(place a, place b) {
  return before(a, b) ? -1 : before(b, a);
}
static int par_order(const void *a, const void *b) {
  const par_rec *x = a, *y = b;
  return place_cmp((place){x->first_loc, x->first_index}, (place){y->first_loc, y->first_index});
}
static int wait_order(const void *a, const void *b) {
  return place_cmp(((const wait_note *)a)->at, ((const wait_note *)b)->at);
}
static int if0_order(const void *a, const void *b) {
  return place_cmp(((const if0_note *)a)->at, ((const if0_note *)b)->at);
}
static int late_order(const void *a, const void *b) {
  return place_cmp(((const late_note *)a)->at, ((const late_note *)b)->at);
}

/* Puts n elements in scan order unless they already are (the pass notes
 * them in that order; the feed interleaves locations). Places are unique.
 * 1 when it had to sort. */
static int in_order(void *base, uint64_t n, size_t size, int (*cmp)(const void *, const void *)) {
  const char *b = base;
  for (uint64_t i = 1; i < n; i++)
    if (cmp(b + (i - 1) * size, b + i * size) > 0) {
      qsort(base, n, size, cmp);
      return 1;
    }
  return 0;
}

/* Everything noted, in scan order, into the tables (needs ot_symbols_open
 * and the clock of ot_run_load). */
static int settle(void) {
  if (in_order(pars, npars, sizeof *pars, par_order)) {
    for (uint64_t i = 0; i < npars; i++) {
      uint64_t *slot = ot_u64map_find(&par_index, pars[i].info.id);
      if (slot)
        *slot = i + 1;
    }
  }
  for (uint32_t i = 0; i < nbarriers; i++)
    if ((barriers[i].throttled || !ot_symbols_user_cp(barriers[i].cp)) &&
        !ot_u64map_put(&end_barriers, barriers[i].key, NULL))
      return -1;
  uint32_t nwaits = wait_pairs.n;
  in_order(waits, nwaits, sizeof *waits, wait_order);
  for (uint32_t i = 0; i < nwaits; i++) {
    if (!ot_symbols_user_cp(waits[i].cp))
      continue;
    uint64_t *slot = ot_u64map_put(&wait_cp, waits[i].wait, NULL);
    if (!slot)
      return -1;
    if (!*slot)
      *slot = waits[i].cp;
  }
  in_order(if0s, nif0s, sizeof *if0s, if0_order);
  for (uint32_t i = 0; i < nif0s; i++) {
    if (!same_line(if0s[i].cp, if0s[i].pseudo_cp))
      continue;
    uint64_t *slot = ot_u64map_put(&if0_of, if0s[i].pseudo, NULL);
    if (!slot)
      return -1;
    *slot = if0s[i].task;
  }
  in_order(lates, nlates, sizeof *lates, late_order);
  for (uint32_t i = 0; i < nlates; i++) {
    const late_note *l = &lates[i];
    if (l->rec.type == OT_THROTTLED ? ot_throttled_note(l->at.loc, &l->rec) != 0
                                    : ot_pauses_note(l->rec.ts, l->rec.kind, l->rec.a) != 0)
      return -1;
  }
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

/* The feed saw exactly the records the log holds for this run. */
static int feed_matches(const ot_run *run) {
  if (!run->live || atomic_load(&feed_broken) || feed_pid != getpid() || run->ndamaged)
    return 0;
  for (uint32_t loc = 0; loc < run->nthreads; loc++) {
    const scan_loc *st = loc < capfed ? fed[loc] : NULL;
    uint64_t records = st ? st->records : 0, lost = st ? st->lost : 0;
    if (records != run->threads[loc].logged || lost != run->threads[loc].lost)
      return 0;
  }
  for (uint32_t loc = run->nthreads; loc < capfed; loc++)
    if (fed[loc])
      return 0;
  return 1;
}

static void free_notes(void) {
  free(barriers);
  barriers = NULL;
  nbarriers = capbarriers = 0;
  ot_intern_free(&wait_pairs);
  free(waits);
  waits = NULL;
  capwaits = 0;
  free(if0s);
  if0s = NULL;
  nif0s = capif0s = 0;
  free(lates);
  lates = NULL;
  nlates = caplates = 0;
}

/* A fork child's copy of what its parent had fed (ot_scan_feed). */
static struct inherited_feed {
  scan_loc **fed;
  par_rec *pars;
  ot_u64map par_index, untied_sites, untied_tasks, site_cp;
  ot_intern wait_pairs;
  barrier_note *barriers;
  wait_note *waits;
  if0_note *if0s;
  late_note *lates;
} inherited;

static void free_feed(void) {
  for (uint32_t i = 0; i < capfed; i++)
    free(fed[i]);
  free(fed);
  fed = NULL;
  capfed = 0;
}

int ot_scan_was_fed(void) {
  return was_fed;
}

int ot_scan_run(const ot_run *run) {
  int rc = 0;
  was_fed = feed_matches(run);
  if (was_fed) {
    ot_verbose("scan: the records as the flusher wrote them (no pass over the log)");
  } else {
    if (feed_over)
      ot_verbose("scan: a pass over the log (the fed tables passed OMPTRACE_BUFFER_SIZE)");
    else if (fed || atomic_load(&feed_broken))
      ot_verbose("scan: a pass over the log (the flusher's records do not match it)");
    ot_scan_free(); /* anything fed: the pass starts from nothing */
    scan_loc *st = malloc(sizeof *st);
    if (!st)
      return -1;
    for (uint32_t loc = 0; loc < run->nthreads && rc == 0; loc++)
      rc = scan_location(run, loc, st);
    free(st);
  }
  free_feed();
  atomic_store(&feed_broken, 0); /* a later run starts a new feed */
  feed_over = 0;
  if (rc == 0)
    rc = settle();
  free_notes();
  return rc;
}

/* The fed tables grow with regions (about 130 bytes each) and sites for as
 * long as the program runs. Past OMPTRACE_BUFFER_SIZE bytes (one thread's
 * recording budget) they are given up and their memory returned: finalize
 * then scans the log as omptrace-recover does (the same tables, so the same
 * archive), and the process's memory stays within its configured budget. */
static uint64_t map_bytes(const ot_u64map *m) {
  return m->cap * (2 * sizeof(uint64_t) + 1);
}

static uint64_t feed_bytes(void) {
  const ot_u64map *maps[] = {&par_index, &untied_sites, &untied_tasks, &end_barriers,
                             &wait_cp,   &if0_of,       &site_cp};
  uint64_t b = cappars * sizeof(par_rec) + many_bytes;
  for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
    b += map_bytes(maps[i]);
  /* an interned (wait, code pointer) pair: slot, key copy with malloc's
   * header, pointer, length and hash */
  b += (uint64_t)wait_pairs.cap * sizeof(uint32_t) + (uint64_t)wait_pairs.keys_cap * 60;
  b += (uint64_t)capbarriers * sizeof(barrier_note) + (uint64_t)capwaits * sizeof(wait_note) +
       (uint64_t)capif0s * sizeof(if0_note) + (uint64_t)caplates * sizeof(late_note);
  return b + (uint64_t)capfed * (sizeof(scan_loc *) + sizeof(scan_loc));
}

static void feed_give_up(uint64_t bytes) {
  uint64_t regions = npars;
  atomic_store(&feed_broken, 1);
  feed_over = 1;
  ot_scan_free();
  free_feed();
  malloc_trim(0); /* the flusher's arena keeps freed pages otherwise */
  ot_verbose("scan: the fed tables passed %llu bytes (OMPTRACE_BUFFER_SIZE, %llu regions): "
             "given up, finalize scans the log",
             (unsigned long long)bytes, (unsigned long long)regions);
}

/* signal-safe: with in_signal (a pass from a fault handler) only an atomic
 * store: the feed is given up and finalize scans the log. */
void ot_scan_feed(uint32_t loc, const uint8_t *recs, uint32_t nrec, int in_signal) {
  if (in_signal || atomic_load(&feed_broken)) {
    atomic_store(&feed_broken, 1);
    return;
  }
  if (feed_pid != getpid()) {
    /* A fork child: the parent's state is not its own (and may have been
     * caught half-way): left behind, not freed, but kept reachable so that
     * leak checkers do not report the parent's tables as the child's. */
    inherited = (struct inherited_feed){fed,          pars,    par_index,  untied_sites,
                                        untied_tasks, site_cp, wait_pairs, barriers,
                                        waits,        if0s,    lates};
    fed = NULL;
    capfed = 0;
    pars = NULL;
    npars = cappars = many_bytes = 0;
    memset(&par_index, 0, sizeof par_index);
    memset(&untied_sites, 0, sizeof untied_sites);
    memset(&untied_tasks, 0, sizeof untied_tasks);
    memset(&site_cp, 0, sizeof site_cp);
    memset(&wait_pairs, 0, sizeof wait_pairs);
    barriers = NULL, nbarriers = capbarriers = 0;
    waits = NULL, capwaits = 0;
    if0s = NULL, nif0s = capif0s = 0;
    lates = NULL, nlates = caplates = 0;
    lost_total = records_total = 0;
    devices_seen = 0;
    feed_pid = getpid();
  }
  if (loc >= capfed) {
    scan_loc **f = ot_grow(fed, &capfed, (uint64_t)loc + 1, sizeof *f, 64);
    if (!f) {
      atomic_store(&feed_broken, 1);
      return;
    }
    fed = f;
  }
  scan_loc *st = fed[loc];
  if (!st && !(st = fed[loc] = calloc(1, sizeof *st))) {
    atomic_store(&feed_broken, 1);
    return;
  }
  const uint8_t *p = recs;
  for (uint32_t i = 0; i < nrec; i++) {
    const ot_rec *r = (const ot_rec *)(const void *)p;
    if (r->type == OT_LOST)
      st->lost += r->a;
    else
      st->records++;
    if (scan_record(st, loc, r) != 0) {
      atomic_store(&feed_broken, 1);
      return;
    }
    p += ot_rec_size(r);
  }
  uint64_t bytes = feed_bytes();
  if (ot_cfg.buffer_size && bytes > ot_cfg.buffer_size)
    feed_give_up(bytes);
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
uint64_t ot_scan_devices(void) {
  return devices_seen;
}

void ot_scan_free(void) {
  for (uint64_t i = 0; i < npars; i++)
    if (pars[i].nmembers > INLINE_MEMBERS)
      free(pars[i].m.many);
  free(pars);
  pars = NULL;
  npars = cappars = many_bytes = 0;
  ot_u64map_free(&par_index);
  ot_u64map_free(&untied_sites);
  ot_u64map_free(&untied_tasks);
  ot_u64map_free(&wait_cp);
  ot_u64map_free(&if0_of);
  ot_u64map_free(&site_cp);
  ot_u64map_free(&end_barriers);
  lost_total = records_total = 0;
  devices_seen = 0;
  free_notes();
  ot_pauses_free();
}
