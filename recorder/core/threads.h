/* Registry internals (core/threads.c) used by the thread_begin handler. */
#ifndef OMPTRACE_THREADS_H
#define OMPTRACE_THREADS_H

#include "core/thread.h"

/* Location indexes must fit the 16-bit thread field of task/parallel ids. */
#define OT_MAX_THREADS 4096u

/* Claims the next location index for t (sets t->loc). -1 when full. A
 * slot being filled may read as NULL from ot_thread_get for a moment. */
int ot_thread_register(ot_thread *t);

#endif
