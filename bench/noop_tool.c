/* An OMPT tool that registers the same callbacks as omptrace, with empty
 * bodies. Running a program under it isolates what the runtime's OMPT
 * dispatch costs, so the benchmark can charge omptrace only for recording.
 * Built a second time with OT_NOOP_COUNT as a counting tool: each callback
 * then increments a counter and finalize writes the totals (to the file
 * named by OT_COUNT_OUT, else stderr), which gives exact events per
 * construct instance. With OT_NOOP_REGISTER=none the tool registers no
 * callback at all: what remains is the runtime's own OMPT bookkeeping. */
#include <omp-tools.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OT_MAX_CB 64

#ifdef OT_NOOP_COUNT
static atomic_ullong counts[OT_MAX_CB];
#define HIT(id) atomic_fetch_add_explicit(&counts[id], 1, memory_order_relaxed)
#else
#define HIT(id) ((void)0)
#endif

static void on_thread_begin(ompt_thread_t t, ompt_data_t *d) {
  (void)t, (void)d;
  HIT(ompt_callback_thread_begin);
}
static void on_thread_end(ompt_data_t *d) {
  (void)d;
  HIT(ompt_callback_thread_end);
}
static void on_parallel_begin(ompt_data_t *etd, const ompt_frame_t *f, ompt_data_t *pd,
                              unsigned int req, int flags, const void *ra) {
  (void)etd, (void)f, (void)pd, (void)req, (void)flags, (void)ra;
  HIT(ompt_callback_parallel_begin);
}
static void on_parallel_end(ompt_data_t *pd, ompt_data_t *etd, int flags, const void *ra) {
  (void)pd, (void)etd, (void)flags, (void)ra;
  HIT(ompt_callback_parallel_end);
}
static void on_task_create(ompt_data_t *etd, const ompt_frame_t *f, ompt_data_t *ntd, int flags,
                           int deps, const void *ra) {
  (void)etd, (void)f, (void)ntd, (void)flags, (void)deps, (void)ra;
  HIT(ompt_callback_task_create);
}
static void on_task_schedule(ompt_data_t *prior, ompt_task_status_t st, ompt_data_t *next) {
  (void)prior, (void)st, (void)next;
  HIT(ompt_callback_task_schedule);
}
static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *pd, ompt_data_t *td,
                             unsigned int n, unsigned int idx, int flags) {
  (void)ep, (void)pd, (void)td, (void)n, (void)idx, (void)flags;
  HIT(ompt_callback_implicit_task);
}
static int on_control_tool(uint64_t cmd, uint64_t mod, void *arg, const void *ra) {
  (void)cmd, (void)mod, (void)arg, (void)ra;
  HIT(ompt_callback_control_tool);
  return 0;
}
static void on_sync_region(ompt_sync_region_t k, ompt_scope_endpoint_t ep, ompt_data_t *pd,
                           ompt_data_t *td, const void *ra) {
  (void)k, (void)ep, (void)pd, (void)td, (void)ra;
  HIT(ompt_callback_sync_region);
}
static void on_sync_region_wait(ompt_sync_region_t k, ompt_scope_endpoint_t ep, ompt_data_t *pd,
                                ompt_data_t *td, const void *ra) {
  (void)k, (void)ep, (void)pd, (void)td, (void)ra;
  HIT(ompt_callback_sync_region_wait);
}
static void on_reduction(ompt_sync_region_t k, ompt_scope_endpoint_t ep, ompt_data_t *pd,
                         ompt_data_t *td, const void *ra) {
  (void)k, (void)ep, (void)pd, (void)td, (void)ra;
  HIT(ompt_callback_reduction);
}
static void on_mutex_acquire(ompt_mutex_t k, unsigned int hint, unsigned int impl, ompt_wait_id_t w,
                             const void *ra) {
  (void)k, (void)hint, (void)impl, (void)w, (void)ra;
  HIT(ompt_callback_mutex_acquire);
}
static void on_lock_init(ompt_mutex_t k, unsigned int hint, unsigned int impl, ompt_wait_id_t w,
                         const void *ra) {
  (void)k, (void)hint, (void)impl, (void)w, (void)ra;
  HIT(ompt_callback_lock_init);
}
static void on_mutex_acquired(ompt_mutex_t k, ompt_wait_id_t w, const void *ra) {
  (void)k, (void)w, (void)ra;
  HIT(ompt_callback_mutex_acquired);
}
static void on_mutex_released(ompt_mutex_t k, ompt_wait_id_t w, const void *ra) {
  (void)k, (void)w, (void)ra;
  HIT(ompt_callback_mutex_released);
}
static void on_lock_destroy(ompt_mutex_t k, ompt_wait_id_t w, const void *ra) {
  (void)k, (void)w, (void)ra;
  HIT(ompt_callback_lock_destroy);
}
static void on_nest_lock(ompt_scope_endpoint_t ep, ompt_wait_id_t w, const void *ra) {
  (void)ep, (void)w, (void)ra;
  HIT(ompt_callback_nest_lock);
}
static void on_dependences(ompt_data_t *td, const ompt_dependence_t *deps, int n) {
  (void)td, (void)deps, (void)n;
  HIT(ompt_callback_dependences);
}
static void on_task_dependence(ompt_data_t *src, ompt_data_t *sink) {
  (void)src, (void)sink;
  HIT(ompt_callback_task_dependence);
}
static void on_work(ompt_work_t w, ompt_scope_endpoint_t ep, ompt_data_t *pd, ompt_data_t *td,
                    uint64_t count, const void *ra) {
  (void)w, (void)ep, (void)pd, (void)td, (void)count, (void)ra;
  HIT(ompt_callback_work);
}
static void on_masked(ompt_scope_endpoint_t ep, ompt_data_t *pd, ompt_data_t *td, const void *ra) {
  (void)ep, (void)pd, (void)td, (void)ra;
  HIT(ompt_callback_masked);
}
static void on_flush(ompt_data_t *thd, const void *ra) {
  (void)thd, (void)ra;
  HIT(ompt_callback_flush);
}
static void on_cancel(ompt_data_t *td, int flags, const void *ra) {
  (void)td, (void)flags, (void)ra;
  HIT(ompt_callback_cancel);
}
static void on_error(ompt_severity_t sev, const char *msg, size_t len, const void *ra) {
  (void)sev, (void)msg, (void)len, (void)ra;
  HIT(ompt_callback_error);
}

static void on_dispatch(ompt_data_t *pd, ompt_data_t *td, ompt_dispatch_t kind,
                        ompt_data_t instance) {
  (void)pd, (void)td, (void)kind, (void)instance;
  HIT(ompt_callback_dispatch);
}

static const struct {
  ompt_callbacks_t id;
  const char *name;
  ompt_callback_t fn;
} callbacks[] = {
#define CB(id, fn)                                                                                 \
  { id, #id, (ompt_callback_t)(fn) }
    CB(ompt_callback_thread_begin, on_thread_begin),
    CB(ompt_callback_thread_end, on_thread_end),
    CB(ompt_callback_parallel_begin, on_parallel_begin),
    CB(ompt_callback_parallel_end, on_parallel_end),
    CB(ompt_callback_task_create, on_task_create),
    CB(ompt_callback_task_schedule, on_task_schedule),
    CB(ompt_callback_implicit_task, on_implicit_task),
    CB(ompt_callback_control_tool, on_control_tool),
    CB(ompt_callback_sync_region, on_sync_region),
    CB(ompt_callback_sync_region_wait, on_sync_region_wait),
    CB(ompt_callback_reduction, on_reduction),
    CB(ompt_callback_mutex_acquire, on_mutex_acquire),
    CB(ompt_callback_mutex_acquired, on_mutex_acquired),
    CB(ompt_callback_mutex_released, on_mutex_released),
    CB(ompt_callback_lock_init, on_lock_init),
    CB(ompt_callback_lock_destroy, on_lock_destroy),
    CB(ompt_callback_nest_lock, on_nest_lock),
    CB(ompt_callback_dependences, on_dependences),
    CB(ompt_callback_task_dependence, on_task_dependence),
    CB(ompt_callback_work, on_work),
    CB(ompt_callback_masked, on_masked),
    CB(ompt_callback_flush, on_flush),
    CB(ompt_callback_cancel, on_cancel),
    CB(ompt_callback_error, on_error),
    CB(ompt_callback_dispatch, on_dispatch),
#undef CB
};

static int tool_initialize(ompt_function_lookup_t lookup, int device, ompt_data_t *data) {
  (void)device, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set)
    return 0;
  const char *reg = getenv("OT_NOOP_REGISTER");
  if (reg && strcmp(reg, "none") == 0)
    return 1;
  for (size_t i = 0; i < sizeof callbacks / sizeof callbacks[0]; i++)
    set(callbacks[i].id, callbacks[i].fn);
  return 1;
}

static void tool_finalize(ompt_data_t *data) {
  (void)data;
#ifdef OT_NOOP_COUNT
  const char *path = getenv("OT_COUNT_OUT");
  FILE *out = path && *path ? fopen(path, "w") : NULL;
  FILE *f = out ? out : stderr;
  unsigned long long total = 0;
  for (size_t i = 0; i < sizeof callbacks / sizeof callbacks[0]; i++) {
    unsigned long long n = atomic_load(&counts[callbacks[i].id]);
    total += n;
    if (n)
      fprintf(f, "%s=%llu\n", callbacks[i].name, n);
  }
  fprintf(f, "total=%llu\n", total);
  if (out)
    fclose(out);
#endif
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version) {
  (void)omp_version, (void)runtime_version;
  static ompt_start_tool_result_t result = {tool_initialize, tool_finalize, {0}};
  return &result;
}
