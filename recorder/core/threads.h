/* Registry internals (core/threads.c) used by the thread_begin handler and
 * the fork child. */
#ifndef OMPTRACE_THREADS_H
#define OMPTRACE_THREADS_H

#include "core/thread.h"

/* Location indexes must fit the 16-bit thread field of task/parallel ids. */
#define OT_MAX_THREADS 4096u

/* Claims the next location index for t (sets t->loc). -1 when full. A
 * slot being filled may read as NULL from ot_thread_get for a moment. */
int ot_thread_register(ot_thread *t);

/* In a fork child (faults/fork.c): the registry holds only the forking
 * thread, as location 0 (none when it is NULL: a thread OpenMP never
 * announced forked). The other threads do not exist in the child; their
 * ot_thread memory is left alone (freeing is not safe after fork). */
void ot_thread_registry_reset(ot_thread *self);

/* Zeroed memory for per-thread state that lives until the process ends,
 * taken with mmap, not malloc: glibc gives every thread that first calls
 * malloc an arena of 64 MiB of address space, which hundreds of threads
 * under an address-space limit (ulimit -v) cannot afford. NULL when out
 * of memory. Never freed. */
void *ot_thread_memory(size_t size);

#endif
