/* tsan_stress: plays the OpenMP runtime for several pthreads at once so
 * ThreadSanitizer sees every cross-thread access of the recorder: the
 * thread registry, call-site table, chunk hand-offs to the flusher
 * (a tiny OMPTRACE_BUFFER_SIZE makes them constant), the parallel_data a
 * master publishes to its team, and finalize.
 *
 *   tsan_stress TOOL.so complete|exit
 *
 * Threads (location order: main first, then the workers as they start):
 *   main         initial thread, MAIN_ITERS teams of one, then waits;
 *   pair master  initial thread, forks teams of two with the pair member;
 *   pair member  worker thread of those teams;
 *   solo         initial thread, teams of one.
 * Every iteration is one parallel region whose implicit tasks each run the
 * same body: explicit barrier, a lock shared by all threads (really held
 * between acquired and released), an explicit task, a loop.
 *
 * complete: every thread finishes (thread_end), then the tool's finalize.
 * exit: main calls finalize while the workers are still emitting (as at
 * exit() inside a parallel region), once each did MIN_ITERS iterations.
 *
 * Prints one line per thread: role, iterations done and the iterations
 * that were certainly done before finalize began. */
#include "fake_runtime.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define MAIN_ITERS 40
#define PAIR_ITERS 5000
#define SOLO_ITERS 7000
#define MIN_ITERS 1000 /* exit mode: before finalize */

/* Call sites inside this program so regions resolve to its lines. */
static void site_parallel(void) {}
static void site_barrier(void) {}
static void site_lock(void) {}
static void site_task_a(void) {}
static void site_task_b(void) {}
static void site_loop(void) {}
#define RA(f) ((const void *)((const char *)(f) + 1))

static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int stop;
static int exit_mode;

/* The pair's fork and join points and the master's decision to go on. */
static pthread_barrier_t fork_point, join_point;
static int pair_go;
static ompt_data_t pair_parallel;

typedef struct worker {
  const char *role;
  atomic_long iters;
  long iters_at_finalize;
} worker;

/* Progress is relaxed on purpose: an acquire in main would order every
 * record written so far before finalize and hide races from TSan. (On x86
 * a thread's stores are seen in order, so records published before the
 * count are still in the snapshot finalize takes.) */
static void progress(worker *w, long iters) {
  atomic_store_explicit(&w->iters, iters, memory_order_relaxed);
}
static long progress_of(worker *w) {
  return atomic_load_explicit(&w->iters, memory_order_relaxed);
}

static worker workers[3] = {{.role = "pair_master"}, {.role = "pair_member"}, {.role = "solo"}};
static worker main_worker = {.role = "main"};

/* The body of one implicit task: 12 records. */
static void body(ompt_data_t *parallel, ompt_data_t *implicit, ompt_data_t *task, long i) {
  FAKE_CB(sync_region)
  (ompt_sync_region_barrier_explicit, ompt_scope_begin, parallel, implicit, RA(site_barrier));
  FAKE_CBT(sync_region_wait, sync_region)
  (ompt_sync_region_barrier_explicit, ompt_scope_begin, parallel, implicit, RA(site_barrier));
  FAKE_CBT(sync_region_wait, sync_region)
  (ompt_sync_region_barrier_explicit, ompt_scope_end, parallel, implicit, RA(site_barrier));
  FAKE_CB(sync_region)
  (ompt_sync_region_barrier_explicit, ompt_scope_end, parallel, implicit, RA(site_barrier));

  ompt_wait_id_t w = (ompt_wait_id_t)(uintptr_t)&shared_lock;
  FAKE_CB(mutex_acquire)(ompt_mutex_lock, 0, 0, w, RA(site_lock));
  pthread_mutex_lock(&shared_lock);
  FAKE_CBT(mutex_acquired, mutex)(ompt_mutex_lock, w, RA(site_lock));
  FAKE_CBT(mutex_released, mutex)(ompt_mutex_lock, w, RA(site_lock));
  pthread_mutex_unlock(&shared_lock);

  /* Two creation sites, so threads race to enter both in the site table. */
  FAKE_CB(task_create)
  (implicit, NULL, task, ompt_task_explicit, 0, i % 2 ? RA(site_task_a) : RA(site_task_b));
  FAKE_CB(task_schedule)(implicit, ompt_task_switch, task);
  FAKE_CB(task_schedule)(task, ompt_task_complete, implicit);

  FAKE_CB(work)(ompt_work_loop, ompt_scope_begin, parallel, implicit, 64, RA(site_loop));
  FAKE_CB(work)(ompt_work_loop, ompt_scope_end, parallel, implicit, 64, RA(site_loop));
}

/* One member's implicit task, end barrier included (libomp passes NULL
 * parallel data at the barrier's end and the implicit task's end). */
static void implicit_task(ompt_data_t *parallel, unsigned size, unsigned index, long i) {
  ompt_data_t implicit = {0}, task = {0};
  FAKE_CB(implicit_task)(ompt_scope_begin, parallel, &implicit, size, index, ompt_task_implicit);
  body(parallel, &implicit, &task, i);
  ompt_sync_region_t b = ompt_sync_region_barrier_implicit_parallel;
  FAKE_CB(sync_region)(b, ompt_scope_begin, parallel, &implicit, RA(site_parallel));
  FAKE_CBT(sync_region_wait, sync_region)
  (b, ompt_scope_begin, parallel, &implicit, RA(site_parallel));
  FAKE_CBT(sync_region_wait, sync_region)(b, ompt_scope_end, NULL, &implicit, RA(site_parallel));
  FAKE_CB(sync_region)(b, ompt_scope_end, NULL, &implicit, RA(site_parallel));
  FAKE_CB(implicit_task)(ompt_scope_end, NULL, &implicit, size, index, ompt_task_implicit);
}

static const int fork_flags = ompt_parallel_invoker_program | ompt_parallel_team;

static void team_of_one(ompt_data_t *initial, long i) {
  ompt_data_t parallel = {0};
  FAKE_CB(parallel_begin)(initial, NULL, &parallel, 1, fork_flags, RA(site_parallel));
  implicit_task(&parallel, 1, 0, i);
  FAKE_CB(parallel_end)(&parallel, initial, fork_flags, RA(site_parallel));
}

static void thread_begin(ompt_thread_t type, ompt_data_t *initial) {
  FAKE_CB(thread_begin)(type, fake_thread_data());
  if (initial)
    FAKE_CB(implicit_task)(ompt_scope_begin, NULL, initial, 1, 1, ompt_task_initial);
}

static void thread_end(ompt_data_t *initial) {
  if (initial)
    FAKE_CB(implicit_task)(ompt_scope_end, NULL, initial, 1, 1, ompt_task_initial);
  FAKE_CB(thread_end)(fake_thread_data());
}

static int go_on(long i, long limit) {
  return exit_mode ? !atomic_load_explicit(&stop, memory_order_relaxed) : i < limit;
}

static void *pair_master(void *arg) {
  worker *me = arg;
  ompt_data_t initial = {0};
  thread_begin(ompt_thread_initial, &initial);
  for (long i = 0;; i++) {
    int go = go_on(i, PAIR_ITERS);
    if (go)
      FAKE_CB(parallel_begin)(&initial, NULL, &pair_parallel, 2, fork_flags, RA(site_parallel));
    pair_go = go;
    pthread_barrier_wait(&fork_point);
    if (!go)
      break;
    implicit_task(&pair_parallel, 2, 0, i);
    pthread_barrier_wait(&join_point);
    FAKE_CB(parallel_end)(&pair_parallel, &initial, fork_flags, RA(site_parallel));
    progress(me, i + 1);
  }
  thread_end(&initial);
  return NULL;
}

static void *pair_member(void *arg) {
  worker *me = arg;
  thread_begin(ompt_thread_worker, NULL);
  for (long i = 0;; i++) {
    pthread_barrier_wait(&fork_point);
    if (!pair_go)
      break;
    implicit_task(&pair_parallel, 2, 1, i);
    progress(me, i + 1);
    pthread_barrier_wait(&join_point);
  }
  thread_end(NULL);
  return NULL;
}

static void *solo(void *arg) {
  worker *me = arg;
  ompt_data_t initial = {0};
  thread_begin(ompt_thread_initial, &initial);
  for (long i = 0; go_on(i, SOLO_ITERS); i++) {
    team_of_one(&initial, i);
    progress(me, i + 1);
  }
  thread_end(&initial);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[2], "complete") != 0 && strcmp(argv[2], "exit") != 0)) {
    fprintf(stderr, "usage: tsan_stress TOOL.so complete|exit\n");
    return 2;
  }
  exit_mode = strcmp(argv[2], "exit") == 0;
  ompt_data_t tool_data = {0};
  ompt_start_tool_result_t *tool = fake_runtime_start(argv[1], &tool_data);
  static const ompt_callbacks_t needed[] = {
      ompt_callback_thread_begin,     ompt_callback_thread_end,     ompt_callback_parallel_begin,
      ompt_callback_parallel_end,     ompt_callback_implicit_task,  ompt_callback_sync_region,
      ompt_callback_sync_region_wait, ompt_callback_work,           ompt_callback_mutex_acquire,
      ompt_callback_mutex_acquired,   ompt_callback_mutex_released, ompt_callback_task_create,
      ompt_callback_task_schedule};
  if (!tool || !fake_runtime_has(needed, (int)(sizeof needed / sizeof needed[0])))
    return 1;

  ompt_data_t initial = {0};
  thread_begin(ompt_thread_initial, &initial);
  for (long i = 0; i < MAIN_ITERS; i++)
    team_of_one(&initial, i);
  progress(&main_worker, MAIN_ITERS);
  main_worker.iters_at_finalize = MAIN_ITERS;

  pthread_barrier_init(&fork_point, NULL, 2);
  pthread_barrier_init(&join_point, NULL, 2);
  void *(*start[3])(void *) = {pair_master, pair_member, solo};
  pthread_t tid[3];
  for (int k = 0; k < 3; k++)
    if (pthread_create(&tid[k], NULL, start[k], &workers[k]) != 0) {
      fprintf(stderr, "tsan_stress: cannot start a thread\n");
      return 1;
    }

  if (exit_mode) {
    /* Wait until every worker is well under way, then finalize under it. */
    for (int k = 0; k < 3; k++)
      while (progress_of(&workers[k]) < MIN_ITERS) {
        struct timespec nap = {0, 1000000};
        nanosleep(&nap, NULL);
      }
    for (int k = 0; k < 3; k++)
      workers[k].iters_at_finalize = progress_of(&workers[k]);
    tool->finalize(&tool_data);
    atomic_store(&stop, 1);
    for (int k = 0; k < 3; k++)
      pthread_join(tid[k], NULL);
  } else {
    for (int k = 0; k < 3; k++)
      pthread_join(tid[k], NULL);
    for (int k = 0; k < 3; k++)
      workers[k].iters_at_finalize = progress_of(&workers[k]);
    thread_end(&initial);
    tool->finalize(&tool_data);
  }

  printf("role=%s iters=%ld before_finalize=%ld\n", main_worker.role, progress_of(&main_worker),
         main_worker.iters_at_finalize);
  for (int k = 0; k < 3; k++)
    printf("role=%s iters=%ld before_finalize=%ld\n", workers[k].role, progress_of(&workers[k]),
           workers[k].iters_at_finalize);
  return 0;
}
