/* Writing the merged archive's definitions: the global ones in dependency
 * order, and per location its local definitions, the rank's mapping tables
 * (local -> global id, each kind whose ids changed) and clock offsets. The
 * archive is written in a private directory (MG_TMP_DIR) with the ranks'
 * event chunk size; its event files are linked in afterwards (files.c). */
#include "merge/merge.h"

#include <stdio.h>
#include <string.h>

#define CK(x)                                                                                      \
  do {                                                                                             \
    OTF2_ErrorCode e_ = (x);                                                                       \
    if (e_ != OTF2_SUCCESS)                                                                        \
      return e_;                                                                                   \
  } while (0)

static const int MAPPING[MG_KINDS] = {[K_STRING] = OTF2_MAPPING_STRING + 1,
                                      [K_LGROUP] = OTF2_MAPPING_LOCATION_GROUP + 1,
                                      [K_LOCATION] = OTF2_MAPPING_LOCATION + 1,
                                      [K_REGION] = OTF2_MAPPING_REGION + 1,
                                      [K_SCL] = OTF2_MAPPING_SOURCE_CODE_LOCATION + 1,
                                      [K_CC] = OTF2_MAPPING_CALLING_CONTEXT + 1,
                                      [K_IG] = OTF2_MAPPING_INTERRUPT_GENERATOR + 1,
                                      [K_METRIC] = OTF2_MAPPING_METRIC + 1,
                                      [K_PARAM] = OTF2_MAPPING_PARAMETER + 1,
                                      [K_ATTR] = OTF2_MAPPING_ATTRIBUTE + 1,
                                      [K_GROUP] = OTF2_MAPPING_GROUP + 1,
                                      [K_COMM] = OTF2_MAPPING_COMM + 1};

static OTF2_FlushType pre_flush(void *u, OTF2_FileType t, OTF2_LocationRef l, void *c, bool f) {
  (void)u, (void)t, (void)l, (void)c, (void)f;
  return OTF2_FLUSH;
}
static OTF2_TimeStamp post_flush(void *u, OTF2_FileType t, OTF2_LocationRef l) {
  (void)u, (void)t, (void)l;
  return 0;
}
static OTF2_FlushCallbacks flush_cb = {pre_flush, post_flush};

static OTF2_ErrorCode write_defs(OTF2_GlobalDefWriter *w, const mg_job *j, enum mg_kind k) {
  for (size_t i = 0; i < j->global[k].n; i++) {
    const mg_def *d = &j->global[k].v[i];
    const uint64_t *f = d->f;
    uint32_t id = (uint32_t)d->id;
    switch (k) {
    case K_STRING:
      CK(OTF2_GlobalDefWriter_WriteString(w, id, d->text));
      break;
    case K_PARADIGM:
      CK(OTF2_GlobalDefWriter_WriteParadigm(w, (OTF2_Paradigm)d->id, f[0], f[1]));
      break;
    case K_NODE:
      CK(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, id, f[0], f[1], f[2]));
      break;
    case K_NODEPROP:
      CK(OTF2_GlobalDefWriter_WriteSystemTreeNodeProperty(w, f[0], f[1], f[2],
                                                          (OTF2_AttributeValue){.uint64 = f[3]}));
      break;
    case K_LGROUP:
      CK(OTF2_GlobalDefWriter_WriteLocationGroup(w, id, f[0], f[1], f[2], f[3]));
      break;
    case K_LOCATION:
      CK(OTF2_GlobalDefWriter_WriteLocation(w, d->id, f[0], f[1], f[2], f[3]));
      break;
    case K_REGION:
      CK(OTF2_GlobalDefWriter_WriteRegion(w, id, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7],
                                          f[8]));
      break;
    case K_SCL:
      CK(OTF2_GlobalDefWriter_WriteSourceCodeLocation(w, id, f[0], f[1]));
      break;
    case K_CC:
      CK(OTF2_GlobalDefWriter_WriteCallingContext(w, id, f[0], f[1], f[2]));
      break;
    case K_IG:
      CK(OTF2_GlobalDefWriter_WriteInterruptGenerator(w, id, f[0], f[1], f[2], (int64_t)f[3],
                                                      f[4]));
      break;
    case K_MEMBER:
      CK(OTF2_GlobalDefWriter_WriteMetricMember(w, id, f[0], f[1], f[2], f[3], f[4], f[5],
                                                (int64_t)f[6], f[7]));
      break;
    case K_METRIC: {
      uint32_t m[256];
      for (uint32_t x = 0; x < d->n && x < 256; x++)
        m[x] = (uint32_t)d->members[x];
      CK(OTF2_GlobalDefWriter_WriteMetricClass(w, id, (uint8_t)d->n, m, f[0], f[1]));
      break;
    }
    case K_PARAM:
      CK(OTF2_GlobalDefWriter_WriteParameter(w, id, f[0], f[1]));
      break;
    case K_ATTR:
      CK(OTF2_GlobalDefWriter_WriteAttribute(w, id, f[0], f[1], f[2]));
      break;
    case K_GROUP:
      CK(OTF2_GlobalDefWriter_WriteGroup(w, id, f[0], f[1], f[2], f[3], d->n, d->members));
      break;
    case K_COMM:
      CK(OTF2_GlobalDefWriter_WriteComm(w, id, f[0], f[1], f[2], f[3]));
      break;
    default:
      break;
    }
  }
  return OTF2_SUCCESS;
}

static OTF2_ErrorCode write_global(OTF2_Archive *ar, const mg_job *j) {
  OTF2_GlobalDefWriter *w = OTF2_Archive_GetGlobalDefWriter(ar);
  if (!w)
    return OTF2_ERROR_FILE_CAN_NOT_OPEN;
  CK(OTF2_GlobalDefWriter_WriteClockProperties(w, j->resolution, j->start, j->length, j->realtime));
  for (int k = 0; k < MG_KINDS; k++)
    CK(write_defs(w, j, (enum mg_kind)k));
  return OTF2_Archive_CloseGlobalDefWriter(ar, w);
}

/* The rank's mapping tables: one per kind whose ids changed, NULL else. */
static void rank_maps(const mg_rank *r, OTF2_IdMap *maps[MG_KINDS]) {
  for (int k = 0; k < MG_KINDS; k++) {
    maps[k] = NULL;
    if (!MAPPING[k])
      continue;
    for (size_t i = 0; i < r->defs[k].n; i++) {
      uint64_t local = r->defs[k].v[i].id, *g = mg_hash_get(r->map[k], &local, sizeof local);
      if (!g || *g == local)
        continue;
      if (!maps[k])
        maps[k] = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, 16);
      OTF2_IdMap_AddIdPair(maps[k], local, *g);
    }
  }
}

static OTF2_ErrorCode write_local(OTF2_Archive *ar, const mg_rank *r, OTF2_IdMap *maps[MG_KINDS]) {
  for (size_t i = 0; i < r->defs[K_LOCATION].n; i++) {
    uint64_t local = r->defs[K_LOCATION].v[i].id;
    OTF2_DefWriter *w = OTF2_Archive_GetDefWriter(ar, *mg_hash_get(r->map[K_LOCATION], &local, 8));
    if (!w)
      return OTF2_ERROR_FILE_CAN_NOT_OPEN;
    for (int k = 0; k < MG_KINDS; k++)
      if (maps[k])
        CK(OTF2_DefWriter_WriteMappingTable(w, (OTF2_MappingType)(MAPPING[k] - 1), maps[k]));
    for (size_t c = 0; c < r->nclock; c++)
      CK(OTF2_DefWriter_WriteClockOffset(w, r->clock[c].time, r->clock[c].offset,
                                         (double)r->clock[c].error));
    if (r->nclock == 1) /* OTF2 ignores a lone point: one more makes it constant */
      CK(OTF2_DefWriter_WriteClockOffset(w, r->clock[0].time + 1, r->clock[0].offset,
                                         (double)r->clock[0].error));
    CK(OTF2_Archive_CloseDefWriter(ar, w));
  }
  return OTF2_SUCCESS;
}

static OTF2_ErrorCode write_all_local(OTF2_Archive *ar, const mg_job *j) {
  CK(OTF2_Archive_OpenDefFiles(ar));
  for (size_t i = 0; i < j->nranks; i++) {
    OTF2_IdMap *maps[MG_KINDS];
    rank_maps(&j->ranks[i], maps);
    OTF2_ErrorCode e = write_local(ar, &j->ranks[i], maps);
    for (int k = 0; k < MG_KINDS; k++)
      if (maps[k])
        OTF2_IdMap_Free(maps[k]);
    CK(e);
  }
  return OTF2_Archive_CloseDefFiles(ar);
}

int mg_write(mg_job *j) {
  const mg_rank *r0 = &j->ranks[0];
  OTF2_Archive *ar = OTF2_Archive_Open(j->tmp, "traces", OTF2_FILEMODE_WRITE, r0->evt_chunk,
                                       r0->def_chunk, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!ar) {
    mg_error("%s: cannot write the archive there", j->dir);
    return -1;
  }
  OTF2_ErrorCode e = OTF2_Archive_SetFlushCallbacks(ar, &flush_cb, NULL);
  if (e == OTF2_SUCCESS)
    e = OTF2_Archive_SetSerialCollectiveCallbacks(ar);
  if (e == OTF2_SUCCESS)
    e = OTF2_Archive_SetCreator(ar, ME);
  if (e == OTF2_SUCCESS && r0->program) /* the job's program, as each rank named it */
    e = OTF2_Archive_SetProperty(ar, "OMPTRACE::PROGRAM", r0->program, true);
  if (e == OTF2_SUCCESS)
    e = write_all_local(ar, j);
  if (e == OTF2_SUCCESS)
    e = write_global(ar, j);
  OTF2_ErrorCode c = OTF2_Archive_Close(ar);
  if (e == OTF2_SUCCESS)
    e = c;
  if (e != OTF2_SUCCESS) {
    mg_error("%s: writing the merged archive failed (%s)", j->dir, mg_otf2_message(e));
    return -1;
  }
  return 0;
}
