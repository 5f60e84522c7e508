/* The hand-off between the replay and the writer thread: a ring of a few
 * fixed batches, filled in order by the replay and played in the same order
 * by the thread, so the events reach OTF2 in the order they were made. */
#include "finalize/evt_queue.h"

#include "core/log.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

/* 8 x 128 KiB: each hand-off moves about 5 000 events, and the replay runs
 * up to seven batches ahead of the writer (it waits when all are full), so
 * a writer that is not scheduled at once rarely holds the replay up. */
#define BATCH_WORDS (16384)
#define NBATCH 8
/* The thread calls OTF2 and write(2) only. */
#define STACK_SIZE (1u << 20)

uint64_t *ot_evtq_pos, *ot_evtq_end;
OTF2_ErrorCode ot_evtq_error;

static uint64_t *store; /* NBATCH batches of BATCH_WORDS */
static ot_evtq_play_fn play_fn;
static pthread_t writer;
static pthread_mutex_t mu;
static pthread_cond_t to_writer, to_replay;
/* Under mu: words in each batch handed over (0: free), no more batches
 * will come, the writer's first error. */
static size_t filled[NBATCH];
static int done;
static OTF2_ErrorCode writer_err;
static uint32_t fill_at; /* the batch the replay fills (replay only) */
/* For OMPTRACE_VERBOSE: batches handed over, the replay's waits for a free
 * one, the writer's CPU time and its waits for a full one. */
static uint64_t handoffs, replay_wait_ns, writer_cpu_ns, writer_wait_ns;

static uint64_t clock_ns(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t *batch(uint32_t i) {
  return store + (size_t)i * BATCH_WORDS;
}

static void *writer_main(void *arg) {
  (void)arg;
  OTF2_ErrorCode err = OTF2_SUCCESS;
  uint32_t at = 0;
  pthread_mutex_lock(&mu);
  for (;;) {
    if (!filled[at] && !done) {
      uint64_t t0 = clock_ns(CLOCK_MONOTONIC);
      while (!filled[at] && !done)
        pthread_cond_wait(&to_writer, &mu);
      writer_wait_ns += clock_ns(CLOCK_MONOTONIC) - t0;
    }
    size_t n = filled[at];
    if (!n) /* done, and every batch handed over is played */
      break;
    pthread_mutex_unlock(&mu);
    play_fn(batch(at), n, &err);
    pthread_mutex_lock(&mu);
    filled[at] = 0;
    writer_err = err;
    pthread_cond_signal(&to_replay);
    at = (at + 1) % NBATCH;
  }
  writer_cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
  pthread_mutex_unlock(&mu);
  return NULL;
}

/* Back to no queue: the lock, the conditions and the batches go. */
static void release(void) {
  pthread_mutex_destroy(&mu);
  pthread_cond_destroy(&to_writer);
  pthread_cond_destroy(&to_replay);
  free(store);
  store = NULL;
  ot_evtq_pos = ot_evtq_end = NULL;
}

int ot_evtq_start(ot_evtq_play_fn play) {
  store = malloc((size_t)NBATCH * BATCH_WORDS * sizeof *store);
  if (!store)
    return -1;
  play_fn = play;
  for (uint32_t i = 0; i < NBATCH; i++)
    filled[i] = 0;
  done = 0;
  handoffs = replay_wait_ns = writer_cpu_ns = writer_wait_ns = 0;
  writer_err = ot_evtq_error = OTF2_SUCCESS;
  fill_at = 0;
  ot_evtq_pos = batch(0);
  ot_evtq_end = ot_evtq_pos + BATCH_WORDS;
  pthread_mutex_init(&mu, NULL);
  pthread_cond_init(&to_writer, NULL);
  pthread_cond_init(&to_replay, NULL);
  /* No signals on it: sampler timers, crash and snapshot handlers are for
   * the program's threads. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_attr_t attr;
  int rc = pthread_attr_init(&attr);
  if (rc == 0) {
    pthread_attr_setstacksize(&attr, STACK_SIZE);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&writer, &attr, writer_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
  }
  if (rc != 0) {
    release();
    return -1;
  }
  return 0;
}

OTF2_ErrorCode ot_evtq_handoff(void) {
  size_t n = (size_t)(ot_evtq_pos - batch(fill_at));
  pthread_mutex_lock(&mu);
  if (n) {
    filled[fill_at] = n;
    handoffs++;
    pthread_cond_signal(&to_writer);
    fill_at = (fill_at + 1) % NBATCH;
    if (filled[fill_at]) {
      uint64_t t0 = clock_ns(CLOCK_MONOTONIC);
      while (filled[fill_at])
        pthread_cond_wait(&to_replay, &mu);
      replay_wait_ns += clock_ns(CLOCK_MONOTONIC) - t0;
    }
  }
  ot_evtq_error = writer_err;
  pthread_mutex_unlock(&mu);
  ot_evtq_pos = batch(fill_at);
  ot_evtq_end = ot_evtq_pos + BATCH_WORDS;
  return ot_evtq_error;
}

OTF2_ErrorCode ot_evtq_finish(void) {
  if (!store)
    return OTF2_SUCCESS;
  size_t n = (size_t)(ot_evtq_pos - batch(fill_at));
  pthread_mutex_lock(&mu);
  filled[fill_at] = n;
  done = 1;
  pthread_cond_signal(&to_writer);
  pthread_mutex_unlock(&mu);
  pthread_join(writer, NULL);
  ot_verbose("writer thread: %llu batches, %.3f s CPU, waited %.3f s for the replay; the replay "
             "waited %.3f s for it",
             (unsigned long long)handoffs + (n != 0), (double)writer_cpu_ns * 1e-9,
             (double)writer_wait_ns * 1e-9, (double)replay_wait_ns * 1e-9);
  OTF2_ErrorCode err = writer_err;
  release();
  ot_evtq_error = err;
  return err;
}
