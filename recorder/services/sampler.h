/* Call-stack sampling (services/sampler.c and finalize/contexts.c).
 * Per-thread POSIX timers on each thread's CPU-time clock; the handler unwinds
 * with libunwind into a per-thread sample buffer. Contexts are formed at
 * finalize. */
#ifndef OMPTRACE_SAMPLER_H
#define OMPTRACE_SAMPLER_H

#include "core/thread.h"
#include <stdint.h>

void ot_sampler_init(void); /* after ot_config_load; warms up libunwind */
void ot_sampler_thread_begin(ot_thread *t);
void ot_sampler_thread_end(ot_thread *t);
void ot_sampler_stop(void); /* finalize: disarm all timers before reading buffers */
/* In a fork() child, before the thread registry is reset: the child has
 * none of the parent's timers (POSIX timers are not inherited, nor perf
 * rings: the kernel maps them VM_DONTCOPY), only copies of the counters'
 * descriptors, which still count and signal the parent's threads. Each is
 * closed without a word to the counter, so the parent samples on. */
void ot_sampler_fork_child(void);

/* Called by the parallel_end handler on the master when the region's
 * parallel_data carries OT_PARALLEL_SAMPLED_BIT (or always in eager
 * mode): captures the master's call path at the fork site, lazily. */
void ot_sampler_fork_context(ot_thread *t, uint64_t parallel_id, const void *codeptr);
/* Eager-mode comparison hook from task_create. */
void ot_sampler_task_context(ot_thread *t, uint64_t task_id, const void *codeptr);

#endif
