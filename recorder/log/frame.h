/* Framing of the record log (format.h): building a frame in memory and
 * reading a log file frame by frame. Pure functions of their arguments: no
 * process state, so `omptrace recover` links them too. */
#ifndef OMPTRACE_LOG_FRAME_H
#define OMPTRACE_LOG_FRAME_H

#include "log/format.h"

#include <stddef.h>
#include <stdint.h>

/* signal-safe. Fills the header in front of a payload that is already in
 * place at (uint8_t *)h + sizeof *h: magic, version, type, length, seq,
 * loc and the CRC. Returns the frame's total size. */
size_t ot_frame_seal(ot_frame_hdr *h, unsigned type, uint32_t length, uint32_t seq, uint32_t loc);

/* Sequential reader of one log file. Reads whole frames into a buffer it
 * owns; stops at end of file or at the first frame that does not validate
 * (then `damaged` is 1 and `why` says what failed). */
typedef struct ot_frame_reader {
  int fd;
  uint32_t next_seq;
  uint64_t offset;  /* file offset of the next frame */
  uint64_t trusted; /* frames ending at or before this offset passed validation in an earlier
                       read of the file (the log is append-only), or were written whole by this
                       process: their CRC is not computed again */
  uint32_t skim;    /* bit i = type i: a trusted frame of that type is read only up to
                       OT_FRAME_SKIM payload bytes (its caller needs no more of it) */
  uint8_t *buf;     /* payload of the last frame returned */
  size_t cap;
  int damaged;         /* a frame failed validation (torn or corrupt) */
  uint64_t damaged_at; /* its file offset */
  int torn;            /* the damage is the end of the file cutting a frame short ... */
  uint32_t torn_loc;   /* ... whose header names this location (UINT32_MAX: header cut) */
  char why[96];
} ot_frame_reader;

/* Where a frame is in its file (a location's frames in the shared file). */
typedef struct ot_frame_at {
  uint64_t offset;
  uint32_t seq;
} ot_frame_at;

/* Payload bytes read of a skimmed frame (at most: fewer when it is shorter). */
#define OT_FRAME_SKIM 16u

/* 0 on success, -1 with errno set. */
int ot_frame_open(ot_frame_reader *r, const char *path);
/* Next valid frame: returns its header and sets *payload (valid until the
 * next call); NULL at the end of the valid part of the file. Every frame is
 * validated (CRC included, except below `trusted`) whatever `want` says;
 * `want` (bit i = type i, 0 = all) only selects which frames are returned. */
const ot_frame_hdr *ot_frame_next(ot_frame_reader *r, uint32_t want, const uint8_t **payload);
/* The whole frame that ot_frame_next returned earlier from file offset
 * `offset` as frame number `seq`, read and validated again (never skimmed);
 * the reader's position and state are left as they were. NULL when it no
 * longer validates. */
const ot_frame_hdr *ot_frame_again(ot_frame_reader *r, uint64_t offset, uint32_t seq,
                                   const uint8_t **payload);
void ot_frame_close(ot_frame_reader *r);

#endif
