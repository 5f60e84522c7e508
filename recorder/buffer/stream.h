/* Reading a thread's records back, in recording order, at finalize:
 * first what was spilled to disk at hand-offs, then what is still in
 * memory. Several streams may be open at once (one per pass). */
#ifndef OMPTRACE_STREAM_H
#define OMPTRACE_STREAM_H

#include "buffer/record.h"
#include <stdint.h>

typedef struct ot_stream ot_stream;

ot_stream *ot_stream_open(uint32_t loc); /* NULL (with a message) on I/O error */
/* Next record, valid until the next call; NULL at the end. A truncated or
 * unreadable spill file ends the stream early with a message. */
const ot_rec *ot_stream_next(ot_stream *s);
void ot_stream_close(ot_stream *s);

#endif
