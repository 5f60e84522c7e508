/* Point events: flush, cancel, omp_control_tool, error directive. */
#include "events/emit.h"
#include "events/handlers.h"

void on_ompt_callback_flush(ompt_data_t *thread_data, const void *codeptr_ra) {
  (void)thread_data;
  ot_thread *t = ot_enter();
  if (t)
    ot_emit(t, OT_FLUSH, 0, 0, (uint64_t)codeptr_ra, 0);
}

void on_ompt_callback_cancel(ompt_data_t *task_data, int flags, const void *codeptr_ra) {
  (void)task_data;
  ot_thread *t = ot_enter();
  if (t)
    ot_emit(t, OT_CANCEL, 0, (uint32_t)flags, (uint64_t)codeptr_ra, 0);
}

/* Recorded as a marker; the tool takes no action on commands, hence
 * "ignored" (omp_control_tool_ignored) for the caller. */
int on_ompt_callback_control_tool(uint64_t command, uint64_t modifier, void *arg,
                                  const void *codeptr_ra) {
  (void)arg;
  ot_thread *t = ot_enter();
  if (t)
    ot_emit(t, OT_CONTROL_TOOL, 0, ot_sat32(command), modifier, (uint64_t)codeptr_ra);
  return 1;
}

void on_ompt_callback_error(ompt_severity_t severity, const char *message, size_t length,
                            const void *codeptr_ra) {
  (void)message;
  (void)length;
  ot_thread *t = ot_enter();
  if (t)
    ot_emit(t, OT_ERROR, (unsigned)severity, 0, (uint64_t)codeptr_ra, 0);
}
