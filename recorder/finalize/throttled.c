/* Throttled instances per construct and thread, summed from the
 * OT_THROTTLED records of the log and the live threads' tables, written
 * as "omptrace::throttled": lines "<region ref> <location> <instances>
 * <ns>" (the region's definition names the construct). */
#include "finalize/throttled.h"
#include "core/clock.h"
#include "core/throttle.h"
#include "finalize/defs.h"
#include "finalize/grow.h"
#include "finalize/regions.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  uint32_t loc;
  unsigned kind; /* OT_THR_KIND byte */
  uint64_t cp, count, ns;
} thr_row;

static thr_row *rows;
static uint32_t nrows, caprows;
static uint32_t name_throttled, text_ref;
static char *text;

static uint64_t ticks_ns(uint64_t end, uint64_t ticks) {
  if (ticks > end)
    ticks = end;
  return ot_clock_to_ns(end) - ot_clock_to_ns(end - ticks);
}

static int add(uint32_t loc, unsigned kind, uint64_t cp, uint64_t count, uint64_t ns) {
  for (uint32_t i = 0; i < nrows; i++)
    if (rows[i].loc == loc && rows[i].kind == kind && rows[i].cp == cp) {
      rows[i].count += count;
      rows[i].ns += ns;
      return 0;
    }
  thr_row *r = ot_grow(rows, &caprows, (uint64_t)nrows + 1, sizeof *r, 16);
  if (!r)
    return -1;
  rows = r;
  rows[nrows++] = (thr_row){loc, kind, cp, count, ns};
  return 0;
}

int ot_throttled_note(uint32_t loc, const ot_rec *r) {
  return add(loc, r->kind, r->b, r->a, ticks_ns(r->ts, r->c));
}

static void unwritten(uint32_t loc, unsigned kind, uint64_t cp, uint64_t count, uint64_t ticks,
                      void *ctx) {
  (void)ctx;
  add(loc, kind, cp, count, ticks_ns(ot_clock_now(), ticks));
}

/* The construct of a record's kind byte (OT_THR_KIND). */
static enum ot_construct construct_of(unsigned kind) {
  enum ot_construct c, wait, sblock;
  switch (kind & 0xfu) {
  case OT_THR_TASK:
    return OC_TASK;
  case OT_THR_MUTEX:
    ot_mutex_constructs(kind >> 4, &c, &wait, &sblock);
    return c;
  case OT_THR_WORK:
    return ot_work_construct(kind >> 4);
  case OT_THR_MASKED:
    return OC_MASKED;
  case OT_THR_PARALLEL:
    return OC_PARALLEL;
  default:
    return OC_FLUSH;
  }
}

void ot_throttled_prepare(void) {
  ot_throttle_unwritten(unwritten, NULL);
  if (!nrows)
    return;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  if (!m)
    return;
  for (uint32_t i = 0; i < nrows; i++) {
    uint32_t region = ot_region(construct_of(rows[i].kind), rows[i].cp);
    fprintf(m, "%" PRIu32 " %" PRIu32 " %" PRIu64 " %" PRIu64 "\n", region, rows[i].loc,
            rows[i].count, rows[i].ns);
  }
  fclose(m);
  name_throttled = ot_defs_string("omptrace::throttled");
  text_ref = ot_defs_string(text ? text : "");
}

OTF2_ErrorCode ot_throttled_write(OTF2_GlobalDefWriter *w, OTF2_SystemTreeNodeRef process) {
  if (!nrows || !text)
    return OTF2_SUCCESS;
  OTF2_AttributeValue v;
  v.stringRef = text_ref;
  return OTF2_GlobalDefWriter_WriteSystemTreeNodeProperty(w, process, name_throttled,
                                                          OTF2_TYPE_STRING, v);
}

void ot_throttled_free(void) {
  free(rows);
  rows = NULL;
  nrows = caprows = 0;
  free(text);
  text = NULL;
}
