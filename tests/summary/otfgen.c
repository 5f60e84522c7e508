#include "otfgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char *name, *file;
  OTF2_RegionRole role;
  OTF2_Paradigm par;
  uint32_t line;
} region;

typedef struct {
  uint32_t region, line, parent;
  char *file;
} context;

struct gen {
  OTF2_Archive *ar;
  OTF2_EvtWriter *w[G_MAXLOC];
  uint64_t nev[G_MAXLOC], first, last;
  uint64_t shift; /* added to every time (g_shift) */
  int nloc;
  char *program;
  region regions[256];
  uint32_t nregions;
  int teams[64];
  uint32_t nteams;
  char *params[16];
  uint32_t nparams;
  char *metric[2];
  int has_metrics;
  context ctx[256];
  uint32_t nctx;
  uint64_t period[4];
  uint32_t ngen;
  int has_lost_attr; /* attribute 0: omptrace::lost_records */
  int no_range;      /* ClockProperties without a trace length */
};

static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l, void *c, bool f) {
  (void)u, (void)ft, (void)l, (void)c, (void)f;
  return OTF2_FLUSH;
}
static OTF2_TimeStamp post_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l) {
  (void)u, (void)ft, (void)l;
  return 0;
}
static OTF2_FlushCallbacks flush_cb = {pre_flush, post_flush};

static void die(const char *what) {
  fprintf(stderr, "otfgen: %s failed\n", what);
  exit(2);
}

gen *g_open(const char *dir, const char *program, int nloc) {
  gen *g = calloc(1, sizeof *g);
  g->nloc = nloc;
  g->first = UINT64_MAX;
  g->program = strdup(program);
  g->ar = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                            OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!g->ar)
    die("OTF2_Archive_Open");
  OTF2_Archive_SetFlushCallbacks(g->ar, &flush_cb, NULL);
  OTF2_Archive_SetSerialCollectiveCallbacks(g->ar);
  OTF2_Archive_OpenEvtFiles(g->ar);
  for (int l = 0; l < nloc; l++)
    g->w[l] = OTF2_Archive_GetEvtWriter(g->ar, (OTF2_LocationRef)l);
  return g;
}

void g_no_range(gen *g) {
  g->no_range = 1;
}

void g_shift(gen *g, uint64_t shift) {
  g->shift = shift;
}

uint32_t g_region(gen *g, const char *name, OTF2_RegionRole role, OTF2_Paradigm par,
                  const char *file, uint32_t line) {
  region *r = &g->regions[g->nregions];
  r->name = strdup(name);
  r->file = strdup(file ? file : "");
  r->role = role, r->par = par, r->line = line;
  return g->nregions++;
}

uint32_t g_team(gen *g, int n) {
  g->teams[g->nteams] = n;
  return g->nteams++;
}

uint32_t g_param(gen *g, const char *name) {
  g->params[g->nparams] = strdup(name);
  return g->nparams++;
}

uint32_t g_metrics(gen *g, const char *m0, const char *m1) {
  g->metric[0] = strdup(m0);
  g->metric[1] = strdup(m1);
  g->has_metrics = 1;
  return 0;
}

uint32_t g_context(gen *g, uint32_t region, const char *file, uint32_t line, uint32_t parent) {
  context *c = &g->ctx[g->nctx];
  c->region = region, c->line = line, c->parent = parent;
  c->file = strdup(file ? file : "");
  return g->nctx++;
}

uint32_t g_generator(gen *g, uint64_t period_ns) {
  g->period[g->ngen] = period_ns;
  return g->ngen++;
}

/* Counts an event of location l at time t; returns t shifted (g_shift). */
static uint64_t ev(gen *g, int l, uint64_t t) {
  t += g->shift;
  g->nev[l]++;
  g->last = t > g->last ? t : g->last;
  g->first = t < g->first ? t : g->first;
  return t;
}

#define CK(x)                                                                                      \
  do {                                                                                             \
    if ((x) != OTF2_SUCCESS)                                                                       \
      die(#x);                                                                                     \
  } while (0)

void g_enter(gen *g, int l, uint64_t t, uint32_t r) {
  t = ev(g, l, t);
  CK(OTF2_EvtWriter_Enter(g->w[l], NULL, t, r));
}
void g_leave(gen *g, int l, uint64_t t, uint32_t r) {
  t = ev(g, l, t);
  CK(OTF2_EvtWriter_Leave(g->w[l], NULL, t, r));
}
void g_fork(gen *g, int l, uint64_t t, uint32_t n) {
  t = ev(g, l, t);
  CK(OTF2_EvtWriter_ThreadFork(g->w[l], NULL, t, OTF2_PARADIGM_OPENMP, n));
}
void g_join(gen *g, int l, uint64_t t) {
  t = ev(g, l, t);
  CK(OTF2_EvtWriter_ThreadJoin(g->w[l], NULL, t, OTF2_PARADIGM_OPENMP));
}
void g_team_begin(gen *g, int l, uint64_t t, uint32_t team) {
  t = ev(g, l, t);
  CK(OTF2_EvtWriter_ThreadTeamBegin(g->w[l], NULL, t, team));
}
void g_team_end(gen *g, int l, uint64_t t, uint32_t team) {
  t = ev(g, l, t);
  CK(OTF2_EvtWriter_ThreadTeamEnd(g->w[l], NULL, t, team));
}
void g_acquire(gen *g, int l, uint64_t t, uint32_t lock, uint32_t order) {
  t = ev(g, l, t);
  CK(OTF2_EvtWriter_ThreadAcquireLock(g->w[l], NULL, t, OTF2_PARADIGM_OPENMP, lock, order));
}
void g_release(gen *g, int l, uint64_t t, uint32_t lock, uint32_t order) {
  t = ev(g, l, t);
  CK(OTF2_EvtWriter_ThreadReleaseLock(g->w[l], NULL, t, OTF2_PARADIGM_OPENMP, lock, order));
}
void g_task_create(gen *g, int l, uint64_t t, uint32_t team, uint32_t c, uint32_t n) {
  t = ev(g, l, t);
  CK(OTF2_EvtWriter_ThreadTaskCreate(g->w[l], NULL, t, team, c, n));
}
void g_task_switch(gen *g, int l, uint64_t t, uint32_t team, uint32_t c, uint32_t n) {
  t = ev(g, l, t);
  CK(OTF2_EvtWriter_ThreadTaskSwitch(g->w[l], NULL, t, team, c, n));
}
void g_task_complete(gen *g, int l, uint64_t t, uint32_t team, uint32_t c, uint32_t n) {
  t = ev(g, l, t);
  CK(OTF2_EvtWriter_ThreadTaskComplete(g->w[l], NULL, t, team, c, n));
}
void g_metric(gen *g, int l, uint64_t t, uint32_t metric, uint64_t v0, uint64_t v1) {
  OTF2_Type ty[2] = {OTF2_TYPE_UINT64, OTF2_TYPE_UINT64};
  OTF2_MetricValue v[2];
  v[0].unsigned_int = v0;
  v[1].unsigned_int = v1;
  t = ev(g, l, t);
  CK(OTF2_EvtWriter_Metric(g->w[l], NULL, t, metric, 2, ty, v));
}
void g_param_uint(gen *g, int l, uint64_t t, uint32_t p, uint64_t v) {
  t = ev(g, l, t);
  CK(OTF2_EvtWriter_ParameterUnsignedInt(g->w[l], NULL, t, p, v));
}
void g_onoff(gen *g, int l, uint64_t t, int on) {
  t = ev(g, l, t);
  CK(OTF2_EvtWriter_MeasurementOnOff(g->w[l], NULL, t,
                                     on ? OTF2_MEASUREMENT_ON : OTF2_MEASUREMENT_OFF));
}
void g_off_lost(gen *g, int l, uint64_t t, uint64_t records) {
  OTF2_AttributeList *al = OTF2_AttributeList_New();
  if (!al)
    die("OTF2_AttributeList_New");
  CK(OTF2_AttributeList_AddUint64(al, 0, records));
  g->has_lost_attr = 1;
  t = ev(g, l, t);
  CK(OTF2_EvtWriter_MeasurementOnOff(g->w[l], al, t, OTF2_MEASUREMENT_OFF));
  OTF2_AttributeList_Delete(al);
}
void g_sample(gen *g, int l, uint64_t t, uint32_t ctx, uint32_t generator) {
  t = ev(g, l, t);
  CK(OTF2_EvtWriter_CallingContextSample(g->w[l], NULL, t, ctx, 0, generator));
}

/* Strings are interned by writing each one once with a running id. */
static uint32_t nstr;
static uint32_t str(OTF2_GlobalDefWriter *d, const char *s) {
  CK(OTF2_GlobalDefWriter_WriteString(d, nstr, s));
  return nstr++;
}

void g_close(gen *g) {
  for (int l = 0; l < g->nloc; l++)
    OTF2_Archive_CloseEvtWriter(g->ar, g->w[l]);
  OTF2_Archive_CloseEvtFiles(g->ar);
  OTF2_Archive_OpenDefFiles(g->ar);
  for (int l = 0; l < g->nloc; l++) {
    OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(g->ar, (OTF2_LocationRef)l);
    OTF2_Archive_CloseDefWriter(g->ar, dw);
  }
  OTF2_Archive_CloseDefFiles(g->ar);
  OTF2_GlobalDefWriter *d = OTF2_Archive_GetGlobalDefWriter(g->ar);
  nstr = 0;
  uint64_t first = g->first == UINT64_MAX ? 0 : g->first;
  uint64_t len = g->no_range ? 0 : g->last - first;
  CK(OTF2_GlobalDefWriter_WriteClockProperties(d, 1000000000u, first, len, 0));
  CK(OTF2_GlobalDefWriter_WriteParadigm(d, OTF2_PARADIGM_OPENMP, str(d, "OpenMP"),
                                        OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN));
  uint32_t empty = str(d, "");
  CK(OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, str(d, "localhost"), str(d, "machine"),
                                              OTF2_UNDEFINED_SYSTEM_TREE_NODE));
  CK(OTF2_GlobalDefWriter_WriteLocationGroup(d, 0, str(d, g->program),
                                             OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                             OTF2_UNDEFINED_LOCATION_GROUP));
  for (int l = 0; l < g->nloc; l++) {
    char name[64];
    snprintf(name, sizeof name, "OpenMP thread %d", l);
    CK(OTF2_GlobalDefWriter_WriteLocation(d, (OTF2_LocationRef)l, str(d, name),
                                          OTF2_LOCATION_TYPE_CPU_THREAD, g->nev[l], 0));
  }
  for (uint32_t i = 0; i < g->nregions; i++) {
    region *r = &g->regions[i];
    uint32_t n = str(d, r->name);
    uint32_t f = r->file[0] ? str(d, r->file) : empty;
    CK(OTF2_GlobalDefWriter_WriteRegion(d, i, n, n, empty, r->role, r->par, OTF2_REGION_FLAG_NONE,
                                        f, r->line, r->line));
  }
  if (g->nteams) {
    uint64_t all[G_MAXLOC];
    for (int l = 0; l < g->nloc; l++)
      all[l] = (uint64_t)l;
    CK(OTF2_GlobalDefWriter_WriteGroup(d, 0, str(d, "all threads"), OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                       OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                       (uint32_t)g->nloc, all));
    for (uint32_t i = 0; i < g->nteams; i++) {
      char name[64];
      snprintf(name, sizeof name, "OpenMP team %u", i);
      CK(OTF2_GlobalDefWriter_WriteGroup(d, 1 + i, str(d, name), OTF2_GROUP_TYPE_COMM_GROUP,
                                         OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                         (uint32_t)g->teams[i], all));
      CK(OTF2_GlobalDefWriter_WriteComm(d, i, str(d, name), 1 + i, OTF2_UNDEFINED_COMM,
                                        OTF2_COMM_FLAG_NONE));
    }
  }
  if (g->has_metrics) {
    for (uint32_t k = 0; k < 2; k++)
      CK(OTF2_GlobalDefWriter_WriteMetricMember(
          d, k, str(d, g->metric[k]), empty, OTF2_METRIC_TYPE_PAPI, OTF2_METRIC_ACCUMULATED_START,
          OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, 0, str(d, "#")));
    OTF2_MetricMemberRef m[2] = {0, 1};
    CK(OTF2_GlobalDefWriter_WriteMetricClass(d, 0, 2, m, OTF2_METRIC_SYNCHRONOUS_STRICT,
                                             OTF2_RECORDER_KIND_CPU));
  }
  for (uint32_t i = 0; i < g->nparams; i++)
    CK(OTF2_GlobalDefWriter_WriteParameter(d, i, str(d, g->params[i]), OTF2_PARAMETER_TYPE_UINT64));
  for (uint32_t i = 0; i < g->nctx; i++)
    CK(OTF2_GlobalDefWriter_WriteSourceCodeLocation(d, i, str(d, g->ctx[i].file), g->ctx[i].line));
  for (uint32_t i = 0; i < g->nctx; i++)
    CK(OTF2_GlobalDefWriter_WriteCallingContext(d, i, g->ctx[i].region, i, g->ctx[i].parent));
  for (uint32_t i = 0; i < g->ngen; i++)
    CK(OTF2_GlobalDefWriter_WriteInterruptGenerator(d, i, str(d, "CLOCK_MONOTONIC"),
                                                    OTF2_INTERRUPT_GENERATOR_MODE_TIME,
                                                    OTF2_BASE_DECIMAL, -9, g->period[i]));
  if (g->has_lost_attr)
    CK(OTF2_GlobalDefWriter_WriteAttribute(d, 0, str(d, "omptrace::lost_records"),
                                           str(d, "records lost"), OTF2_TYPE_UINT64));
  OTF2_Archive_CloseGlobalDefWriter(g->ar, d);
  OTF2_Archive_Close(g->ar);
  for (uint32_t i = 0; i < g->nregions; i++)
    free(g->regions[i].name), free(g->regions[i].file);
  for (uint32_t i = 0; i < g->nparams; i++)
    free(g->params[i]);
  for (uint32_t i = 0; i < g->nctx; i++)
    free(g->ctx[i].file);
  if (g->has_metrics)
    free(g->metric[0]), free(g->metric[1]);
  free(g->program);
  free(g);
}
