/* Unification: every rank's definitions become one set of global ones.
 * Equal definitions (same content after their references are translated)
 * become one; ranks become location groups "rank R" under one node per
 * host; locations get ids (R << 32) | local id; the OpenMP and the MPI
 * locations groups are concatenated in rank order (OpenMP team groups
 * shifted along); MPI Comms are one per name (docs/otf2-mapping.md, "One
 * archive per job"). Each rank keeps its local -> global map. */
#include "merge/merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S (K_STRING + 1) /* field refers to a string; 0: a plain value */
#define REF(k) ((k) + 1)
static const unsigned char REFS[MG_KINDS][MG_FIELDS] = {
    [K_PARADIGM] = {S},
    [K_NODE] = {S, S, REF(K_NODE)},
    [K_NODEPROP] = {REF(K_NODE), S},
    [K_LGROUP] = {S, 0, REF(K_NODE), REF(K_LGROUP)},
    [K_LOCATION] = {S, 0, 0, REF(K_LGROUP)},
    [K_REGION] = {S, S, S, 0, 0, 0, S},
    [K_SCL] = {S},
    [K_CC] = {REF(K_REGION), REF(K_SCL), REF(K_CC)},
    [K_IG] = {S},
    [K_MEMBER] = {S, S, 0, 0, 0, 0, 0, S},
    [K_PARAM] = {S},
    [K_ATTR] = {S, S},
    [K_GROUP] = {S},
    [K_COMM] = {S, REF(K_GROUP), REF(K_COMM)},
};
static const unsigned char NF[MG_KINDS] = {
    [K_PARADIGM] = 2, [K_NODE] = 3,  [K_NODEPROP] = 4, [K_LGROUP] = 4, [K_LOCATION] = 4,
    [K_REGION] = 9,   [K_SCL] = 2,   [K_CC] = 3,       [K_IG] = 5,     [K_MEMBER] = 8,
    [K_METRIC] = 2,   [K_PARAM] = 2, [K_ATTR] = 3,     [K_GROUP] = 4,  [K_COMM] = 4};

static uint64_t map(const mg_rank *r, enum mg_kind k, uint64_t local) {
  uint64_t *g = mg_hash_get(r->map[k], &local, sizeof local);
  return g ? *g : local; /* undefined references stay undefined */
}

static uint64_t intern(mg_job *j, const char *text) {
  mg_defs *g = &j->global[K_STRING];
  uint64_t id = mg_hash_put(j->unique[K_STRING], text, strlen(text), g->n);
  if (id == g->n) {
    mg_def *d = mg_defs_add(g);
    d->id = id, d->text = mg_strdup(text);
  }
  return id;
}

static const char *text_of(const mg_job *j, uint64_t string) {
  return string < j->global[K_STRING].n ? j->global[K_STRING].v[string].text : "";
}

/* A new global definition: a copy of d (fields already global) with id. */
static mg_def *add_global(mg_job *j, enum mg_kind k, const mg_def *d, uint64_t id) {
  mg_def *x = mg_defs_add(&j->global[k]);
  memcpy(x->f, d->f, sizeof x->f);
  x->id = id, x->n = d->n;
  x->members = mg_xalloc((d->n ? d->n : 1) * sizeof *x->members);
  if (d->n)
    memcpy(x->members, d->members, d->n * sizeof *x->members);
  return x;
}

/* The global id of d's content, a new one for content not seen before. */
static uint64_t unique(mg_job *j, enum mg_kind k, const mg_def *d) {
  size_t len = NF[k] + 1 + d->n;
  uint64_t *key = mg_xalloc(len * sizeof *key);
  memcpy(key, d->f, NF[k] * sizeof *key);
  key[NF[k]] = d->n;
  if (d->n)
    memcpy(key + NF[k] + 1, d->members, d->n * sizeof *key);
  uint64_t n = j->global[k].n;
  uint64_t id = mg_hash_put(j->unique[k], key, len * sizeof *key, n);
  free(key);
  if (id == n)
    add_global(j, k, d, id);
  return id;
}

static mg_def *global_by_id(mg_job *j, enum mg_kind k, uint64_t id) {
  for (size_t i = 0; i < j->global[k].n; i++)
    if (j->global[k].v[i].id == id)
      return &j->global[k].v[i];
  return NULL;
}

/* The node of the rank's host: its root node's name (the host name). */
static uint64_t host_node(mg_job *j, const mg_rank *r) {
  const char *host = "unknown host";
  for (size_t i = 0; i < r->defs[K_NODE].n; i++) {
    const mg_def *d = &r->defs[K_NODE].v[i];
    if (d->f[2] == OTF2_UNDEFINED_SYSTEM_TREE_NODE) {
      host = text_of(j, map(r, K_STRING, d->f[0]));
      break;
    }
  }
  mg_def node = {.f = {intern(j, host), intern(j, "node"), 0}};
  uint64_t n = j->global[K_NODE].n;
  uint64_t id = mg_hash_put(j->unique[K_NODE], host, strlen(host), n);
  if (id == n)
    add_global(j, K_NODE, &node, id);
  return id;
}

static void add_members(mg_def *g, const uint64_t *m, uint32_t n) {
  uint64_t *v = mg_xalloc((g->n + n + 1) * sizeof *v);
  memcpy(v, g->members, g->n * sizeof *v);
  memcpy(v + g->n, m, n * sizeof *v);
  free(g->members);
  g->members = v, g->n += n;
}

/* Members of a group translated to global ids by the group's type. */
static void map_members(const mg_rank *r, mg_def *d) {
  enum mg_kind k = d->f[1] == OTF2_GROUP_TYPE_LOCATIONS || d->f[1] == OTF2_GROUP_TYPE_COMM_LOCATIONS
                       ? K_LOCATION
                   : d->f[1] == OTF2_GROUP_TYPE_REGIONS ? K_REGION
                   : d->f[1] == OTF2_GROUP_TYPE_METRIC  ? K_METRIC
                                                        : MG_KINDS;
  for (uint32_t i = 0; i < d->n; i++)
    if (k != MG_KINDS)
      d->members[i] = map(r, k, d->members[i]);
    else if (d->f[1] == OTF2_GROUP_TYPE_COMM_GROUP && d->f[2] == OTF2_PARADIGM_OPENMP)
      d->members[i] += r->omp_shift;
}

/* A locations group of MPI or OpenMP: one per paradigm for the job, this
 * rank's members appended (its first such group only). */
static uint64_t joined_group(mg_job *j, mg_rank *r, mg_def *d, int *seen) {
  uint64_t key[2] = {1, d->f[2]}, n = j->global[K_GROUP].n;
  uint64_t id = mg_hash_put(j->unique[K_GROUP], key, sizeof key, n);
  mg_def *g = id == n
                  ? add_global(j, K_GROUP, &(mg_def){.f = {d->f[0], d->f[1], d->f[2], d->f[3]}}, id)
                  : global_by_id(j, K_GROUP, id);
  if (!*seen) {
    if (d->f[2] == OTF2_PARADIGM_OPENMP)
      r->omp_shift = g->n;
    add_members(g, d->members, d->n);
    *seen = 1;
  }
  return id;
}

static int joined(const mg_def *d) {
  return d->f[1] == OTF2_GROUP_TYPE_COMM_LOCATIONS &&
         (d->f[2] == OTF2_PARADIGM_MPI || d->f[2] == OTF2_PARADIGM_OPENMP);
}

static const mg_def *local_group(const mg_rank *r, uint64_t id) {
  for (size_t i = 0; i < r->defs[K_GROUP].n; i++)
    if (r->defs[K_GROUP].v[i].id == id)
      return &r->defs[K_GROUP].v[i];
  return NULL;
}

/* The global id of one definition of kind k (fields already global);
 * local_f1: the field before translation (a Comm's local group). */
static uint64_t global_id(mg_job *j, mg_rank *r, enum mg_kind k, mg_def *d, uint64_t local_f1,
                          uint64_t host, int *seen) {
  switch (k) {
  case K_PARADIGM:
    if (!mg_hash_get(j->unique[k], &d->id, sizeof d->id)) {
      mg_hash_put(j->unique[k], &d->id, sizeof d->id, d->id);
      add_global(j, k, d, d->id);
    }
    return d->id;
  case K_NODE:
    return host;
  case K_LGROUP:
    if (!seen[0]) {
      char name[32];
      snprintf(name, sizeof name, "rank %d", r->rank);
      mg_def g = {.f = {intern(j, name), OTF2_LOCATION_GROUP_TYPE_PROCESS, host,
                        OTF2_UNDEFINED_LOCATION_GROUP}};
      add_global(j, k, &g, (uint64_t)r->rank);
      seen[0] = 1;
    }
    return (uint64_t)r->rank;
  case K_LOCATION: {
    uint64_t id = (uint64_t)r->rank << 32 | (d->id & 0xffffffffu);
    add_global(j, k, d, id);
    return id;
  }
  case K_GROUP:
    if (joined(d))
      return joined_group(j, r, d, &seen[d->f[2] == OTF2_PARADIGM_MPI ? 1 : 2]);
    return unique(j, k, d);
  case K_COMM: {
    const mg_def *g = local_group(r, local_f1);
    if (g && g->f[2] == OTF2_PARADIGM_MPI) { /* one Comm per name in the job */
      uint64_t key[2] = {2, d->f[0]}, n = j->global[k].n;
      uint64_t id = mg_hash_put(j->unique[k], key, sizeof key, n);
      if (id == n)
        add_global(j, k, d, id);
      return id;
    }
    return unique(j, k, d);
  }
  default:
    return unique(j, k, d);
  }
}

/* Appends one rank's omptrace::samples (lines "<location> <expected>
 * <reached> <taken>") to acc with its locations' job ids (global_id's
 * K_LOCATION rule). */
static void account_add(mg_account *acc, const mg_rank *r, const char *q) {
  unsigned long long loc, e, reached, t;
  int n;
  while (sscanf(q, "%llu %llu %llu %llu%n", &loc, &e, &reached, &t, &n) == 4) {
    if (acc->cap - acc->len < 96) {
      acc->cap = acc->cap * 2 + 4096;
      char *grown = mg_xalloc(acc->cap);
      if (acc->len)
        memcpy(grown, acc->text, acc->len);
      free(acc->text);
      acc->text = grown;
    }
    acc->len +=
        (size_t)snprintf(acc->text + acc->len, acc->cap - acc->len, "%llu %llu %llu %llu\n",
                         (unsigned long long)r->rank << 32 | (loc & 0xffffffffu), e, reached, t);
    q += n;
  }
}

static mg_account *account_of(mg_job *j, size_t def) {
  for (size_t i = 0; i < j->naccounts; i++)
    if (j->accounts[i].def == def)
      return &j->accounts[i];
  mg_account *grown = mg_xalloc((j->naccounts + 1) * sizeof *grown);
  if (j->naccounts)
    memcpy(grown, j->accounts, j->naccounts * sizeof *grown);
  free(j->accounts);
  j->accounts = grown;
  mg_account *a = &j->accounts[j->naccounts++];
  memset(a, 0, sizeof *a);
  a->def = def;
  return a;
}

/* Every rank is in: each gathered account becomes its definition's text. */
static void accounts_done(mg_job *j) {
  for (size_t i = 0; i < j->naccounts; i++) {
    mg_account *a = &j->accounts[i];
    j->global[K_NODEPROP].v[a->def].f[3] = intern(j, a->text ? a->text : "");
    free(a->text);
  }
  free(j->accounts);
  j->accounts = NULL;
  j->naccounts = 0;
}

/* A system tree node property: kept once per host node and name; the
 * throttling report (ids of one rank) is left out; the samples accounts
 * of a node's ranks are gathered into one, with the job's location ids. */
static void node_property(mg_job *j, const mg_rank *r, mg_def *d) {
  const char *name = text_of(j, d->f[1]);
  if (strcmp(name, "omptrace::throttled") == 0)
    return;
  if (d->f[2] == OTF2_TYPE_STRING)
    d->f[3] = map(r, K_STRING, d->f[3]);
  uint64_t key[2] = {d->f[0], d->f[1]}, n = j->global[K_NODEPROP].n;
  uint64_t at = mg_hash_put(j->unique[K_NODEPROP], key, sizeof key, n);
  if (at == n)
    add_global(j, K_NODEPROP, d, 0);
  if (d->f[2] == OTF2_TYPE_STRING && strcmp(name, "omptrace::samples") == 0)
    account_add(account_of(j, at), r, text_of(j, d->f[3]));
}

static void unify_one(mg_job *j, mg_rank *r, enum mg_kind k, mg_def d, uint64_t host, int *seen) {
  if (k == K_STRING) {
    mg_hash_put(r->map[k], &d.id, sizeof d.id, intern(j, d.text));
    return;
  }
  uint64_t local_f1 = d.f[1];
  for (int f = 0; f < MG_FIELDS; f++)
    if (REFS[k][f])
      d.f[f] = map(r, (enum mg_kind)(REFS[k][f] - 1), d.f[f]);
  uint64_t m[256 + 1];
  uint64_t *mem = d.n <= 256 ? m : mg_xalloc(d.n * sizeof *mem);
  if (d.n)
    memcpy(mem, d.members, d.n * sizeof *mem);
  d.members = mem;
  if (k == K_METRIC)
    for (uint32_t x = 0; x < d.n; x++)
      mem[x] = map(r, K_MEMBER, mem[x]);
  if (k == K_GROUP)
    map_members(r, &d);
  if (k == K_NODEPROP)
    node_property(j, r, &d);
  else
    mg_hash_put(r->map[k], &d.id, sizeof d.id, global_id(j, r, k, &d, local_f1, host, seen));
  if (mem != m)
    free(mem);
}

/* False while d refers to a definition of its own kind (a parent Comm,
 * calling context or node) that is defined later and not translated yet. */
static int ready(const mg_rank *r, enum mg_kind k, const mg_def *d, mg_hash *ids) {
  for (int f = 0; f < MG_FIELDS; f++)
    if (REFS[k][f] == REF(k) && mg_hash_get(ids, &d->f[f], sizeof d->f[f]) &&
        !mg_hash_get(r->map[k], &d->f[f], sizeof d->f[f]))
      return 0;
  return 1;
}

/* One rank's definitions of kind k, parents before children; for groups
 * the locations groups first (the team groups after them are shifted by
 * them). A cycle of parents is translated as it stands. */
static void unify_rank_kind(mg_job *j, mg_rank *r, enum mg_kind k, uint64_t host, int *seen) {
  mg_defs *defs = &r->defs[k];
  mg_hash *ids = mg_hash_new();
  for (size_t i = 0; i < defs->n; i++)
    mg_hash_put(ids, &defs->v[i].id, sizeof defs->v[i].id, 1);
  unsigned char *done = mg_xalloc(defs->n + 1);
  for (int pass = 0; pass < 3; pass++)
    for (int progress = 1; progress;) {
      progress = 0;
      for (size_t i = 0; i < defs->n; i++) {
        if (done[i] || (pass == 0 && k == K_GROUP && !joined(&defs->v[i])) ||
            (pass < 2 && !ready(r, k, &defs->v[i], ids)))
          continue;
        unify_one(j, r, k, defs->v[i], host, seen);
        done[i] = 1, progress = pass < 2;
      }
    }
  free(done);
  mg_hash_free(ids);
}

int mg_unify(mg_job *j) {
  for (int k = 0; k < MG_KINDS; k++)
    j->unique[k] = mg_hash_new();
  for (size_t i = 0; i < j->nranks; i++)
    for (int k = 0; k < MG_KINDS; k++)
      j->ranks[i].map[k] = mg_hash_new();
  mg_def root = {
      .f = {intern(j, "cluster"), intern(j, "machine"), OTF2_UNDEFINED_SYSTEM_TREE_NODE}};
  mg_hash_put(j->unique[K_NODE], "", 0, 0); /* no host is named "" here */
  add_global(j, K_NODE, &root, 0);
  uint64_t *host = mg_xalloc(j->nranks * sizeof *host);
  int(*seen)[3] = mg_xalloc(j->nranks * sizeof *seen);
  for (int k = 0; k < MG_KINDS; k++)
    for (size_t i = 0; i < j->nranks; i++) {
      if (k == K_NODE)
        host[i] = host_node(j, &j->ranks[i]);
      unify_rank_kind(j, &j->ranks[i], (enum mg_kind)k, host[i], seen[i]);
      if (k == K_NODEPROP && i + 1 == j->nranks)
        accounts_done(j);
    }
  free(host);
  free(seen);
  return 0;
}
