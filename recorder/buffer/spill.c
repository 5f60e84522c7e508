/* The spill thread: appends full chunks to <out>/.spill/<loc>.raw so a
 * thread's memory stays within its budget however long the run is. One
 * thread serves every location; owners wake it with a semaphore once half
 * of their ring is full, and at finalize what is still in memory stays
 * there (the streams read it from memory). Chunks
 * are discarded (and counted, see stream.c) only after a write failed. */
#include "buffer/buffer.h"
#include "buffer/chunk.h"
#include "buffer/record.h"
#include "core/log.h"
#include "core/output_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char spill_dir[PATH_MAX];
static sem_t wake;
static atomic_int started; /* 0 none, 1 starting/running, 2 could not start */
static atomic_int stopping;
static atomic_int failed;
static pthread_t spill_tid;
/* Serializes spill passes run inline when the thread could not start. */
static atomic_flag inline_pass = ATOMIC_FLAG_INIT;

int ot_buffer_init(const char *out_dir) {
  if (snprintf(spill_dir, sizeof spill_dir, "%s/" OT_SPILL_NAME, out_dir) >= (int)sizeof spill_dir)
    return -1;
  if (mkdir(spill_dir, 0755) != 0 && errno != EEXIST)
    return -1;
  return sem_init(&wake, 0, 0);
}

const char *ot_spill_dir(void) {
  return spill_dir;
}

static int write_all(int fd, const uint8_t *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      return -1;
    }
    if (w == 0) {
      errno = ENOSPC;
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Counts a discarded chunk's records so the stream can report them. */
static void discard(ot_ring *r, const ot_chunk *c) {
  const uint8_t *p = c->base, *end = c->base + c->used;
  uint64_t n = 0;
  while (p + sizeof(ot_rec) <= end) {
    const ot_rec *rec = (const ot_rec *)p;
    if (r->owner->lost == 0 && n == 0)
      r->lost_first_ts = rec->ts;
    r->lost_last_ts = rec->ts;
    n++;
    p += ot_rec_size(rec);
  }
  r->owner->lost += n;
}

static void spill_chunk(ot_ring *r, const ot_chunk *c) {
  if (atomic_load(&failed)) {
    discard(r, c);
    return;
  }
  char path[PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/%u.raw", spill_dir, r->owner->loc);
  if (r->fd < 0) {
    r->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (r->fd < 0)
      goto fail;
  }
  if (write_all(r->fd, c->base, c->used) != 0) {
    int err = errno;
    /* Keep the file a sequence of whole records. */
    if (ftruncate(r->fd, (off_t)r->spilled_bytes) != 0) {
    }
    errno = err;
    goto fail;
  }
  r->spilled_bytes += c->used;
  return;
fail:
  if (!atomic_exchange(&failed, 1))
    ot_warn("cannot write %s: %s; records that do not fit the buffers are dropped from now "
            "on (counted in the trace)",
            path, strerror(errno));
  discard(r, c);
}

/* Spills every FULL chunk of every ring in ring order. Returns chunks done. */
static unsigned spill_pass(void) {
  unsigned done = 0;
  uint32_t n = ot_thread_count();
  for (uint32_t loc = 0; loc < n; loc++) {
    ot_ring *r = ot_ring_get(loc);
    if (!r)
      continue;
    for (;;) {
      ot_chunk *c = &r->chunks[r->spill_next];
      if (atomic_load_explicit(&c->state, memory_order_acquire) != OT_CHUNK_FULL)
        break;
      spill_chunk(r, c);
      atomic_store_explicit(&c->state, OT_CHUNK_FREE, memory_order_release);
      r->spill_next = (r->spill_next + 1) % r->nchunks;
      done++;
    }
  }
  return done;
}

static void *spill_main(void *arg) {
  (void)arg;
  for (;;) {
    while (sem_wait(&wake) != 0 && errno == EINTR) {
    }
    /* At finalize, full chunks stay in memory: the streams read them there. */
    if (atomic_load(&stopping))
      return NULL;
    while (spill_pass() > 0) {
    }
  }
}

void ot_spill_kick(void) {
  int s = atomic_load_explicit(&started, memory_order_acquire);
  if (s == 1) {
    sem_post(&wake);
    return;
  }
  if (s == 0) {
    int expected = 0;
    if (atomic_compare_exchange_strong(&started, &expected, 1)) {
      /* No signals here: sampler timers and application handlers are for
       * OpenMP threads. */
      sigset_t all, old;
      sigfillset(&all);
      pthread_sigmask(SIG_SETMASK, &all, &old);
      int rc = pthread_create(&spill_tid, NULL, spill_main, NULL);
      pthread_sigmask(SIG_SETMASK, &old, NULL);
      if (rc == 0) {
        sem_post(&wake);
        return;
      }
      ot_warn("cannot start the spill thread: %s; spilling from the recording threads",
              strerror(rc));
      atomic_store(&started, 2);
    } else if (expected == 1) {
      sem_post(&wake);
      return;
    }
  }
  /* Fallback: spill inline, one thread at a time. */
  if (!atomic_flag_test_and_set(&inline_pass)) {
    spill_pass();
    atomic_flag_clear(&inline_pass);
  }
}

void ot_spill_stop(void) {
  if (atomic_load(&started) == 1) {
    atomic_store(&stopping, 1);
    sem_post(&wake);
    pthread_join(spill_tid, NULL);
  }
  uint32_t n = ot_thread_count();
  for (uint32_t loc = 0; loc < n; loc++) {
    ot_ring *r = ot_ring_get(loc);
    if (r && r->fd >= 0) {
      close(r->fd);
      r->fd = -1;
    }
  }
}

void ot_buffer_cleanup(void) {
  uint32_t n = ot_thread_count();
  char path[PATH_MAX + 32];
  for (uint32_t loc = 0; loc < n; loc++) {
    snprintf(path, sizeof path, "%s/%u.raw", spill_dir, loc);
    unlink(path);
  }
  rmdir(spill_dir);
}
