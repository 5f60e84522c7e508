/* Opening and closing an archive. OTF2 reports errors through a callback
 * that would otherwise print them; ours keeps the first message so the
 * caller can print one clear line and exit non-zero. */
#include "archive.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char last_error[512];

static OTF2_ErrorCode on_error(void *u, const char *file, uint64_t line, const char *fn,
                               OTF2_ErrorCode code, const char *fmt, va_list va) {
  (void)u, (void)file, (void)line, (void)fn;
  if (!last_error[0]) {
    char msg[400] = "";
    if (fmt)
      vsnprintf(msg, sizeof msg, fmt, va);
    snprintf(last_error, sizeof last_error, "%s%s%s", OTF2_Error_GetDescription(code),
             msg[0] ? ": " : "", msg);
    /* names from a damaged file may hold any byte: the message stays one line */
    for (char *c = last_error; *c; c++)
      if ((unsigned char)*c < 0x20 || *c == 0x7f)
        *c = '?';
  }
  return code;
}

const char *otr_last_error(void) {
  return last_error[0] ? last_error : "unknown OTF2 error";
}
void otr_reset_error(void) {
  last_error[0] = 0;
}

/* A run that died (or is still running) leaves only its record log
 * <dir>/.log: say how to turn it into an archive. dir is path when it is
 * a directory, else path's directory when path is a missing traces.otf2. */
static bool log_only(const char *path, bool is_dir, char *err, size_t errlen) {
  char dir[PATH_MAX], probe[PATH_MAX + 16];
  const char *base = strrchr(path, '/');
  if (is_dir)
    snprintf(dir, sizeof dir, "%s", path);
  else if (strcmp(base ? base + 1 : path, "traces.otf2") != 0)
    return false;
  else if (!base)
    snprintf(dir, sizeof dir, ".");
  else
    snprintf(dir, sizeof dir, "%.*s", base == path ? 1 : (int)(base - path), path);
  struct stat st;
  snprintf(probe, sizeof probe, "%s/traces.otf2", dir);
  if (stat(probe, &st) == 0)
    return false;
  snprintf(probe, sizeof probe, "%s/.log", dir);
  if (stat(probe, &st) != 0 || !S_ISDIR(st.st_mode))
    return false;
  snprintf(err, errlen,
           "%s holds the record log of a run that did not finish: run `omptrace recover %s` first",
           dir, dir);
  return true;
}

/* An MPI job's directory holds one archive per rank (DIR/rank-R) until
 * they are merged: say how to get the job's archive. */
static bool job_only(const char *dir, char *err, size_t errlen) {
  char probe[PATH_MAX + 16];
  struct stat st;
  snprintf(probe, sizeof probe, "%s/rank-0", dir);
  if (stat(probe, &st) != 0 || !S_ISDIR(st.st_mode))
    return false;
  snprintf(err, errlen,
           "%s holds the rank archives of an MPI job: run `omptrace merge %s` for the job's "
           "archive (or read one rank's, %s/rank-R)",
           dir, dir, dir);
  return true;
}

/* The anchor file itself, or a directory holding traces.otf2. */
static char *find_anchor(const char *path, char *err, size_t errlen) {
  struct stat st;
  if (stat(path, &st) != 0) {
    int e = errno;
    const char *base = strrchr(path, '/');
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", base ? (int)(base - path) : 1, base ? path : ".");
    bool anchor = strcmp(base ? base + 1 : path, "traces.otf2") == 0;
    if (!log_only(path, false, err, errlen) && !(anchor && job_only(dir, err, errlen)))
      snprintf(err, errlen, "%s: %s", path, strerror(e));
    return NULL;
  }
  if (!S_ISDIR(st.st_mode))
    return otr_xstrdup(path);
  size_t n = strlen(path);
  char *p = otr_xmalloc(n + 16);
  snprintf(p, n + 16, "%s/traces.otf2", path);
  if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
    return p;
  free(p);
  if (!log_only(path, true, err, errlen) && !job_only(path, err, errlen))
    snprintf(err, errlen, "%s: no OTF2 archive here (expected %s/traces.otf2)", path, path);
  return NULL;
}

/* An anchor file holds a few hundred bytes (Score-P: a few kB). A huge one
 * is damaged: libotf2 would try to load all of it into one buffer and fail
 * with "Could not allocate memory for chunk!". Say what is wrong instead:
 * a sparse file (less on disk than its size) or one that ends in zeros. */
#define OTR_ANCHOR_MAX (1u << 20)

static void human_bytes(char *b, size_t n, double v) {
  const char *u[] = {"bytes", "kB", "MB", "GB", "TB"};
  int k = 0;
  while (v >= 1000 && k < 4)
    v /= 1000, k++;
  snprintf(b, n, k ? "%.1f %s" : "%.0f %s", v, u[k]);
}

static bool ends_in_zeros(const char *path, off_t size) {
  unsigned char buf[4096];
  FILE *f = fopen(path, "rb");
  if (!f)
    return false;
  off_t from = size > (off_t)sizeof buf ? size - (off_t)sizeof buf : 0;
  size_t got = fseeko(f, from, SEEK_SET) == 0 ? fread(buf, 1, sizeof buf, f) : 0;
  fclose(f);
  bool zero = got > 0;
  for (size_t i = 0; i < got && zero; i++)
    zero = buf[i] == 0;
  return zero;
}

static bool anchor_size_ok(const char *anchor, char *err, size_t errlen) {
  struct stat st;
  if (stat(anchor, &st) != 0 || st.st_size <= (off_t)OTR_ANCHOR_MAX)
    return true;
  char size[32], disk[32], why[80];
  human_bytes(size, sizeof size, (double)st.st_size);
  double on_disk = (double)st.st_blocks * 512.0;
  human_bytes(disk, sizeof disk, on_disk);
  if (on_disk < (double)st.st_size)
    snprintf(why, sizeof why, "a sparse file, with only %s on disk", disk);
  else if (ends_in_zeros(anchor, st.st_size))
    snprintf(why, sizeof why, "padded with zero bytes");
  else
    snprintf(why, sizeof why, "too large for one");
  snprintf(err, errlen,
           "%s: the anchor file is %s, %s; an OTF2 anchor file holds a few hundred bytes, so "
           "this one was damaged when it was written or copied",
           anchor, size, why);
  return false;
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OTR_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define OTR_ASAN 1
#endif

/* A corrupt count in the anchor file makes libotf2 allocate, walk and free
 * an array of that many entries before it fails, which can take minutes.
 * A real anchor file needs little memory, so the address space is capped
 * while it is loaded and the allocation fails at once. (AddressSanitizer
 * reserves huge shadow mappings; there its allocator limits apply.) */
static OTF2_Reader *open_capped(const char *anchor) {
#ifndef OTR_ASAN
  struct rlimit old;
  unsigned long pages = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  bool capped = false;
  if (f && fscanf(f, "%lu", &pages) == 1 && getrlimit(RLIMIT_AS, &old) == 0) {
    rlim_t want = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)512 << 20);
    if (old.rlim_cur == RLIM_INFINITY || want < old.rlim_cur) {
      struct rlimit cap = {want, old.rlim_max};
      capped = setrlimit(RLIMIT_AS, &cap) == 0;
    }
  }
  if (f)
    fclose(f);
  OTF2_Reader *rd = OTF2_Reader_Open(anchor);
  if (capped)
    setrlimit(RLIMIT_AS, &old);
  return rd;
#else
  return OTF2_Reader_Open(anchor);
#endif
}

/* Some damaged anchor files make libotf2 corrupt its heap while loading
 * them (otf2-print aborts with "double free or corruption" on a flipped
 * property count): the anchor is first loaded in a child process, and a
 * child that dies by a signal means a damaged anchor file. */
static bool anchor_loads(const char *anchor, char *err, size_t errlen) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0)
    return true;  /* no probe: read it as before */
  if (pid == 0) { /* silent, and no core file: the parent says what happened */
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0)
      dup2(null, STDERR_FILENO);
    setenv("LIBC_FATAL_STDERR_", "1", 1);
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
    OTF2_Reader *rd = open_capped(anchor);
    if (rd)
      OTF2_Reader_Close(rd);
    _exit(0);
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR)
      return true;
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
    return true;
  char how[64]; /* a signal, or a sanitizer's exit status */
  if (WIFSIGNALED(st))
    snprintf(how, sizeof how, "%s", strsignal(WTERMSIG(st)));
  else
    snprintf(how, sizeof how, "exit status %d", WEXITSTATUS(st));
  snprintf(err, errlen,
           "%s: the anchor file is damaged: the OTF2 library fails on it (%s in a test load)",
           anchor, how);
  return false;
}

otr_archive *otr_open(const char *path, char *err, size_t errlen) {
  OTF2_Error_RegisterCallback(on_error, NULL);
  otr_reset_error();
  char *anchor = find_anchor(path, err, errlen);
  if (!anchor)
    return NULL;
  if (!anchor_size_ok(anchor, err, errlen) || !anchor_loads(anchor, err, errlen)) {
    free(anchor);
    return NULL;
  }
  otr_archive *a = otr_xcalloc(1, sizeof *a);
  a->anchor = anchor;
  a->rd = open_capped(anchor);
  if (!a->rd) {
    snprintf(err, errlen, "%s: not a readable OTF2 archive: %s", anchor, otr_last_error());
    otr_close(a);
    return NULL;
  }
  if (OTF2_Reader_SetSerialCollectiveCallbacks(a->rd) != OTF2_SUCCESS) {
    snprintf(err, errlen, "%s: %s", anchor, otr_last_error());
    otr_close(a);
    return NULL;
  }
  char msg[400];
  if (!otr_defs_read(a, msg, sizeof msg)) {
    snprintf(err, errlen, "%s: %s", anchor, msg);
    otr_close(a);
    return NULL;
  }
  return a;
}

const otr_defs *otr_defs_of(const otr_archive *a) {
  return &a->d;
}
const char *otr_anchor(const otr_archive *a) {
  return a->anchor;
}

uint64_t otr_ns(const otr_archive *a, uint64_t ticks) {
  uint64_t r = a->d.resolution;
  if (r == 1000000000u)
    return ticks;
  return (uint64_t)((long double)ticks * 1e9L / (long double)r + 0.5L);
}

void otr_events_free(otr_archive *a);

void otr_close(otr_archive *a) {
  if (!a)
    return;
  otr_events_free(a);
  if (a->rd)
    OTF2_Reader_Close(a->rd);
  otr_defs_free(a);
  free(a->anchor);
  free(a);
}
