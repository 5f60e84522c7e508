/* Task switches between region stacks. Archives of omptrace before 0.2
 * left a suspended task's open regions (innermost first, then the task)
 * before ThreadTaskSwitch and entered them again when the task resumed.
 * omptrace now and Score-P keep one region stack per task instead: on a
 * switch the suspended task's regions stay open
 * without a Leave, and a resumed task continues them without an Enter,
 * possibly on another thread (untied tasks). Both become the same stack
 * operations here: at a switch away from a task whose regions are still
 * open, they are closed (a task fragment ends) and kept by task; when that
 * task resumes, on any location, they are opened again. */
#include "locstate.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define OTR_SUSP_BUCKETS 1024u

struct otr_suspended {
  uint64_t task;
  uint32_t n;
  uint32_t *regions; /* outermost (the task region) first */
  struct otr_suspended *next;
};

static uint32_t bucket(uint64_t task) {
  return (uint32_t)((task * 0x9E3779B97F4A7C15ULL) >> 54) % OTR_SUSP_BUCKETS;
}

/* Unlinks and returns the saved regions of task, or NULL. */
static otr_suspended *take(otr_archive *a, uint64_t task) {
  if (!a->suspended)
    return NULL;
  otr_suspended **pp = &a->suspended[bucket(task)];
  while (*pp && (*pp)->task != task)
    pp = &(*pp)->next;
  otr_suspended *s = *pp;
  if (s)
    *pp = s->next;
  return s;
}

/* Index of the innermost open explicit task frame of the thread's current
 * implicit task, or OTR_NONE: a parallel region or fork opened above a task
 * starts a new implicit task, whose frames are not the task's. */
static uint32_t open_task_frame(const otr_locstate *ls) {
  for (uint32_t i = ls->depth; i-- > 0;) {
    const otr_frame *f = &ls->stack[i];
    if (f->fork_marker || f->cls == OTR_C_PARALLEL)
      return OTR_NONE;
    if (f->cls == OTR_C_TASK)
      return i;
  }
  return OTR_NONE;
}

static void suspend(otr_archive *a, otr_locstate *ls, uint32_t at) {
  uint64_t task = ls->stack[at].task;
  otr_suspended *s = take(a, task); /* suspended twice without a resume: keep the latest */
  if (!s)
    s = otr_xcalloc(1, sizeof *s);
  s->task = task;
  s->n = ls->depth - at;
  s->regions = otr_xrealloc(s->regions, s->n * sizeof *s->regions);
  for (uint32_t k = 0; k < s->n; k++)
    s->regions[k] = ls->stack[at + k].region;
  while (ls->depth > at)
    otr_pop(a, ls);
  if (!a->suspended)
    a->suspended = otr_xcalloc(OTR_SUSP_BUCKETS, sizeof *a->suspended);
  otr_suspended **head = &a->suspended[bucket(task)];
  s->next = *head;
  *head = s;
}

void otr_task_switch(otr_archive *a, otr_locstate *ls, uint64_t task) {
  uint32_t i = open_task_frame(ls);
  if (i != OTR_NONE && ls->stack[i].task && ls->stack[i].task != task)
    suspend(a, ls, i);
  ls->cur_task = task;
  otr_suspended *s = task ? take(a, task) : NULL;
  if (!s)
    return;
  for (uint32_t k = 0; k < s->n; k++)
    otr_enter_region(a, ls, s->regions[k]);
  free(s->regions);
  free(s);
}

void otr_tasks_free(otr_archive *a) {
  if (!a->suspended)
    return;
  for (uint32_t b = 0; b < OTR_SUSP_BUCKETS; b++)
    while (a->suspended[b]) {
      otr_suspended *s = a->suspended[b];
      a->suspended[b] = s->next;
      free(s->regions);
      free(s);
    }
  free(a->suspended);
  a->suspended = NULL;
}
