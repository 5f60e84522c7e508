/* Suspended explicit tasks during the replay (finalize/suspended.c): task
 * id -> the location it left and an opaque copy of what was open in it. */
#ifndef OMPTRACE_SUSPENDED_H
#define OMPTRACE_SUSPENDED_H

#include <stdint.h>

typedef struct ot_susp {
  uint64_t task; /* 0 = empty slot */
  void *frames;  /* owned by the caller until taken back */
  uint32_t n;
  uint32_t loc;
} ot_susp;

/* Stores (replacing and returning the frames of an entry the task already
 * had, else NULL). Returns -1 when memory runs out (nothing stored). */
int ot_susp_put(const ot_susp *e, void **replaced);
/* Removes the task's entry into *out; 0 when the task is not suspended. */
int ot_susp_take(uint64_t task, ot_susp *out);
/* Removes any entry of a task suspended on loc; 0 when there is none
 * (a scan of the table: for the end of the replay). */
int ot_susp_take_at(uint32_t loc, ot_susp *out);
uint64_t ot_susp_count(void);
uint64_t ot_susp_probes(void); /* slots visited, for the replay's work counter */
/* Frees the table; the caller frees the frames of what is left via f. */
void ot_susp_free(void (*f)(void *frames));

#endif
