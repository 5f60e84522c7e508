/* The runtime half of OMPT for tool tests without libomp: see
 * fake_runtime.h. Only what a tool may ask for at initialize is offered;
 * everything else looks up as NULL, as a minimal runtime would. */
#include "fake_runtime.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

ompt_callback_t fake_cb[64];
static __thread ompt_data_t thread_data;

static ompt_set_result_t set_callback(ompt_callbacks_t event, ompt_callback_t fn) {
  if ((unsigned)event >= 64)
    return ompt_set_never;
  fake_cb[event] = fn;
  return ompt_set_always;
}

ompt_data_t *fake_thread_data(void) {
  return &thread_data;
}

static ompt_interface_fn_t lookup(const char *name) {
  if (strcmp(name, "ompt_set_callback") == 0)
    return (ompt_interface_fn_t)set_callback;
  if (strcmp(name, "ompt_get_thread_data") == 0)
    return (ompt_interface_fn_t)fake_thread_data;
  return NULL;
}

ompt_start_tool_result_t *fake_runtime_start(const char *path, ompt_data_t *tool_data) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    fprintf(stderr, "fake runtime: %s\n", dlerror());
    return NULL;
  }
  typedef ompt_start_tool_result_t *(*start_fn)(unsigned int, const char *);
  start_fn start = (start_fn)dlsym(h, "ompt_start_tool");
  ompt_start_tool_result_t *tool = start ? start(201611, "fake runtime") : NULL;
  if (!tool) {
    fprintf(stderr, "fake runtime: %s has no OMPT tool\n", path);
    return NULL;
  }
  if (!tool->initialize(lookup, 0, tool_data)) {
    fprintf(stderr, "fake runtime: the tool declined to start\n");
    return NULL;
  }
  return tool;
}

int fake_runtime_has(const ompt_callbacks_t *events, int n) {
  for (int i = 0; i < n; i++)
    if (!fake_cb[events[i]]) {
      fprintf(stderr, "fake runtime: the tool did not register callback %d\n", (int)events[i]);
      return 0;
    }
  return 1;
}
