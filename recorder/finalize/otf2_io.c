/* OTF2 plumbing: the callbacks an archive needs before it hands out event
 * writers (flush, memory, serial collectives, pthread locks), error
 * capture, and the private directory the archive is written in before it
 * moves into place. */
#define _GNU_SOURCE /* renameat2 */
#include "finalize/otf2_io.h"
#include "core/clock.h"
#include "core/output_dir.h"
#include "finalize/chunk_pool.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <otf2/OTF2_Pthread_Locks.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* The directory the archive opened last is written in; with
 * ot_otf2_open_staged, the private one (stage_name) inside out_fd. */
static char archive_dir[PATH_MAX + 32];
static char stage_name[32];
static int out_fd = -1, stage_fd = -1;

/* OTF2 reports its own errors on stderr; keep the first one as the reason.
 * Errors come from the writer thread (finalize/evt_queue.c) as well; the
 * reason is read once it is joined. */
static char otf2_reason[512];
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

static OTF2_Archive *open_archive(const char *dir) {
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

OTF2_Archive *ot_otf2_open(const char *dir) {
  otf2_reason[0] = 0;
  snprintf(archive_dir, sizeof archive_dir, "%s", dir);
  return open_archive(dir);
}

const char *ot_otf2_dir(void) {
  return archive_dir;
}

/* Removes what is in the directory fd (its subdirectories' files too: OTF2
 * writes one level, traces/), then closes fd. */
static void empty_dir(int fd, int depth) {
  DIR *d = fdopendir(fd);
  if (!d) {
    close(fd);
    return;
  }
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    if (unlinkat(fd, e->d_name, 0) == 0 || errno != EISDIR || depth > 1)
      continue;
    int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub >= 0)
      empty_dir(sub, depth + 1);
    unlinkat(fd, e->d_name, AT_REMOVEDIR);
  }
  closedir(d);
}

static void drop_stage(void) {
  if (stage_fd >= 0) {
    empty_dir(stage_fd, 0);
    unlinkat(out_fd, stage_name, AT_REMOVEDIR);
  }
  if (out_fd >= 0)
    close(out_fd);
  stage_fd = out_fd = -1;
}

OTF2_Archive *ot_otf2_open_staged(const char *dir) {
  char why[PATH_MAX + 128];
  otf2_reason[0] = 0;
  out_fd = ot_dir_open(dir, 0, why, sizeof why);
  if (out_fd < 0) {
    snprintf(otf2_reason, sizeof otf2_reason, "%s", why);
    out_fd = -1;
    return NULL;
  }
  /* A name nobody can guess ahead (another user could make it first in a
   * sticky directory): mkdirat then fails and the next is tried. */
  uint64_t seed = ot_monotonic_ns() ^ ((uint64_t)getpid() << 32);
  for (int i = 0; i < 100 && stage_fd < 0; i++) {
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    snprintf(stage_name, sizeof stage_name, "." OT_ARCHIVE_NAME ".%06x",
             (unsigned)(seed >> 40) & 0xffffffu);
    if (mkdirat(out_fd, stage_name, 0700) == 0)
      stage_fd = openat(out_fd, stage_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    else if (errno != EEXIST)
      break;
  }
  if (stage_fd < 0 || snprintf(archive_dir, sizeof archive_dir, "%s/%s", dir, stage_name) >=
                          (int)sizeof archive_dir) {
    snprintf(otf2_reason, sizeof otf2_reason, "cannot make a private directory in %s: %s", dir,
             strerror(errno));
    drop_stage();
    return NULL;
  }
  OTF2_Archive *a = open_archive(archive_dir);
  if (!a)
    drop_stage();
  return a;
}

static const char *const parts[] = {OT_ARCHIVE_NAME, OT_ARCHIVE_NAME ".def",
                                    OT_ARCHIVE_NAME ".otf2"};

/* One file or directory to its final name, never replacing one there.
 * File systems without RENAME_NOREPLACE: a file is linked (link fails on
 * any name there), a directory renamed (fails on a link or a directory
 * with anything in it). */
static int move_part(const char *name) {
  if (renameat2(stage_fd, name, out_fd, name, RENAME_NOREPLACE) == 0)
    return 0;
  if (errno != EINVAL && errno != ENOSYS)
    return -1;
  struct stat st;
  if (fstatat(stage_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
    return -1;
  if (S_ISDIR(st.st_mode))
    return renameat(stage_fd, name, out_fd, name);
  if (linkat(stage_fd, name, out_fd, name, 0) != 0)
    return -1;
  return unlinkat(stage_fd, name, 0);
}

int ot_otf2_publish(int ok) {
  const char *dir = archive_dir;
  int dl = (int)(strlen(dir) > strlen(stage_name) ? strlen(dir) - strlen(stage_name) - 1 : 0);
  if (stage_fd < 0)
    return ok ? 0 : -1;
  /* libotf2 may close a file the file system took nothing of (a disk
   * full from the start) without an error: an empty anchor or definition
   * file is no archive. */
  for (size_t i = 1; ok && i < sizeof parts / sizeof *parts; i++) {
    struct stat st;
    int missing = fstatat(stage_fd, parts[i], &st, AT_SYMLINK_NOFOLLOW) != 0;
    if (missing || !S_ISREG(st.st_mode) || st.st_size == 0) {
      snprintf(otf2_reason, sizeof otf2_reason,
               "%s came out %s though the OTF2 library reported no error (a full disk?)", parts[i],
               missing ? "missing" : "empty");
      ok = 0;
    }
  }
  int bad = 0;
  /* Every name free first, so a taken one leaves the archive whole. */
  for (size_t i = 0; ok && !bad && i < sizeof parts / sizeof *parts; i++) {
    struct stat st;
    if (fstatat(out_fd, parts[i], &st, AT_SYMLINK_NOFOLLOW) == 0) {
      snprintf(otf2_reason, sizeof otf2_reason,
               "%s appeared in it while the archive was written (%s of uid %u): not replaced; "
               "the finished archive is left in %s",
               parts[i], S_ISLNK(st.st_mode) ? "a symbolic link" : "a file", (unsigned)st.st_uid,
               dir);
      bad = 1;
    }
  }
  for (size_t i = 0; ok && !bad && i < sizeof parts / sizeof *parts; i++) {
    if (move_part(parts[i]) != 0) {
      snprintf(otf2_reason, sizeof otf2_reason, "cannot move %s into it from %s: %s", parts[i], dir,
               strerror(errno));
      bad = 1;
    }
  }
  if (bad) { /* kept for the user */
    close(stage_fd);
    close(out_fd);
    stage_fd = out_fd = -1;
    return -1;
  }
  drop_stage();
  snprintf(archive_dir, sizeof archive_dir, "%.*s", dl, dir);
  size_t rl = strlen(otf2_reason);
  if (!ok && rl) /* what the failure leaves: the log (never written to here) */
    snprintf(otf2_reason + rl, sizeof otf2_reason - rl,
             "; nothing of the archive is left; the record log is kept: `omptrace recover` on its "
             "directory writes the archive (-o OUTDIR to write it elsewhere)");
  return ok ? 0 : -1;
}
