/* Reading one rank's archive: its global definitions into memory (fields in
 * OTF2's record order, see merge.h), its clock properties and chunk sizes.
 * A definition kind the recorder never writes stops the merge, rather than
 * being dropped silently. */
#include "merge/merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OK OTF2_CALLBACK_SUCCESS

static mg_def *add(void *u, enum mg_kind k, uint64_t id) {
  mg_def *d = mg_defs_add(&((mg_rank *)u)->defs[k]);
  d->id = id;
  return d;
}

static void set(mg_def *d, int n, const uint64_t *f) {
  memcpy(d->f, f, (size_t)n * sizeof *f);
}

static void members(mg_def *d, uint32_t n, const uint64_t *m) {
  d->n = n;
  d->members = mg_xalloc((n ? n : 1) * sizeof *m);
  if (n)
    memcpy(d->members, m, n * sizeof *m);
}

static OTF2_CallbackCode on_clock(void *u, uint64_t res, uint64_t off, uint64_t len, uint64_t rt) {
  mg_rank *r = u;
  r->resolution = res, r->start = off, r->length = len, r->realtime = rt;
  return OK;
}
static OTF2_CallbackCode on_string(void *u, OTF2_StringRef self, const char *s) {
  add(u, K_STRING, self)->text = mg_strdup(s);
  return OK;
}
static OTF2_CallbackCode on_paradigm(void *u, OTF2_Paradigm p, OTF2_StringRef name,
                                     OTF2_ParadigmClass cls) {
  set(add(u, K_PARADIGM, p), 2, (uint64_t[]){name, cls});
  return OK;
}
static OTF2_CallbackCode on_node(void *u, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
                                 OTF2_StringRef cls, OTF2_SystemTreeNodeRef parent) {
  set(add(u, K_NODE, self), 3, (uint64_t[]){name, cls, parent});
  return OK;
}
static OTF2_CallbackCode on_nodeprop(void *u, OTF2_SystemTreeNodeRef node, OTF2_StringRef name,
                                     OTF2_Type type, OTF2_AttributeValue value) {
  /* a string reference fills only 32 bits of the value */
  uint64_t v = type == OTF2_TYPE_STRING ? value.stringRef : value.uint64;
  set(add(u, K_NODEPROP, 0), 4, (uint64_t[]){node, name, type, v});
  return OK;
}
static OTF2_CallbackCode on_lgroup(void *u, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                   OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
                                   OTF2_LocationGroupRef creator) {
  set(add(u, K_LGROUP, self), 4, (uint64_t[]){name, type, parent, creator});
  return OK;
}
static OTF2_CallbackCode on_location(void *u, OTF2_LocationRef self, OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t events,
                                     OTF2_LocationGroupRef group) {
  set(add(u, K_LOCATION, self), 4, (uint64_t[]){name, type, events, group});
  return OK;
}
static OTF2_CallbackCode on_region(void *u, OTF2_RegionRef self, OTF2_StringRef name,
                                   OTF2_StringRef canon, OTF2_StringRef desc, OTF2_RegionRole role,
                                   OTF2_Paradigm par, OTF2_RegionFlag flags, OTF2_StringRef file,
                                   uint32_t begin, uint32_t end) {
  set(add(u, K_REGION, self), 9,
      (uint64_t[]){name, canon, desc, role, par, flags, file, begin, end});
  return OK;
}
static OTF2_CallbackCode on_scl(void *u, OTF2_SourceCodeLocationRef self, OTF2_StringRef file,
                                uint32_t line) {
  set(add(u, K_SCL, self), 2, (uint64_t[]){file, line});
  return OK;
}
static OTF2_CallbackCode on_cc(void *u, OTF2_CallingContextRef self, OTF2_RegionRef region,
                               OTF2_SourceCodeLocationRef scl, OTF2_CallingContextRef parent) {
  set(add(u, K_CC, self), 3, (uint64_t[]){region, scl, parent});
  return OK;
}
static OTF2_CallbackCode on_ig(void *u, OTF2_InterruptGeneratorRef self, OTF2_StringRef name,
                               OTF2_InterruptGeneratorMode mode, OTF2_Base base, int64_t exponent,
                               uint64_t period) {
  set(add(u, K_IG, self), 5, (uint64_t[]){name, mode, base, (uint64_t)exponent, period});
  return OK;
}
static OTF2_CallbackCode on_member(void *u, OTF2_MetricMemberRef self, OTF2_StringRef name,
                                   OTF2_StringRef desc, OTF2_MetricType type, OTF2_MetricMode mode,
                                   OTF2_Type vtype, OTF2_Base base, int64_t exponent,
                                   OTF2_StringRef unit) {
  set(add(u, K_MEMBER, self), 8,
      (uint64_t[]){name, desc, type, mode, vtype, base, (uint64_t)exponent, unit});
  return OK;
}
static OTF2_CallbackCode on_metric(void *u, OTF2_MetricRef self, uint8_t n,
                                   const OTF2_MetricMemberRef *m, OTF2_MetricOccurrence occ,
                                   OTF2_RecorderKind kind) {
  mg_def *d = add(u, K_METRIC, self);
  set(d, 2, (uint64_t[]){occ, kind});
  uint64_t wide[256];
  for (unsigned i = 0; i < n; i++)
    wide[i] = m[i];
  members(d, n, wide);
  return OK;
}
static OTF2_CallbackCode on_param(void *u, OTF2_ParameterRef self, OTF2_StringRef name,
                                  OTF2_ParameterType type) {
  set(add(u, K_PARAM, self), 2, (uint64_t[]){name, type});
  return OK;
}
static OTF2_CallbackCode on_attr(void *u, OTF2_AttributeRef self, OTF2_StringRef name,
                                 OTF2_StringRef desc, OTF2_Type type) {
  set(add(u, K_ATTR, self), 3, (uint64_t[]){name, desc, type});
  return OK;
}
static OTF2_CallbackCode on_group(void *u, OTF2_GroupRef self, OTF2_StringRef name,
                                  OTF2_GroupType type, OTF2_Paradigm par, OTF2_GroupFlag flags,
                                  uint32_t n, const uint64_t *m) {
  mg_def *d = add(u, K_GROUP, self);
  set(d, 4, (uint64_t[]){name, type, par, flags});
  members(d, n, m);
  return OK;
}
static OTF2_CallbackCode on_comm(void *u, OTF2_CommRef self, OTF2_StringRef name,
                                 OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags) {
  set(add(u, K_COMM, self), 4, (uint64_t[]){name, group, parent, flags});
  return OK;
}
static OTF2_CallbackCode on_unknown(void *u) {
  mg_error("%s: a definition omptrace-merge does not know", ((mg_rank *)u)->dir);
  return OTF2_CALLBACK_ERROR;
}

static OTF2_GlobalDefReaderCallbacks *callbacks(void) {
  OTF2_GlobalDefReaderCallbacks *c = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(c, on_clock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(c, on_string);
  OTF2_GlobalDefReaderCallbacks_SetParadigmCallback(c, on_paradigm);
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(c, on_node);
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodePropertyCallback(c, on_nodeprop);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(c, on_lgroup);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(c, on_location);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(c, on_region);
  OTF2_GlobalDefReaderCallbacks_SetSourceCodeLocationCallback(c, on_scl);
  OTF2_GlobalDefReaderCallbacks_SetCallingContextCallback(c, on_cc);
  OTF2_GlobalDefReaderCallbacks_SetInterruptGeneratorCallback(c, on_ig);
  OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(c, on_member);
  OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(c, on_metric);
  OTF2_GlobalDefReaderCallbacks_SetParameterCallback(c, on_param);
  OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(c, on_attr);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(c, on_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(c, on_comm);
  OTF2_GlobalDefReaderCallbacks_SetUnknownCallback(c, on_unknown);
  return c;
}

int mg_read_rank(mg_rank *r) {
  char anchor[4096];
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", r->dir);
  OTF2_Reader *rd = OTF2_Reader_Open(anchor);
  if (!rd) {
    mg_error("%s: not a readable OTF2 archive", anchor);
    return -1;
  }
  OTF2_Reader_SetSerialCollectiveCallbacks(rd);
  OTF2_GlobalDefReader *g = OTF2_Reader_GetGlobalDefReader(rd);
  OTF2_ErrorCode e = g ? OTF2_SUCCESS : OTF2_ERROR_FILE_CAN_NOT_OPEN;
  if (g) {
    OTF2_GlobalDefReaderCallbacks *c = callbacks();
    OTF2_Reader_RegisterGlobalDefCallbacks(rd, g, c, r);
    OTF2_GlobalDefReaderCallbacks_Delete(c);
    uint64_t n = 0;
    e = OTF2_Reader_ReadAllGlobalDefinitions(rd, g, &n);
    OTF2_Reader_CloseGlobalDefReader(rd, g);
  }
  if (e == OTF2_SUCCESS)
    e = OTF2_Reader_GetChunkSize(rd, &r->evt_chunk, &r->def_chunk);
  char *program = NULL; /* optional: archives of older versions have none */
  if (e == OTF2_SUCCESS &&
      OTF2_Reader_GetProperty(rd, "OMPTRACE::PROGRAM", &program) == OTF2_SUCCESS && program) {
    free(r->program);
    r->program = *program ? mg_strdup(program) : NULL;
    free(program);
  }
  OTF2_Reader_Close(rd);
  if (e != OTF2_SUCCESS || !r->resolution) {
    mg_error("%s: corrupt archive (%s)", anchor,
             e != OTF2_SUCCESS ? mg_otf2_message(e) : "no clock properties");
    return -1;
  }
  return 0;
}
