/* Suspended explicit tasks during the replay (finalize/suspended.c): task
 * id -> the location it left and a copy of what was open in it, kept in
 * reused blocks (finalize/blocks.h). */
#ifndef OMPTRACE_SUSPENDED_H
#define OMPTRACE_SUSPENDED_H

#include <stddef.h>
#include <stdint.h>

typedef struct ot_susp {
  uint64_t task; /* 0 = empty slot */
  void *frames;  /* n opaque frames, in a block of the table's */
  uint32_t n;
  uint32_t loc;
} ot_susp;

/* Room for the task's n frames of `size` bytes, which the caller fills
 * (it replaces an entry the task already had); NULL when memory runs out
 * (nothing stored). */
void *ot_susp_put(uint64_t task, uint32_t loc, uint32_t n, size_t size);
/* Removes the task's entry into *out; 0 when the task is not suspended.
 * out->frames stays readable until ot_susp_done(out). */
int ot_susp_take(uint64_t task, ot_susp *out);
/* Removes any entry of a task suspended on loc; 0 when there is none
 * (a scan of the table: for the end of the replay). */
int ot_susp_take_at(uint32_t loc, ot_susp *out);
uint64_t ot_susp_count(void);
uint64_t ot_susp_probes(void); /* slots visited, for the replay's work counter */
/* The frames of a taken entry go back for reuse. */
void ot_susp_done(ot_susp *s);
/* Frees the table, what is left in it and the reused blocks. */
void ot_susp_free(void);

#endif
