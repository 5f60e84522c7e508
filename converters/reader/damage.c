/* Damaged event files: the event pass reads no more records than the
 * files can hold, and a location whose file ends early, fails to read or
 * yields more records than its definition states is named with its counts.
 * A mutated record can make libotf2 read the same records again forever;
 * the bound stops that. */
#include "locstate.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Records the event files can hold: the definitions' count, else (no
 * location states one) the files' bytes, a record taking at least 2. */
uint64_t otr_read_bound(const otr_archive *a) {
  if (a->d.total_events)
    return a->d.total_events;
  char dir[4096];
  size_t n = strlen(a->anchor);
  if (n < 5 || n - 5 >= sizeof dir || strcmp(a->anchor + n - 5, ".otf2") != 0)
    return UINT64_MAX;
  snprintf(dir, sizeof dir, "%.*s", (int)(n - 5), a->anchor);
  DIR *d = opendir(dir);
  if (!d)
    return UINT64_MAX;
  uint64_t bytes = 0;
  struct dirent *e;
  char p[4400];
  struct stat st;
  while ((e = readdir(d)))
    if (snprintf(p, sizeof p, "%s/%s", dir, e->d_name) < (int)sizeof p && stat(p, &st) == 0 &&
        S_ISREG(st.st_mode))
      bytes += (uint64_t)st.st_size;
  closedir(d);
  return bytes / 2 + 1;
}

/* A location with more records than its definition states (the reader
 * went back), or the pass past its bound: false with one line. */
bool otr_read_advances(const otr_archive *a, uint64_t read, uint64_t bound, char *err,
                       size_t errlen) {
  for (uint32_t i = 0; i < a->d.n_locations && a->d.total_events; i++) {
    uint64_t want = a->d.location_events[i], got = a->ls[i].pub.events;
    if (got <= want)
      continue;
    snprintf(err, errlen,
             "location %u (%s): more events read than the %llu its definition states: the "
             "archive is damaged",
             i, a->d.location_names[i], (unsigned long long)want);
    return false;
  }
  if (read <= bound)
    return true;
  snprintf(err, errlen,
           "more records read than the %llu the event files can hold: the archive is damaged",
           (unsigned long long)bound);
  return false;
}

/* Counts a location's records with a reader of its own (the pass's readers
 * stopped where it failed), no more than want + 1 and up to the first error. */
static uint64_t count_local(const otr_archive *a, uint32_t i, uint64_t want) {
  OTF2_Reader *rd = OTF2_Reader_Open(a->anchor);
  if (!rd)
    return 0;
  uint64_t total = 0;
  OTF2_EvtReader *r = NULL;
  if (OTF2_Reader_SetSerialCollectiveCallbacks(rd) == OTF2_SUCCESS &&
      OTF2_Reader_SelectLocation(rd, a->d.location_ids[i]) == OTF2_SUCCESS &&
      OTF2_Reader_OpenEvtFiles(rd) == OTF2_SUCCESS)
    r = OTF2_Reader_GetEvtReader(rd, a->d.location_ids[i]);
  /* one record per call: a failing call's count is not a record read, and
   * past its end libotf2 may start over (seen with 2.6) */
  while (r && total <= want) {
    uint64_t got = 0;
    if (OTF2_Reader_ReadLocalEvents(rd, r, 1, &got) != OTF2_SUCCESS || got != 1)
      break;
    total++;
  }
  if (r)
    OTF2_Reader_CloseEvtReader(rd, r);
  OTF2_Reader_Close(rd);
  return total;
}

/* After the event pass failed (rc) or ended with other counts than the
 * definitions': each location whose own file holds other than its count,
 * one line each into err ("location I (NAME): G of W events read: ...").
 * False when none differs (the caller keeps its own message). */
bool otr_damaged_locations(otr_archive *a, char *err, size_t errlen) {
  char buf[2048];
  size_t used = 0;
  for (uint32_t i = 0; i < a->d.n_locations && a->d.total_events; i++) {
    uint64_t want = a->d.location_events[i];
    if (!want)
      continue;
    uint64_t got = count_local(a, i, want);
    if (got == want || used + 1 >= sizeof buf)
      continue;
    int k = snprintf(buf + used, sizeof buf - used,
                     "%slocation %u (%s): %llu%s of %llu events read: the archive is damaged",
                     used ? "\n" : "", i, a->d.location_names[i], (unsigned long long)got,
                     got > want ? " or more" : "", (unsigned long long)want);
    used += k > 0 ? (size_t)k : 0;
    if (used >= sizeof buf)
      used = sizeof buf - 1;
  }
  if (used)
    snprintf(err, errlen, "%s", buf);
  return used > 0;
}

/* Bytes of the file SUFFIX next to the anchor (".def": the global
 * definitions; "/N.def": location N's), halved: a record takes at least
 * two bytes. UINT64_MAX when unknown. */
static uint64_t file_bound(const otr_archive *a, const char *suffix) {
  char p[4400];
  struct stat st;
  size_t n = strlen(a->anchor);
  if (n < 5 || strcmp(a->anchor + n - 5, ".otf2") != 0 ||
      snprintf(p, sizeof p, "%.*s%s", (int)(n - 5), a->anchor, suffix) >= (int)sizeof p ||
      stat(p, &st) != 0)
    return UINT64_MAX;
  return (uint64_t)st.st_size / 2 + 1;
}

/* The global definitions, read in batches up to the bound of their file;
 * OTF2_ERROR_INVALID_DATA (with *looped) past it. */
OTF2_ErrorCode otr_read_global_defs(otr_archive *a, OTF2_GlobalDefReader *gr, bool *looped) {
  uint64_t bound = file_bound(a, ".def"), read = 0;
  *looped = false;
  for (;;) {
    uint64_t got = 0, batch = bound - read + 1 < 4096 ? bound - read + 1 : 4096;
    OTF2_ErrorCode rc = OTF2_Reader_ReadGlobalDefinitions(a->rd, gr, batch, &got);
    read += got;
    if (rc != OTF2_SUCCESS)
      return rc;
    if (read > bound) {
      *looped = true;
      return OTF2_ERROR_INVALID_DATA;
    }
    if (got < batch)
      return OTF2_SUCCESS;
  }
}

/* A location's local definitions, the same way. */
void otr_read_local_defs(otr_archive *a, OTF2_DefReader *dr, uint64_t location) {
  char suffix[40];
  snprintf(suffix, sizeof suffix, "/%llu.def", (unsigned long long)location);
  uint64_t bound = file_bound(a, suffix), read = 0;
  for (;;) {
    uint64_t got = 0, batch = bound - read + 1 < 4096 ? bound - read + 1 : 4096;
    if (OTF2_Reader_ReadLocalDefinitions(a->rd, dr, batch, &got) != OTF2_SUCCESS ||
        (read += got) > bound || got < batch)
      return;
  }
}
