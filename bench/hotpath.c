/* ot_hotpath: the recording cost per event without libomp in the way.
 * Loads an OMPT tool library (omptrace or the no-op tool), plays the OpenMP
 * runtime for one thread (initialize, thread_begin, initial task) and calls
 * the tool's callbacks directly in well-formed sequences, timing blocks of
 * them. One thread and no spinning partner make the figure far less
 * sensitive to a busy machine than the 2-thread kernels; the difference
 * between the two tools is what recording adds per event. Finally calls
 * the tool's finalize and times it (omptrace writes its archive there).
 *
 *   ot_hotpath TOOL.so [--blocks N] [--iters N] [--settle MS] [--only SEQUENCE]
 *
 * --settle MS sleeps that long after each sequence's warm-up block, so
 * decisions taken off the hot path (OMPTRACE_FILTER) are in place before
 * the timed blocks.
 *
 * Prints one key=value line per sequence and one for finalize. */
#include <dlfcn.h>
#include <omp-tools.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static ompt_callback_t cb[64];

static ompt_set_result_t set_callback(ompt_callbacks_t event, ompt_callback_t fn) {
  if ((unsigned)event >= 64)
    return ompt_set_never;
  cb[event] = fn;
  return ompt_set_always;
}

static ompt_interface_fn_t lookup(const char *name) {
  if (strcmp(name, "ompt_set_callback") == 0)
    return (ompt_interface_fn_t)set_callback;
  return NULL; /* the tool must cope with a runtime offering little */
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Source addresses inside this program, so the archive's regions resolve. */
static void site_a(void) {}
static void site_b(void) {}
#define RA_A ((const void *)((const char *)site_a + 1))
#define RA_B ((const void *)((const char *)site_b + 1))

/* The callback registered for `event`, cast to the signature of `type`. */
#define CBT(event, type) ((ompt_callback_##type##_t)cb[ompt_callback_##event])
#define CB(event) CBT(event, event)

static ompt_data_t initial_task, parallel, implicit_task, new_task, thread_data;
static int lock_word;

/* Each sequence leaves every region it opens closed. */
static void seq_sync(void) {
  CB(sync_region)(ompt_sync_region_barrier_explicit, ompt_scope_begin, NULL, &initial_task, RA_A);
  CBT(sync_region_wait, sync_region)
  (ompt_sync_region_barrier_explicit, ompt_scope_begin, NULL, &initial_task, RA_A);
  CBT(sync_region_wait, sync_region)
  (ompt_sync_region_barrier_explicit, ompt_scope_end, NULL, &initial_task, RA_A);
  CB(sync_region)(ompt_sync_region_barrier_explicit, ompt_scope_end, NULL, &initial_task, RA_A);
}

static void seq_work(void) {
  CB(work)(ompt_work_loop, ompt_scope_begin, NULL, &initial_task, 100, RA_B);
  CB(work)(ompt_work_loop, ompt_scope_end, NULL, &initial_task, 100, RA_B);
}

static void seq_lock(void) {
  ompt_wait_id_t w = (ompt_wait_id_t)(uintptr_t)&lock_word;
  CB(mutex_acquire)(ompt_mutex_lock, 0, 0, w, RA_A);
  CBT(mutex_acquired, mutex)(ompt_mutex_lock, w, RA_A);
  CBT(mutex_released, mutex)(ompt_mutex_lock, w, RA_A);
}

static void seq_task(void) {
  CB(task_create)(&initial_task, NULL, &new_task, ompt_task_explicit, 0, RA_B);
  CB(task_schedule)(&initial_task, ompt_task_switch, &new_task);
  CB(task_schedule)(&new_task, ompt_task_complete, &initial_task);
}

/* A team of one: fork, implicit task, end barrier, join. */
static void seq_parallel(void) {
  int flags = ompt_parallel_invoker_program | ompt_parallel_team;
  CB(parallel_begin)(&initial_task, NULL, &parallel, 1, flags, RA_A);
  CB(implicit_task)(ompt_scope_begin, &parallel, &implicit_task, 1, 0, ompt_task_implicit);
  CB(sync_region)
  (ompt_sync_region_barrier_implicit_parallel, ompt_scope_begin, &parallel, &implicit_task, RA_A);
  CBT(sync_region_wait, sync_region)
  (ompt_sync_region_barrier_implicit_parallel, ompt_scope_begin, &parallel, &implicit_task, RA_A);
  CBT(sync_region_wait, sync_region)
  (ompt_sync_region_barrier_implicit_parallel, ompt_scope_end, NULL, &implicit_task, RA_A);
  CB(sync_region)
  (ompt_sync_region_barrier_implicit_parallel, ompt_scope_end, NULL, &implicit_task, RA_A);
  CB(implicit_task)(ompt_scope_end, NULL, &implicit_task, 1, 0, ompt_task_implicit);
  CB(parallel_end)(&parallel, &initial_task, flags, RA_A);
}

/* A loop chunk (ompt_dispatch_ws_loop_chunk = 3 in libomp 15 and later;
 * alone, outside a loop: finalize drops it, the recording cost is all). */
static void seq_dispatch(void) {
  static struct { uint64_t start, iterations; } chunk = {0, 10};
  chunk.start += 10;
  CB(dispatch)(NULL, &implicit_task, (ompt_dispatch_t)3, (ompt_data_t){.ptr = &chunk});
}

static const struct {
  const char *name;
  int events;
  void (*run)(void);
} seqs[] = {
    {"sync", 4, seq_sync}, {"work", 2, seq_work},         {"lock", 3, seq_lock},
    {"task", 3, seq_task}, {"parallel", 8, seq_parallel}, {"dispatch", 1, seq_dispatch},
};

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int blocks = 15;
  long iters = 20000, settle_ms = 0;
  const char *only = NULL;
  const char *lib = NULL;
  int bad = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--blocks") == 0 && i + 1 < argc)
      blocks = atoi(argv[++i]);
    else if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc)
      iters = atol(argv[++i]);
    else if (strcmp(argv[i], "--settle") == 0 && i + 1 < argc)
      settle_ms = atol(argv[++i]);
    else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
      only = argv[++i];
    else if (!lib && argv[i][0] != '-')
      lib = argv[i];
    else
      bad = 1;
  }
  if (bad || !lib || blocks < 1 || blocks > 1000 || iters < 1) {
    fprintf(stderr,
            "usage: ot_hotpath TOOL.so [--blocks N] [--iters N] [--settle MS] [--only SEQ]\n");
    return 2;
  }
  void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  typedef ompt_start_tool_result_t *(*start_fn)(unsigned int, const char *);
  start_fn start = h ? (start_fn)dlsym(h, "ompt_start_tool") : NULL;
  ompt_start_tool_result_t *tool = start ? start(201611, "ot_hotpath") : NULL;
  if (!tool) {
    fprintf(stderr, "ot_hotpath: %s: no OMPT tool (%s)\n", lib, h ? "no result" : dlerror());
    return 1;
  }
  ompt_data_t tool_data = {0};
  if (!tool->initialize(lookup, 0, &tool_data)) {
    fprintf(stderr, "ot_hotpath: the tool declined to start\n");
    return 1;
  }
  static const ompt_callbacks_t needed[] = {
      ompt_callback_thread_begin,     ompt_callback_thread_end,     ompt_callback_parallel_begin,
      ompt_callback_parallel_end,     ompt_callback_implicit_task,  ompt_callback_sync_region,
      ompt_callback_sync_region_wait, ompt_callback_work,           ompt_callback_mutex_acquire,
      ompt_callback_mutex_acquired,   ompt_callback_mutex_released, ompt_callback_lock_init,
      ompt_callback_lock_destroy,     ompt_callback_task_create,    ompt_callback_task_schedule};
  for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++)
    if (!cb[needed[i]]) {
      fprintf(stderr, "ot_hotpath: the tool did not register callback %d\n", (int)needed[i]);
      return 1;
    }

  uint64_t events = 0;
  CB(thread_begin)(ompt_thread_initial, &thread_data);
  CB(implicit_task)(ompt_scope_begin, NULL, &initial_task, 1, 1, ompt_task_initial);
  events += 2;
  ompt_wait_id_t w = (ompt_wait_id_t)(uintptr_t)&lock_word;
  CBT(lock_init, mutex_acquire)(ompt_mutex_lock, 0, 0, w, RA_A);
  events++;

  double per[1000];
  for (size_t s = 0; s < sizeof seqs / sizeof seqs[0]; s++) {
    if (only && strcmp(only, seqs[s].name) != 0)
      continue;
    if (seqs[s].run == seq_dispatch && !cb[ompt_callback_dispatch])
      continue;                         /* OMPTRACE_CHUNKS=off, or a tool without it */
    for (int b = -1; b < blocks; b++) { /* block -1 warms up */
      uint64_t t0 = now_ns();
      for (long i = 0; i < iters; i++)
        seqs[s].run();
      uint64_t dt = now_ns() - t0;
      if (b >= 0)
        per[b] = (double)dt / (double)(iters * seqs[s].events);
      else if (settle_ms > 0)
        nanosleep(&(struct timespec){settle_ms / 1000, settle_ms % 1000 * 1000000L}, NULL);
    }
    events += (uint64_t)(blocks + 1) * (uint64_t)iters * (uint64_t)seqs[s].events;
    qsort(per, (size_t)blocks, sizeof(double), cmp_double);
    printf("sequence=%s events_per_iter=%d best_ns_per_event=%.2f median_ns_per_event=%.2f\n",
           seqs[s].name, seqs[s].events, per[0], per[blocks / 2]);
  }

  CBT(lock_destroy, mutex)(ompt_mutex_lock, w, RA_A);
  CB(implicit_task)(ompt_scope_end, NULL, &initial_task, 1, 1, ompt_task_initial);
  CB(thread_end)(&thread_data);
  events += 3;
  uint64_t t0 = now_ns();
  tool->finalize(&tool_data);
  double fin = (double)(now_ns() - t0);
  printf("finalize_ms=%.1f events=%llu finalize_ns_per_event=%.1f\n", fin / 1e6,
         (unsigned long long)events, fin / (double)events);
  return 0;
}
