/* The event pass: one global, time-ordered read of all locations through
 * OTF2's global event reader, then the end-of-trace bookkeeping. */
#include "mpi.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Mapping tables of local definitions (Score-P writes them) must be read
 * before the events; a missing local file is not an error. */
static void read_local_defs(otr_archive *a) {
  if (OTF2_Reader_OpenDefFiles(a->rd) != OTF2_SUCCESS)
    return;
  for (uint32_t i = 0; i < a->d.n_locations; i++) {
    OTF2_DefReader *dr = OTF2_Reader_GetDefReader(a->rd, a->d.location_ids[i]);
    if (!dr)
      continue;
    otr_read_local_defs(a, dr, a->d.location_ids[i]);
    OTF2_Reader_CloseDefReader(a->rd, dr);
  }
  OTF2_Reader_CloseDefFiles(a->rd);
}

static void init_locations(otr_archive *a) {
  uint32_t n = a->d.n_locations, m = a->d.n_metrics;
  a->ls = otr_xcalloc(n, sizeof *a->ls);
  for (uint32_t i = 0; i < n; i++) {
    otr_locstate *ls = &a->ls[i];
    ls->pub.index = i;
    if (m) {
      ls->pm = otr_xmalloc(4 * (size_t)m * sizeof(double));
      ls->first = ls->pm + m;
      ls->lastv = ls->pm + 2 * m;
      ls->delta = ls->pm + 3 * m;
      for (uint32_t k = 0; k < 4 * m; k++)
        ls->pm[k] = NAN;
    }
  }
  a->par_change = UINT64_MAX;
  a->first = 0;
  a->last = 0;
}

/* Closes what is still open at each location's last time and completes the
 * per-location totals over the whole run. */
static void finish(otr_archive *a) {
  otr_mpi_finish(a);
  for (uint32_t i = 0; i < a->d.n_locations; i++) {
    otr_locstate *ls = &a->ls[i];
    while (ls->depth)
      otr_pop(a, ls);
  }
  otr_gaps_finish(a);
  otr_job_state_finish(a);
  for (uint32_t i = 0; i < a->d.n_locations; i++) {
    otr_locstate *ls = &a->ls[i];
    if (!ls->seen) {
      ls->pub.cat_time[OTR_T_OUTSIDE] += a->last - a->first - a->lost;
      ls->pub.edges = a->last - a->first - a->lost;
      ls->pub.lost = a->lost;
      continue;
    }
    /* before the first and after the last event: idle, but for lost time */
    uint64_t tail_lost = a->lost - ls->lost_mark;
    ls->pub.lost += ls->lost_first + tail_lost;
    ls->pub.edges =
        (ls->pub.first - a->first - ls->lost_first) + (a->last - ls->pub.last - tail_lost);
    ls->pub.cat_time[OTR_T_OUTSIDE] += ls->pub.edges;
    if (ls->have_metrics && a->v->metric_total)
      a->v->metric_total(a->v->user, &ls->pub, ls->first, ls->lastv);
  }
}

/* Teams still open after an error: the visitor sees their end so that it
 * can release what it attached to them. */
static void drop_teams(otr_archive *a) {
  while (a->teams) {
    otr_team *t = a->teams;
    a->teams = t->next;
    if (a->v->team_end)
      a->v->team_end(a->v->user, t);
    free(t);
  }
}

/* Locations defined without events need no event file and are skipped,
 * unless no location states a count at all. */
static bool wants_events(const otr_archive *a, uint32_t i) {
  return a->d.total_events == 0 || a->d.location_events[i] > 0;
}

/* Each location's event file must hold as many records as its definition
 * says: a file from another run of the same program, or one cut short,
 * usually does not. The pass counts the records it has callbacks for; only
 * when that differs are the location's records counted again, all kinds,
 * by a local reader (damage.c), and each such location named. */
static bool counts_match(otr_archive *a, char *err, size_t errlen) {
  for (uint32_t i = 0; i < a->d.n_locations && a->d.total_events; i++) {
    uint64_t want = a->d.location_events[i], got = a->ls[i].pub.events;
    if (want && got != want)
      return !otr_damaged_locations(a, err, errlen);
  }
  return true;
}

bool otr_read(otr_archive *a, const otr_visitor *v, char *err, size_t errlen) {
  static const otr_visitor none = {0};
  a->v = v ? v : &none;
  read_local_defs(a);
  otr_reset_error();
  init_locations(a);
  for (uint32_t i = 0; i < a->d.n_locations; i++)
    if (wants_events(a, i))
      OTF2_Reader_SelectLocation(a->rd, a->d.location_ids[i]);
  if (OTF2_Reader_OpenEvtFiles(a->rd) != OTF2_SUCCESS) {
    snprintf(err, errlen, "cannot open the event files: %s", otr_last_error());
    return false;
  }
  for (uint32_t i = 0; i < a->d.n_locations; i++) {
    if (!wants_events(a, i) || OTF2_Reader_GetEvtReader(a->rd, a->d.location_ids[i]))
      continue;
    snprintf(err, errlen, "cannot open the events of location %s: %s", a->d.location_names[i],
             otr_last_error());
    OTF2_Reader_CloseEvtFiles(a->rd);
    return false;
  }
  OTF2_GlobalEvtReader *g = OTF2_Reader_GetGlobalEvtReader(a->rd);
  if (!g) {
    snprintf(err, errlen, "cannot read the events: %s", otr_last_error());
    OTF2_Reader_CloseEvtFiles(a->rd);
    return false;
  }
  OTF2_GlobalEvtReaderCallbacks *cb = otr_callbacks();
  OTF2_Reader_RegisterGlobalEvtCallbacks(a->rd, g, cb, a);
  OTF2_GlobalEvtReaderCallbacks_Delete(cb);
  bool ok = true;
  otr_progress(a, 0, false); /* starts the clock */
  /* A damaged file can make libotf2 read the same records again: each
   * batch is cut at the bound, and the pass stops once past it. */
  uint64_t bound = otr_read_bound(a), read = 0;
  bool failed = false;
  for (;;) {
    uint64_t got = 0, batch = bound - read + 1 < (1u << 20) ? bound - read + 1 : (1u << 20);
    OTF2_ErrorCode rc = OTF2_Reader_ReadGlobalEvents(a->rd, g, batch, &got);
    read += got;
    if (rc != OTF2_SUCCESS) {
      snprintf(err, errlen, "corrupt or truncated events after %llu records: %s",
               (unsigned long long)a->events, otr_last_error());
      ok = false;
      failed = true;
      break;
    }
    otr_progress(a, a->events, false);
    if (a->out_of_range) {
      otr_range_message(a, err, errlen);
      ok = false;
      break;
    }
    if (!otr_read_advances(a, read, bound, err, errlen)) {
      ok = false;
      break;
    }
    if (got < batch)
      break;
  }

  otr_progress(a, a->events, true);
  OTF2_Reader_CloseGlobalEvtReader(a->rd, g);
  if (ok)
    ok = counts_match(a, err, errlen);
  else if (failed) /* name the locations whose files are damaged, if any */
    otr_damaged_locations(a, err, errlen);
  OTF2_Reader_CloseEvtFiles(a->rd);
  if (ok)
    finish(a);
  drop_teams(a);
  if (!ok)
    return false;
  if (a->events == 0) {
    snprintf(err, errlen, "the archive holds no events");
    return false;
  }
  if (a->omp_events == 0 && !(a->mpi && a->mpi->records)) { /* an MPI job may have no OpenMP */
    snprintf(err, errlen, "the archive holds no OpenMP records");
    return false;
  }
  return true;
}

const otr_loc *otr_location(const otr_archive *a, uint32_t i) {
  return &a->ls[i].pub;
}

uint64_t otr_first_time(const otr_archive *a) {
  return a->first;
}

uint64_t otr_last_time(const otr_archive *a) {
  return a->last;
}

uint64_t otr_serial_ticks(const otr_archive *a) {
  return a->serial;
}

uint64_t otr_mpi_only_ticks(const otr_archive *a) {
  return a->mpi_only;
}

uint64_t otr_events_read(const otr_archive *a) {
  return a->events;
}

void otr_events_free(otr_archive *a) {
  if (!a->ls)
    return;
  otr_mpi_events_free(a);
  for (uint32_t i = 0; i < a->d.n_locations; i++) {
    free(a->ls[i].stack);
    free(a->ls[i].snap);
    free(a->ls[i].pm);
  }
  free(a->ls);
  otr_tasks_free(a);
  free(a->gaps);
  a->gaps = NULL;
  a->ls = NULL; /* teams: otr_read has released them (drop_teams) */
}
