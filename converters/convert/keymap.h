/* Pending flow starts by key (a task's key, a lock's id): where and when the
 * arrow begins. Open addressing with deletion, so memory follows the tasks
 * created and not yet started and the locks in use, not the events. */
#ifndef OMPTRACE_CONVERT_KEYMAP_H
#define OMPTRACE_CONVERT_KEYMAP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
  uint64_t key, t;
  uint32_t loc;
  bool used;
} cv_pending;

typedef struct {
  cv_pending *v;
  uint32_t cap, n;
} cv_keymap;

void cv_keymap_put(cv_keymap *m, uint64_t key, uint32_t loc, uint64_t t);
/* Removes key; true with its entry in *out when it was there. */
bool cv_keymap_take(cv_keymap *m, uint64_t key, cv_pending *out);
void cv_keymap_free(cv_keymap *m);

#endif
