/* OpenMP teams as OTF2 groups and communicators: one Comm per distinct
 * (parent team, kind, member locations), so a loop of a million parallel
 * regions with the same team defines one Comm. A `teams` league is a Comm
 * of its own kind; the internal region libomp forks for each of its teams
 * is folded into it. Parents are interned before their children, so
 * writing Comms by id never refers forward. */
#include "finalize/teams.h"
#include "finalize/defs.h"
#include "finalize/intern.h"
#include "finalize/scan_ext.h"

#include <stdio.h>
#include <stdlib.h>

#define IN_PROGRESS (UINT32_MAX - 1)
#define KEY_HEAD 2 /* parent comm and league flag precede the members */

static uint32_t *comm_of; /* per parallel index */
static ot_intern teams;   /* key: parent comm, league (0/1), then member locations */
static uint32_t *team_name;
static uint32_t locations_name;

static uint32_t build(uint64_t index, int depth) {
  if (comm_of[index] != UINT32_MAX)
    return comm_of[index] == IN_PROGRESS ? OTF2_UNDEFINED_COMM : comm_of[index];
  comm_of[index] = IN_PROGRESS;
  const ot_parallel_info *p = ot_scan_parallel_at(index);
  uint32_t parent = OTF2_UNDEFINED_COMM;
  int64_t pi = p->parent_id ? ot_scan_parallel_index(p->parent_id) : -1;
  if (pi >= 0 && depth < 256)
    parent = build((uint64_t)pi, depth + 1);
  if (p->kind == OT_PK_TEAM) /* written as part of its league */
    return comm_of[index] = parent;
  uint32_t n = 0;
  const uint32_t *m = ot_scan_members(index, &n);
  /* + 1: a region with no member seen keys on its master alone */
  uint32_t *key = malloc((n + KEY_HEAD + 1) * sizeof *key);
  if (!key)
    return comm_of[index] = OTF2_UNDEFINED_COMM;
  uint32_t k = 0;
  key[k++] = parent;
  key[k++] = p->kind == OT_PK_LEAGUE;
  for (uint32_t i = 0; i < n; i++)
    if (m[i] != UINT32_MAX)
      key[k++] = m[i];
  if (k == KEY_HEAD && p->master_loc != UINT32_MAX) /* no member seen: the master alone */
    key[k++] = p->master_loc;
  uint32_t id = ot_intern_get(&teams, key, k * (uint32_t)sizeof *key, NULL);
  free(key);
  return comm_of[index] = (id == UINT32_MAX ? OTF2_UNDEFINED_COMM : id);
}

int ot_teams_build(void) {
  uint64_t n = ot_scan_parallel_count();
  comm_of = malloc((n ? n : 1) * sizeof *comm_of);
  if (!comm_of)
    return -1;
  for (uint64_t i = 0; i < n; i++)
    comm_of[i] = UINT32_MAX;
  for (uint64_t i = 0; i < n; i++)
    build(i, 0);
  locations_name = ot_defs_string("OpenMP locations");
  team_name = malloc((teams.n ? teams.n : 1) * sizeof *team_name);
  if (!team_name)
    return -1;
  for (uint32_t t = 0; t < teams.n; t++) {
    const uint32_t *key = ot_intern_key(&teams, t);
    char name[64];
    snprintf(name, sizeof name, "OpenMP %s %u", key[1] ? "league" : "team", t);
    team_name[t] = ot_defs_string(name);
  }
  return 0;
}

OTF2_CommRef ot_teams_comm(uint64_t parallel_id) {
  int64_t i = ot_scan_parallel_index(parallel_id);
  return i < 0 || !comm_of ? OTF2_UNDEFINED_COMM : comm_of[i];
}

OTF2_ErrorCode ot_teams_write(OTF2_GlobalDefWriter *w, uint32_t nlocations) {
  uint64_t *members = malloc((nlocations ? nlocations : 1) * sizeof *members);
  if (!members)
    return OTF2_ERROR_MEM_ALLOC_FAILED;
  for (uint32_t i = 0; i < nlocations; i++)
    members[i] = i;
  OTF2_ErrorCode e = OTF2_GlobalDefWriter_WriteGroup(
      w, 0, locations_name, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_OPENMP,
      OTF2_GROUP_FLAG_NONE, nlocations, members);
  for (uint32_t t = 0; t < teams.n && e == OTF2_SUCCESS; t++) {
    const uint32_t *key = ot_intern_key(&teams, t);
    uint32_t nkey = teams.lens[t] / (uint32_t)sizeof *key - KEY_HEAD, n = 0;
    /* location id = index in group 0; a thread that registered while
     * finalize began has no location */
    for (uint32_t i = 0; i < nkey && n < nlocations; i++)
      if (key[i + KEY_HEAD] < nlocations)
        members[n++] = key[i + KEY_HEAD];
    e = OTF2_GlobalDefWriter_WriteGroup(w, t + 1, team_name[t], OTF2_GROUP_TYPE_COMM_GROUP,
                                        OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE, n, members);
  }
  for (uint32_t t = 0; t < teams.n && e == OTF2_SUCCESS; t++) {
    const uint32_t *key = ot_intern_key(&teams, t);
    e = OTF2_GlobalDefWriter_WriteComm(w, t, team_name[t], t + 1, key[0], OTF2_COMM_FLAG_NONE);
  }
  free(members);
  return e;
}

uint32_t ot_teams_count(void) {
  return teams.n;
}

void ot_teams_free(void) {
  free(comm_of);
  comm_of = NULL;
  free(team_name);
  team_name = NULL;
  ot_intern_free(&teams);
}
