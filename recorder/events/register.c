/* Which handler serves which OMPT callback, grouped as OMPTRACE_EVENTS
 * selects them. Every host callback libomp 14 delivers is here, and
 * dispatch (loop chunks, libomp 15 and later); target*, device* and the
 * *_emi variants are never delivered by libomp 14. */
#include "core/config.h"
#include "core/log.h"
#include "events/handlers.h"

#include <stdio.h>
#include <string.h>

typedef struct {
  const char *name;
  ompt_callback_t handler;
  ompt_callbacks_t event;
  uint32_t group; /* 0: always registered */
} ot_binding;

#define BIND(ev, group)                                                                            \
  { #ev, (ompt_callback_t)on_ompt_callback_##ev, ompt_callback_##ev, group }

static const ot_binding bindings[] = {
    BIND(thread_begin, 0),
    BIND(thread_end, 0),
    BIND(parallel_begin, 0),
    BIND(parallel_end, 0),
    BIND(implicit_task, 0),
    BIND(task_create, OT_EV_TASKS),
    BIND(task_schedule, OT_EV_TASKS),
    BIND(dependences, OT_EV_TASKS),
    BIND(task_dependence, OT_EV_TASKS),
    BIND(sync_region, OT_EV_SYNC),
    BIND(sync_region_wait, OT_EV_SYNC),
    BIND(mutex_acquire, OT_EV_MUTEX),
    BIND(mutex_acquired, OT_EV_MUTEX),
    BIND(mutex_released, OT_EV_MUTEX),
    BIND(nest_lock, OT_EV_MUTEX),
    BIND(lock_init, OT_EV_MUTEX),
    BIND(lock_destroy, OT_EV_MUTEX),
    BIND(work, OT_EV_WORK),
    BIND(masked, OT_EV_MASKED),
    BIND(reduction, OT_EV_REDUCTION),
    BIND(flush, OT_EV_FLUSH),
    BIND(cancel, OT_EV_CANCEL),
    BIND(control_tool, OT_EV_CONTROL),
    BIND(error, OT_EV_CONTROL),
};

/* Loop chunks (OMPTRACE_CHUNKS, events/dispatch.c), with the work group.
 * A runtime without them (libomp 14) leaves ot_cfg.chunks at
 * OT_CHUNKS_NONE, which the archive and the summary say; asked for with
 * on, one line says so at once. */
static void register_chunks(ompt_set_callback_t set_callback, uint32_t events) {
  if (ot_cfg.chunks == OT_CHUNKS_OFF || !(events & OT_EV_WORK))
    return;
  ompt_set_result_t d =
      set_callback(ompt_callback_dispatch, (ompt_callback_t)on_ompt_callback_dispatch);
  if (d != ompt_set_error && d != ompt_set_never) {
    ot_verbose("loop chunks (dispatch) recorded");
    return;
  }
  if (ot_cfg.chunks == OT_CHUNKS_ON)
    ot_warn("OMPTRACE_CHUNKS=on: this OpenMP runtime gives no loop chunks (no "
            "ompt_callback_dispatch; libomp 15 and later do): none are recorded");
  else
    ot_verbose("the runtime offers no dispatch (loop chunk) events");
  ot_cfg.chunks = OT_CHUNKS_NONE;
}

static void append(char *list, size_t cap, const char *name) {
  size_t n = strlen(list);
  snprintf(list + n, cap - n, "%s%s", n ? " " : "", name);
}

/* Offload (events/target.c), always registered: the OpenMP 5.1 _emi form
 * first, the 5.0 form only where the runtime refuses it, so no event is
 * recorded twice. libomp 19 accepts both (and then calls only the _emi
 * one), libomp 14-16 neither (docs/recording.md, "Offload"). */
static const ot_binding target_bindings[][2] = {
    {BIND(target_emi, 0), BIND(target, 0)},
    {BIND(target_data_op_emi, 0), BIND(target_data_op, 0)},
    {BIND(target_submit_emi, 0), BIND(target_submit, 0)},
    {BIND(device_initialize, 0), BIND(device_initialize, 0)},
    {BIND(device_finalize, 0), BIND(device_finalize, 0)},
    {BIND(device_load, 0), BIND(device_load, 0)},
    {BIND(device_unload, 0), BIND(device_unload, 0)},
};

static void register_target(ompt_set_callback_t set_callback) {
  char accepted[512] = "", refused[512] = "";
  int any = 0;
  for (size_t i = 0; i < sizeof target_bindings / sizeof target_bindings[0]; i++) {
    const ot_binding *b = target_bindings[i];
    int n = b[0].event == b[1].event ? 1 : 2, ok = 0;
    for (int k = 0; k < n && !ok; k++) {
      ompt_set_result_t r = set_callback(b[k].event, b[k].handler);
      ok = r != ompt_set_error && r != ompt_set_never;
      append(ok ? accepted : refused, ok ? sizeof accepted : sizeof refused, b[k].name);
    }
    any |= ok;
  }
  if (any)
    ot_target_check_connect();
  ot_verbose("offload callbacks accepted: %s; refused: %s", accepted[0] ? accepted : "none",
             refused[0] ? refused : "none");
}

void ot_events_register(ompt_set_callback_t set_callback, uint32_t events) {
  char accepted[1024] = "", refused[1024] = "";
  register_target(set_callback);
  for (size_t i = 0; i < sizeof bindings / sizeof bindings[0]; i++) {
    const ot_binding *b = &bindings[i];
    if (b->group && !(events & b->group))
      continue;
    ompt_set_result_t r = set_callback(b->event, b->handler);
    if (r == ompt_set_always)
      append(accepted, sizeof accepted, b->name);
    else if (r == ompt_set_error || r == ompt_set_never)
      append(refused, sizeof refused, b->name);
    else /* sometimes / sometimes_paired: still useful, say so */
      append(accepted, sizeof accepted, b->name), append(accepted, sizeof accepted, "(sometimes)");
  }
  ot_verbose("callbacks accepted: %s; refused: %s", accepted[0] ? accepted : "none",
             refused[0] ? refused : "none");
  register_chunks(set_callback, events);
}
