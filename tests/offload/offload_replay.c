/* Offload callbacks replayed through the tool: loads libomptrace.so, runs
 * its ompt_start_tool and initialize with a fake lookup that keeps the
 * registered callbacks, then calls the target, data op, submit and device
 * callbacks in the order libomp 19's libomptarget gives them for host
 * offload (docs/recording.md, "Offload"), from two threads, and finalizes.
 * tests/offload/offload.py checks the archive. Usage: offload_replay LIB emi|old
 * (old: the runtime refuses the _emi forms, as a 5.0 runtime would). */
#include <dlfcn.h>
#include <omp-tools.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static ompt_callback_t cbs[64];
static int refuse_emi;

static int set_callback(ompt_callbacks_t event, ompt_callback_t callback) {
  if (event <= 0 || event >= 64)
    return ompt_set_error;
  if (refuse_emi && event >= ompt_callback_target_emi && event <= ompt_callback_target_map_emi)
    return ompt_set_never;
  cbs[event] = callback;
  return ompt_set_always;
}

static ompt_interface_fn_t lookup(const char *name) {
  return strcmp(name, "ompt_set_callback") == 0 ? (ompt_interface_fn_t)set_callback : NULL;
}

#define CB(ev) ((ompt_callback_##ev##_t)cbs[ompt_callback_##ev])

/* A return address on the caller's line: the code pointer of a construct. */
static __attribute__((noinline)) const void *here(void) {
  return __builtin_return_address(0);
}

static void target(ompt_target_t kind, ompt_scope_endpoint_t ep, int dev, const void *cp) {
  ompt_data_t task = {0}, target_task = {0}, target_data = {0};
  if (cbs[ompt_callback_target_emi])
    CB(target_emi)(kind, ep, dev, &task, &target_task, &target_data, cp);
  else
    CB(target)(kind, ep, dev, &task, 1, cp);
}

static void data_op(ompt_target_data_op_t op, int src, int dest, size_t bytes, const void *cp) {
  ompt_data_t target_data = {0};
  ompt_id_t host_op = 0;
  static char host[8], device[8];
  ompt_callback_target_data_op_emi_t emi = CB(target_data_op_emi);
  if (emi) {
    /* A transfer takes time: 2 us at least between its begin and end, so
     * its region has a duration however fast the machine stamps events. */
    emi(ompt_scope_begin, NULL, &target_data, &host_op, op, host, src, device, dest, bytes, cp);
    nanosleep(&(struct timespec){0, 2000}, NULL);
    emi(ompt_scope_end, NULL, &target_data, &host_op, op, host, src, device, dest, bytes, cp);
  } else {
    CB(target_data_op)(1, 2, op, host, src, device, dest, bytes, cp);
  }
}

static void submit(unsigned teams) {
  ompt_data_t target_data = {0};
  ompt_id_t host_op = 0;
  if (cbs[ompt_callback_target_submit_emi]) {
    CB(target_submit_emi)(ompt_scope_begin, &target_data, &host_op, teams);
    CB(target_submit_emi)(ompt_scope_end, &target_data, &host_op, teams);
  } else {
    CB(target_submit)(1, 2, teams);
  }
}

enum { HOST = 4 }; /* libomp's host device: omp_get_num_devices() */

/* One `target map(to: a[0:1000]) map(from: b[0:500])` with 4 teams. */
static void target_region(int dev) {
  const void *cp = here();
  target(ompt_target, ompt_scope_begin, dev, cp);
  data_op(ompt_target_data_alloc, HOST, dev, 8000, cp);
  data_op(ompt_target_data_alloc, HOST, dev, 4000, cp);
  data_op(ompt_target_data_transfer_to_device, HOST, dev, 8000, cp);
  submit(4);
  data_op(ompt_target_data_transfer_from_device, dev, HOST, 4000, cp);
  data_op(ompt_target_data_delete, dev, -1, 0, cp);
  data_op(ompt_target_data_delete, dev, -1, 0, cp);
  target(ompt_target, ompt_scope_end, dev, cp);
}

/* enter data map(to: c[0:100]), update from(c), exit data map(delete: c) */
static void data_regions(int dev) {
  const void *cp = here();
  target(ompt_target_enter_data, ompt_scope_begin, dev, cp);
  data_op(ompt_target_data_alloc, HOST, dev, 800, cp);
  data_op(ompt_target_data_transfer_to_device, HOST, dev, 800, cp);
  target(ompt_target_enter_data, ompt_scope_end, dev, cp);
  cp = here();
  target(ompt_target_update, ompt_scope_begin, dev, cp);
  data_op(ompt_target_data_transfer_from_device, dev, HOST, 800, cp);
  target(ompt_target_update, ompt_scope_end, dev, cp);
  cp = here();
  target(ompt_target_exit_data, ompt_scope_begin, dev, cp);
  data_op(ompt_target_data_delete, dev, -1, 0, cp);
  target(ompt_target_exit_data, ompt_scope_end, dev, cp);
}

static void *second(void *arg) {
  (void)arg;
  ompt_data_t thread = {0};
  CB(thread_begin)(ompt_thread_initial, &thread);
  for (int i = 0; i < 2; i++)
    target_region(1);
  CB(thread_end)(&thread);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[2], "emi") != 0 && strcmp(argv[2], "old") != 0)) {
    fprintf(stderr, "usage: offload_replay LIBOMPTRACE emi|old\n");
    return 2;
  }
  refuse_emi = strcmp(argv[2], "old") == 0;
  void *lib = dlopen(argv[1], RTLD_NOW);
  ompt_start_tool_result_t *(*start)(unsigned, const char *) =
      lib ? (ompt_start_tool_result_t * (*)(unsigned, const char *)) dlsym(lib, "ompt_start_tool")
          : NULL;
  ompt_start_tool_result_t *tool = start ? start(201611, "offload_replay") : NULL;
  if (!tool || !tool->initialize(lookup, 0, &tool->tool_data)) {
    fprintf(stderr, "offload_replay: cannot start the tool in %s: %s\n", argv[1], dlerror());
    return 1;
  }
  ompt_data_t thread = {0};
  CB(thread_begin)(ompt_thread_initial, &thread);
  CB(device_initialize)(0, "generic-64bit", NULL, lookup, NULL);
  CB(device_initialize)(1, "generic-64bit", NULL, lookup, NULL);
  CB(device_load)(0, NULL, 0, NULL, 19104, NULL, NULL, 0);
  for (int i = 0; i < 3; i++)
    target_region(0);
  pthread_t t;
  if (pthread_create(&t, NULL, second, NULL) != 0 || pthread_join(t, NULL) != 0)
    return 1;
  data_regions(0);
  CB(device_finalize)(0);
  CB(device_finalize)(1);
  CB(thread_end)(&thread);
  tool->finalize(&tool->tool_data);
  return 0;
}
