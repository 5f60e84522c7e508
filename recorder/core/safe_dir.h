/* Opening a directory to write in, safe against other local users
 * (core/safe_dir.c). */
#ifndef OMPTRACE_SAFE_DIR_H
#define OMPTRACE_SAFE_DIR_H

#include <stddef.h>

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
