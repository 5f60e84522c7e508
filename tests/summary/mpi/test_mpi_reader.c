/* The reader's MPI model on the archives of gen_mpi.c: ranks, comms, the
 * messages matched send to receive with both calls' times, collective
 * instances, and what bad archives leave unmatched.
 *   mpiview_reader DIR job|nosend|badcomm|reorder */
#include "check.h"
#include "otr.h"

#include <stdio.h>
#include <string.h>

#define US 1000u

typedef struct {
  otr_msg m[8];
  uint32_t nm;
  otr_coll c[8][4];
  uint32_t nc, csize[8];
} seen;

static void on_message(void *u, const otr_msg *m) {
  seen *s = u;
  if (s->nm < 8)
    s->m[s->nm] = *m;
  s->nm++;
}

static void on_collective(void *u, const otr_coll *m, uint32_t n) {
  seen *s = u;
  if (s->nc < 8 && n <= 4) {
    memcpy(s->c[s->nc], m, n * sizeof *m);
    s->csize[s->nc] = n;
  }
  s->nc++;
}

static const char *region_name(const otr_defs *d, uint32_t r) {
  return r < d->n_regions ? d->regions[r].name : "(none)";
}

static void defs(const otr_defs *d, const char *kind) {
  CHECK_U64("ranks", d->n_ranks, 4);
  CHECK_U64("locations", d->n_locations, 8);
  for (uint32_t i = 0; i < d->n_locations; i++)
    CHECK_U64("rank of a location", d->location_rank[i], d->location_ids[i] >> 32);
  CHECK_STR("node of rank 1", d->rank_node[1], "node0");
  CHECK_STR("node of rank 2", d->rank_node[2], "node1");
  CHECK_U64("MPI comms (OpenMP teams left out)", d->n_comms, 3);
  CHECK_STR("comm 0", d->comms[0].name, "MPI_COMM_WORLD");
  CHECK_U64("world size", d->comms[0].size, 4);
  CHECK_U64("world rank 2", d->comms[0].world[2], 2);
  CHECK_STR("comm 1", d->comms[1].name, "MPI_COMM_SELF");
  CHECK_U64("self size", d->comms[1].size, 1);
  CHECK_STR("comm 2", d->comms[2].name, "MPI_COMM_WORLD.split 1");
  CHECK_U64("split parent", d->comms[2].parent, 0);
  for (uint32_t r = 0; r < d->n_regions; r++)
    if (!strcmp(d->regions[r].name, "MPI_Barrier"))
      CHECK_U64("MPI_Barrier is no OpenMP barrier", d->regions[r].cls, OTR_C_USER);
  if (!strcmp(kind, "badcomm")) {
    CHECK_STR("problem", d->mpi_problem,
              "communicator MPI_COMM_WORLD.split 1 refers to group 40, which is not defined");
    CHECK_U64("split size", d->comms[2].size, 0);
    return;
  }
  CHECK_TRUE("no problem", d->mpi_problem == NULL);
  CHECK_U64("split size", d->comms[2].size, 2);
  CHECK_U64("split rank 0", d->comms[2].world[0], 3);
  CHECK_U64("split rank 1", d->comms[2].world[1], 1);
}

/* m2 (2->3, completes at 126), m1 (0->1, 140), m3 (1->0, 162), m4 (3->1, 176). */
static void messages(const otr_defs *d, const seen *s) {
  const otr_msg *m = &s->m[0];
  CHECK_U64("m2 sender", m->sender, 2);
  CHECK_U64("m2 receiver", m->receiver, 3);
  CHECK_U64("m2 tag", m->tag, 7);
  CHECK_U64("m2 bytes", m->bytes, 1600);
  CHECK_TRUE("m2 isend, irecv", m->isend && m->irecv);
  CHECK_U64("m2 send begin", m->send_begin, 120 * US);
  CHECK_U64("m2 send record", m->send_t, 121 * US);
  CHECK_U64("m2 send end", m->send_end, 122 * US);
  CHECK_U64("m2 receive posted", m->posted, 111 * US);
  CHECK_U64("m2 receive call begin (MPI_Wait)", m->recv_begin, 115 * US);
  CHECK_U64("m2 receive end", m->recv_end, 126 * US);
  CHECK_STR("m2 send region", region_name(d, m->send_region), "MPI_Isend");
  CHECK_STR("m2 receive region", region_name(d, m->recv_region), "MPI_Wait");
  CHECK_U64("m2 sender location", d->location_ids[m->send_loc], 2ull << 32);
  CHECK_U64("m2 receiver location", d->location_ids[m->recv_loc], 3ull << 32);
  m = &s->m[1];
  CHECK_U64("m1 sender", m->sender, 0);
  CHECK_U64("m1 bytes", m->bytes, 800);
  CHECK_U64("m1 send begin", m->send_begin, 130 * US);
  CHECK_U64("m1 receive begin", m->recv_begin, 110 * US);
  CHECK_U64("m1 posted", m->posted, 110 * US);
  CHECK_TRUE("m1 blocking", !m->isend && !m->irecv);
  m = &s->m[2];
  CHECK_U64("m3 sender", m->sender, 1);
  CHECK_U64("m3 receiver", m->receiver, 0);
  CHECK_U64("m3 bytes", m->bytes, 400);
  m = &s->m[3];
  CHECK_U64("m4 sender (world rank of split rank 0)", m->sender, 3);
  CHECK_U64("m4 receiver (world rank of split rank 1)", m->receiver, 1);
  CHECK_U64("m4 comm", m->comm, 2);
  CHECK_U64("m4 send end", m->send_end, 175 * US);
  CHECK_U64("m4 posted", m->posted, 170 * US);
}

static void collectives(const seen *s, uint32_t n) {
  CHECK_U64("collective instances", s->nc, n);
  CHECK_U64("allreduce size", s->csize[0], 4);
  for (uint32_t r = 0; r < 4; r++) {
    CHECK_U64("allreduce rank", s->c[0][r].rank, r);
    CHECK_U64("allreduce begin", s->c[0][r].begin, (200 + 10 * r) * US);
    CHECK_U64("allreduce end", s->c[0][r].end, 240 * US);
    CHECK_U64("allreduce op", s->c[0][r].op, OTF2_COLLECTIVE_OP_ALLREDUCE);
    CHECK_U64("allreduce sent", s->c[0][r].sent, 8);
    CHECK_U64("allreduce root", s->c[0][r].root, OTR_NONE);
  }
  if (n < 2)
    return;
  CHECK_U64("barrier size", s->csize[1], 2);
  CHECK_U64("barrier comm rank 0 is world 3", s->c[1][0].rank, 3);
  CHECK_U64("barrier rank 3 begin", s->c[1][0].begin, 250 * US);
  CHECK_U64("barrier rank 1 begin", s->c[1][1].begin, 245 * US);
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  const char *kind = argv[2];
  char err[300];
  otr_archive *a = otr_open(argv[1], err, sizeof err);
  if (!a) {
    fprintf(stderr, "mpiview_reader: %s\n", err);
    return 1;
  }
  const otr_defs *d = otr_defs_of(a);
  defs(d, kind);
  seen s = {0};
  otr_visitor v = {.user = &s, .mpi_message = on_message, .mpi_collective = on_collective};
  CHECK_TRUE("read", otr_read(a, &v, err, sizeof err));
  const char *problem;
  uint64_t unmatched = otr_mpi_unmatched(a, &problem);
  if (!strcmp(kind, "job")) {
    CHECK_U64("messages", s.nm, 4);
    messages(d, &s);
    collectives(&s, 2);
    CHECK_U64("unmatched", unmatched, 0);
    CHECK_TRUE("no problem", problem == NULL);
  } else if (!strcmp(kind, "reorder")) {
    CHECK_U64("messages", s.nm, 6);
    messages(d, &s);
    CHECK_U64("A: posted first", s.m[4].posted, 301 * US);
    CHECK_U64("A: 100 B", s.m[4].bytes, 100);
    CHECK_U64("A: the first send", s.m[4].send_t, 310 * US);
    CHECK_U64("B: posted second", s.m[5].posted, 304 * US);
    CHECK_U64("B: 200 B", s.m[5].bytes, 200);
    CHECK_U64("B: the second send", s.m[5].send_t, 312 * US);
    CHECK_U64("unmatched", unmatched, 0);
  } else if (!strcmp(kind, "nosend")) {
    CHECK_U64("messages", s.nm, 3);
    collectives(&s, 2);
    CHECK_U64("unmatched", unmatched, 1);
    CHECK_STR("problem", problem,
              "1 receive(s) from rank 1 to rank 0 (tag 5 on MPI_COMM_WORLD) have no matching send");
  } else {
    CHECK_U64("messages", s.nm, 3);
    collectives(&s, 1);
    CHECK_U64("unmatched: m4's halves, the barrier's parts", unmatched, 4);
    CHECK_STR("problem", problem,
              "communicator MPI_COMM_WORLD.split 1 refers to group 40, which is not defined");
  }
  otr_close(a);
  return ut_done("mpiview_reader");
}
