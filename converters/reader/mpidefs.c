/* MPI definitions: the ranks (PROCESS location groups named "rank R"), the
 * Group definitions of paradigm MPI and the Comms over them, resolved into
 * otr_defs.comms with each comm rank's world rank (docs/otf2-mapping.md,
 * "MPI"). OpenMP team Comms (groups of paradigm OPENMP) are left out. */
#include "mpi.h"
#include "xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static otr_mpi *mpi_of(otr_archive *a) {
  if (!a->mpi)
    a->mpi = otr_xcalloc(1, sizeof *a->mpi);
  return a->mpi;
}

static OTF2_CallbackCode on_group(void *u, OTF2_GroupRef self, OTF2_StringRef name,
                                  OTF2_GroupType type, OTF2_Paradigm par, OTF2_GroupFlag flags,
                                  uint32_t n, const uint64_t *members) {
  (void)name, (void)flags;
  if (par != OTF2_PARADIGM_MPI)
    return OTF2_CALLBACK_SUCCESS;
  otr_mpi *m = mpi_of(*(otr_archive **)u);
  m->groups = otr_xrealloc(m->groups, (m->ngroups + 1) * sizeof *m->groups);
  otr_mpigroup *g = &m->groups[m->ngroups++];
  g->id = self, g->type = type, g->n = n;
  g->members = otr_xcalloc(n + 1, sizeof *g->members);
  if (n)
    memcpy(g->members, members, n * sizeof *members);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_comm(void *u, OTF2_CommRef self, OTF2_StringRef name,
                                 OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags) {
  (void)flags;
  otr_mpi *m = mpi_of(*(otr_archive **)u);
  m->comms = otr_xrealloc(m->comms, (m->ncomms + 1) * sizeof *m->comms);
  otr_raw *r = &m->comms[m->ncomms++];
  memset(r, 0, sizeof *r);
  r->id = self, r->a = name, r->d = group, r->b = parent;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_node(void *u, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
                                 OTF2_StringRef cls, OTF2_SystemTreeNodeRef parent) {
  (void)cls, (void)parent;
  otr_mpi *m = mpi_of(*(otr_archive **)u);
  m->nodes = otr_xrealloc(m->nodes, (m->nnodes + 1) * sizeof *m->nodes);
  otr_raw *r = &m->nodes[m->nnodes++];
  memset(r, 0, sizeof *r);
  r->id = self, r->a = name;
  return OTF2_CALLBACK_SUCCESS;
}

void otr_mpi_def_callbacks(OTF2_GlobalDefReaderCallbacks *cb) {
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, on_node);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, on_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, on_comm);
}

void otr_mpi_note(otr_archive *a, const char *fmt, ...) {
  otr_mpi *m = mpi_of(a);
  if (m->problem[0])
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m->problem, sizeof m->problem, fmt, ap);
  va_end(ap);
}

static const char *str(const otr_archive *a, uint64_t ref) {
  uint32_t i = ref == OTF2_UNDEFINED_STRING ? OTR_NONE : otr_idmap_get(&a->strings, ref);
  return i == OTR_NONE ? "" : a->str[i];
}

/* "rank 3" (omptrace) or "MPI Rank 3" (Score-P) -> 3, else OTR_NONE */
static uint32_t rank_of_name(const char *s) {
  if (!strncmp(s, "MPI Rank ", 9))
    s += 4;
  if (strncmp(s, "rank ", 5) && strncmp(s, "Rank ", 5))
    return OTR_NONE;
  if (s[5] < '0' || s[5] > '9')
    return OTR_NONE;
  char *end;
  unsigned long r = strtoul(s + 5, &end, 10);
  return *end || r >= OTR_NONE ? OTR_NONE : (uint32_t)r;
}

/* Beyond this a world rank in a group is taken for a corrupt value. */
#define MAX_RANKS (1u << 24)

/* Ranks of the locations, each rank's node (its group's system tree parent). */
static void resolve_ranks(otr_archive *a) {
  otr_defs *d = &a->d;
  d->location_rank = otr_xcalloc(d->n_locations + 1, sizeof *d->location_rank);
  for (uint32_t i = 0; i < d->n_locations; i++) {
    uint32_t g = d->location_group[i], r = OTR_NONE;
    if (g != OTR_NONE && a->raw_groups.v[g].b == OTF2_LOCATION_GROUP_TYPE_PROCESS)
      r = rank_of_name(d->group_names[g]);
    d->location_rank[i] = r;
    if (r != OTR_NONE && r + 1 > d->n_ranks)
      d->n_ranks = r + 1;
  }
  /* The job may have more ranks than the archive holds (one rank's own
   * archive): communicator groups list world ranks of the whole job. */
  for (uint32_t g = 0; d->n_ranks && g < a->mpi->ngroups; g++)
    for (uint32_t k = 0;
         a->mpi->groups[g].type == OTF2_GROUP_TYPE_COMM_GROUP && k < a->mpi->groups[g].n; k++)
      if (a->mpi->groups[g].members[k] < MAX_RANKS && a->mpi->groups[g].members[k] >= d->n_ranks)
        d->n_ranks = (uint32_t)a->mpi->groups[g].members[k] + 1;
  d->rank_node = otr_xcalloc(d->n_ranks + 1, sizeof *d->rank_node);
  for (uint32_t i = 0; i < d->n_locations; i++) {
    uint32_t r = d->location_rank[i], g = d->location_group[i];
    for (uint32_t k = 0; r != OTR_NONE && !d->rank_node[r] && k < a->mpi->nnodes; k++)
      if (a->mpi->nodes[k].id == a->raw_groups.v[g].d)
        d->rank_node[r] = str(a, a->mpi->nodes[k].a);
  }
  for (uint32_t r = 0; r < d->n_ranks; r++)
    d->rank_node[r] = otr_xstrdup(d->rank_node[r] ? d->rank_node[r] : "");
  for (uint32_t i = 0; d->n_ranks > 1 && i < d->n_locations; i++) {
    if (d->location_rank[i] == OTR_NONE)
      continue;
    size_t n = strlen(d->location_names[i]) + 32;
    char *name = otr_xmalloc(n);
    snprintf(name, n, "rank %u, %s", d->location_rank[i], d->location_names[i]);
    free(d->location_names[i]);
    d->location_names[i] = name; /* threads of all ranks are told apart */
  }
}

static const otr_mpigroup *group(const otr_mpi *m, uint64_t id) {
  for (uint32_t g = 0; g < m->ngroups; g++)
    if (m->groups[g].id == id)
      return &m->groups[g];
  return NULL;
}

/* A comm's ranks: members of a COMM_GROUP are world ranks. */
static void resolve_comm(otr_archive *a, uint32_t i) {
  otr_mpi *m = a->mpi;
  otr_comm *c = &a->d.comms[i];
  const otr_raw *r = &m->comms[i];
  c->name = otr_xstrdup(str(a, r->a));
  c->parent = r->b == OTF2_UNDEFINED_COMM ? OTR_NONE : otr_idmap_get(&m->comm_of, r->b);
  const otr_mpigroup *g = group(m, r->d);
  if (!g) {
    otr_mpi_note(a, "communicator %s refers to group %llu, which is not defined", c->name,
                 (unsigned long long)r->d);
    return;
  }
  if (g->type == OTF2_GROUP_TYPE_COMM_SELF) {
    c->size = 1;
    return;
  }
  c->world = otr_xcalloc(g->n + 1, sizeof *c->world);
  c->size = g->n;
  for (uint32_t k = 0; k < g->n; k++) {
    bool ok = g->members[k] < a->d.n_ranks;
    c->world[k] = ok ? (uint32_t)g->members[k] : OTR_NONE;
    if (!ok)
      otr_mpi_note(a, "communicator %s has rank %llu, the job has %u", c->name,
                   (unsigned long long)g->members[k], a->d.n_ranks);
  }
}

/* OpenMP team Comms have groups of paradigm OPENMP: not kept. */
static bool is_mpi_comm(const otr_mpi *m, const otr_raw *r, const otr_archive *a) {
  if (group(m, r->d))
    return true;
  const char *n = str(a, r->a);
  return !strncmp(n, "MPI_", 4) || !strncmp(n, "comm ", 5);
}

void otr_mpi_resolve(otr_archive *a) {
  otr_mpi *m = mpi_of(a);
  resolve_ranks(a);
  uint32_t n = 0;
  for (uint32_t i = 0; i < m->ncomms; i++)
    if (is_mpi_comm(m, &m->comms[i], a))
      m->comms[n++] = m->comms[i];
  m->ncomms = n;
  for (uint32_t i = 0; i < n; i++)
    otr_idmap_put(&m->comm_of, m->comms[i].id, i);
  a->d.n_comms = n;
  a->d.comms = otr_xcalloc(n + 1, sizeof *a->d.comms);
  for (uint32_t i = 0; i < n; i++)
    resolve_comm(a, i);
  if (m->problem[0])
    a->d.mpi_problem = otr_xstrdup(m->problem);
}

void otr_mpi_defs_free(otr_archive *a) {
  otr_mpi *m = a->mpi;
  for (uint32_t i = 0; i < a->d.n_comms; i++) {
    free((char *)a->d.comms[i].name);
    free(a->d.comms[i].world);
  }
  free(a->d.comms);
  free(a->d.location_rank);
  for (uint32_t r = 0; a->d.rank_node && r < a->d.n_ranks; r++)
    free((char *)a->d.rank_node[r]);
  free(a->d.rank_node);
  free(a->d.mpi_problem);
  if (!m)
    return;
  for (uint32_t g = 0; g < m->ngroups; g++)
    free(m->groups[g].members);
  free(m->groups);
  free(m->comms);
  free(m->nodes);
  otr_idmap_free(&m->comm_of);
  free(m);
  a->mpi = NULL;
}

uint32_t otr_mpi_comm(const otr_archive *a, OTF2_CommRef id) {
  return a->mpi ? otr_idmap_get(&a->mpi->comm_of, id) : OTR_NONE;
}

uint32_t otr_mpi_world(const otr_archive *a, uint32_t c, uint32_t r, uint32_t self) {
  const otr_comm *k = &a->d.comms[c];
  if (r >= k->size)
    return OTR_NONE;
  return k->world ? k->world[r] : self;
}

uint32_t otr_mpi_local(const otr_archive *a, uint32_t c, uint32_t w) {
  const otr_comm *k = &a->d.comms[c];
  if (!k->world)
    return k->size ? 0 : OTR_NONE;
  for (uint32_t r = 0; r < k->size; r++)
    if (k->world[r] == w)
      return r;
  return OTR_NONE;
}
