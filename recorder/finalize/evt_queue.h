/* Batches of encoded events from the replay to one writer thread
 * (finalize/evt_queue.c). The replay appends words to the current batch;
 * a full batch goes to the thread, which plays it (finalize/evt_out.c)
 * while the replay fills the next. A few batches are in flight at most, so
 * memory stays bounded whatever the trace's length. */
#ifndef OMPTRACE_EVT_QUEUE_H
#define OMPTRACE_EVT_QUEUE_H

#include <otf2/otf2.h>
#include <stddef.h>
#include <stdint.h>

/* Words of the largest single append (one event with its payload). */
#define OT_EVTQ_MAX_APPEND 128

/* Plays n words of a batch on the writer thread; *err holds the first
 * error so far (play only releases what the events own once it is set). */
typedef void (*ot_evtq_play_fn)(const uint64_t *words, size_t n, OTF2_ErrorCode *err);

/* Starts the writer thread. 0, or -1 (no memory or no thread: the caller
 * writes directly; nothing is left to stop). */
int ot_evtq_start(ot_evtq_play_fn play);
/* Hands the last batch over, waits until every batch is played and joins
 * the thread. Returns the writer's first error (OTF2_SUCCESS when none). */
OTF2_ErrorCode ot_evtq_finish(void);

/* The current batch: the replay appends at ot_evtq_pos, up to ot_evtq_end;
 * at least OT_EVTQ_MAX_APPEND words are always free there. */
extern uint64_t *ot_evtq_pos, *ot_evtq_end;
/* The writer's first error as of the last hand-off. */
extern OTF2_ErrorCode ot_evtq_error;
/* Hands the current batch over and takes a free one (waiting for the
 * writer while every batch is in flight); returns ot_evtq_error. */
OTF2_ErrorCode ot_evtq_handoff(void);

/* Room for n words (at most OT_EVTQ_MAX_APPEND) in the current batch;
 * call ot_evtq_appended once they are written. */
static inline uint64_t *ot_evtq_append(size_t n) {
  uint64_t *p = ot_evtq_pos;
  ot_evtq_pos += n;
  return p;
}

/* After an append: the batch goes to the writer when the next append
 * might not fit, so an append never waits and the functions that append
 * make no call but this last one. Returns the writer's first error. */
static inline OTF2_ErrorCode ot_evtq_appended(void) {
  if ((size_t)(ot_evtq_end - ot_evtq_pos) < OT_EVTQ_MAX_APPEND)
    return ot_evtq_handoff();
  return ot_evtq_error;
}

#endif
