/* Debug dump of raw records (buffer/record_dump.c), derived from the
 * OT_REC_TYPES description in record.h. Not part of the tool library: the
 * unit tests and the test-only dump program build it. */
#ifndef OMPTRACE_RECORD_DUMP_H
#define OMPTRACE_RECORD_DUMP_H

#include "buffer/record.h"

#include <stddef.h>

/* "PARALLEL_BEGIN" for OT_PARALLEL_BEGIN; NULL for OT_NONE and unknown types. */
const char *ot_rec_type_name(unsigned type);
/* What field `field` ('k' kind, 'a', 'b' or 'c') of a record of this type
 * holds, NULL when the type leaves it unused (or is unknown). */
const char *ot_rec_field_doc(unsigned type, char field);
/* One line (no newline) naming the type and only the fields it uses, e.g.
 * "PARALLEL_BEGIN ts=7 kind=0x1 a=4 b=0x401136 c=0x1": kind, b and c in
 * hex, a in decimal, then "values=v1,v2" when counter values follow.
 * snprintf's return convention. */
int ot_rec_format(const ot_rec *r, char *buf, size_t size);

#endif
