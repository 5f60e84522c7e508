/* Loop chunks (ompt_callback_dispatch, OMPTRACE_CHUNKS): one record per
 * chunk a thread takes, with its first iteration and iteration count.
 * libomp 14 never delivers it; 15, 16 and 19 do (docs/recording.md). */
#include "events/emit.h"
#include "events/handlers.h"

/* OpenMP 5.2's chunk kinds and their instance, as omp-tools.h of libomp
 * 15 and later declares them (the header the recorder builds with may be
 * libomp 14's, which knows only iteration and section). */
enum { OT_DISPATCH_WS_LOOP_CHUNK = 3, OT_DISPATCH_DISTRIBUTE_CHUNK = 5 };
typedef struct {
  uint64_t start, iterations;
} ot_dispatch_chunk;

void on_ompt_callback_dispatch(ompt_data_t *parallel_data, ompt_data_t *task_data,
                               ompt_dispatch_t kind, ompt_data_t instance) {
  (void)parallel_data;
  (void)task_data;
  ot_thread *t = ot_enter();
  if (!t)
    return;
  unsigned k = (unsigned)kind;
  if (k >= OT_DISPATCH_WS_LOOP_CHUNK && k <= OT_DISPATCH_DISTRIBUTE_CHUNK && instance.ptr) {
    const ot_dispatch_chunk *c = instance.ptr;
    ot_emit(t, OT_DISPATCH, k, 0, c->start, c->iterations);
  } else { /* a section or an iteration: its value as it comes */
    ot_emit(t, OT_DISPATCH, k, 0, instance.value, 0);
  }
}
