/* OTF2 plumbing: the callbacks an archive needs before it hands out event
 * writers (flush, memory, serial collectives, pthread locks) and error
 * capture. */
#include "finalize/otf2_io.h"
#include "core/output_dir.h"
#include "finalize/chunk_pool.h"

#include <otf2/OTF2_Pthread_Locks.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static OTF2_FlushType pre_flush(void *data, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
                                bool final) {
  (void)data, (void)type, (void)loc, (void)caller, (void) final;
  return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = {.otf2_pre_flush = pre_flush,
                                                    .otf2_post_flush = NULL};

/* OTF2 keeps a writer's whole output in memory unless an allocation
 * fails: chunks come from a small per-writer budget (2 MiB), and a refused
 * chunk makes OTF2 flush that writer to disk and start over. With every
 * location written at once this bounds memory by locations x budget. OTF2
 * touches each chunk it takes, so every location costs at least one chunk:
 * the smallest OTF2 allows (256 KiB), or 256 threads need 256 MiB. What a
 * writer holds when it closes is written after the replay, by the
 * finalizing thread alone: 8 MiB left up to 16 MB to write there (fib(26)
 * 8 ms), 2 MiB leaves 4 ms; the flushes before it overlap the replay. */
#define CHUNK_SIZE OTF2_CHUNK_SIZE_MIN
#define CHUNKS_PER_BUFFER 8

/* A flush hands a writer's chunks back and OTF2 asks for them again at
 * once: they are kept (n in use, have allocated) and reused, so each page
 * is faulted in once per location instead of once per flush, the budget
 * unchanged. A closed writer's chunks go back to the pool
 * (finalize/chunk_pool.c) for the next writer. */
typedef struct chunk_list {
  uint32_t n, have;
  int pooled; /* from the pool (a size it serves), else from malloc */
  uint64_t size;
  void *chunk[CHUNKS_PER_BUFFER];
} chunk_list;

static void *chunk_alloc(void *data, OTF2_FileType type, OTF2_LocationRef loc, void **per_buffer,
                         uint64_t size) {
  (void)data, (void)type, (void)loc;
  chunk_list *l = *per_buffer;
  if (!l) {
    if (!(l = *per_buffer = calloc(1, sizeof *l)))
      return NULL;
    l->size = size;
    l->pooled = (l->chunk[0] = ot_chunk_pool_get(size)) != NULL;
    if (l->pooled)
      l->have = 1;
  }
  if (l->n == CHUNKS_PER_BUFFER || size != l->size)
    return NULL; /* OTF2 flushes this buffer, hands its chunks back and asks again */
  if (l->n == l->have) {
    void *c = l->pooled ? ot_chunk_pool_get(size) : malloc(size);
    if (!c)
      return NULL;
    l->chunk[l->have++] = c;
  }
  return l->chunk[l->n++];
}

static void chunk_free_all(void *data, OTF2_FileType type, OTF2_LocationRef loc, void **per_buffer,
                           bool final) {
  (void)data, (void)type, (void)loc;
  chunk_list *l = *per_buffer;
  if (!l)
    return;
  l->n = 0;
  if (final) {
    for (uint32_t i = 0; i < l->have; i++) {
      if (l->pooled)
        ot_chunk_pool_put(l->chunk[i], l->size);
      else
        free(l->chunk[i]);
    }
    free(l);
    *per_buffer = NULL;
  }
}

static const OTF2_MemoryCallbacks memory_callbacks = {.otf2_allocate = chunk_alloc,
                                                      .otf2_free_all = chunk_free_all};

/* OTF2 reports its own errors on stderr; keep the first one as the reason.
 * Errors come from the writer thread (finalize/evt_queue.c) as well; the
 * reason is read once it is joined. */
static char otf2_reason[256];
static pthread_mutex_t reason_lock = PTHREAD_MUTEX_INITIALIZER;
static OTF2_ErrorCode on_otf2_error(void *data, const char *file, uint64_t line,
                                    const char *function, OTF2_ErrorCode code, const char *msg,
                                    va_list args) {
  (void)data, (void)file, (void)line, (void)function;
  pthread_mutex_lock(&reason_lock);
  if (!otf2_reason[0]) {
    char text[200];
    vsnprintf(text, sizeof text, msg, args);
    snprintf(otf2_reason, sizeof otf2_reason, "%s (%s)", OTF2_Error_GetDescription(code), text);
  }
  pthread_mutex_unlock(&reason_lock);
  return code;
}

void ot_otf2_closed(void) {
  ot_chunk_pool_release();
}

const char *ot_otf2_reason(void) {
  return otf2_reason;
}

OTF2_Archive *ot_otf2_open(const char *dir) {
  otf2_reason[0] = 0;
  OTF2_Error_RegisterCallback(on_otf2_error, NULL);
  OTF2_Archive *archive =
      OTF2_Archive_Open(dir, OT_ARCHIVE_NAME, OTF2_FILEMODE_WRITE, CHUNK_SIZE, 4 * CHUNK_SIZE,
                        OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!archive) {
    if (!otf2_reason[0])
      snprintf(otf2_reason, sizeof otf2_reason, "cannot create the archive");
    return NULL;
  }
  OTF2_ErrorCode e = OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL);
  if (e == OTF2_SUCCESS)
    e = OTF2_Archive_SetMemoryCallbacks(archive, &memory_callbacks, NULL);
  if (e == OTF2_SUCCESS)
    e = OTF2_Archive_SetSerialCollectiveCallbacks(archive);
  if (e == OTF2_SUCCESS)
    e = OTF2_Pthread_Archive_SetLockingCallbacks(archive, NULL);
  if (e == OTF2_SUCCESS)
    e = OTF2_Archive_OpenEvtFiles(archive);
  if (e != OTF2_SUCCESS) {
    if (!otf2_reason[0])
      snprintf(otf2_reason, sizeof otf2_reason, "%s", OTF2_Error_GetDescription(e));
    OTF2_Archive_Close(archive);
    return NULL;
  }
  return archive;
}
