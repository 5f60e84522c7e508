/* mpigen.h: the writer (OTF2 writer API, serial collectives). */
#include "mpigen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x)                                                                                      \
  do {                                                                                             \
    if ((x) != OTF2_SUCCESS)                                                                       \
      die(#x);                                                                                     \
  } while (0)

typedef struct {
  char *name, *file;
  OTF2_RegionRole role;
  OTF2_Paradigm par;
  uint32_t line;
} region;

typedef struct {
  char *name;
  int n, missing;
  uint32_t world[MG_RANKS], parent;
} comm;

struct mg {
  OTF2_Archive *ar;
  OTF2_EvtWriter *w[MG_RANKS][MG_THREADS];
  uint64_t nev[MG_RANKS][MG_THREADS], first, last;
  int ranks, threads, per_node;
  region regions[64];
  uint32_t nregions;
  comm comms[16];
  uint32_t ncomms;
  uint32_t nstr;
};

static void die(const char *what) {
  fprintf(stderr, "mpigen: %s failed\n", what);
  exit(2);
}

static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l, void *c, bool f) {
  (void)u, (void)ft, (void)l, (void)c, (void)f;
  return OTF2_FLUSH;
}
static OTF2_TimeStamp post_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l) {
  (void)u, (void)ft, (void)l;
  return 0;
}
static OTF2_FlushCallbacks flush_cb = {pre_flush, post_flush};

static uint64_t loc_id(int r, int t) {
  return (uint64_t)r << 32 | (uint64_t)t;
}

mg *mg_open(const char *dir, int ranks, int threads, int per_node) {
  if (ranks > MG_RANKS || threads > MG_THREADS)
    die("mg_open: too many ranks or threads");
  mg *g = calloc(1, sizeof *g);
  g->ranks = ranks, g->threads = threads, g->per_node = per_node, g->first = UINT64_MAX;
  g->ar = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                            OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!g->ar)
    die("OTF2_Archive_Open");
  OTF2_Archive_SetFlushCallbacks(g->ar, &flush_cb, NULL);
  OTF2_Archive_SetSerialCollectiveCallbacks(g->ar);
  OTF2_Archive_OpenEvtFiles(g->ar);
  for (int r = 0; r < ranks; r++)
    for (int t = 0; t < threads; t++)
      g->w[r][t] = OTF2_Archive_GetEvtWriter(g->ar, loc_id(r, t));
  return g;
}

uint32_t mg_region(mg *g, const char *name, OTF2_RegionRole role, OTF2_Paradigm par,
                   const char *file, uint32_t line) {
  region *x = &g->regions[g->nregions];
  x->name = strdup(name), x->file = strdup(file), x->role = role, x->par = par, x->line = line;
  return g->nregions++;
}

uint32_t mg_comm(mg *g, const char *name, int n, const uint32_t *world, uint32_t parent,
                 int group_missing) {
  comm *c = &g->comms[g->ncomms];
  c->name = strdup(name), c->n = n, c->parent = parent, c->missing = group_missing;
  for (int k = 0; k < n; k++)
    c->world[k] = world[k];
  return g->ncomms++;
}

/* Each event: its location's writer and count, the archive's time range. */
static OTF2_EvtWriter *W(mg *g, int r, int t, uint64_t ns) {
  g->nev[r][t]++;
  if (ns < g->first)
    g->first = ns;
  if (ns > g->last)
    g->last = ns;
  return g->w[r][t];
}

void mg_enter(mg *g, int r, int t, uint64_t ns, uint32_t region) {
  CK(OTF2_EvtWriter_Enter(W(g, r, t, ns), NULL, ns, region));
}
void mg_leave(mg *g, int r, int t, uint64_t ns, uint32_t region) {
  CK(OTF2_EvtWriter_Leave(W(g, r, t, ns), NULL, ns, region));
}
void mg_fork(mg *g, int r, uint64_t ns, uint32_t n) {
  CK(OTF2_EvtWriter_ThreadFork(W(g, r, 0, ns), NULL, ns, OTF2_PARADIGM_OPENMP, n));
}
void mg_join(mg *g, int r, uint64_t ns) {
  CK(OTF2_EvtWriter_ThreadJoin(W(g, r, 0, ns), NULL, ns, OTF2_PARADIGM_OPENMP));
}
/* The OpenMP team Comm of rank r is 100 + r. */
void mg_team_begin(mg *g, int r, int t, uint64_t ns) {
  CK(OTF2_EvtWriter_ThreadTeamBegin(W(g, r, t, ns), NULL, ns, 100 + (uint32_t)r));
}
void mg_team_end(mg *g, int r, int t, uint64_t ns) {
  CK(OTF2_EvtWriter_ThreadTeamEnd(W(g, r, t, ns), NULL, ns, 100 + (uint32_t)r));
}
void mg_send(mg *g, int r, uint64_t ns, uint32_t to, uint32_t comm, uint32_t tag, uint64_t bytes) {
  CK(OTF2_EvtWriter_MpiSend(W(g, r, 0, ns), NULL, ns, to, comm, tag, bytes));
}
void mg_isend(mg *g, int r, uint64_t ns, uint32_t to, uint32_t comm, uint32_t tag, uint64_t bytes,
              uint64_t req) {
  CK(OTF2_EvtWriter_MpiIsend(W(g, r, 0, ns), NULL, ns, to, comm, tag, bytes, req));
}
void mg_isend_complete(mg *g, int r, uint64_t ns, uint64_t req) {
  CK(OTF2_EvtWriter_MpiIsendComplete(W(g, r, 0, ns), NULL, ns, req));
}
void mg_irecv_request(mg *g, int r, uint64_t ns, uint64_t req) {
  CK(OTF2_EvtWriter_MpiIrecvRequest(W(g, r, 0, ns), NULL, ns, req));
}
void mg_irecv(mg *g, int r, uint64_t ns, uint32_t from, uint32_t comm, uint32_t tag, uint64_t bytes,
              uint64_t req) {
  CK(OTF2_EvtWriter_MpiIrecv(W(g, r, 0, ns), NULL, ns, from, comm, tag, bytes, req));
}
void mg_recv(mg *g, int r, uint64_t ns, uint32_t from, uint32_t comm, uint32_t tag,
             uint64_t bytes) {
  CK(OTF2_EvtWriter_MpiRecv(W(g, r, 0, ns), NULL, ns, from, comm, tag, bytes));
}
void mg_coll_begin(mg *g, int r, uint64_t ns) {
  CK(OTF2_EvtWriter_MpiCollectiveBegin(W(g, r, 0, ns), NULL, ns));
}
void mg_coll_end(mg *g, int r, uint64_t ns, OTF2_CollectiveOp op, uint32_t comm, uint32_t root,
                 uint64_t sent, uint64_t received) {
  CK(OTF2_EvtWriter_MpiCollectiveEnd(W(g, r, 0, ns), NULL, ns, op, comm, root, sent, received));
}

static uint32_t str(mg *g, OTF2_GlobalDefWriter *d, const char *s) {
  CK(OTF2_GlobalDefWriter_WriteString(d, g->nstr, s));
  return g->nstr++;
}

static void system_tree(mg *g, OTF2_GlobalDefWriter *d) {
  CK(OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, str(g, d, "cluster"), str(g, d, "machine"),
                                              OTF2_UNDEFINED_SYSTEM_TREE_NODE));
  int nodes = (g->ranks + g->per_node - 1) / g->per_node;
  for (int n = 0; n < nodes; n++) {
    char name[32];
    snprintf(name, sizeof name, "node%d", n);
    CK(OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 1 + (uint32_t)n, str(g, d, name),
                                                str(g, d, "node"), 0));
  }
  for (int r = 0; r < g->ranks; r++) {
    char name[32];
    snprintf(name, sizeof name, "rank %d", r);
    CK(OTF2_GlobalDefWriter_WriteLocationGroup(
        d, (uint32_t)r, str(g, d, name), OTF2_LOCATION_GROUP_TYPE_PROCESS,
        1 + (uint32_t)(r / g->per_node), OTF2_UNDEFINED_LOCATION_GROUP));
    for (int t = 0; t < g->threads; t++) {
      snprintf(name, sizeof name, "OpenMP thread %d", t);
      CK(OTF2_GlobalDefWriter_WriteLocation(d, loc_id(r, t), str(g, d, name),
                                            OTF2_LOCATION_TYPE_CPU_THREAD, g->nev[r][t],
                                            (uint32_t)r));
    }
  }
}

/* MPI groups 0 (locations), 1 + c per comm; OpenMP teams 50 + r, Comms 100 + r. */
static void comms(mg *g, OTF2_GlobalDefWriter *d) {
  uint64_t m[MG_RANKS * MG_THREADS];
  for (int r = 0; r < g->ranks; r++)
    m[r] = loc_id(r, 0);
  CK(OTF2_GlobalDefWriter_WriteGroup(d, 0, str(g, d, ""), OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                     OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)g->ranks,
                                     m));
  for (uint32_t c = 0; c < g->ncomms; c++) {
    comm *k = &g->comms[c];
    for (int i = 0; i < k->n; i++)
      m[i] = k->world[i];
    if (!k->missing)
      CK(OTF2_GlobalDefWriter_WriteGroup(
          d, 1 + c, str(g, d, ""), k->n ? OTF2_GROUP_TYPE_COMM_GROUP : OTF2_GROUP_TYPE_COMM_SELF,
          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)k->n, m));
    CK(OTF2_GlobalDefWriter_WriteComm(d, c, str(g, d, k->name), k->missing ? 40 : 1 + c, k->parent,
                                      OTF2_COMM_FLAG_NONE));
  }
  for (int r = 0; r < g->ranks; r++) {
    for (int t = 0; t < g->threads; t++)
      m[t] = loc_id(r, t);
    char name[32];
    snprintf(name, sizeof name, "OpenMP team %d", 100 + r);
    CK(OTF2_GlobalDefWriter_WriteGroup(d, 50 + (uint32_t)r, str(g, d, name),
                                       OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_OPENMP,
                                       OTF2_GROUP_FLAG_NONE, (uint32_t)g->threads, m));
    CK(OTF2_GlobalDefWriter_WriteComm(d, 100 + (uint32_t)r, str(g, d, name), 50 + (uint32_t)r,
                                      OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
  }
}

void mg_close(mg *g) {
  for (int r = 0; r < g->ranks; r++)
    for (int t = 0; t < g->threads; t++)
      OTF2_Archive_CloseEvtWriter(g->ar, g->w[r][t]);
  OTF2_Archive_CloseEvtFiles(g->ar);
  OTF2_Archive_OpenDefFiles(g->ar); /* empty local definitions, as readers expect them */
  for (int r = 0; r < g->ranks; r++)
    for (int t = 0; t < g->threads; t++)
      OTF2_Archive_CloseDefWriter(g->ar, OTF2_Archive_GetDefWriter(g->ar, loc_id(r, t)));
  OTF2_Archive_CloseDefFiles(g->ar);
  OTF2_GlobalDefWriter *d = OTF2_Archive_GetGlobalDefWriter(g->ar);
  CK(OTF2_GlobalDefWriter_WriteClockProperties(d, 1000000000u, g->first, g->last - g->first, 0));
  CK(OTF2_GlobalDefWriter_WriteParadigm(d, OTF2_PARADIGM_MPI, str(g, d, "MPI"),
                                        OTF2_PARADIGM_CLASS_PROCESS));
  system_tree(g, d);
  uint32_t empty = str(g, d, "");
  for (uint32_t i = 0; i < g->nregions; i++) {
    region *x = &g->regions[i];
    uint32_t n = str(g, d, x->name);
    CK(OTF2_GlobalDefWriter_WriteRegion(d, i, n, n, empty, x->role, x->par, OTF2_REGION_FLAG_NONE,
                                        str(g, d, x->file), x->line, x->line));
  }
  comms(g, d);
  OTF2_Archive_CloseGlobalDefWriter(g->ar, d);
  OTF2_Archive_Close(g->ar);
  for (uint32_t i = 0; i < g->nregions; i++)
    free(g->regions[i].name), free(g->regions[i].file);
  for (uint32_t c = 0; c < g->ncomms; c++)
    free(g->comms[c].name);
  free(g);
}
