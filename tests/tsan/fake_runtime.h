/* A stand-in for the OpenMP runtime's side of OMPT, for driving an OMPT
 * tool from plain pthreads (no libomp, whose synchronization ThreadSanitizer
 * cannot see): loads the tool, hands it a lookup function and keeps the
 * callbacks it registers. */
#ifndef OMPTRACE_TSAN_FAKE_RUNTIME_H
#define OMPTRACE_TSAN_FAKE_RUNTIME_H

#include <omp-tools.h>

/* Callbacks the tool registered, indexed by ompt_callbacks_t. */
extern ompt_callback_t fake_cb[64];

/* The callback registered for `event`, cast to the signature of `type`. */
#define FAKE_CBT(event, type) ((ompt_callback_##type##_t)fake_cb[ompt_callback_##event])
#define FAKE_CB(event) FAKE_CBT(event, event)

/* dlopens `path`, calls its ompt_start_tool and initialize. Returns the
 * tool's result (for finalize) or NULL with a message. */
ompt_start_tool_result_t *fake_runtime_start(const char *path, ompt_data_t *tool_data);

/* 1 if every callback in `events` was registered, else 0 with a message. */
int fake_runtime_has(const ompt_callbacks_t *events, int n);

/* The calling thread's thread_data, as ompt_get_thread_data returns it. */
ompt_data_t *fake_thread_data(void);

#endif
