/* Global and local definitions -> otr_defs. Definitions are kept raw while
 * reading (their order in the file is not trusted) and resolved at the end. */
#include "archive.h"
#include "mpi.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static otr_raw *push(otr_rawvec *v) {
  if (v->n == v->cap) {
    v->cap = v->cap ? 2 * v->cap : 64;
    v->v = otr_xrealloc(v->v, v->cap * sizeof *v->v);
  }
  otr_raw *r = &v->v[v->n++];
  memset(r, 0, sizeof *r);
  return r;
}

/* Metric classes and instances, with their member lists. */
typedef struct {
  otr_rawvec classes; /* id, a = offset in members, b = n, e = 1 for an instance (c = class) */
  uint64_t *members;
  uint32_t nmembers, capmembers;
} mtmp;

typedef struct {
  otr_archive *a; /* first: mpidefs.c's callbacks take it from there */
  mtmp m;
} ctx;

static OTF2_CallbackCode on_string(void *u, OTF2_StringRef self, const char *s) {
  otr_archive *a = ((ctx *)u)->a;
  if (otr_idmap_get(&a->strings, self) != OTR_NONE)
    return OTF2_CALLBACK_SUCCESS;
  a->str = otr_xrealloc(a->str, (a->nstr + 1) * sizeof *a->str);
  a->str[a->nstr] = otr_xstrdup(s);
  otr_idmap_put(&a->strings, self, a->nstr++);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_clock(void *u, uint64_t res, uint64_t off, uint64_t len, uint64_t rt) {
  (void)rt;
  otr_archive *a = ((ctx *)u)->a;
  a->d.resolution = res;
  a->d.offset = off;
  a->d.length = len;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_region(void *u, OTF2_RegionRef self, OTF2_StringRef name,
                                   OTF2_StringRef cname, OTF2_StringRef desc, OTF2_RegionRole role,
                                   OTF2_Paradigm par, OTF2_RegionFlag flags, OTF2_StringRef file,
                                   uint32_t begin, uint32_t end) {
  (void)cname, (void)desc, (void)flags, (void)end;
  otr_raw *r = push(&((ctx *)u)->a->raw_regions);
  r->id = self, r->a = name, r->b = file, r->c = begin, r->d = (uint64_t)role | (uint64_t)par << 8;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_group(void *u, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                  OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
                                  OTF2_LocationGroupRef creator) {
  (void)creator;
  otr_raw *r = push(&((ctx *)u)->a->raw_groups);
  r->id = self, r->a = name, r->b = type, r->d = parent;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location(void *u, OTF2_LocationRef self, OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t events,
                                     OTF2_LocationGroupRef group) {
  otr_raw *r = push(&((ctx *)u)->a->raw_locations);
  r->id = self, r->a = name, r->b = group, r->c = type, r->d = events;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_member(void *u, OTF2_MetricMemberRef self, OTF2_StringRef name,
                                   OTF2_StringRef desc, OTF2_MetricType mt, OTF2_MetricMode mode,
                                   OTF2_Type vt, OTF2_Base base, int64_t exp, OTF2_StringRef unit) {
  (void)desc, (void)mt, (void)mode, (void)base, (void)exp;
  otr_raw *r = push(&((ctx *)u)->a->raw_members);
  r->id = self, r->a = name, r->b = unit, r->c = vt;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_mclass(void *u, OTF2_MetricRef self, uint8_t n,
                                   const OTF2_MetricMemberRef *members, OTF2_MetricOccurrence occ,
                                   OTF2_RecorderKind kind) {
  (void)occ, (void)kind;
  mtmp *m = &((ctx *)u)->m;
  if (m->nmembers + n > m->capmembers) {
    m->capmembers = 2 * (m->nmembers + n) + 16;
    m->members = otr_xrealloc(m->members, m->capmembers * sizeof *m->members);
  }
  otr_raw *r = push(&m->classes);
  r->id = self, r->a = m->nmembers, r->b = n;
  for (unsigned i = 0; i < n; i++)
    m->members[m->nmembers++] = members[i];
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_minstance(void *u, OTF2_MetricRef self, OTF2_MetricRef cls,
                                      OTF2_LocationRef rec, OTF2_MetricScope scope, uint64_t sc) {
  (void)rec, (void)scope, (void)sc;
  otr_raw *r = push(&((ctx *)u)->m.classes);
  r->id = self, r->c = cls, r->e = 1;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_context(void *u, OTF2_CallingContextRef self, OTF2_RegionRef region,
                                    OTF2_SourceCodeLocationRef scl, OTF2_CallingContextRef parent) {
  otr_raw *r = push(&((ctx *)u)->a->raw_contexts);
  r->id = self, r->a = region, r->b = scl, r->c = parent;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_scl(void *u, OTF2_SourceCodeLocationRef self, OTF2_StringRef file,
                                uint32_t line) {
  otr_raw *r = push(&((ctx *)u)->a->raw_scl);
  r->id = self, r->a = file, r->b = line;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_generator(void *u, OTF2_InterruptGeneratorRef self, OTF2_StringRef name,
                                      OTF2_InterruptGeneratorMode mode, OTF2_Base base, int64_t exp,
                                      uint64_t period) {
  otr_raw *r = push(&((ctx *)u)->a->raw_gen);
  r->id = self, r->a = name, r->b = mode, r->c = base, r->e = (int32_t)exp, r->d = period;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_param(void *u, OTF2_ParameterRef self, OTF2_StringRef name,
                                  OTF2_ParameterType type) {
  (void)type;
  otr_raw *r = push(&((ctx *)u)->a->raw_params);
  r->id = self, r->a = name;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_attribute(void *u, OTF2_AttributeRef self, OTF2_StringRef name,
                                      OTF2_StringRef desc, OTF2_Type type) {
  (void)desc;
  otr_raw *r = push(&((ctx *)u)->a->raw_attrs);
  r->id = self, r->a = name, r->b = type;
  return OTF2_CALLBACK_SUCCESS;
}

static const char *S(const otr_archive *a, uint64_t ref) {
  uint32_t i = ref == OTF2_UNDEFINED_STRING ? OTR_NONE : otr_idmap_get(&a->strings, ref);
  return i == OTR_NONE ? "" : a->str[i];
}

/* omptrace's filter outcome and samples account on the process node
 * (docs/otf2-mapping.md); its strings come before it in the definitions. */
static OTF2_CallbackCode on_node_property(void *u, OTF2_SystemTreeNodeRef node, OTF2_StringRef name,
                                          OTF2_Type type, OTF2_AttributeValue value) {
  (void)node;
  otr_archive *a = ((ctx *)u)->a;
  const char *n = S(a, name);
  char **slot = strcmp(n, "omptrace::filter") == 0            ? &a->d.filter_rules
                : strcmp(n, "omptrace::filtered") == 0        ? &a->d.filtered
                : strcmp(n, "omptrace::throttled") == 0       ? &a->d.throttled_text
                : strcmp(n, "omptrace::throttled_waits") == 0 ? &a->d.throttled_waits_text
                : strcmp(n, "omptrace::samples") == 0         ? &a->d.samples_text
                                                              : NULL;
  if (slot == &a->d.samples_text && *slot && type == OTF2_TYPE_STRING) {
    /* a job archive: one account per rank's process node, job location ids */
    const char *more = S(a, value.stringRef);
    size_t have = strlen(*slot), add = strlen(more);
    char *both = otr_xmalloc(have + add + 2);
    memcpy(both, *slot, have);
    both[have] = '\n';
    memcpy(both + have + 1, more, add + 1);
    free(*slot);
    *slot = both;
  } else if (slot && !*slot && type == OTF2_TYPE_STRING)
    *slot = otr_xstrdup(S(a, value.stringRef));
  return OTF2_CALLBACK_SUCCESS;
}

/* "parallel @ f.c:12", "!$omp parallel @f.c:12" -> construct "parallel",
 * file "f.c", line 12 (only when the region definition lacks them). */
static void split_name(otr_region *r, const char *file, uint32_t line) {
  const char *n = r->name;
  if (!strncmp(n, "!$omp ", 6))
    n += 6;
  const char *at = strstr(n, " @");
  size_t len = at ? (size_t)(at - n) : strlen(n);
  char *c = otr_xmalloc(len + 1);
  memcpy(c, n, len);
  c[len] = 0;
  r->construct = c;
  r->file = otr_xstrdup(file);
  r->line = line;
  if ((!file[0] || !line) && at) {
    const char *loc = at + 2;
    while (*loc == ' ')
      loc++;
    const char *colon = strrchr(loc, ':');
    if (colon && colon[1] >= '0' && colon[1] <= '9') {
      free((char *)r->file);
      char *f = otr_xmalloc((size_t)(colon - loc) + 1);
      memcpy(f, loc, (size_t)(colon - loc));
      f[colon - loc] = 0;
      r->file = f;
      r->line = (uint32_t)strtoul(colon + 1, NULL, 10);
    }
  }
}

static void resolve(otr_archive *a, mtmp *m) {
  otr_defs *d = &a->d;
  d->n_regions = a->raw_regions.n;
  d->regions = otr_xcalloc(d->n_regions, sizeof *d->regions);
  for (uint32_t i = 0; i < d->n_regions; i++) {
    otr_raw *r = &a->raw_regions.v[i];
    otr_region *g = &d->regions[i];
    g->name = otr_xstrdup(S(a, r->a));
    g->role = (OTF2_RegionRole)(r->d & 0xff);
    g->paradigm = (OTF2_Paradigm)((r->d >> 8) & 0xff);
    g->cls = otr_classify(g->name, g->role, g->paradigm);
    split_name(g, S(a, r->b), r->c);
    otr_idmap_put(&a->regions, r->id, i);
  }
  d->n_locations = a->raw_locations.n;
  d->location_ids = otr_xcalloc(d->n_locations, sizeof *d->location_ids);
  d->location_names = otr_xcalloc(d->n_locations, sizeof *d->location_names);
  d->location_events = otr_xcalloc(d->n_locations, sizeof *d->location_events);
  d->location_device = otr_xcalloc(d->n_locations + 1, sizeof *d->location_device);
  for (uint32_t i = 0; i < d->n_locations; i++) {
    otr_raw *r = &a->raw_locations.v[i];
    d->location_ids[i] = r->id;
    d->location_names[i] = otr_xstrdup(S(a, r->a));
    d->location_events[i] = r->d;
    d->location_device[i] = r->c == OTF2_LOCATION_TYPE_ACCELERATOR_STREAM;
    d->n_devices += d->location_device[i];
    d->total_events += r->d;
    otr_idmap_put(&a->locations, r->id, i);
  }
  d->n_groups = a->raw_groups.n;
  d->group_names = otr_xcalloc(d->n_groups + 1, sizeof *d->group_names);
  for (uint32_t g = 0; g < d->n_groups; g++)
    d->group_names[g] = otr_xstrdup(S(a, a->raw_groups.v[g].a));
  d->location_group = otr_xcalloc(d->n_locations + 1, sizeof *d->location_group);
  for (uint32_t i = 0; i < d->n_locations; i++) {
    d->location_group[i] = OTR_NONE;
    for (uint32_t g = 0; g < d->n_groups && d->location_group[i] == OTR_NONE; g++)
      if (a->raw_groups.v[g].id == a->raw_locations.v[i].b)
        d->location_group[i] = g;
  }
  /* A merged MPI job names its ranks "rank R": the program is the
   * archive's OMPTRACE::PROGRAM property, where the recorder wrote one. */
  d->program = NULL;
  char *prop = NULL;
  if (OTF2_Reader_GetProperty(a->rd, "OMPTRACE::PROGRAM", &prop) == OTF2_SUCCESS && prop) {
    if (*prop)
      d->program = otr_xstrdup(prop);
    free(prop);
  }
  if (OTF2_Reader_GetProperty(a->rd, "OMPTRACE::CHUNKS", &prop) == OTF2_SUCCESS && prop) {
    d->no_chunks = !strncmp(prop, "none", 4);
    free(prop);
  }
  for (uint32_t i = 0; i < a->raw_groups.n && !d->program; i++)
    if (a->raw_groups.v[i].b == OTF2_LOCATION_GROUP_TYPE_PROCESS)
      d->program = otr_xstrdup(S(a, a->raw_groups.v[i].a));
  if (!d->program)
    d->program = otr_xstrdup("");
  /* metric members get dense slots in definition order */
  otr_idmap members = {0};
  d->n_metrics = a->raw_members.n;
  d->metrics = otr_xcalloc(d->n_metrics, sizeof *d->metrics);
  for (uint32_t i = 0; i < d->n_metrics; i++) {
    otr_raw *r = &a->raw_members.v[i];
    d->metrics[i].name = otr_xstrdup(S(a, r->a));
    d->metrics[i].unit = otr_xstrdup(S(a, r->b));
    d->metrics[i].is_double = r->c == OTF2_TYPE_DOUBLE || r->c == OTF2_TYPE_FLOAT;
    otr_idmap_put(&members, r->id, i);
  }
  a->nmclasses = m->classes.n;
  a->mclasses = otr_xcalloc(a->nmclasses, sizeof *a->mclasses);
  for (uint32_t i = 0; i < m->classes.n; i++)
    otr_idmap_put(&a->metrics, m->classes.v[i].id, i);
  for (uint32_t i = 0; i < m->classes.n; i++) {
    otr_raw *r = &m->classes.v[i];
    if (r->e) { /* instance: use its class's members */
      uint32_t c = otr_idmap_get(&a->metrics, r->c);
      if (c == OTR_NONE || m->classes.v[c].e)
        continue;
      r = &m->classes.v[c];
    }
    otr_mclass *mc = &a->mclasses[i];
    mc->n = r->b;
    mc->slots = otr_xcalloc(r->b, sizeof *mc->slots);
    for (uint32_t k = 0; k < r->b; k++)
      mc->slots[k] = otr_idmap_get(&members, m->members[r->a + k]);
  }
  otr_idmap_free(&members);
  for (uint32_t i = 0; i < a->raw_scl.n; i++)
    otr_idmap_put(&a->scl, a->raw_scl.v[i].id, i);
  d->n_contexts = a->raw_contexts.n;
  d->contexts = otr_xcalloc(d->n_contexts, sizeof *d->contexts);
  for (uint32_t i = 0; i < d->n_contexts; i++)
    otr_idmap_put(&a->contexts, a->raw_contexts.v[i].id, i);
  for (uint32_t i = 0; i < d->n_contexts; i++) {
    otr_raw *r = &a->raw_contexts.v[i];
    otr_context *c = &d->contexts[i];
    c->region = r->a == OTF2_UNDEFINED_REGION ? OTR_NONE : otr_idmap_get(&a->regions, r->a);
    c->parent =
        r->c == OTF2_UNDEFINED_CALLING_CONTEXT ? OTR_NONE : otr_idmap_get(&a->contexts, r->c);
    if (c->parent >= i) /* parents come first; anything else could loop */
      c->parent = OTR_NONE;
    uint32_t s =
        r->b == OTF2_UNDEFINED_SOURCE_CODE_LOCATION ? OTR_NONE : otr_idmap_get(&a->scl, r->b);
    c->file = s == OTR_NONE ? "" : S(a, a->raw_scl.v[s].a);
    c->line = s == OTR_NONE ? 0 : a->raw_scl.v[s].b;
  }
  d->n_generators = a->raw_gen.n;
  d->generator_period_ns = otr_xcalloc(d->n_generators, sizeof *d->generator_period_ns);
  for (uint32_t i = 0; i < d->n_generators; i++) {
    otr_raw *r = &a->raw_gen.v[i];
    otr_idmap_put(&a->generators, r->id, i);
    double p = (double)r->d;
    if ((r->b & 0xff) == OTF2_INTERRUPT_GENERATOR_MODE_TIME) {
      double base = (r->c & 0xff) == OTF2_BASE_BINARY ? 2.0 : 10.0;
      p *= pow(base, r->e) * 1e9; /* period in seconds * base^exp -> ns */
      d->generator_period_ns[i] = p > 0 && p < 1e18 ? (uint64_t)(p + 0.5) : 0;
    }
  }
  a->param_names = otr_xcalloc(a->raw_params.n, sizeof *a->param_names);
  for (uint32_t i = 0; i < a->raw_params.n; i++) {
    a->param_names[i] = (char *)S(a, a->raw_params.v[i].a);
    otr_idmap_put(&a->params, a->raw_params.v[i].id, i);
  }
  /* omptrace's count of the records lost in a measurement gap */
  for (uint32_t i = 0; i < a->raw_attrs.n && !a->has_lost_attr; i++) {
    otr_raw *r = &a->raw_attrs.v[i];
    if (r->b == OTF2_TYPE_UINT64 && !strcmp(S(a, r->a), "omptrace::lost_records")) {
      a->lost_attr = (OTF2_AttributeRef)r->id;
      a->has_lost_attr = true;
    }
  }
  /* omptrace recover's mark of a thread whose recording stopped early */
  for (uint32_t i = 0; i < a->raw_attrs.n && !a->has_stopped_attr; i++) {
    otr_raw *r = &a->raw_attrs.v[i];
    if (!strcmp(S(a, r->a), "omptrace::stopped")) {
      a->stopped_attr = (OTF2_AttributeRef)r->id;
      a->has_stopped_attr = true;
    }
  }
  /* the mark of a paused interval (omp_control_tool, OMPTRACE_START=paused) */
  for (uint32_t i = 0; i < a->raw_attrs.n && !a->has_paused_attr; i++) {
    otr_raw *r = &a->raw_attrs.v[i];
    if (!strcmp(S(a, r->a), "omptrace::paused")) {
      a->paused_attr = (OTF2_AttributeRef)r->id;
      a->has_paused_attr = true;
    }
  }
}

void otr_region_site_from(otr_archive *a, uint32_t r, uint32_t from) {
  otr_region *g = &a->d.regions[r];
  const otr_region *c = &a->d.regions[from];
  if (!c->line || !c->file[0])
    return;
  const char *base = strrchr(c->file, '/');
  base = base ? base + 1 : c->file;
  size_t n = strlen(g->construct) + strlen(base) + 32;
  char *name = otr_xmalloc(n);
  snprintf(name, n, "%s%s @%s:%u", strncmp(g->name, "!$omp ", 6) ? "" : "!$omp ", g->construct,
           base, c->line);
  free((char *)g->name);
  free((char *)g->file);
  g->name = name;
  g->file = otr_xstrdup(c->file);
  g->line = c->line;
  g->site_inferred = true;
}

void otr_program_begin(otr_archive *a, OTF2_StringRef name) {
  const char *path = S(a, name), *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  if (!*base)
    return;
  free(a->d.program);
  a->d.program = otr_xstrdup(base);
}

bool otr_defs_read(otr_archive *a, char *err, size_t errlen) {
  ctx c = {.a = a};
  OTF2_GlobalDefReader *gr = OTF2_Reader_GetGlobalDefReader(a->rd);
  if (!gr) {
    snprintf(err, errlen, "cannot read the global definitions: %s", otr_last_error());
    return false;
  }
  OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string);
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, on_region);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, on_group);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location);
  OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(cb, on_member);
  OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(cb, on_mclass);
  OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(cb, on_minstance);
  OTF2_GlobalDefReaderCallbacks_SetCallingContextCallback(cb, on_context);
  OTF2_GlobalDefReaderCallbacks_SetSourceCodeLocationCallback(cb, on_scl);
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodePropertyCallback(cb, on_node_property);
  OTF2_GlobalDefReaderCallbacks_SetInterruptGeneratorCallback(cb, on_generator);
  OTF2_GlobalDefReaderCallbacks_SetParameterCallback(cb, on_param);
  OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, on_attribute);
  otr_mpi_def_callbacks(cb);
  OTF2_Reader_RegisterGlobalDefCallbacks(a->rd, gr, cb, &c);
  OTF2_GlobalDefReaderCallbacks_Delete(cb);
  bool looped;
  OTF2_ErrorCode rc = otr_read_global_defs(a, gr, &looped);
  OTF2_Reader_CloseGlobalDefReader(a->rd, gr);
  bool ok = rc == OTF2_SUCCESS;
  if (looped)
    snprintf(err, errlen, "more definitions read than traces.def can hold: the archive is damaged");
  else if (!ok)
    snprintf(err, errlen, "cannot read the definitions: %s", otr_last_error());
  resolve(a, &c.m);
  otr_mpi_resolve(a);
  otr_throttled_resolve(a);
  free(c.m.classes.v);
  free(c.m.members);
  if (ok && a->d.n_locations == 0) {
    snprintf(err, errlen, "the archive defines no locations");
    ok = false;
  }
  if (ok && a->d.resolution == 0) /* no ClockProperties: assume nanoseconds */
    a->d.resolution = 1000000000u;
  return ok;
}

void otr_defs_free(otr_archive *a) {
  otr_defs *d = &a->d;
  otr_mpi_defs_free(a);
  for (uint32_t i = 0; i < d->n_regions; i++) {
    free((char *)d->regions[i].name);
    free((char *)d->regions[i].construct);
    free((char *)d->regions[i].file);
  }
  free(d->regions);
  for (uint32_t i = 0; i < d->n_locations; i++)
    free(d->location_names[i]);
  free(d->location_names);
  for (uint32_t g = 0; g < d->n_groups; g++)
    free(d->group_names[g]);
  free(d->group_names);
  free(d->location_group);
  free(d->location_ids);
  free(d->location_events);
  free(d->location_device);
  for (uint32_t i = 0; i < d->n_metrics; i++) {
    free((char *)d->metrics[i].name);
    free((char *)d->metrics[i].unit);
  }
  free(d->metrics);
  free(d->contexts);
  free(d->generator_period_ns);
  free(d->program);
  free(d->filter_rules);
  free(d->filtered);
  free(d->throttled_text);
  free(d->samples_text);
  free(d->throttled);
  free(d->throttled_waits_text);
  free(d->throttled_wait_ns);
  for (uint32_t i = 0; i < a->nmclasses; i++)
    free(a->mclasses[i].slots);
  free(a->mclasses);
  free(a->param_names);
  for (uint32_t i = 0; i < a->nstr; i++)
    free(a->str[i]);
  free(a->str);
  otr_rawvec *vs[] = {&a->raw_regions,  &a->raw_locations, &a->raw_members,
                      &a->raw_contexts, &a->raw_scl,       &a->raw_gen,
                      &a->raw_params,   &a->raw_groups,    &a->raw_attrs};
  for (size_t i = 0; i < sizeof vs / sizeof *vs; i++)
    free(vs[i]->v);
  otr_idmap *ms[] = {&a->strings,    &a->regions, &a->locations, &a->contexts,
                     &a->generators, &a->params,  &a->metrics,   &a->scl};
  for (size_t i = 0; i < sizeof ms / sizeof *ms; i++)
    otr_idmap_free(ms[i]);
}
