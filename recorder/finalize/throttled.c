/* Throttled instances per construct and thread, summed from the
 * OT_THROTTLED records of the log and the live threads' tables, written
 * as "omptrace::throttled": lines "<region ref> <location> <instances>
 * <ns>" (the region's definition names the construct); and the part of
 * throttled task time each thread ran inside a wait, as
 * "omptrace::throttled_waits": lines "<location> <wait> <ns>". */
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
static uint32_t name_throttled, text_ref, name_waits, waits_ref;
static char *text, *waits_text;

static const char *const wait_names[OT_THR_NWAIT] = {
    [OT_THR_W_IBARRIER] = "implicit_barrier",
    [OT_THR_W_BARRIER] = "barrier",
    [OT_THR_W_TASKWAIT] = "taskwait",
    [OT_THR_W_TASKGROUP] = "taskgroup",
};

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

/* The rows of constructs (waits 0) or of waits (1) into a new string. */
static char *lines(int waits) {
  char *out = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&out, &len);
  if (!m)
    return NULL;
  for (uint32_t i = 0; i < nrows; i++) {
    const thr_row *r = &rows[i];
    int is_wait = (r->kind & 0xfu) == OT_THR_WAIT;
    if (is_wait != waits || (is_wait && (r->kind >> 4) >= OT_THR_NWAIT))
      continue;
    if (is_wait)
      fprintf(m, "%" PRIu32 " %s %" PRIu64 "\n", r->loc, wait_names[r->kind >> 4], r->ns);
    else
      fprintf(m, "%" PRIu32 " %" PRIu32 " %" PRIu64 " %" PRIu64 "\n",
              ot_region(construct_of(r->kind), r->cp), r->loc, r->count, r->ns);
  }
  fclose(m);
  if (out && !*out) {
    free(out);
    out = NULL;
  }
  return out;
}

void ot_throttled_prepare(void) {
  ot_throttle_unwritten(unwritten, NULL);
  if (!nrows)
    return;
  text = lines(0);
  waits_text = lines(1);
  if (text) {
    name_throttled = ot_defs_string("omptrace::throttled");
    text_ref = ot_defs_string(text);
  }
  if (waits_text) {
    name_waits = ot_defs_string("omptrace::throttled_waits");
    waits_ref = ot_defs_string(waits_text);
  }
}

OTF2_ErrorCode ot_throttled_write(OTF2_GlobalDefWriter *w, OTF2_SystemTreeNodeRef process) {
  OTF2_AttributeValue v;
  OTF2_ErrorCode rc = OTF2_SUCCESS;
  if (text) {
    v.stringRef = text_ref;
    rc = OTF2_GlobalDefWriter_WriteSystemTreeNodeProperty(w, process, name_throttled,
                                                          OTF2_TYPE_STRING, v);
  }
  if (waits_text && rc == OTF2_SUCCESS) {
    v.stringRef = waits_ref;
    rc = OTF2_GlobalDefWriter_WriteSystemTreeNodeProperty(w, process, name_waits, OTF2_TYPE_STRING,
                                                          v);
  }
  return rc;
}

void ot_throttled_free(void) {
  free(rows);
  rows = NULL;
  nrows = caprows = 0;
  free(text);
  free(waits_text);
  text = waits_text = NULL;
}
