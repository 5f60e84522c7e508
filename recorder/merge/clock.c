/* Clocks: a rank's measured offsets to rank 0 (DIR/rank-R/clock-sync, one
 * line "<own time> <offset> <error>" in ns per sync point, written by the
 * MPI wrappers at MPI_Init and MPI_Finalize, docs/mpi.md "Clocks"), and
 * the correction OTF2's event readers apply with them: the offset
 * interpolated linearly between points and extrapolated from the first
 * and the last interval outside them (measured with python3-otf2). An
 * offset no larger than its error bound is read as 0: applying it could
 * move the rank further from rank 0's clock than leaving it, as on one
 * host, where every rank has the same clock. */
#include "merge/merge.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_line(const char *line, mg_clock *c) {
  char extra;
  return sscanf(line, "%" SCNu64 " %" SCNd64 " %" SCNu64 " %c", &c->time, &c->offset, &c->error,
                &extra) == 3
             ? 0
             : -1;
}

int mg_read_clock(mg_rank *r) {
  char path[4096], line[256];
  snprintf(path, sizeof path, "%s/clock-sync", r->dir);
  FILE *f = fopen(path, "r");
  if (!f) {
    if (errno == ENOENT)
      return 0;
    mg_error("%s: %s", path, strerror(errno));
    return -1;
  }
  int lineno = 0, bad = 0;
  while (!bad && fgets(line, sizeof line, f)) {
    lineno++;
    if (line[0] == '#' || line[0] == '\n')
      continue;
    mg_clock c;
    if (parse_line(line, &c) != 0 || (r->nclock && c.time <= r->clock[r->nclock - 1].time)) {
      mg_error("%s:%d: expected '<time> <offset> <error>' (ns, times increasing)", path, lineno);
      bad = 1;
      break;
    }
    if (c.offset || c.error) /* not rank 0's own (0 0) */
      r->nmeasured++;
    if ((c.offset < 0 ? -(uint64_t)c.offset : (uint64_t)c.offset) <= c.error)
      c.offset = 0;
    else
      r->napplied++;
    mg_clock *v = mg_xalloc((r->nclock + 1) * sizeof *v);
    if (r->nclock)
      memcpy(v, r->clock, r->nclock * sizeof *v);
    free(r->clock);
    r->clock = v;
    r->clock[r->nclock++] = c;
  }
  fclose(f);
  return bad ? -1 : 0;
}

uint64_t mg_clock_apply(const mg_rank *r, uint64_t t) {
  return mg_clock_apply_pts(r->clock, r->nclock, t);
}

uint64_t mg_clock_apply_pts(const mg_clock *pts, size_t n, uint64_t t) {
  if (!n)
    return t;
  size_t lo = 0, hi = n - 1; /* t's interval [i, i + 1], the last one past it */
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (t > pts[mid].time)
      lo = mid;
    else
      hi = mid;
  }
  size_t i = lo;
  if (i + 2 < n && t > pts[i + 1].time)
    i++;
  const mg_clock *a = &pts[i];
  double slope = 0;
  if (i + 1 < n) {
    const mg_clock *b = &pts[i + 1];
    slope = (double)(b->offset - a->offset) / (double)(b->time - a->time);
  }
  double diff = t >= a->time ? (double)(t - a->time) : -(double)(a->time - t);
  return t + (uint64_t)(a->offset + (int64_t)rint(slope * diff));
}

int mg_job_clock(mg_job *j) {
  uint64_t first = UINT64_MAX, last = 0;
  for (size_t i = 0; i < j->nranks; i++) {
    const mg_rank *r = &j->ranks[i];
    if (r->resolution != j->ranks[0].resolution) {
      mg_error("%s: timer resolution %" PRIu64 " differs from %s's %" PRIu64 ": cannot merge",
               r->dir, r->resolution, j->ranks[0].dir, j->ranks[0].resolution);
      return -1;
    }
    uint64_t a = mg_clock_apply(r, r->start), b = mg_clock_apply(r, r->start + r->length);
    first = a < first ? a : first;
    last = b > last ? b : last;
  }
  j->resolution = j->ranks[0].resolution;
  j->start = first;
  j->length = last - first;
  j->realtime = j->ranks[0].realtime;
  return 0;
}
