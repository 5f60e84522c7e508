/* Records -> OTF2 events, following docs/otf2-mapping.md. Each location
 * keeps a stack of open regions; end records close the matching frame and
 * anything left open above it, so output stays balanced whatever the
 * runtime delivers. Quirks repaired here: late worker barrier/implicit-task
 * ends (clamped to the master's parallel_end), NULL or runtime-internal
 * code pointers (enclosing construct), failed omp_test_lock, dropped
 * records and threads that simply stop (exit() inside a parallel). */
#include "finalize/replay.h"
#include "buffer/mpi_calls.h"
#include "core/log.h"
#include "finalize/defs.h"
#include "finalize/evt_out.h"
#include "finalize/grow.h"
#include "finalize/hints.h"
#include "finalize/intern.h"
#include "finalize/labels.h"
#include "finalize/mpi_comms.h"
#include "finalize/mpi_events.h"
#include "finalize/mpi_regions.h"
#include "finalize/offload.h"
#include "finalize/out.h"
#include "finalize/pauses.h"
#include "finalize/regions.h"
#include "finalize/run.h"
#include "finalize/samples_out.h"
#include "finalize/scan_ext.h"
#include "finalize/suspended.h"
#include "finalize/symbols.h"
#include "finalize/teams.h"

#include <inttypes.h>
#include <omp-tools.h>
#include <stdlib.h>
#include <string.h>

enum { PAR_REGION = 0, PAR_LEAGUE = 1 }; /* sub of an F_PARALLEL frame */
/* Lock id of an acquisition the filter left out (no lock records). */
#define OT_LOCK_FILTERED UINT32_MAX

enum frame_type {
  F_PARALLEL = 1,
  F_SYNC,
  F_SYNC_WAIT,
  F_WORK,
  F_SBLOCK,
  F_MASKED,
  F_REDUCTION,
  F_MUTEX,
  F_MWAIT,
  F_MSBLOCK,
  F_TASK,
  F_USER, /* a named region of omp_control_tool (finalize/labels.h); id: its name's hash */
  F_MPI,  /* an MPI call (finalize/mpi_regions.h); sub: nothing, id: the call */
  /* offload (offload_record); id: enum tgt_frame */
  F_TARGET
};

typedef struct frame {
  uint8_t type;
  uint8_t sub; /* sync / work / mutex kind; PAR_LEAGUE for a teams league */
  uint32_t region;
  uint32_t comm;  /* team of a parallel frame */
  uint32_t lock;  /* lock id of a mutex sblock */
  uint64_t id;    /* parallel id, wait id or task id */
  uint64_t cp;    /* effective code pointer, for enclosing-construct fallbacks */
  uint64_t limit; /* raw time no event inside may exceed (worker of a finished team) */
  uint64_t order; /* acquisition order of a mutex sblock; a task frame's start */
  /* A parallel frame: task_at outside it (inside runs its implicit task). */
  uint32_t outer_task;
  /* comm of the innermost parallel frame at or below this one, as limit
   * is inherited: the team events name without a search of the stack. */
  uint32_t pcomm;
} frame;

typedef struct held {
  uint64_t wait;
  uint32_t lock;
  uint64_t order;
} held;

typedef struct loc_state {
  uint32_t loc;
  ot_reader *s;
  const ot_rec *cur;
  frame *st;
  uint32_t n, cap;
  uint32_t task_at; /* index + 1 of the running explicit task's frame, 0 = implicit task */
  held *hl;
  uint32_t nhl, caphl;
  /* Latest counter values on this location; `pending` when the current
   * record brought them and no Enter/Leave carried them yet. */
  uint64_t values[OT_WRITER_MAX_METRICS];
  unsigned nvalues;
  int pending;
  int create_open; /* a task create region waits for its dependences */
  uint32_t create_region;
  uint64_t create_t;
  uint64_t create_task;
  /* `taskwait depend`: its taskwait region is open, the wait is entered
   * after the dependences; `task if(0) depend`: the dependences of the
   * pseudo task wait for the task's own create region. */
  int dwait_pending;
  uint64_t dwait_task, dwait_t, dwait_cp;
  uint64_t if0_pseudo, if0_task;
  uint64_t *if0_deps; /* (kind, address) pairs */
  uint32_t nif0, capif0;
  int ended;
  uint64_t index;        /* ordinal of the current record in the stream */
  uint64_t after_work;   /* code pointer of a work-sharing construct ended by this record */
  uint64_t prev_work_cp; /* ... by the previous record */
  uint64_t league;       /* league this location began, until its member task begins */
  int off;               /* inside a paused interval (finalize/pauses.h) */
  uint32_t pz;           /* the next paused interval to pass */
  ot_label label;        /* the name the next CONTROL_TOOL record carries */
  /* A lazy wait (enter_wait) closed without its Leave: written, with its
   * Enter, only if anything but its region's Leave at lazy_t1 comes next. */
  int lazy_closed;
  uint32_t lazy_region;
  uint64_t lazy_t0, lazy_t1;
  uint32_t entered_n; /* stack depth after the last Enter of a stack frame */
  ot_mpi_loc mpi;     /* request id and collective root between MPI records */
  uint64_t entered_t; /* ... and its time */
} loc_state;

static OTF2_ErrorCode werr;
static uint32_t metric_class;
static unsigned nmetrics;
static int strict;      /* every Enter/Leave carries a Metric */
static ot_intern locks; /* (class, wait id) -> dense lock id */
static uint64_t *lock_count;
static uint32_t lock_cap;
static ot_u64map task_cp; /* task id -> creator's construct, for runtime-internal sites */
/* Replay work, reported with OMPTRACE_VERBOSE: stays proportional to the
 * records (tests/recorder/linear_run.py compares two run sizes). */
static uint64_t n_pushed, n_scanned;
static uint32_t peak_depth;
/* The location being replayed is paused: its records still move its stack
 * but nothing is written. */
static int silent;

/* The location whose events are being written, and whether its sync waits
 * may be left out where they span their whole region (no counters or
 * pauses in the run: those write events the deferral does not see;
 * samples settle it themselves, samples_until). */
static struct loc_state *cur_ls;
static int lazy_waits;
/* Whether the run has samples to merge and paused intervals to pass: the
 * per-record checks are skipped without them. */
static int samples, pauses;
/* Region and code pointer of tasks begun from creation sites whose code
 * pointer is the program's, by site (direct-mapped; site 0: none): what
 * the site's next task begins with. */
enum { SITE_MEMO = 64 };
static struct {
  uint32_t site;
  uint32_t region;
  uint64_t cp;
} site_memo[SITE_MEMO];
/* The same for the create side, by site: the task create region of the
 * site's code pointer `cp` (the program's), and whether the site's own
 * code pointer is the program's. */
static struct {
  uint32_t site;
  uint32_t region;
  uint64_t cp;
  int site_user;
} create_memo[SITE_MEMO];
static void settle_now(loc_state *ls, int open_too);

/* Before every event (see settle_now): mostly nothing to do, so the check
 * is inline and the work is not. A lazy wait keeps its Enter time in
 * `order` (lazy_frame). */
static inline void settle(loc_state *ls, int open_too) {
  if (ls->lazy_closed ||
      (open_too && ls->n && ls->st[ls->n - 1].type == F_SYNC_WAIT && ls->st[ls->n - 1].order))
    settle_now(ls, open_too);
}

/* After the first error nothing more goes to OTF2 (the archive is lost). */
#define W(call)                                                                                    \
  do {                                                                                             \
    if (silent || werr != OTF2_SUCCESS)                                                            \
      break;                                                                                       \
    if (cur_ls)                                                                                    \
      settle(cur_ls, 1);                                                                           \
    OTF2_ErrorCode e_ = (call);                                                                    \
    if (e_ != OTF2_SUCCESS && werr == OTF2_SUCCESS)                                                \
      werr = e_;                                                                                   \
  } while (0)

/* Task switches and completions belong to no region stack: they write the
 * Enter of no open lazy wait (that wait's stack is the one left or
 * resumed), only a closed one's pair. */
#define W_TASK(call)                                                                               \
  do {                                                                                             \
    if (silent || werr != OTF2_SUCCESS)                                                            \
      break;                                                                                       \
    if (cur_ls)                                                                                    \
      settle(cur_ls, 0);                                                                           \
    OTF2_ErrorCode e_ = (call);                                                                    \
    if (e_ != OTF2_SUCCESS && werr == OTF2_SUCCESS)                                                \
      werr = e_;                                                                                   \
  } while (0)

/* MeasurementOnOff, with its attribute list (handed over, or deleted when
 * nothing is written). */
static void measurement(loc_state *ls, OTF2_AttributeList *al, uint64_t t,
                        OTF2_MeasurementMode mode) {
  if (silent || werr != OTF2_SUCCESS) {
    if (al)
      OTF2_AttributeList_Delete(al);
    return;
  }
  W(ot_evt_measurement(ls->loc, t, al, mode));
}

static void put_metric(loc_state *ls, uint64_t t) {
  ls->pending = 0;
  W(ot_evt_metric(ls->loc, t, metric_class, (uint8_t)ls->nvalues, ls->values));
}

static int lazy_frame(const frame *f);

/* Regions the filter excludes are left out; what they contain is not. A
 * region entered right on top of a lazy wait (a tree reduction inside its
 * barrier) lies inside the wait, which is then written, from its begin
 * (docs/otf2-mapping.md); a task's regions are on a stack of its own. */
static void enter(loc_state *ls, uint64_t t, uint32_t region) {
  if (ot_region_excluded(region))
    return;
  if (ls->n >= 2 && ls->st[ls->n - 1].type != F_TASK && ls->st[ls->n - 1].region == region &&
      lazy_frame(&ls->st[ls->n - 2])) {
    frame *w = &ls->st[ls->n - 2];
    uint64_t t0 = w->order - 1;
    w->order = 0;
    enter(ls, t0, w->region);
  }
  if (ls->pending || (strict && ls->nvalues))
    put_metric(ls, t);
  W(ot_evt_enter(ls->loc, t, region));
  ls->entered_n = ls->n && ls->st[ls->n - 1].region == region ? ls->n : 0;
  ls->entered_t = t;
}

static void leave(loc_state *ls, uint64_t t, uint32_t region) {
  if (ot_region_excluded(region))
    return;
  if (ls->pending || (strict && ls->nvalues))
    put_metric(ls, t);
  W(ot_evt_leave(ls->loc, t, region));
}

/* A wait frame whose Enter is not written yet keeps the time to write it
 * at (plus one) in `order`, which only mutex frames use otherwise. */
static int lazy_frame(const frame *f) {
  return f->type == F_SYNC_WAIT && f->order;
}

/* Before anything else is written: the deferred Leave of a closed lazy
 * wait (and its Enter), and unless only a task switch follows, the Enter of
 * a lazy wait open at the top of the running stack. */
static void settle_now(loc_state *ls, int open_too) {
  if (ls->lazy_closed) {
    ls->lazy_closed = 0;
    enter(ls, ls->lazy_t0, ls->lazy_region);
    leave(ls, ls->lazy_t1, ls->lazy_region);
  }
  frame *top = ls->n ? &ls->st[ls->n - 1] : NULL;
  if (open_too && top && lazy_frame(top)) {
    uint64_t t0 = top->order - 1;
    top->order = 0;
    enter(ls, t0, top->region);
  }
}

/* Its stack runs again at t (a task ran on top of it, or it resumed): were
 * its lazy wait written after all, it would start here, after the events
 * written meanwhile on this location. */
static void lazy_resumes(loc_state *ls, uint64_t t) {
  if (ls->n && lazy_frame(&ls->st[ls->n - 1]))
    ls->st[ls->n - 1].order = t + 1;
}

/* A sync wait entered at the time its region was entered, right after it
 * (libomp reports the two back to back; events/sync.c gives both one
 * timestamp) starts lazy: written only if it turns out to differ from its
 * region, which is what most waits do not (docs/otf2-mapping.md). Tasks
 * run in the wait have region stacks of their own. */
static void enter_wait(loc_state *ls, uint64_t t, uint32_t region) {
  frame *f = &ls->st[ls->n - 1];
  if (lazy_waits && ls->n >= 2 && ls->st[ls->n - 2].type == F_SYNC && ls->entered_n == ls->n - 1 &&
      ls->entered_t == t) {
    settle(ls, 0);
    f->order = t + 1;
    return;
  }
  enter(ls, t, region);
}

static frame *push(loc_state *ls, uint8_t type, uint8_t sub, uint32_t region, uint64_t id,
                   uint64_t cp) {
  frame *st = ot_grow(ls->st, &ls->cap, (uint64_t)ls->n + 1, sizeof *st, 32);
  if (!st) {
    if (werr == OTF2_SUCCESS)
      werr = OTF2_ERROR_MEM_ALLOC_FAILED;
    return NULL;
  }
  ls->st = st;
  frame *f = &ls->st[ls->n++];
  n_pushed++;
  if (ls->n > peak_depth)
    peak_depth = ls->n;
  memset(f, 0, sizeof *f);
  if (type == F_TASK) {
    ls->task_at = ls->n;
  } else if (type == F_PARALLEL) {
    f->outer_task = ls->task_at;
    ls->task_at = 0;
  }
  f->type = type;
  f->sub = sub;
  f->region = region;
  f->id = id;
  f->cp = cp;
  f->limit = ls->n > 1 ? ls->st[ls->n - 2].limit : UINT64_MAX;
  f->pcomm = type == F_PARALLEL ? f->comm
             : ls->n > 1        ? ls->st[ls->n - 2].pcomm
                                : OTF2_UNDEFINED_COMM;
  return f;
}

/* Index of the innermost frame of the type (and id, unless any_id); -1
 * when none. Unless `cross`, the search stops at a task or parallel
 * boundary (when that is not what is sought). */
static int64_t innermost(const loc_state *ls, uint8_t type, uint64_t id, int any_id, int cross) {
  for (uint32_t i = ls->n; i-- > 0;) {
    const frame *f = &ls->st[i];
    n_scanned++;
    if (f->type == type && (any_id || f->id == id))
      return i;
    if (!cross && (f->type == F_TASK || f->type == F_PARALLEL))
      return -1;
  }
  return -1;
}

static int64_t find(const loc_state *ls, uint8_t type, uint64_t id, int any_id) {
  return innermost(ls, type, id, any_id, 0);
}

static OTF2_CommRef current_comm(const loc_state *ls) {
  return ls->n ? ls->st[ls->n - 1].pcomm : OTF2_UNDEFINED_COMM;
}

/* Leave one frame with whatever its kind needs besides the Leave. */
static void close_top(loc_state *ls, uint64_t t) {
  frame *f = &ls->st[ls->n - 1];
  if (lazy_frame(f)) { /* its Leave waits too */
    settle(ls, 0);
    ls->lazy_closed = 1;
    ls->lazy_region = f->region;
    ls->lazy_t0 = f->order - 1;
    ls->lazy_t1 = t;
  } else if (ls->lazy_closed && f->type == F_SYNC && t == ls->lazy_t1) {
    ls->lazy_closed = 0; /* its region ends with it: the wait is the region */
    leave(ls, t, f->region);
  } else if (f->type == F_MSBLOCK) {
    leave(ls, t, f->region);
    if (f->lock != OT_LOCK_FILTERED)
      W(ot_evt_release_lock(ls->loc, t, OTF2_PARADIGM_OPENMP, f->lock, f->order));
  } else {
    leave(ls, t, f->region);
    if (f->type == F_PARALLEL)
      W(ot_evt_team_end(ls->loc, t, f->comm));
  }
  if (f->type == F_PARALLEL)
    ls->task_at = f->outer_task;
  else if (ls->task_at == ls->n)
    ls->task_at = 0;
  ls->n--;
  if (f->type == F_TASK)
    lazy_resumes(ls, t);
}

static void close_to(loc_state *ls, int64_t index, uint64_t t) {
  while ((int64_t)ls->n > index)
    close_top(ls, t);
}

static uint64_t enclosing_cp(const loc_state *ls) {
  for (uint32_t i = ls->n; i-- > 0;) {
    n_scanned++;
    if (ls->st[i].cp)
      return ls->st[i].cp;
  }
  return 0;
}

static uint64_t effective_cp(const loc_state *ls, uint64_t cp) {
  return ot_symbols_user_cp(cp) ? cp : enclosing_cp(ls);
}

static uint32_t lock_id(uint8_t mutex_kind, uint64_t wait) {
  uint64_t key[2] = {0, wait}; /* class: 1 critical, 2 ordered, 0 locks */
  if (mutex_kind == ompt_mutex_critical)
    key[0] = 1;
  else if (mutex_kind == ompt_mutex_ordered)
    key[0] = 2;
  uint32_t id = ot_intern_get(&locks, key, sizeof key, NULL);
  if (id == UINT32_MAX)
    return 0;
  uint64_t *c = ot_grow(lock_count, &lock_cap, (uint64_t)id + 1, sizeof *c, 64);
  if (!c)
    return 0;
  lock_count = c;
  return id;
}

static const char *dep_param_name(uint8_t kind) {
  static const char *names[] = {"omp depend(unknown)",       "omp depend(in)",
                                "omp depend(out)",           "omp depend(inout)",
                                "omp depend(mutexinoutset)", "omp depend(source)",
                                "omp depend(sink)",          "omp depend(inoutset)"};
  return kind < sizeof names / sizeof *names ? names[kind] : "omp depend(depobj)";
}

/* The task life cycle. Every location runs one task at a time: at most
 * one explicit task frame is open on its stack (ls->task_at), so switching
 * and completing never search the stack. Whatever runs is suspended when
 * the location switches to another task, whichever task the runtime names
 * as prior: libomp reports an untied or final child C of P as P->C, C->P,
 * C->C, ..., C done ->P, P->P while P never left. */
static uint64_t running(const loc_state *ls) {
  return ls->task_at ? ls->st[ls->task_at - 1].id : 0;
}

/* Suspended task: its frames (task frame and what is open inside) are
 * kept, without a Leave: OTF2 readers keep one region stack per task, and
 * the ThreadTaskSwitch away from it suspends them (docs/otf2-mapping.md).
 * A lazy wait open in it stays lazy. */
static void suspend_running(loc_state *ls, uint64_t t) {
  if (!ls->task_at)
    return;
  settle(ls, 0);
  uint32_t index = ls->task_at - 1, count = ls->n - index;
  frame *keep = ot_susp_put(ls->st[index].id, ls->loc, count, sizeof *keep);
  if (!keep) {
    close_to(ls, index, t); /* out of memory: the task's regions end here instead */
    return;
  }
  memcpy(keep, &ls->st[index], count * sizeof *keep);
  ls->n = index;
  ls->task_at = 0;
  lazy_resumes(ls, t);
}

/* The task continues its region stack, on this location or, untied, on
 * another: its frames come back without an Enter (a critical section it
 * holds is still held), in one copy; they take the limit of what they now
 * sit on, as pushed frames do. */
static int resume_task(loc_state *ls, uint64_t task, uint64_t t) {
  ot_susp s;
  if (!ot_susp_take(task, &s))
    return 0;
  frame *st = ot_grow(ls->st, &ls->cap, (uint64_t)ls->n + s.n, sizeof *st, 32);
  if (st) {
    ls->st = st;
    const frame *kept = s.frames;
    uint64_t limit = ls->n ? st[ls->n - 1].limit : UINT64_MAX;
    uint32_t pcomm = ls->n ? st[ls->n - 1].pcomm : OTF2_UNDEFINED_COMM;
    memcpy(&st[ls->n], kept, s.n * sizeof *st);
    for (uint32_t k = ls->n; k < ls->n + s.n; k++) {
      frame *f = &st[k];
      f->limit = limit;
      pcomm = f->type == F_PARALLEL ? f->comm : pcomm;
      f->pcomm = pcomm;
      if (f->type == F_TASK) {
        ls->task_at = k + 1;
      } else if (f->type == F_PARALLEL) {
        f->outer_task = ls->task_at;
        ls->task_at = 0;
      }
    }
    ls->n += s.n;
    n_pushed += s.n;
    if (ls->n > peak_depth)
      peak_depth = ls->n;
  } else if (werr == OTF2_SUCCESS) {
    werr = OTF2_ERROR_MEM_ALLOC_FAILED;
  }
  ot_susp_done(&s);
  lazy_resumes(ls, t);
  return 1;
}

static void task_switch_to(loc_state *ls, uint64_t task, uint64_t t) {
  OTF2_CommRef comm = current_comm(ls);
  W_TASK(ot_evt_task_switch(ls->loc, t, comm, OT_TASK_THREAD(task), OT_TASK_GEN(task)));
  if (resume_task(ls, task, t))
    return;
  uint32_t site = OT_TASK_SITE(task);
  if (site && site == site_memo[site % SITE_MEMO].site) {
    frame *f = push(ls, F_TASK, 0, site_memo[site % SITE_MEMO].region, task,
                    site_memo[site % SITE_MEMO].cp);
    if (f) {
      f->order = t;
      enter(ls, t, f->region);
    }
    return;
  }
  enum ot_construct c = ot_scan_task_untied(task) ? OC_UNTIED_TASK : OC_TASK;
  uint64_t cp = ot_scan_site_codeptr(site);
  int user = ot_symbols_user_cp(cp);
  if (!user) {
    uint64_t *slot = ot_u64map_find(&task_cp, task);
    cp = slot ? *slot : effective_cp(ls, 0);
  }
  uint32_t region = ot_region(c, cp);
  if (site && user) { /* untied-ness and code pointer are the site's */
    site_memo[site % SITE_MEMO].site = site;
    site_memo[site % SITE_MEMO].region = region;
    site_memo[site % SITE_MEMO].cp = cp;
  }
  frame *f = push(ls, F_TASK, 0, region, task, cp);
  if (f) {
    f->order = t;
    enter(ls, t, f->region);
  }
}

static void to_implicit(loc_state *ls, uint64_t t) {
  W_TASK(ot_evt_task_switch(ls->loc, t, current_comm(ls), ls->loc, 0));
}

static void complete_running(loc_state *ls, uint64_t t) {
  uint64_t task = running(ls);
  const frame *f = &ls->st[ls->task_at - 1];
  ot_hint_task_done(f->region, t > f->order ? t - f->order : 0);
  close_to(ls, ls->task_at - 1, t);
  W_TASK(
      ot_evt_task_complete(ls->loc, t, current_comm(ls), OT_TASK_THREAD(task), OT_TASK_GEN(task)));
}

/* A task completed by this location while it runs another one: a detached
 * task whose event is fulfilled late, or a task discarded by cancellation
 * before it ran. Readers see it run for zero time and complete here, then
 * the location returns to what it ran. */
static void complete_here(loc_state *ls, uint64_t task, uint64_t t) {
  uint64_t back = running(ls);
  if (back == task) { /* not expected from libomp: it runs here, so it ends here */
    complete_running(ls, t);
    to_implicit(ls, t);
    return;
  }
  suspend_running(ls, t);
  task_switch_to(ls, task, t);
  if (ls->task_at)
    complete_running(ls, t);
  if (back)
    task_switch_to(ls, back, t);
  else
    to_implicit(ls, t);
}

static void task_schedule(loc_state *ls, const ot_rec *r, uint64_t t) {
  uint64_t prior = r->b, next = r->c;
  int left = 0;
  switch (r->kind) {
  case ompt_task_early_fulfill: /* the body still runs; it completes as usual */
    return;
  case ompt_task_late_fulfill:
    if (OT_TASK_GEN(prior) != 0)
      complete_here(ls, prior, t);
    return;
  case ompt_taskwait_complete: { /* end of a dependent wait (pseudo task) */
    int64_t i = find(ls, F_SYNC, prior, 0);
    if (i >= 0)
      close_to(ls, i, t);
    return;
  }
  case ompt_task_complete:
  case ompt_task_cancel:
  case ompt_task_detach:
    if (OT_TASK_GEN(prior) == 0)
      break;
    if (prior == running(ls)) {
      if (r->kind == ompt_task_detach) /* body done, completion at the fulfill */
        close_to(ls, ls->task_at - 1, t);
      else
        complete_running(ls, t);
      left = 1;
    } else if (r->kind != ompt_task_detach) { /* discarded: never ran */
      complete_here(ls, prior, t);
    }
    break;
  default: /* switch, yield: the suspension happens below */
    break;
  }
  if (OT_TASK_GEN(next) != 0) {
    if (next == running(ls))
      return; /* it runs already: no new frame */
    suspend_running(ls, t);
    task_switch_to(ls, next, t);
    return;
  }
  if (running(ls)) {
    suspend_running(ls, t);
    left = 1;
  }
  if (left)
    to_implicit(ls, t);
}

static int holds(const loc_state *ls, uint64_t wait) {
  for (uint32_t k = ls->nhl; k-- > 0;)
    if (ls->hl[k].wait == wait)
      return 1;
  return 0;
}

static void mutex_acquire(loc_state *ls, const ot_rec *r, uint64_t t) {
  enum ot_construct c, wait, sblock;
  ot_mutex_constructs(r->kind, &c, &wait, &sblock);
  uint64_t cp = r->c;
  if (!ot_symbols_user_cp(cp)) /* libomp sometimes passes its own address */
    cp = ot_scan_wait_codeptr(r->b);
  cp = effective_cp(ls, cp);
  frame *f = push(ls, F_MUTEX, r->kind, ot_region(c, cp), r->b, cp);
  if (!f)
    return;
  enter(ls, t, f->region);
  /* A nest lock this thread holds already is re-acquired without waiting. */
  if ((r->kind == ompt_mutex_nest_lock || r->kind == ompt_mutex_test_nest_lock) && holds(ls, r->b))
    return;
  f = push(ls, F_MWAIT, r->kind, ot_region(wait, cp), r->b, cp);
  if (f)
    enter(ls, t, f->region);
}

static void hold(loc_state *ls, uint64_t wait, uint32_t lock, uint64_t order) {
  held *h = ot_grow(ls->hl, &ls->caphl, (uint64_t)ls->nhl + 1, sizeof *h, 8);
  if (!h)
    return;
  ls->hl = h;
  ls->hl[ls->nhl++] = (held){wait, lock, order};
}

static void mutex_acquired(loc_state *ls, const ot_rec *r, uint64_t t) {
  enum ot_construct c, wait, sblock;
  ot_mutex_constructs(r->kind, &c, &wait, &sblock);
  uint64_t cp = 0;
  int64_t i = find(ls, F_MWAIT, r->b, 0);
  if (i >= 0) {
    cp = ls->st[i].cp;
    close_to(ls, i, t); /* Leave(wait) */
  } else {
    cp = effective_cp(ls, r->c);
  }
  uint32_t lock = OT_LOCK_FILTERED;
  uint64_t order = 0;
  if (!ot_region_excluded(ot_region(c, cp))) { /* a filtered lock is left out whole */
    lock = lock_id(r->kind, r->b);
    order = lock < lock_cap ? ++lock_count[lock] : 0;
    W(ot_evt_acquire_lock(ls->loc, t, OTF2_PARADIGM_OPENMP, lock, order));
  }
  if (sblock != OC_COUNT) {
    frame *f = push(ls, F_MSBLOCK, r->kind, ot_region(sblock, cp), r->b, cp);
    if (f) {
      f->lock = lock;
      f->order = order;
      enter(ls, t, f->region);
    }
    return;
  }
  hold(ls, r->b, lock, order);
  int64_t m = find(ls, F_MUTEX, r->b, 0);
  if (m >= 0)
    close_to(ls, m, t); /* the omp_set_lock region ends at acquisition */
}

static void mutex_released(loc_state *ls, const ot_rec *r, uint64_t t) {
  if (r->kind == ompt_mutex_critical || r->kind == ompt_mutex_ordered ||
      r->kind == ompt_mutex_atomic) {
    int64_t i = find(ls, F_MSBLOCK, r->b, 0);
    if (i >= 0) {
      close_to(ls, i, t); /* Leave(sblock) + ThreadReleaseLock */
      if (ls->n > 0 && ls->st[ls->n - 1].type == F_MUTEX)
        close_top(ls, t);
      return;
    }
  }
  for (uint32_t k = ls->nhl; k-- > 0;) {
    if (ls->hl[k].wait != r->b)
      continue;
    if (ls->hl[k].lock != OT_LOCK_FILTERED)
      W(ot_evt_release_lock(ls->loc, t, OTF2_PARADIGM_OPENMP, ls->hl[k].lock, ls->hl[k].order));
    ls->hl[k] = ls->hl[--ls->nhl];
    return;
  }
  /* Released by another thread than the acquirer: pair with the latest acquisition. */
  uint32_t lock = lock_id(r->kind, r->b);
  W(ot_evt_release_lock(ls->loc, t, OTF2_PARADIGM_OPENMP, lock,
                        lock < lock_cap ? lock_count[lock] : 0));
}

static uint32_t zero_length(loc_state *ls, enum ot_construct c, uint64_t cp, uint64_t t) {
  uint32_t region = ot_region(c, effective_cp(ls, cp));
  enter(ls, t, region);
  leave(ls, t, region);
  return region;
}

static void close_create(loc_state *ls) {
  if (ls->create_open) {
    ls->create_open = 0;
    leave(ls, ls->create_t, ls->create_region);
  }
  if (ls->dwait_pending) { /* the dependences of a taskwait are written: its wait begins */
    ls->dwait_pending = 0;
    frame *f = push(ls, F_SYNC_WAIT, ompt_sync_region_taskwait,
                    ot_region(OC_TASKWAIT_WAIT, ls->dwait_cp), ls->dwait_task, ls->dwait_cp);
    if (f)
      enter(ls, ls->dwait_t, f->region);
  }
}

/* Samples up to raw. The deferred Leave(task create) carries the create's
 * time: it goes first, or a later sample would make the location's time
 * decrease (the writer then refuses the event and the archive). */
static void samples_until(loc_state *ls, uint64_t raw) {
  if (ls->create_open || ls->dwait_pending)
    close_create(ls);
  if (!samples || werr != OTF2_SUCCESS || !ot_samples_due(ls->loc, raw))
    return;
  /* Samples inside a lazy wait leave it lazy (no events of its own unless
   * it turns out to differ from its region): were it written after all,
   * it starts after them, as after a task (lazy_resumes). A closed one's
   * pair goes first. */
  settle(ls, 0);
  werr = ot_samples_emit_until(ls->loc, raw);
  if (ls->n && lazy_frame(&ls->st[ls->n - 1]))
    ls->st[ls->n - 1].order = ot_out_last(ls->loc) + 1;
}

static void close_all(loc_state *ls, uint64_t t) {
  close_create(ls);
  close_to(ls, 0, t);
}

static void begin_frame(loc_state *ls, uint8_t type, uint8_t sub, enum ot_construct c, uint64_t cp,
                        uint64_t t) {
  cp = effective_cp(ls, cp);
  frame *f = push(ls, type, sub, ot_region(c, cp), 0, cp);
  if (f)
    enter(ls, t, f->region);
}

static void end_frame(loc_state *ls, uint8_t type, uint64_t t) {
  int64_t i = find(ls, type, 0, 1);
  if (i >= 0)
    close_to(ls, i, t);
}

/* gcc-built code (GOMP_single_start) reports no end for the thread that
 * executes a single: its single ends where that thread reaches a barrier or
 * the next loop, sections, single or workshare, none of which may be
 * nested in it. */
static void end_open_single(loc_state *ls, uint64_t t) {
  int64_t i = find(ls, F_WORK, 0, 1);
  if (i >= 0 && ls->st[i].sub == ompt_work_single_executor)
    close_to(ls, i, t);
}

static void sync_record(loc_state *ls, const ot_rec *r, uint64_t t) {
  enum ot_construct c, wait;
  ot_sync_constructs(r->kind, &c, &wait);
  switch (r->type) {
  case OT_SYNC_BEGIN: {
    if (ot_sync_is_implicit_barrier(r->kind) || r->kind == ompt_sync_region_barrier_explicit ||
        r->kind == ompt_sync_region_barrier_implementation)
      end_open_single(ls, t);
    uint64_t cp = r->b;
    if (r->a == OT_SYNC_AFTER_THROTTLED) /* cp: a throttled construct's (events/sync.c) */
      cp = ot_scan_ends_parallel(ls->loc, ls->index) ? 0 : cp;
    else if (!ot_symbols_user_cp(cp) && ls->prev_work_cp && ot_sync_is_implicit_barrier(r->kind) &&
             !ot_scan_ends_parallel(ls->loc, ls->index))
      cp = ls->prev_work_cp; /* the barrier of the construct that just ended */
    begin_frame(ls, F_SYNC, r->kind, c, cp, t);
    break;
  }
  case OT_SYNC_WAIT_BEGIN: {
    int64_t i = find(ls, F_SYNC, 0, 1);
    if (i < 0 && ot_pauses_count())
      break; /* its region began while recording was paused */
    uint64_t cp = i >= 0 ? ls->st[i].cp : effective_cp(ls, r->b);
    frame *f = push(ls, F_SYNC_WAIT, r->kind, ot_region(wait, cp), 0, cp);
    if (f)
      enter_wait(ls, t, f->region);
    break;
  }
  case OT_SYNC_WAIT_END:
    end_frame(ls, F_SYNC_WAIT, t);
    break;
  default: /* OT_SYNC_END */
    end_frame(ls, F_SYNC, t);
    break;
  }
}

static void parallel_fork(loc_state *ls, const ot_rec *r, uint64_t t) {
  const ot_parallel_info *p = ot_scan_parallel(r->c);
  ls->league = r->kind & OT_PAR_LEAGUE ? r->c : 0;
  if (p && p->kind == OT_PK_TEAM)
    return; /* a team's internal region is part of its league */
  uint32_t n = p && p->team_size ? p->team_size : r->a;
  W(ot_evt_fork(ls->loc, t, OTF2_PARADIGM_OPENMP, n));
}

/* Implicit task of a parallel region, or initial task of a league member
 * (a teams region on that team's initial thread). */
static void implicit_begin(loc_state *ls, const ot_rec *r, uint64_t t) {
  uint64_t id = r->b;
  uint8_t sub = PAR_REGION;
  if (r->kind & ompt_task_initial) { /* a league of one team gets a stale parallel_data */
    id = ls->league ? ls->league : id;
    sub = PAR_LEAGUE;
  }
  ls->league = 0;
  const ot_parallel_info *p = ot_scan_parallel(id);
  if (sub == PAR_LEAGUE && (!p || p->kind != OT_PK_LEAGUE))
    return; /* the thread's own initial task has no region */
  if (p && p->kind == OT_PK_TEAM)
    return; /* a team's internal region is part of its league */
  uint64_t cp = p ? p->codeptr : 0;
  cp = effective_cp(ls, cp);
  OTF2_CommRef comm = ot_teams_comm(id);
  W(ot_evt_team_begin(ls->loc, t, comm));
  enum ot_construct c = sub == PAR_LEAGUE ? OC_TEAMS : OC_PARALLEL;
  frame *f = push(ls, F_PARALLEL, sub, ot_region(c, cp), id, cp);
  if (!f)
    return;
  f->comm = comm;
  f->pcomm = comm;
  if (p && p->master_loc != ls->loc && p->end_raw < f->limit)
    f->limit = p->end_raw;
  enter(ls, t, f->region);
}

/* Records were dropped between b (first lost) and this record: close what
 * is open at the gap's start, mark the gap with the number of records
 * dropped (an attribute of the OFF record, so readers can report it;
 * docs/otf2-mapping.md), resume here. raw is the record's time held to the
 * open team's join; the gap ends at the last record dropped all the same
 * (a worker's records lost up to the end of the run stay in the gap). */
static void lost(loc_state *ls, const ot_rec *r, uint64_t raw) {
  uint64_t first = r->b && r->b < raw ? r->b : raw, last = r->ts > raw ? r->ts : raw;
  samples_until(ls, first);
  uint64_t t0 = ot_out_ts(ls->loc, first);
  close_all(ls, t0);
  OTF2_AttributeList *al = OTF2_AttributeList_New(); /* NULL: the count is left out */
  if (al)
    W(OTF2_AttributeList_AddUint64(al, ot_defs_lost_records(), r->a));
  measurement(ls, al, t0, OTF2_MEASUREMENT_OFF);
  samples_until(ls, last);
  measurement(ls, NULL, ot_out_ts(ls->loc, last), OTF2_MEASUREMENT_ON);
}

/* Paused intervals. At the pause everything open is left; the parallel
 * regions and the task the location is in stay on its stack (the records
 * kept while paused move them), and are entered again at the resume. */
static int structural(const frame *f) {
  return f->type == F_PARALLEL || f->type == F_TASK;
}

/* Keeps only the parallel and task frames of the stack, entering them at
 * t (nothing is written while silent). */
static void keep_structural(loc_state *ls, uint64_t t) {
  uint32_t n = ls->n;
  frame *copy = malloc((n ? n : 1) * sizeof *copy);
  if (!copy) {
    if (werr == OTF2_SUCCESS)
      werr = OTF2_ERROR_MEM_ALLOC_FAILED;
    return;
  }
  memcpy(copy, ls->st, n * sizeof *copy);
  ls->n = 0;
  ls->task_at = 0;
  for (uint32_t k = 0; k < n; k++) {
    if (!structural(&copy[k]))
      continue;
    uint64_t id = copy[k].id;
    if (copy[k].type == F_TASK)
      W(ot_evt_task_switch(ls->loc, t, current_comm(ls), OT_TASK_THREAD(id), OT_TASK_GEN(id)));
    else
      W(ot_evt_team_begin(ls->loc, t, copy[k].comm));
    frame *f = push(ls, 0, 0, 0, 0, 0);
    if (!f)
      break;
    *f = copy[k];
    if (f->type == F_TASK) {
      ls->task_at = ls->n;
    } else {
      f->outer_task = ls->task_at;
      ls->task_at = 0;
    }
    enter(ls, t, f->region);
  }
  free(copy);
}

static void pause_off(loc_state *ls, const ot_pause *p, uint64_t raw) {
  /* A worker of a team whose master joined before the pause leaves it there. */
  uint64_t closing = ls->n > 0 && raw > ls->st[ls->n - 1].limit ? ls->st[ls->n - 1].limit : raw;
  samples_until(ls, closing);
  uint32_t n = ls->n;
  frame *copy = malloc((n ? n : 1) * sizeof *copy);
  if (copy)
    memcpy(copy, ls->st, n * sizeof *copy);
  close_all(ls, ot_out_ts(ls->loc, closing));
  samples_until(ls, raw);
  uint64_t t0 = ot_out_ts(ls->loc, raw);
  OTF2_AttributeList *al = OTF2_AttributeList_New(); /* NULL: the reason is left out */
  if (al)
    W(OTF2_AttributeList_AddStringRef(
        al,
        ot_defs_attribute("omptrace::paused", "recording was paused here (docs/control.md)",
                          OTF2_TYPE_STRING),
        ot_defs_string(p->why)));
  measurement(ls, al, t0, OTF2_MEASUREMENT_OFF);
  ls->off = 1;
  silent = 1;
  if (copy) { /* the cap held n frames before close_all popped them */
    memcpy(ls->st, copy, n * sizeof *copy);
    ls->n = n;
    keep_structural(ls, t0);
  }
  free(copy);
}

static void pause_on(loc_state *ls, const ot_pause *p) {
  ls->off = 0;
  silent = 0;
  uint64_t t1 = ot_out_ts(ls->loc, p->on);
  measurement(ls, NULL, t1, OTF2_MEASUREMENT_ON);
  keep_structural(ls, t1);
  ls->pz++;
}

/* Passes the pause boundaries before a record at raw. A thread that begins
 * in a pause is off from its first record; one that began after a pause
 * never saw it. */
static void pause_boundaries(loc_state *ls, uint64_t raw) {
  while (ls->pz < ot_pauses_count()) {
    const ot_pause *p = ot_pauses_at(ls->pz);
    if (ls->off && raw >= p->on)
      pause_on(ls, p);
    else if (!ls->off && ls->index == 0 && raw >= p->on)
      ls->pz++;
    else if (!ls->off && raw > p->off)
      pause_off(ls, p, ls->index ? p->off : raw);
    else
      return;
  }
}

/* The end of the replay: a location still recording when recording ended
 * for good (omp_control_tool_end, or paused until the end) goes off there. */
static void pause_at_end(loc_state *ls) {
  uint32_t n = ot_pauses_count();
  if (n == 0 || ls->off || ls->ended || ls->index == 0)
    return;
  const ot_pause *p = ot_pauses_at(n - 1);
  if (p->on == UINT64_MAX)
    pause_off(ls, p, p->off);
}

static void put_dependence(loc_state *ls, uint8_t kind, uint64_t address, uint64_t t) {
  uint32_t param = ot_defs_parameter(dep_param_name(kind), OTF2_PARAMETER_TYPE_UINT64);
  W(ot_evt_parameter_uint(ls->loc, t, param, address));
}

/* A task's dependences go inside its zero-length task create region, at
 * its time; a dependent taskwait's inside its taskwait region, before its
 * wait; an if(0) task's (reported on a pseudo task) are kept for the
 * task's create region; doacross ones (on the implicit task) stand alone
 * at their time. */
static void dependence(loc_state *ls, const ot_rec *r, uint64_t raw) {
  uint64_t task = r->c;
  if (ls->create_open && task == ls->create_task) {
    put_dependence(ls, r->kind, r->b, ls->create_t);
  } else if (ls->dwait_pending && task == ls->dwait_task) {
    put_dependence(ls, r->kind, r->b, ls->dwait_t);
  } else if (ls->if0_pseudo && task == ls->if0_pseudo) {
    uint64_t *d = ot_grow(ls->if0_deps, &ls->capif0, (uint64_t)ls->nif0 + 2, sizeof *d, 16);
    if (!d)
      return;
    ls->if0_deps = d;
    ls->if0_deps[ls->nif0++] = r->kind;
    ls->if0_deps[ls->nif0++] = r->b;
  } else if (OT_TASK_GEN(task) == 0) {
    samples_until(ls, raw);
    put_dependence(ls, r->kind, r->b, ot_out_ts(ls->loc, raw));
  }
}

/* taskwait depend(...) / task if(0) depend(...): libomp creates a pseudo
 * task that carries the dependences and ends with ompt_taskwait_complete. */
static void pseudo_create(loc_state *ls, const ot_rec *r, uint64_t t) {
  uint64_t task = ot_scan_if0_task(r->c);
  if (task) {
    ls->if0_pseudo = r->c;
    ls->if0_task = task;
    ls->nif0 = 0;
    return;
  }
  uint64_t cp = effective_cp(ls, r->b);
  frame *f = push(ls, F_SYNC, ompt_sync_region_taskwait, ot_region(OC_TASKWAIT, cp), r->c, cp);
  if (!f)
    return;
  enter(ls, t, f->region);
  ls->dwait_pending = 1;
  ls->dwait_task = r->c;
  ls->dwait_t = t;
  ls->dwait_cp = cp;
}

/* A lock wait not followed by its acquisition was a failed omp_test_lock:
 * the wait and its lock region end at the next record. */
static void end_failed_test(loc_state *ls, const ot_rec *r, uint64_t t) {
  if (ls->n == 0 || ls->st[ls->n - 1].type != F_MWAIT)
    return;
  if ((r->type == OT_MUTEX_ACQUIRED || r->type == OT_NEST_LOCK) && r->b == ls->st[ls->n - 1].id)
    return;
  uint8_t k = ls->st[ls->n - 1].sub;
  if (k == ompt_mutex_lock || k == ompt_mutex_test_lock || k == ompt_mutex_nest_lock ||
      k == ompt_mutex_test_nest_lock)
    close_to(ls, ls->n - 2, t);
}

/* Counter values the record brought: the next Enter/Leave carries them. */
static void take_values(loc_state *ls, const ot_rec *r) {
  if (r->nval == 0 || nmetrics == 0)
    return;
  unsigned n = r->nval < nmetrics ? r->nval : nmetrics;
  memcpy(ls->values, ot_rec_values(r), n * sizeof *ls->values);
  ls->nvalues = n;
  ls->pending = 1;
}

static void implicit_end(loc_state *ls, const ot_rec *r, uint64_t t) {
  int64_t i = innermost(ls, F_PARALLEL, 0, 1, 1);
  int league = i >= 0 && ls->st[i].sub == PAR_LEAGUE;
  if (r->kind & ompt_task_initial) /* a league member's, or the thread's own (no region) */
    i = league ? i : -1;
  else if (league) /* a team's internal task: what it left open, not the league */
    i++;
  if (i >= 0)
    close_to(ls, i, t);
}

static void task_create(loc_state *ls, const ot_rec *r, uint64_t t) {
  if (r->a & ompt_task_taskwait) {
    pseudo_create(ls, r, t);
    return;
  }
  if (!(r->a & ompt_task_explicit) || (r->a & ompt_task_initial))
    return;
  uint32_t site = OT_TASK_SITE(r->c);
  uint64_t cp = r->b;
  int site_user;
  if (site && site == create_memo[site % SITE_MEMO].site &&
      cp == create_memo[site % SITE_MEMO].cp) {
    site_user = create_memo[site % SITE_MEMO].site_user;
    ls->create_region = create_memo[site % SITE_MEMO].region;
  } else {
    cp = effective_cp(ls, r->b);
    site_user = ot_symbols_user_cp(ot_scan_site_codeptr(site));
    ls->create_region = ot_region(OC_TASK_CREATE, cp);
    if (site && ot_symbols_user_cp(r->b)) { /* then cp is r->b, whatever the stack */
      create_memo[site % SITE_MEMO].site = site;
      create_memo[site % SITE_MEMO].cp = cp;
      create_memo[site % SITE_MEMO].region = ls->create_region;
      create_memo[site % SITE_MEMO].site_user = site_user;
    }
  }
  if (!site_user && cp) {
    /* taskloop: the executor names the task after the creator's construct */
    uint64_t *slot = ot_u64map_put(&task_cp, r->c, NULL);
    if (slot)
      *slot = cp;
  }
  enter(ls, t, ls->create_region);
  W(ot_evt_task_create(ls->loc, t, current_comm(ls), OT_TASK_THREAD(r->c), OT_TASK_GEN(r->c)));
  ls->create_open = 1;
  ls->create_t = t;
  ls->create_task = r->c;
  if (ls->if0_pseudo && r->c == ls->if0_task) {
    for (uint32_t i = 0; i + 1 < ls->nif0; i += 2)
      put_dependence(ls, (uint8_t)ls->if0_deps[i], ls->if0_deps[i + 1], t);
    ls->if0_pseudo = 0;
    ls->nif0 = 0;
  }
}

static void work_record(loc_state *ls, const ot_rec *r, uint64_t t) {
  if (r->type == OT_WORK_BEGIN) {
    if (r->kind <= ompt_work_workshare) /* a work-sharing region (taskloop may sit in a single) */
      end_open_single(ls, t);
    begin_frame(ls, F_WORK, r->kind, ot_work_construct(r->kind), r->b, t);
    if (r->kind == ompt_work_single_executor)
      begin_frame(ls, F_SBLOCK, r->kind, OC_SINGLE_SBLOCK, r->b, t);
    return;
  }
  int64_t i = find(ls, F_WORK, 0, 1);
  if (i >= 0) {
    ls->after_work = ls->st[i].cp;
    close_to(ls, i, t);
  }
}

/* A loop chunk (OT_DISPATCH): ParameterUnsignedInt "omp chunk(<kind>)
 * first" and "... iterations" at its time (a section or an iteration: one,
 * "omp section" / "omp iteration", with the runtime's value), inside the
 * loop or, for a taskloop chunk, the task that runs it. Chunks of a loop
 * throttling or the filter left out (no open loop, or its region
 * excluded) are dropped with it. */
static void chunk_record(loc_state *ls, const ot_rec *r, uint64_t t) {
  static const char *const kinds[] = {"iteration", "section", "loop", "taskloop", "distribute"};
  const frame *f = ls->n ? &ls->st[ls->n - 1] : NULL;
  int in_task = r->kind == 4;
  if (r->kind < 1 || r->kind > 5 || !f || f->type != (in_task ? F_TASK : F_WORK) ||
      ot_region_excluded(f->region))
    return;
  char name[48];
  if (r->kind <= 2) {
    snprintf(name, sizeof name, "omp %s", kinds[r->kind - 1]);
    W(ot_evt_parameter_uint(ls->loc, t, ot_defs_parameter(name, OTF2_PARAMETER_TYPE_UINT64), r->b));
    return;
  }
  snprintf(name, sizeof name, "omp chunk(%s) first", kinds[r->kind - 1]);
  W(ot_evt_parameter_uint(ls->loc, t, ot_defs_parameter(name, OTF2_PARAMETER_TYPE_UINT64), r->b));
  snprintf(name, sizeof name, "omp chunk(%s) iterations", kinds[r->kind - 1]);
  W(ot_evt_parameter_uint(ls->loc, t, ot_defs_parameter(name, OTF2_PARAMETER_TYPE_UINT64), r->c));
}

/* Records of the mutex family (locks, critical, ordered, nest locks). */
static void mutex_record(loc_state *ls, const ot_rec *r, uint64_t t) {
  switch (r->type) {
  case OT_MUTEX_ACQUIRE:
    mutex_acquire(ls, r, t);
    break;
  case OT_MUTEX_ACQUIRED:
    mutex_acquired(ls, r, t);
    break;
  case OT_MUTEX_RELEASED:
    mutex_released(ls, r, t);
    break;
  default: /* OT_NEST_LOCK: re-acquired: the wait and omp_set_nest_lock end, no lock record */
    if (r->kind == ompt_scope_begin) {
      int64_t i = find(ls, F_MUTEX, r->b, 0);
      if (i >= 0)
        close_to(ls, i, t);
    }
    break;
  }
}

static uint64_t label_hash(const ot_label *l) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (uint32_t i = 0; i < l->n; i++)
    h = (h ^ (uint8_t)l->s[i]) * 1099511628211ull;
  return h;
}

/* omp_control_tool calls: the OpenMP commands are zero-length
 * omp_control_tool regions, or points named by their label; the
 * tool-specific ones mark points and open and close named regions on
 * this location (an end closes the innermost region of that name). */
static void control_record(loc_state *ls, const ot_rec *r, uint64_t t) {
  ot_label *l = &ls->label;
  uint64_t cp = effective_cp(ls, r->c);
  if (r->a == OT_CMD_BEGIN) {
    frame *f = push(ls, F_USER, 0, ot_label_region(l, cp, 0), label_hash(l), cp);
    if (f)
      enter(ls, t, f->region);
  } else if (r->a == OT_CMD_END) {
    int64_t i = find(ls, F_USER, label_hash(l), 0);
    if (i >= 0)
      close_to(ls, i, t);
  } else if (l->n || r->a == OT_CMD_MARK) {
    uint32_t region = ot_label_region(l, cp, 1);
    enter(ls, t, region);
    leave(ls, t, region);
  } else if (r->a != 0) { /* 0: a thread that began paused (events/control.c) */
    zero_length(ls, OC_CONTROL_TOOL, r->c, t);
  }
  l->n = 0;
}

/* An MPI call: its Leave closes the innermost open call of that index, so
 * a call whose Leave is missing (the rank died in it) ends with the stack. */
static void mpi_record(loc_state *ls, const ot_rec *r, uint64_t t) {
  if (r->type == OT_MPI_ENTER) {
    uint32_t region = ot_mpi_region(r->a, r->b);
    frame *f = region != OTF2_UNDEFINED_REGION ? push(ls, F_MPI, 0, region, r->a, r->b) : NULL;
    if (f)
      enter(ls, t, f->region);
    return;
  }
  if (r->a == OT_MPI_Init || r->a == OT_MPI_Init_thread) {
    ot_mpi_note_init(r->c);
    ot_mpi_init_location(ls->loc);
  }
  int64_t i = find(ls, F_MPI, r->a, 0);
  if (i >= 0)
    close_to(ls, i, t);
}

/* Constructs that are one event: a zero-length region. */
static void point_record(loc_state *ls, const ot_rec *r, uint64_t t) {
  switch (r->type) {
  case OT_FLUSH: /* a flush per spin of a spin-wait gets the hint (hints.h) */
    ot_hint_flush(zero_length(ls, OC_FLUSH, r->b, t), t);
    break;
  case OT_CANCEL:
    zero_length(ls, ot_cancel_construct(r->a), r->b, t);
    break;
  default: /* OT_ERROR */
    zero_length(ls, OC_ERROR, r->b, t);
    break;
  }
}

/* Offload (finalize/offload.h, docs/otf2-mapping.md): a target construct,
 * data op or kernel is a region on the host thread with its parameters;
 * an _emi begin opens it and its end closes the innermost one of its kind,
 * the old callbacks' single records and device events are zero-length.
 * A frame's sub: its device + 1 (0: none). */
enum tgt_frame { TGT_CONSTRUCT = 1, TGT_OP, TGT_KERNEL };
/* A device's accelerator location is busy from the first kernel or
 * transfer that begins on it to the end of the last one open (several
 * host threads may offload at once), named by the first. */
static struct { uint32_t depth, region; } dev_busy[64];

static void device_busy(uint32_t dev, uint64_t raw, uint32_t region, int opens, int ends) {
  uint32_t loc = ot_offload_device_loc(dev);
  if (loc == UINT32_MAX)
    return;
  uint64_t t = ot_out_ts(loc, raw);
  if (opens && dev_busy[dev].depth++ == 0) {
    dev_busy[dev].region = region;
    W(ot_evt_enter(loc, t, region));
  }
  if (ends && dev_busy[dev].depth > 0 && --dev_busy[dev].depth == 0)
    W(ot_evt_leave(loc, t, dev_busy[dev].region));
}

/* At the end of the replay: intervals a missing end left open. */
static void devices_end(void) {
  for (uint32_t d = 0; d < 64; d++) {
    uint32_t loc = ot_offload_device_loc(d);
    if (dev_busy[d].depth && loc != UINT32_MAX)
      W(ot_evt_leave(loc, ot_out_last(loc), dev_busy[d].region));
    dev_busy[d].depth = 0;
  }
}

static void offload_record(loc_state *ls, const ot_rec *r, uint64_t t) {
  unsigned what = OT_OFF_DEVICE + r->kind, id = 0, ends = r->type == OT_TARGET_END;
  unsigned opens = r->type == OT_TARGET_BEGIN, busy = 0;
  uint64_t cp = 0, dev = r->a, value = r->b;
  enum ot_offload_param p = OT_OFFP_BYTES;
  if (r->type == OT_TARGET_BEGIN || r->type == OT_TARGET_END) {
    what = OT_OFF_CONSTRUCT + r->kind, id = TGT_CONSTRUCT, cp = r->b;
  } else if (r->type == OT_TARGET_DATA_OP || r->type == OT_TARGET_SUBMIT) {
    int op = r->type == OT_TARGET_DATA_OP;
    unsigned optype = r->kind & 0xfu;
    what = op ? OT_OFF_DATA_OP + (r->kind & OT_TGT_OPTYPE) : OT_OFF_KERNEL;
    id = op ? TGT_OP : TGT_KERNEL, cp = op ? r->c : 0;
    dev = op ? ot_offload_op_device(r) : UINT64_MAX;
    value = op ? r->b : r->a, p = op ? OT_OFFP_BYTES : OT_OFFP_TEAMS;
    opens = (r->kind & OT_TGT_BEGIN) != 0, ends = (r->kind & OT_TGT_END) != 0;
    busy = !op || optype == ompt_target_data_transfer_to_device ||
           optype == ompt_target_data_transfer_from_device;
  }
  int64_t c = find(ls, F_TARGET, TGT_CONSTRUCT, 0); /* the enclosing construct */
  if (ends) {
    int64_t i = find(ls, F_TARGET, id, 0);
    if (i < 0)
      return;
    if (busy && ls->st[i].sub)
      device_busy(ls->st[i].sub - 1u, r->ts, ls->st[i].region, 0, 1);
    close_to(ls, i, t);
    return;
  }
  if (dev == UINT64_MAX && c >= 0 && ls->st[c].sub) /* a kernel: its construct's device */
    dev = ls->st[c].sub - 1u;
  if (!cp || !ot_symbols_user_cp(cp)) /* a kernel or op: its construct's */
    cp = c >= 0 ? ls->st[c].cp : effective_cp(ls, cp);
  uint32_t region = ot_offload_region(what, cp);
  frame *f = opens ? push(ls, F_TARGET, dev < 255 ? (uint8_t)(dev + 1) : 0, region, id, cp) : NULL;
  if (opens && !f)
    return;
  enter(ls, t, region);
  if (dev != UINT64_MAX && r->type != OT_TARGET_SUBMIT)
    W(ot_evt_parameter_uint(ls->loc, t, ot_offload_param(OT_OFFP_DEVICE), dev));
  if (r->type != OT_TARGET_BEGIN && !(r->type == OT_DEVICE && r->kind != OT_DEVICE_LOAD))
    W(ot_evt_parameter_uint(ls->loc, t, ot_offload_param(p), value));
  if (busy && dev < 64)
    device_busy((uint32_t)dev, r->ts, region, 1, !opens);
  if (!opens)
    leave(ls, t, region);
}

/* One record at archive time t, by type. */
static void dispatch(loc_state *ls, const ot_rec *r, uint64_t t) {
  switch (r->type) {
  case OT_THREAD_END:
    close_all(ls, t);
    ls->ended = 1;
    break;
  case OT_PARALLEL_BEGIN:
    parallel_fork(ls, r, t);
    break;
  case OT_PARALLEL_END: {
    const ot_parallel_info *p = ot_scan_parallel(r->c);
    if (!p || p->kind != OT_PK_TEAM)
      W(ot_evt_join(ls->loc, t, OTF2_PARADIGM_OPENMP));
    break;
  }
  case OT_IMPLICIT_BEGIN:
    implicit_begin(ls, r, t);
    break;
  case OT_IMPLICIT_END:
    implicit_end(ls, r, t);
    break;
  case OT_TASK_CREATE:
    task_create(ls, r, t);
    break;
  case OT_TASK_SCHEDULE:
    task_schedule(ls, r, t);
    break;
  case OT_SYNC_BEGIN:
  case OT_SYNC_END:
  case OT_SYNC_WAIT_BEGIN:
  case OT_SYNC_WAIT_END:
    sync_record(ls, r, t);
    break;
  case OT_MUTEX_ACQUIRE:
  case OT_MUTEX_ACQUIRED:
  case OT_MUTEX_RELEASED:
  case OT_NEST_LOCK:
    mutex_record(ls, r, t);
    break;
  case OT_WORK_BEGIN:
  case OT_WORK_END:
    work_record(ls, r, t);
    break;
  case OT_DISPATCH:
    chunk_record(ls, r, t);
    break;
  case OT_MASKED_BEGIN:
    begin_frame(ls, F_MASKED, 0, OC_MASKED, r->b, t);
    break;
  case OT_MASKED_END:
    end_frame(ls, F_MASKED, t);
    break;
  case OT_REDUCTION_BEGIN:
    begin_frame(ls, F_REDUCTION, 0, OC_REDUCTION, r->b, t);
    break;
  case OT_REDUCTION_END:
    end_frame(ls, F_REDUCTION, t);
    break;
  case OT_CONTROL_TOOL:
    control_record(ls, r, t);
    break;
  case OT_FLUSH:
  case OT_CANCEL:
  case OT_ERROR:
    point_record(ls, r, t);
    break;
  case OT_MPI_ENTER:
  case OT_MPI_LEAVE:
    mpi_record(ls, r, t);
    break;
  case OT_MPI_MSG:
  case OT_MPI_REQ:
  case OT_MPI_COLL_BEGIN:
  case OT_MPI_COLL_END:
    W(ot_mpi_replay(ls->loc, &ls->mpi, r, t));
    break;
  case OT_MPI_COMM:
  case OT_MPI_MEMBER:
    ot_mpi_comm_note(r); /* also while paused: definitions */
    break;
  case OT_TARGET_BEGIN:
  case OT_TARGET_END:
  case OT_TARGET_DATA_OP:
  case OT_TARGET_SUBMIT:
  case OT_DEVICE:
    offload_record(ls, r, t);
    break;
  default:
    break;
  }
}

static void process(loc_state *ls, const ot_rec *r) {
  if (ls->ended)
    return;
  cur_ls = ls;
  ls->prev_work_cp = ls->after_work;
  /* gcc-built code combines a loop's reduction variables between
   * GOMP_atomic_start and GOMP_atomic_end, after the loop's end and before
   * its barrier: that barrier still follows the loop. */
  int atomic = (r->type == OT_MUTEX_ACQUIRE || r->type == OT_MUTEX_ACQUIRED ||
                r->type == OT_MUTEX_RELEASED) &&
               r->kind == ompt_mutex_atomic;
  ls->after_work = atomic ? ls->prev_work_cp : 0;
  /* Worker events of a team whose master has joined are moved to the join. */
  uint64_t raw = r->ts;
  if (ls->n > 0 && raw > ls->st[ls->n - 1].limit)
    raw = ls->st[ls->n - 1].limit;
  silent = ls->off;
  if (pauses) {
    pause_boundaries(ls, raw);
    silent = ls->off;
  }
  if (r->type == OT_LOST) {
    lost(ls, r, raw);
    return;
  }
  if (r->type == OT_DEPENDENCE) {
    dependence(ls, r, raw);
    return;
  }
  if (r->type == OT_LABEL) {
    ot_label_add(&ls->label, r);
    return;
  }
  if (r->type == OT_THROTTLED) /* counts only (finalize/throttled.c) */
    return;
  samples_until(ls, raw);
  uint64_t t = ot_out_ts(ls->loc, raw);
  end_failed_test(ls, r, t);
  take_values(ls, r);
  dispatch(ls, r, t);
  ls->pending = 0;
}

/* A run that did not finish (recovered after a crash or kill): where this
 * location's recording stopped, after its last record. */
/* Tasks still suspended on this location when its events end (the program
 * stopped, or a runtime that never resumed them): each is resumed and its
 * regions are left at t, so no task's region stack stays open. */
static void end_suspended(loc_state *ls, uint64_t t) {
  ot_susp s;
  int any = 0;
  while (ot_susp_take_at(ls->loc, &s)) {
    if (!any && ls->task_at)
      close_to(ls, ls->task_at - 1, t);
    any = 1;
    W_TASK(ot_evt_task_switch(ls->loc, t, current_comm(ls), OT_TASK_THREAD(s.task),
                              OT_TASK_GEN(s.task)));
    uint32_t index = ls->n;
    frame *frames = s.frames;
    for (uint32_t k = 0; k < s.n; k++) {
      frame *f = push(ls, 0, 0, 0, 0, 0);
      if (f)
        *f = frames[k];
    }
    ot_susp_done(&s);
    close_to(ls, index, t);
    ls->task_at = 0;
  }
  if (any)
    to_implicit(ls, t);
}

/* Where a location ends: at its last record; but a thread of a run that
 * did not finish, with no thread_end, was still where its last record put
 * it when the last flush pass began (the pass would have written anything
 * later), so it ends there: a thread blocked in a wait (a deadlock killed
 * by timeout, a snapshot) waits until then instead of ending at the wait's
 * begin. A worker of a team its master joined goes no further than the
 * join, as its late events do. A snapshot's cut ends them all there. */
static uint64_t alive_until(const ot_run *run, const loc_state *ls) {
  if (run->finished || ls->ended || ls->index == 0 || ls->off || run->nclock < 2)
    return ot_out_last(ls->loc);
  uint64_t raw = run->clock_last_raw;
  if (run->cut_raw && raw > run->cut_raw)
    raw = run->cut_raw;
  if (ls->n > 0 && raw > ls->st[ls->n - 1].limit)
    raw = ls->st[ls->n - 1].limit;
  return ot_out_ts(ls->loc, raw); /* never before its last record */
}

static void mark_stopped(loc_state *ls, uint64_t t) {
  OTF2_AttributeList *al = OTF2_AttributeList_New(); /* NULL: the reason is left out */
  if (al)
    W(OTF2_AttributeList_AddStringRef(al, ot_defs_stopped(),
                                      ot_defs_string("recording stopped: the program ended "
                                                     "before the trace was finished")));
  measurement(ls, al, t, OTF2_MEASUREMENT_OFF);
}

/* Min-heap of locations by the raw time of their next record. */
static int before(const loc_state *a, const loc_state *b) {
  return a->cur->ts < b->cur->ts || (a->cur->ts == b->cur->ts && a->loc < b->loc);
}

static void sift_down(loc_state **h, uint32_t n, uint32_t i) {
  for (;;) {
    uint32_t l = 2 * i + 1, m = i;
    if (l < n && before(h[l], h[m]))
      m = l;
    if (l + 1 < n && before(h[l + 1], h[m]))
      m = l + 1;
    if (m == i)
      return;
    loc_state *tmp = h[i];
    h[i] = h[m];
    h[m] = tmp;
    i = m;
  }
}

int ot_replay_run(const ot_run *run, uint32_t mclass, OTF2_ErrorCode *err) {
  uint32_t nloc = run->nthreads;
  werr = OTF2_SUCCESS;
  silent = 0;
  n_pushed = n_scanned = 0;
  peak_depth = 0;
  metric_class = mclass;
  nmetrics = run->nmetrics;
  if (nmetrics > OT_WRITER_MAX_METRICS)
    nmetrics = OT_WRITER_MAX_METRICS;
  strict = nmetrics > 0 && run->counters_strict;
  lazy_waits = nmetrics == 0 && !ot_pauses_count();
  samples = ot_samples_any();
  pauses = ot_pauses_count() != 0;
  memset(site_memo, 0, sizeof site_memo);
  memset(create_memo, 0, sizeof create_memo);
  cur_ls = NULL;
  int rc = 0;
  loc_state *ls = calloc(nloc ? nloc : 1, sizeof *ls);
  loc_state **heap = calloc(nloc ? nloc : 1, sizeof *heap);
  uint32_t nh = 0;
  if (!ls || !heap) {
    rc = -1;
    goto out;
  }
  for (uint32_t i = 0; i < nloc; i++) {
    ls[i].loc = i;
    /* A stack from the start: st is never NULL (and the analyzer knows). */
    ls[i].st = ot_grow(NULL, &ls[i].cap, 1, sizeof *ls[i].st, 32);
    if (!ls[i].st) {
      rc = -1;
      goto out;
    }
    ls[i].s = ot_run_records(run, i);
    ls[i].cur = ot_run_next(ls[i].s);
    if (ls[i].cur)
      heap[nh++] = &ls[i];
  }
  for (uint32_t i = nh / 2; i-- > 0;)
    sift_down(heap, nh, i);
  uint64_t done = 0;
  while (nh > 0 && werr == OTF2_SUCCESS) {
    loc_state *l = heap[0];
    process(l, l->cur);
    done++;
    l->index++;
    l->cur = ot_run_next(l->s);
    if (!l->cur)
      heap[0] = heap[--nh];
    sift_down(heap, nh, 0);
  }
  devices_end();
  if (werr != OTF2_SUCCESS)
    ot_verbose("replay: stopped by an OTF2 error after %" PRIu64 " of %" PRIu64 " records", done,
               ot_scan_records());
  /* Close what is still open at each location's last time (exit() inside a
   * parallel region, threads that never reported their end). */
  for (uint32_t i = 0; i < nloc && werr == OTF2_SUCCESS; i++) {
    silent = 0;
    cur_ls = &ls[i];
    pause_at_end(&ls[i]);
    silent = 0;
    samples_until(&ls[i], UINT64_MAX);
    silent = ls[i].off; /* left at the pause already */
    uint64_t end = alive_until(run, &ls[i]);
    end_suspended(&ls[i], end);
    close_all(&ls[i], end);
    silent = 0;
    if (!run->finished && !ls[i].ended && ls[i].index > 0 && !ls[i].off)
      mark_stopped(&ls[i], end);
  }
out:
  cur_ls = NULL;
  if (ls) {
    for (uint32_t i = 0; i < nloc; i++) {
      ot_run_records_close(ls[i].s);
      free(ls[i].if0_deps);
      free(ls[i].st);
      free(ls[i].hl);
    }
  }
  free(ls);
  free(heap);
  ot_verbose("replay: %" PRIu64 " records, %" PRIu64 " frames pushed, %" PRIu64
             " frames scanned, %" PRIu64 " suspension probes, peak stack depth %u",
             ot_scan_records(), n_pushed, n_scanned, ot_susp_probes(), peak_depth);
  ot_susp_free();
  *err = werr;
  return rc != 0 ? rc : werr != OTF2_SUCCESS ? (int)werr : 0;
}

void ot_replay_free(void) {
  ot_intern_free(&locks);
  ot_u64map_free(&task_cp);
  free(lock_count);
  lock_count = NULL;
  lock_cap = 0;
}
