/* User-mode calling contexts: the runtime's frames are removed using the
 * OMPT task frames (a frame F belongs to the task at ancestor level i when
 * enter_i < CFA(F) - 16 < exit_i) and libomp's text range; outlined bodies
 * become their construct; the path continues below the call site where
 * the region was forked (the master's fork capture) or the task created.
 * Machine mode keeps the stack as measured. In both modes the sample's
 * state (work, a wait kind, overhead, idle) becomes a pseudo-frame leaf,
 * so the mode changes the paths shown, not the Work/Wait split. */
#include "finalize/contexts.h"
#include "buffer/record.h"
#include "core/config.h"
#include "finalize/defs.h"
#include "finalize/run.h"
#include "finalize/scan_ext.h"
#include <omp-tools.h>
#include <stdlib.h>
#include <string.h>

#define OT_CTX_MAX_STITCH 32 /* nesting levels followed through captures */

typedef struct path {
  ot_ctx_node n[OT_CTX_MAX_DEPTH];
  int len;
} path;

/* Fork (key: parallel id) and eager task (key: task id) captures. */
typedef struct cap_slot {
  uint64_t key;
  const ot_capture *cap;
} cap_slot;
static int callstacks; /* enum ot_callstack_mode of the run */
static cap_slot *forks, *tasks;
static size_t forks_cap, tasks_cap;
/* Fork captures that share an earlier capture's frames, made whole. */
typedef struct joined_cap {
  ot_capture *cap;
} joined_cap;
static joined_cap *joined;
static size_t njoined;

/* A copy of c (header and levels) with the frames of the capture it
 * refers to, or c itself when it has its own. */
static const ot_capture *with_frames(const ot_cap_buf *buf, const ot_capture *c) {
  if (!c->frames_at || c->frames_at > buf->used)
    return c;
  const ot_capture *f = (const ot_capture *)(buf->base + c->frames_at - 1);
  size_t lv = sizeof(ot_cap_level) * c->nlevels, fr = sizeof(ot_cap_frame) * f->nframes;
  ot_capture *j = malloc(sizeof *j + lv + fr);
  joined_cap *grown = realloc(joined, (njoined + 1) * sizeof *joined);
  if (!j || !grown) {
    free(j);
    if (grown)
      joined = grown;
    return c;
  }
  joined = grown;
  joined[njoined++].cap = j;
  *j = *c;
  j->nframes = f->nframes;
  j->truncated = f->truncated;
  j->frames_at = 0;
  j->size = (uint32_t)(sizeof *j + lv + fr);
  memcpy(j + 1, c + 1, lv);
  memcpy((uint8_t *)(j + 1) + lv, ot_cap_frames(f), fr);
  return j;
}

static uint64_t mix(uint64_t k) {
  k ^= k >> 31;
  k *= 0x9e3779b97f4a7c15ull;
  return k ^ (k >> 29);
}

static int index_add(cap_slot **tab, size_t *cap, uint64_t key, const ot_capture *c, size_t n) {
  if (!*tab) {
    size_t want = 64;
    while (want < n * 2 + 2)
      want *= 2;
    *tab = calloc(want, sizeof **tab);
    if (!*tab)
      return -1;
    *cap = want;
  }
  size_t j = mix(key) & (*cap - 1);
  while ((*tab)[j].key && (*tab)[j].key != key)
    j = (j + 1) & (*cap - 1);
  (*tab)[j].key = key;
  (*tab)[j].cap = c;
  return 0;
}

static const ot_capture *index_get(cap_slot *tab, size_t cap, uint64_t key) {
  if (!tab || !key)
    return NULL;
  size_t j = mix(key) & (cap - 1);
  while (tab[j].key) {
    if (tab[j].key == key)
      return tab[j].cap;
    j = (j + 1) & (cap - 1);
  }
  return NULL;
}

int ot_contexts_open(const ot_run *run) {
  size_t nf = 0, nt = 0;
  callstacks = run->callstacks;
  for (uint32_t i = 0; i < run->nthreads; i++) {
    ot_cap_buf buf = run->threads[i].sampler.contexts;
    for (const ot_capture *c = ot_cap_next(&buf, NULL); c; c = ot_cap_next(&buf, c))
      *(c->kind == OT_CAP_FORK ? &nf : &nt) += 1;
  }
  for (uint32_t i = 0; i < run->nthreads; i++) {
    ot_cap_buf buf = run->threads[i].sampler.contexts;
    for (const ot_capture *c = ot_cap_next(&buf, NULL); c; c = ot_cap_next(&buf, c)) {
      if (!c->key)
        continue;
      if (c->kind == OT_CAP_FORK ? index_add(&forks, &forks_cap, c->key, with_frames(&buf, c), nf)
                                 : index_add(&tasks, &tasks_cap, c->key, c, nt))
        return -1;
    }
  }
  return 0;
}

void ot_contexts_close(void) {
  free(forks);
  free(tasks);
  for (size_t i = 0; i < njoined; i++)
    free(joined[i].cap);
  free(joined);
  joined = NULL;
  njoined = 0;
  forks = tasks = NULL;
  forks_cap = tasks_cap = 0;
  ot_ctx_nodes_reset();
}

static void push(path *p, uint32_t region, uint32_t scl) {
  if (p->len < OT_CTX_MAX_DEPTH) {
    p->n[p->len].region = region;
    p->n[p->len].scl = scl;
    p->len++;
  }
}

/* Ancestor level owning frame f, -1 for none (runtime or unknown). */
static int owner(const ot_capture *c, const ot_cap_frame *f) {
  if (!f->cfa)
    return -1;
  uint64_t fp = f->cfa - 16;
  const ot_cap_level *lv = ot_cap_levels(c);
  for (int i = 0; i < c->nlevels; i++) {
    uint64_t exit = lv[i].exit_fp;
    if (!exit)
      exit = (lv[i].flags & ompt_task_initial) ? UINT64_MAX : 0;
    if (lv[i].enter_fp <= fp && fp < exit)
      return i;
  }
  return -1;
}

static int has_frames_of(const ot_capture *c, int level) {
  const ot_cap_frame *fr = ot_cap_frames(c);
  for (int i = 0; i < c->nframes; i++)
    if (owner(c, &fr[i]) == level)
      return 1;
  return 0;
}

enum { WALK_GO_ON = 0, WALK_ROOT = 1 };

/* Pushes the user frames of task `level` from frame `start` outwards.
 * *body_scl gets the line inside an outlined body (its construct node's
 * source location). Returns WALK_ROOT when main was reached. Without OMPT
 * task levels (no inquiry functions) every non-runtime frame is kept. */
static int push_frames(path *p, const ot_capture *c, int level, int start, uint32_t *body_scl) {
  const ot_cap_frame *fr = ot_cap_frames(c);
  /* What the runtime calls while the task is inside it (sched_yield,
   * futex waits) is not user code: skip everything deeper than the last
   * runtime frame that still lies below a user frame of this task. */
  int last_user = -1, cut = start;
  for (int i = start; c->nlevels && i < c->nframes; i++) {
    if (c->nlevels && owner(c, &fr[i]) != level)
      continue;
    const ot_ctx_node *nodes;
    unsigned flags;
    if (ot_ctx_frame_nodes(fr[i].pc, c->exact && i == 0, &nodes, &flags) > 0 &&
        !(flags & OT_FRAME_RUNTIME))
      last_user = i;
  }
  for (int i = start; i < last_user; i++) {
    const ot_ctx_node *nodes;
    unsigned flags;
    if ((!c->nlevels || owner(c, &fr[i]) == level) &&
        (ot_ctx_frame_nodes(fr[i].pc, c->exact && i == 0, &nodes, &flags),
         flags & OT_FRAME_RUNTIME))
      cut = i;
  }
  int in_body = 0;
  for (int i = cut; i < c->nframes; i++) {
    if (c->nlevels && owner(c, &fr[i]) != level)
      continue;
    const ot_ctx_node *nodes;
    unsigned flags;
    int n = ot_ctx_frame_nodes(fr[i].pc, c->exact && i == 0, &nodes, &flags);
    if ((flags & OT_FRAME_RUNTIME) || n == 0)
      continue;
    if ((flags & OT_FRAME_OUTLINED) && c->nlevels) {
      /* Inlined callees stay; the outlined function itself (and its
       * wrapper) becomes the construct node pushed by the caller. */
      for (int k = 0; k < n - 1; k++)
        push(p, nodes[k].region, nodes[k].scl);
      if (!in_body)
        *body_scl = nodes[n - 1].scl;
      in_body = 1;
      continue;
    }
    for (int k = 0; k < n; k++)
      push(p, nodes[k].region, nodes[k].scl);
    if (flags & OT_FRAME_MAIN)
      return WALK_ROOT;
  }
  return WALK_GO_ON;
}

/* Index of the frame whose return address is codeptr (the construct's
 * call into the runtime), or -1. */
static int frame_of_codeptr(const ot_capture *c) {
  const ot_cap_frame *fr = ot_cap_frames(c);
  for (int i = 0; i < c->nframes; i++)
    if (fr[i].pc == c->codeptr)
      return i;
  return -1;
}

static void walk_task(path *p, const ot_capture *c, int level, int start, int own_frames,
                      uint32_t body_scl, int depth);

/* Continues with the call path captured at a fork or task creation. */
static void walk_capture(path *p, const ot_capture *c, int depth) {
  int start = frame_of_codeptr(c);
  if (start < 0)
    start = 0;
  int level = owner(c, &ot_cap_frames(c)[start]);
  if (level < 0)
    level = 0;
  walk_task(p, c, level, start, 1, OTF2_UNDEFINED_SOURCE_CODE_LOCATION, depth + 1);
}

/* Pushes task `level` of capture c and then what lies below it. */
static void walk_task(path *p, const ot_capture *c, int level, int start, int own_frames,
                      uint32_t body_scl, int depth) {
  if (depth > OT_CTX_MAX_STITCH)
    return;
  if (own_frames && push_frames(p, c, level, start, &body_scl) == WALK_ROOT)
    return;
  if (level >= c->nlevels)
    return;
  const ot_cap_level *lv = &ot_cap_levels(c)[level];
  if (lv->flags & ompt_task_implicit) {
    const ot_parallel_info *pi = ot_scan_parallel(lv->parallel_id);
    uint64_t cp = pi ? pi->codeptr : 0;
    push(p, ot_ctx_construct_region("parallel", cp),
         body_scl != OTF2_UNDEFINED_SOURCE_CODE_LOCATION ? body_scl : ot_ctx_codeptr_scl(cp));
    /* The encountering task's frames: on this stack for the region's
     * master, otherwise from the master's fork capture. */
    if (level + 1 < c->nlevels && has_frames_of(c, level + 1)) {
      walk_task(p, c, level + 1, 0, 1, OTF2_UNDEFINED_SOURCE_CODE_LOCATION, depth + 1);
      return;
    }
    const ot_capture *fc = index_get(forks, forks_cap, lv->parallel_id);
    if (fc)
      walk_capture(p, fc, depth);
    return;
  }
  if (lv->flags & ompt_task_explicit) {
    uint64_t cp = ot_scan_site_codeptr(OT_TASK_SITE(lv->task_id));
    push(p, ot_ctx_construct_region((lv->flags & ompt_task_untied) ? "untied task" : "task", cp),
         body_scl != OTF2_UNDEFINED_SOURCE_CODE_LOCATION ? body_scl : ot_ctx_codeptr_scl(cp));
    const ot_capture *tc = index_get(tasks, tasks_cap, lv->task_id);
    if (tc) {
      walk_capture(p, tc, depth);
      return;
    }
    /* Lazy: the creating function at the creation site, then the
     * generating task's own context (frames in between are not known). */
    uint32_t site_scl = ot_ctx_codeptr_scl(cp);
    if (cp) {
      const ot_ctx_node *nodes;
      unsigned flags;
      int n = ot_ctx_frame_nodes(cp, 0, &nodes, &flags);
      if (n > 0 && !(flags & OT_FRAME_RUNTIME)) {
        int outlined = (flags & OT_FRAME_OUTLINED) != 0;
        for (int k = 0; k < n - outlined; k++)
          push(p, nodes[k].region, nodes[k].scl);
        if (flags & OT_FRAME_MAIN)
          return;
        if (!outlined)
          site_scl = OTF2_UNDEFINED_SOURCE_CODE_LOCATION;
      }
    }
    walk_task(p, c, level + 1, 0, 0, site_scl, depth + 1);
  }
  /* Initial task: the path is complete. */
}

/* Pseudo frame for a waiting or overhead state; NULL for work states. */
static const char *state_leaf(uint32_t state) {
  switch (state) {
  case ompt_state_work_reduction:
    return "<OMP-reduction>";
  case ompt_state_wait_barrier:
  case ompt_state_wait_barrier_implicit_parallel:
  case ompt_state_wait_barrier_implicit_workshare:
  case ompt_state_wait_barrier_implicit:
  case ompt_state_wait_barrier_implementation:
  case ompt_state_wait_barrier_teams:
    return "<OMP-implicit_barrier>";
  case ompt_state_wait_barrier_explicit:
    return "<OMP-explicit_barrier>";
  case ompt_state_wait_taskwait:
  case ompt_state_wait_taskgroup:
    return "<OMP-taskwait>";
  case ompt_state_wait_mutex:
  case ompt_state_wait_lock:
  case ompt_state_wait_atomic:
    return "<OMP-lock_wait>";
  case ompt_state_wait_critical:
    return "<OMP-critical_section_wait>";
  case ompt_state_wait_ordered:
    return "<OMP-ordered_wait>";
  case ompt_state_idle:
    return "<OMP-idle>";
  case ompt_state_overhead:
    return "<OMP-overhead>";
  default:
    return NULL;
  }
}

/* Working, but interrupted inside the runtime or this tool: a runtime
 * frame lies deeper than the current task's first user frame. */
static int in_runtime(const ot_capture *c) {
  const ot_cap_frame *fr = ot_cap_frames(c);
  for (int i = 0; i < c->nframes; i++) {
    const ot_ctx_node *nodes;
    unsigned flags;
    ot_ctx_frame_nodes(fr[i].pc, c->exact && i == 0, &nodes, &flags);
    if (flags & OT_FRAME_RUNTIME)
      return 1;
    if (!c->nlevels || owner(c, &fr[i]) == 0)
      return 0;
  }
  return 0;
}

/* Not working: the wait states and those numbered after them (idle, overhead). */
static int is_wait(uint32_t state) {
  return state >= ompt_state_wait_barrier && state != ompt_state_undefined;
}

/* The sample's state as a pseudo-frame name, NULL for user work. Uses the
 * thread's recorded waits (ot_ctx_wait_at): ask in time order. */
static const char *sample_leaf(uint32_t loc, const ot_capture *c) {
  const char *leaf = state_leaf(c->state);
  if (c->nlevels > 0) {
    const ot_cap_level *lv = ot_cap_levels(c);
    /* A worker parked after its region ended (libomp reports the last
     * implicit task until the next fork) is idle, not in that region. */
    if ((lv[0].flags & ompt_task_implicit) && is_wait(c->state)) {
      const ot_parallel_info *pi = ot_scan_parallel(lv[0].parallel_id);
      if (pi && pi->master_loc != loc && c->ts > pi->end_raw)
        leaf = "<OMP-idle>";
    }
  } else if (is_wait(c->state)) {
    leaf = "<OMP-idle>";
  }
  /* The recorded wait names the construct more exactly than the state
   * (a critical wait is reported as wait_lock, taskwait spins as work). */
  const char *waited = ot_ctx_wait_at(c->ts);
  if (leaf && !strcmp(leaf, "<OMP-idle>"))
    return leaf;
  if (leaf && waited)
    return waited;
  if (!leaf && in_runtime(c))
    return waited ? waited : "<OMP-overhead>";
  return leaf;
}

static void build_user(path *p, uint32_t loc, const ot_capture *c) {
  const char *leaf = sample_leaf(loc, c);
  if (leaf)
    push(p, ot_ctx_pseudo_region(leaf), OTF2_UNDEFINED_SOURCE_CODE_LOCATION);
  /* An idle thread is in no construct: <OMP-idle> is a root of its own. */
  if (leaf && !strcmp(leaf, "<OMP-idle>"))
    return;
  walk_task(p, c, 0, 0, 1, OTF2_UNDEFINED_SOURCE_CODE_LOCATION, 0);
}

/* Every frame as unwound, with the state leaf below the innermost one. */
static void build_machine(path *p, uint32_t loc, const ot_capture *c) {
  const char *leaf = sample_leaf(loc, c);
  if (leaf)
    push(p, ot_ctx_pseudo_region(leaf), OTF2_UNDEFINED_SOURCE_CODE_LOCATION);
  const ot_cap_frame *fr = ot_cap_frames(c);
  for (int i = 0; i < c->nframes; i++) {
    const ot_ctx_node *nodes;
    unsigned flags;
    int n = ot_ctx_frame_nodes(fr[i].pc, c->exact && i == 0, &nodes, &flags);
    for (int k = 0; k < n; k++)
      push(p, nodes[k].region, nodes[k].scl);
  }
}

int ot_contexts_of_sample(uint32_t loc, const ot_capture *c, uint32_t *ids, int max) {
  static path p;
  p.len = 0;
  if (callstacks == OT_CALLSTACKS_MACHINE)
    build_machine(&p, loc, c);
  else
    build_user(&p, loc, c);
  int n = 0;
  uint32_t parent = OTF2_UNDEFINED_CALLING_CONTEXT;
  for (int i = p.len - 1; i >= 0 && n < max; i--) {
    parent = ot_defs_calling_context(p.n[i].region, p.n[i].scl, parent);
    ids[n++] = parent;
  }
  return n;
}
