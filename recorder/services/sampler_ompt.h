/* OMPT inquiry functions the sampler calls from its signal handler and
 * context hooks. The tool's initialize passes its lookup function here. */
#ifndef OMPTRACE_SAMPLER_OMPT_H
#define OMPTRACE_SAMPLER_OMPT_H

#include <omp-tools.h>

void ot_sampler_set_lookup(ompt_function_lookup_t lookup);

/* NULL until ot_sampler_set_lookup ran (then captures carry no levels). */
extern ompt_get_state_t ot_smp_get_state;
extern ompt_get_task_info_t ot_smp_get_task_info;
extern ompt_get_parallel_info_t ot_smp_get_parallel_info;

#endif
