/* MPI communicator definitions (finalize/mpi_comms.h). The records may
 * come from any location; a communicator a message refers to whose
 * definition was lost (records dropped) gets a placeholder, so the
 * archive stays valid. Group ids: OpenMP's teams first, then the
 * COMM_LOCATIONS group, then one per communicator. */
#include "finalize/mpi_comms.h"
#include "buffer/mpi_calls.h"
#include "finalize/defs.h"
#include "finalize/teams.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ID (1u << 20) /* more than the recorder's table holds */

typedef struct comm_def {
  uint32_t kind; /* OT_COMM_*, 0: never defined */
  uint32_t call, parent, k, size;
  uint64_t *members; /* world ranks, size of them */
  uint32_t name;
} comm_def;

static comm_def *defs;
static uint32_t ndefs; /* ids 0..ndefs-1 are defined or referenced */
static uint32_t init_loc = UINT32_MAX;
static uint32_t mpi_name;

static const char *const call_names[OT_MPI_CALL_COUNT] = {
#define OT_MPI_CALL_NAME(n, r) "MPI_" #n,
    OT_MPI_CALLS(OT_MPI_CALL_NAME)
#undef OT_MPI_CALL_NAME
};

static comm_def *get(uint32_t id) {
  if (id >= MAX_ID)
    return NULL;
  if (id >= ndefs) {
    comm_def *d = realloc(defs, (id + 1) * sizeof *d);
    if (!d)
      return NULL;
    memset(d + ndefs, 0, (id + 1 - ndefs) * sizeof *d);
    defs = d;
    ndefs = id + 1;
  }
  return &defs[id];
}

void ot_mpi_comm_note(const ot_rec *r) {
  comm_def *d = get(r->a);
  if (!d)
    return;
  if (r->type == OT_MPI_COMM && !d->kind) {
    uint32_t size = (uint32_t)r->c;
    d->kind = r->kind;
    d->call = (uint32_t)(r->b >> 32);
    d->parent = (uint32_t)r->b;
    d->k = (uint32_t)(r->c >> 32);
    d->size = size < MAX_ID ? size : 0;
    if (r->kind == OT_COMM_CREATED)
      d->members = calloc(d->size ? d->size : 1, sizeof *d->members);
  } else if (r->type == OT_MPI_MEMBER && d->members && r->b < d->size) {
    d->members[r->b] = r->c;
  }
}

void ot_mpi_init_location(uint32_t loc) {
  if (init_loc == UINT32_MAX)
    init_loc = loc;
}

OTF2_CommRef ot_mpi_comm_ref(uint32_t id) {
  return get(id) ? ot_teams_count() + id : OTF2_UNDEFINED_COMM;
}

void ot_mpi_comms_prepare(void) {
  mpi_name = ot_defs_string("MPI");
  for (uint32_t i = 0; i < ndefs; i++) {
    comm_def *d = &defs[i];
    char name[96];
    const char *fixed = d->kind == OT_COMM_WORLD  ? "MPI_COMM_WORLD"
                        : d->kind == OT_COMM_SELF ? "MPI_COMM_SELF"
                                                  : NULL;
    if (!fixed && d->kind == OT_COMM_CREATED && d->size && d->call < OT_MPI_CALL_COUNT)
      snprintf(name, sizeof name, "%s %" PRIu64 ".%u", call_names[d->call], d->members[0], d->k);
    else if (!fixed)
      snprintf(name, sizeof name, "MPI communicator %u (definition lost)", i);
    d->name = ot_defs_string(fixed ? fixed : name);
  }
}

static OTF2_ErrorCode write_group(OTF2_GlobalDefWriter *w, uint32_t gid, const comm_def *d) {
  if (d->kind == OT_COMM_SELF)
    return OTF2_GlobalDefWriter_WriteGroup(w, gid, d->name, OTF2_GROUP_TYPE_COMM_SELF,
                                           OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 0, NULL);
  uint64_t *m = d->members;
  uint32_t n = d->kind == OT_COMM_WORLD || d->kind == OT_COMM_CREATED ? d->size : 0;
  if (d->kind == OT_COMM_WORLD && (m = malloc((n ? n : 1) * sizeof *m)) != NULL)
    for (uint32_t i = 0; i < n; i++)
      m[i] = i;
  OTF2_ErrorCode e =
      OTF2_GlobalDefWriter_WriteGroup(w, gid, d->name, OTF2_GROUP_TYPE_COMM_GROUP,
                                      OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, m ? n : 0, m);
  if (d->kind == OT_COMM_WORLD)
    free(m);
  return e;
}

OTF2_ErrorCode ot_mpi_comms_write(OTF2_GlobalDefWriter *w) {
  uint32_t group0 = ot_teams_count() + 1, comm0 = ot_teams_count();
  OTF2_ErrorCode e = OTF2_SUCCESS;
  if (init_loc != UINT32_MAX) {
    uint64_t loc = init_loc;
    e = OTF2_GlobalDefWriter_WriteGroup(w, group0, mpi_name, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 1, &loc);
  }
  for (uint32_t i = 0; i < ndefs && e == OTF2_SUCCESS; i++)
    e = write_group(w, group0 + 1 + i, &defs[i]);
  for (uint32_t i = 0; i < ndefs && e == OTF2_SUCCESS; i++) {
    const comm_def *d = &defs[i];
    uint32_t parent =
        d->kind == OT_COMM_CREATED && d->parent < i ? comm0 + d->parent : OTF2_UNDEFINED_COMM;
    e = OTF2_GlobalDefWriter_WriteComm(w, comm0 + i, d->name, group0 + 1 + i, parent,
                                       OTF2_COMM_FLAG_NONE);
  }
  return e;
}

void ot_mpi_comms_free(void) {
  for (uint32_t i = 0; i < ndefs; i++)
    free(defs[i].members);
  free(defs);
  defs = NULL;
  ndefs = 0;
  init_loc = UINT32_MAX;
}
