/* Test helper: appends a sealed frame to a record log file (frame_file.h). */
#include "frame_file.h"
#include "log/frame.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static uint64_t frame[(1u << 20) / 8]; /* a RECORDS frame of a whole chunk */

const void *ut_frame_last(void) {
  return frame;
}

size_t ut_frame_append(const char *path, uint32_t *seq, unsigned type, const void *a, size_t alen,
                       const void *b, size_t blen) {
  return ut_frame_append_loc(path, seq, 0, type, a, alen, b, blen);
}

size_t ut_frame_append_loc(const char *path, uint32_t *seq, uint32_t loc, unsigned type,
                           const void *a, size_t alen, const void *b, size_t blen) {
  ot_frame_hdr *h = (ot_frame_hdr *)frame;
  uint8_t *pl = (uint8_t *)(h + 1);
  memcpy(pl, a, alen);
  if (blen)
    memcpy(pl + alen, b, blen);
  size_t size = ot_frame_seal(h, type, (uint32_t)(alen + blen), (*seq)++, loc);
  int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
  if (fd < 0 || write(fd, frame, size) != (ssize_t)size)
    perror(path);
  if (fd >= 0)
    close(fd);
  return size;
}
