/* rec_ring_resident: which pages of a thread's buffer are resident, page by
 * page (mincore), as the thread records: the head after thread_begin, then
 * exactly the pages the thread has written (the buffer is touched only as
 * it is used), across a chunk hand-off too; and nothing is written to the
 * log while less than half of the ring is full.
 *
 *   rec_ring_resident TOOL.so WORKDIR
 *
 * Plays the OpenMP runtime for one thread (tests/tsan/fake_runtime.c). The
 * configuration fixes the geometry: a 2 MiB buffer is 4 chunks of 512 KiB,
 * all in 4 KiB pages (transparent huge pages start past 2 MiB), and the
 * head is OT_BUFFER_HEAD. */
#define _GNU_SOURCE /* nftw */
#include "../tsan/fake_runtime.h"
#include "buffer/buffer.h"
#include "buffer/chunk.h"
#include "core/thread.h"

#include <errno.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAGE 4096u
#define BUF (2u << 20)
#define CHUNK (512u << 10)

static int failures;

/* Bytes from `mem` that are resident, if they are exactly a prefix of the
 * buffer; otherwise -1 - (first resident page past a hole). */
static long resident_prefix(const uint8_t *mem) {
  static unsigned char vec[BUF / PAGE];
  if (mincore((void *)mem, BUF, vec) != 0) {
    perror("mincore");
    exit(1);
  }
  size_t n = 0;
  while (n < BUF / PAGE && (vec[n] & 1))
    n++;
  for (size_t i = n; i < BUF / PAGE; i++)
    if (vec[i] & 1)
      return -1 - (long)i;
  return (long)(n * PAGE);
}

static void expect_resident(const char *step, const uint8_t *mem, long want) {
  long got = resident_prefix(mem);
  if (got == want) {
    printf("ok: %s: first %ld KiB resident\n", step, want >> 10);
    return;
  }
  failures++;
  if (got < 0)
    printf("FAIL: %s: want the first %ld KiB resident, page %ld resident past a hole\n", step,
           want >> 10, -1 - got);
  else
    printf("FAIL: %s: want the first %ld KiB resident, got %ld KiB\n", step, want >> 10, got >> 10);
}

static void expect_no_log(const char *step, const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/.log/0.log", dir);
  struct stat st;
  if (stat(path, &st) == 0) {
    failures++;
    printf("FAIL: %s: the flusher wrote %s (%lld bytes) before half of the ring was full\n", step,
           path, (long long)st.st_size);
  } else {
    printf("ok: %s: nothing written to the log yet\n", step);
  }
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

static ompt_data_t initial_task;
static void site(void) {}

/* Records (32 bytes each: no counters) until the append position is at
 * least `upto` bytes into the buffer; returns the bytes it covers then. */
static size_t record_until(ot_thread *t, const uint8_t *mem, size_t upto) {
  while ((size_t)(atomic_load(&t->cur) - mem) < upto) {
    FAKE_CB(work)(ompt_work_loop, ompt_scope_begin, NULL, &initial_task, 8, (const char *)site + 1);
    FAKE_CB(work)(ompt_work_loop, ompt_scope_end, NULL, &initial_task, 8, (const char *)site + 1);
  }
  return (size_t)(atomic_load(&t->cur) - mem);
}

static long pages_of(size_t bytes) {
  return (long)((bytes + PAGE - 1) / PAGE * PAGE);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: rec_ring_resident TOOL.so WORKDIR\n");
    return 2;
  }
  const char *dir = argv[2];
  nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS); /* a fresh archive directory */
  setenv("OMPTRACE_OUTPUT", dir, 1);
  setenv("OMPTRACE_BUFFER_SIZE", "2M", 1);
  setenv("OMPTRACE_FLUSH_INTERVAL", "0", 1); /* no periodic pass */
  setenv("OMPTRACE_QUIET", "1", 1);
  unsetenv("OMPTRACE_METRICS");
  unsetenv("OMPTRACE_EVENTS");
  unsetenv("OMPTRACE_SAMPLING");

  ompt_data_t tool_data = {0};
  ompt_start_tool_result_t *tool = fake_runtime_start(argv[1], &tool_data);
  static const ompt_callbacks_t needed[] = {ompt_callback_thread_begin, ompt_callback_thread_end,
                                            ompt_callback_implicit_task, ompt_callback_work};
  if (!tool || !fake_runtime_has(needed, 4))
    return 1;

  FAKE_CB(thread_begin)(ompt_thread_initial, fake_thread_data());
  ot_thread *t = fake_thread_data()->ptr;
  if (!t || !t->chunk) {
    printf("FAIL: thread_begin gave the thread no buffer\n");
    return 1;
  }
  const uint8_t *mem = t->chunk->base;
  if (t->chunk->index != 0 || ((uintptr_t)mem & (PAGE - 1)) != 0) {
    printf("FAIL: the thread does not start at the page-aligned start of chunk 0\n");
    return 1;
  }
  FAKE_CB(implicit_task)(ompt_scope_begin, NULL, &initial_task, 1, 1, ompt_task_initial);
  expect_resident("after thread_begin", mem, OT_BUFFER_HEAD);

  size_t at = record_until(t, mem, OT_BUFFER_HEAD + 3 * PAGE + 1);
  expect_resident("past the head", mem, pages_of(at));

  at = record_until(t, mem, CHUNK + 5 * PAGE + 1);
  if (t->chunk->index != 1) {
    failures++;
    printf("FAIL: in chunk %u, not 1\n", t->chunk->index);
  }
  expect_resident("in chunk 1", mem, pages_of(at));
  expect_no_log("in chunk 1", dir);

  FAKE_CB(implicit_task)(ompt_scope_end, NULL, &initial_task, 1, 1, ompt_task_initial);
  FAKE_CB(thread_end)(fake_thread_data());
  tool->finalize(&tool_data);

  char path[4096];
  snprintf(path, sizeof path, "%s/traces.otf2", dir);
  struct stat st;
  if (stat(path, &st) != 0) {
    failures++;
    printf("FAIL: no archive %s: %s\n", path, strerror(errno));
  }
  printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
