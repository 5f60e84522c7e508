/* OMPT callback handlers (one file per concern in events/), each named after its callback, and
 * the registration table (events/register.c). */
#ifndef OMPTRACE_HANDLERS_H
#define OMPTRACE_HANDLERS_H

#include <omp-tools.h>
#include <stdint.h>

/* Registers the handlers of the groups in `events` (enum
 * ot_event_group) plus the thread/parallel/implicit-task ones. */
void ot_events_register(ompt_set_callback_t set_callback, uint32_t events);

void on_ompt_callback_thread_begin(ompt_thread_t thread_type, ompt_data_t *thread_data);
void on_ompt_callback_thread_end(ompt_data_t *thread_data);
void on_ompt_callback_parallel_begin(ompt_data_t *encountering_task_data,
                                     const ompt_frame_t *encountering_task_frame,
                                     ompt_data_t *parallel_data, unsigned int requested_parallelism,
                                     int flags, const void *codeptr_ra);
void on_ompt_callback_parallel_end(ompt_data_t *parallel_data, ompt_data_t *encountering_task_data,
                                   int flags, const void *codeptr_ra);
void on_ompt_callback_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                                    ompt_data_t *task_data, unsigned int actual_parallelism,
                                    unsigned int index, int flags);
void on_ompt_callback_task_create(ompt_data_t *encountering_task_data,
                                  const ompt_frame_t *encountering_task_frame,
                                  ompt_data_t *new_task_data, int flags, int has_dependences,
                                  const void *codeptr_ra);
void on_ompt_callback_task_schedule(ompt_data_t *prior_task_data,
                                    ompt_task_status_t prior_task_status,
                                    ompt_data_t *next_task_data);
void on_ompt_callback_dependences(ompt_data_t *task_data, const ompt_dependence_t *deps, int ndeps);
void on_ompt_callback_task_dependence(ompt_data_t *src_task_data, ompt_data_t *sink_task_data);
void on_ompt_callback_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                  ompt_data_t *parallel_data, ompt_data_t *task_data,
                                  const void *codeptr_ra);
void on_ompt_callback_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                       ompt_data_t *parallel_data, ompt_data_t *task_data,
                                       const void *codeptr_ra);
void on_ompt_callback_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                                    ompt_wait_id_t wait_id, const void *codeptr_ra);
void on_ompt_callback_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                                     const void *codeptr_ra);
void on_ompt_callback_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                                     const void *codeptr_ra);
void on_ompt_callback_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id,
                                const void *codeptr_ra);
void on_ompt_callback_lock_init(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                                ompt_wait_id_t wait_id, const void *codeptr_ra);
void on_ompt_callback_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                                   const void *codeptr_ra);
void on_ompt_callback_work(ompt_work_t wstype, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel_data, ompt_data_t *task_data, uint64_t count,
                           const void *codeptr_ra);
void on_ompt_callback_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                             ompt_data_t *task_data, const void *codeptr_ra);
void on_ompt_callback_reduction(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                ompt_data_t *parallel_data, ompt_data_t *task_data,
                                const void *codeptr_ra);
void on_ompt_callback_flush(ompt_data_t *thread_data, const void *codeptr_ra);
void on_ompt_callback_cancel(ompt_data_t *task_data, int flags, const void *codeptr_ra);
int on_ompt_callback_control_tool(uint64_t command, uint64_t modifier, void *arg,
                                  const void *codeptr_ra);
void on_ompt_callback_error(ompt_severity_t severity, const char *message, size_t length,
                            const void *codeptr_ra);

#endif
