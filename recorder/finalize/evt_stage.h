/* Event writers opened on demand (finalize/evt_stage.c). OTF2 fills the rest
 * of a writer's last chunk (256 KiB) when it closes the writer, so every
 * writer open at the end costs a chunk of fresh memory: 256 threads faulted
 * in 64 MiB, most of finalize. A location's first events wait here instead
 * (a few KiB per location, a few MiB in all); a location with more gets its
 * writer then, and the rest are written one after another at the end, each
 * writer closed before the next opens, so they reuse one warm chunk. Each
 * location's events keep their order: the archive is the same. */
#ifndef OMPTRACE_EVT_STAGE_H
#define OMPTRACE_EVT_STAGE_H

#include <otf2/otf2.h>
#include <stddef.h>
#include <stdint.h>

/* Plays one encoded event into writer w (which owns what it points to), or
 * only releases what it owns (w NULL). */
typedef OTF2_ErrorCode (*ot_stage_play_fn)(OTF2_EvtWriter *w, const uint64_t *event);

/* Starts with no writer open: writers[0..nloc) are set as they open, and
 * events[loc] holds a location's event count once its writer is closed. */
void ot_stage_open(OTF2_Archive *archive, OTF2_EvtWriter **writers, uint64_t *events, uint32_t nloc,
                   ot_stage_play_fn play);
/* One encoded event of `words` words for location loc: played when its
 * writer is open, else kept, or its writer opened (with what was kept
 * played first) when the location or all of them keep too much. */
OTF2_ErrorCode ot_stage_event(uint32_t loc, const uint64_t *event, size_t words);
/* After the last event: ok, every location whose writer is not open gets
 * one (an empty location too, as OTF2 readers expect its file), its kept
 * events, and is closed and counted; else the kept events are only
 * released. Returns the first OTF2 error. */
OTF2_ErrorCode ot_stage_close(int ok);

#endif
