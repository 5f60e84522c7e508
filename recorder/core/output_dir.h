/* Creating the archive directory (core/output_dir.c). */
#ifndef OMPTRACE_OUTPUT_DIR_H
#define OMPTRACE_OUTPUT_DIR_H

#include <stddef.h>

/* What a run puts in its directory: the OTF2 archive <dir>/traces.otf2
 * (with traces.def and traces/) and the record log <dir>/.log/ (log/format.h),
 * which also claims the directory for one run until the archive is
 * written. */
#define OT_ARCHIVE_NAME "traces"
#define OT_LOG_NAME ".log"

/* Creates the directory out (parents included) or, when it already holds
 * an archive or another run's claim, or is not safe to write in (see
 * ot_dir_open), the first free <out>.N; stores the absolute path of the
 * directory chosen back into out (size bytes). Returns 0, or -1 after one
 * error line. */
int ot_output_dir_create(char *out, size_t size);
/* Tracing could not start after dir was claimed: removes the claim
 * (<dir>/.log) and the directory itself when nothing else is in it. */
void ot_output_dir_abandon(const char *dir);
/* mkdir -p through ot_dir_open: 0 when path is (now) a directory safe to
 * write in; -1 with errno set otherwise (EPERM: not safe, see ot_dir_open). */
int ot_make_dirs(const char *path);

/* Opens the directory path for writing in it, creating what is missing
 * (mode 0755) when create is set, one component at a time relative to the
 * one before (openat, O_NOFOLLOW): a symbolic link is followed only when
 * owned by the caller or root; the directory itself must be owned by the
 * caller and its parent by the caller or root, neither writable by others
 * unless sticky (else another user could plant names in it or move it).
 * Returns an O_DIRECTORY descriptor; -1 when path cannot be opened, or -2
 * when its last component is there but not safe; both with errno set and
 * the reason (naming the component) in why. */
int ot_dir_open(const char *path, int create, char *why, size_t whysize);
/* The absolute path of the open directory fd (from /proc/self/fd, else
 * realpath of hint) into out; 0 or -1. */
int ot_dir_path(int fd, const char *hint, char *out, size_t size);

#endif
