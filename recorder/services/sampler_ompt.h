/* OMPT inquiry functions the sampler calls from its signal handler and
 * context hooks. The tool's initialize passes its lookup function here. */
#ifndef OMPTRACE_SAMPLER_OMPT_H
#define OMPTRACE_SAMPLER_OMPT_H

#include <omp-tools.h>
#include <stdint.h>

void ot_sampler_set_lookup(ompt_function_lookup_t lookup);

/* NULL until ot_sampler_set_lookup ran (then captures carry no levels). */
extern ompt_get_state_t ot_smp_get_state;
extern ompt_get_task_info_t ot_smp_get_task_info;
extern ompt_get_parallel_info_t ot_smp_get_parallel_info;

/* signal-safe: reachable from the sampling signal handler.
 * While a team forks or joins, libomp can hand out a field address of a
 * NULL structure (seen: parallel_data == 0x220). Nothing is mapped below
 * mmap_min_addr (64 KiB) and the structures are 8-byte aligned, so any
 * other pointer counts as NULL. */
static inline int ot_smp_plausible(const void *p) {
  return (uintptr_t)p >= 65536 && ((uintptr_t)p & 7) == 0;
}

#endif
