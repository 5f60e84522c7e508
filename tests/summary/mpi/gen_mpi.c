/* Writes the MPI + OpenMP job archives of the mpiview tests; every figure
 * the tests expect follows from the times below (µs, see US).
 *   gen_mpi DIR job        4 ranks x 2 threads on 2 nodes (the case below)
 *   gen_mpi DIR nosend     the job without rank 1's send to rank 0 (a
 *                          receive with no send)
 *   gen_mpi DIR badcomm    the split communicator refers to a missing group
 *   gen_mpi DIR mpionly    the job without its parallel regions (no OpenMP)
 *   gen_mpi DIR nested     the job, thread 0 of each rank in MPI_Comm_size
 *                          20..30 inside the parallel region: MPI time, not
 *                          OMP Work
 *   gen_mpi DIR reorder    the job, then 3 posts MPI_Irecv A and B from 2 (tag
 *                          11) and waits for B first: 2's first send (100 B at
 *                          310) is A's, its second (200 B at 312) B's;
 *                          an MPI_Bcast from root 2 (entered at 330, 332,
 *                          333, 341; left at 345: 3 + 1 waiting for the
 *                          root) and an MPI_Reduce to root 0 (350, 352, 355,
 *                          351; left at 360: the root waits 5 for rank 2)
 * Per rank r: a parallel region 0..100 in which thread 1 works 40 + 10r
 * and waits in the implicit barrier; then on thread 0:
 *   m1 0->1 tag 5 800 B: 1 in MPI_Recv from 110, 0's MPI_Send at 130:
 *      late sender 20 at MPI_Send @ job.c:20
 *   m2 2->3 tag 7 1600 B: 3 MPI_Irecv 110, MPI_Wait 115..126; 2 MPI_Isend
 *      at 120: late sender 5 at MPI_Isend @ job.c:24
 *   m3 1->0 tag 5 400 B: send 150..152, receive 160..162: no wait
 *   m4 3->1 on the split comm (world 3, 1) tag 9 8000 B: MPI_Send 150..175,
 *      MPI_Recv 170..176: late receiver 20 at MPI_Send @ job.c:20
 *   MPI_Allreduce on WORLD (8 B each way), rank r enters at 200 + 10r,
 *      all leave at 240: wait at collective 30+20+10 = 60
 *   MPI_Barrier on the split comm: 1 enters at 245, 3 at 250, both leave
 *      at 255: wait 5 */
#include "mpigen.h"

#include <stdio.h>
#include <string.h>

#define US 1000u

enum { PAR, IBAR, SEND, RECV, ALLRED, IRECV, WAIT, ISEND, BARRIER, BCAST, REDUCE, SIZE };

static void regions(mg *g) {
  mg_region(g, "parallel @ job.c:10", OTF2_REGION_ROLE_PARALLEL, OTF2_PARADIGM_OPENMP, "job.c", 10);
  mg_region(g, "implicit barrier @ job.c:10", OTF2_REGION_ROLE_IMPLICIT_BARRIER,
            OTF2_PARADIGM_OPENMP, "job.c", 10);
  mg_region(g, "MPI_Send", OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI, "job.c", 20);
  mg_region(g, "MPI_Recv", OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI, "job.c", 21);
  mg_region(g, "MPI_Allreduce", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_PARADIGM_MPI, "job.c", 30);
  mg_region(g, "MPI_Irecv", OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI, "job.c", 22);
  mg_region(g, "MPI_Wait", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI, "job.c", 23);
  mg_region(g, "MPI_Isend", OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI, "job.c", 24);
  mg_region(g, "MPI_Barrier", OTF2_REGION_ROLE_BARRIER, OTF2_PARADIGM_MPI, "job.c", 40);
  mg_region(g, "MPI_Bcast", OTF2_REGION_ROLE_COLL_ONE2ALL, OTF2_PARADIGM_MPI, "job.c", 50);
  mg_region(g, "MPI_Reduce", OTF2_REGION_ROLE_COLL_ALL2ONE, OTF2_PARADIGM_MPI, "job.c", 51);
  mg_region(g, "MPI_Comm_size", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI, "job.c", 12);
}

static void openmp(mg *g, int r, int nested) {
  mg_fork(g, r, 0, 2);
  for (int t = 0; t < 2; t++) {
    uint64_t work = t ? (40u + 10u * (uint64_t)r) * US : 100 * US;
    mg_team_begin(g, r, t, 0);
    mg_enter(g, r, t, 0, PAR);
    if (!t && nested) {
      mg_enter(g, r, t, 20 * US, SIZE);
      mg_leave(g, r, t, 30 * US, SIZE);
    }
    if (t) {
      mg_enter(g, r, t, work, IBAR);
      mg_leave(g, r, t, 100 * US, IBAR);
    }
    mg_leave(g, r, t, 100 * US, PAR);
    mg_team_end(g, r, t, 100 * US);
  }
  mg_join(g, r, 100 * US);
}

static void call(mg *g, int r, uint32_t region, uint64_t t0) {
  mg_enter(g, r, 0, t0 * US, region);
}

static void done(mg *g, int r, uint32_t region, uint64_t t1) {
  mg_leave(g, r, 0, t1 * US, region);
}

static void collectives(mg *g, uint32_t world, uint32_t split) {
  for (int r = 0; r < 4; r++) {
    uint64_t t0 = 200 + 10 * (uint64_t)r;
    call(g, r, ALLRED, t0);
    mg_coll_begin(g, r, t0 * US);
    mg_coll_end(g, r, 240 * US, OTF2_COLLECTIVE_OP_ALLREDUCE, world, OTF2_UNDEFINED_UINT32, 8, 8);
    done(g, r, ALLRED, 240);
  }
  for (int r = 1; r < 4; r += 2) {
    uint64_t t0 = r == 1 ? 245 : 250;
    call(g, r, BARRIER, t0);
    mg_coll_begin(g, r, t0 * US);
    mg_coll_end(g, r, 255 * US, OTF2_COLLECTIVE_OP_BARRIER, split, OTF2_UNDEFINED_UINT32, 0, 0);
    done(g, r, BARRIER, 255);
  }
}

static void messages(mg *g, uint32_t world, uint32_t split, int nosend) {
  /* rank 0 */
  call(g, 0, SEND, 130), mg_send(g, 0, 130 * US, 1, world, 5, 800), done(g, 0, SEND, 135);
  call(g, 0, RECV, 160), mg_recv(g, 0, 161 * US, 1, world, 5, 400), done(g, 0, RECV, 162);
  /* rank 1 */
  call(g, 1, RECV, 110), mg_recv(g, 1, 140 * US, 0, world, 5, 800), done(g, 1, RECV, 140);
  if (!nosend) {
    call(g, 1, SEND, 150), mg_send(g, 1, 151 * US, 0, world, 5, 400), done(g, 1, SEND, 152);
  }
  call(g, 1, RECV, 170), mg_recv(g, 1, 175 * US, 0, split, 9, 8000), done(g, 1, RECV, 176);
  /* rank 2 */
  call(g, 2, ISEND, 120), mg_isend(g, 2, 121 * US, 3, world, 7, 1600, 9);
  done(g, 2, ISEND, 122);
  call(g, 2, WAIT, 123), mg_isend_complete(g, 2, 124 * US, 9), done(g, 2, WAIT, 125);
  /* rank 3 */
  call(g, 3, IRECV, 110), mg_irecv_request(g, 3, 111 * US, 1), done(g, 3, IRECV, 112);
  call(g, 3, WAIT, 115), mg_irecv(g, 3, 126 * US, 2, world, 7, 1600, 1);
  done(g, 3, WAIT, 126);
  call(g, 3, SEND, 150), mg_send(g, 3, 150 * US, 1, split, 9, 8000), done(g, 3, SEND, 175);
}

/* Receives completed in another order than posted (see the top). */
static void reorder(mg *g, uint32_t world) {
  call(g, 3, IRECV, 300), mg_irecv_request(g, 3, 301 * US, 21), done(g, 3, IRECV, 302);
  call(g, 3, IRECV, 303), mg_irecv_request(g, 3, 304 * US, 22), done(g, 3, IRECV, 305);
  call(g, 2, SEND, 310), mg_send(g, 2, 310 * US, 3, world, 11, 100), done(g, 2, SEND, 311);
  call(g, 2, SEND, 312), mg_send(g, 2, 312 * US, 3, world, 11, 200), done(g, 2, SEND, 313);
  call(g, 3, WAIT, 306), mg_irecv(g, 3, 320 * US, 2, world, 11, 200, 22), done(g, 3, WAIT, 320);
  call(g, 3, WAIT, 321), mg_irecv(g, 3, 322 * US, 2, world, 11, 100, 21), done(g, 3, WAIT, 322);
  static const uint64_t bcast[4] = {330, 332, 333, 341}, reduce[4] = {350, 352, 355, 351};
  for (int r = 0; r < 4; r++) {
    call(g, r, BCAST, bcast[r]), mg_coll_begin(g, r, bcast[r] * US);
    mg_coll_end(g, r, 345 * US, OTF2_COLLECTIVE_OP_BCAST, world, 2, r == 2 ? 192 : 0,
                r == 2 ? 0 : 64);
    done(g, r, BCAST, 345);
    call(g, r, REDUCE, reduce[r]), mg_coll_begin(g, r, reduce[r] * US);
    mg_coll_end(g, r, 360 * US, OTF2_COLLECTIVE_OP_REDUCE, world, 0, 8, r == 0 ? 32 : 0);
    done(g, r, REDUCE, 360);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: gen_mpi DIR job|nosend|badcomm|mpionly|reorder|nested\n");
    return 2;
  }
  const char *kind = argv[2];
  if (strcmp(kind, "job") && strcmp(kind, "nosend") && strcmp(kind, "badcomm") &&
      strcmp(kind, "mpionly") && strcmp(kind, "reorder") && strcmp(kind, "nested")) {
    fprintf(stderr, "gen_mpi: unknown archive '%s'\n", kind);
    return 2;
  }
  mg *g = mg_open(argv[1], 4, 2, 2);
  regions(g);
  const uint32_t all[] = {0, 1, 2, 3}, pair[] = {3, 1};
  uint32_t world = mg_comm(g, "MPI_COMM_WORLD", 4, all, OTF2_UNDEFINED_COMM, 0);
  mg_comm(g, "MPI_COMM_SELF", 0, NULL, OTF2_UNDEFINED_COMM, 0);
  uint32_t split = mg_comm(g, "MPI_COMM_WORLD.split 1", 2, pair, world, !strcmp(kind, "badcomm"));
  for (int r = 0; r < 4 && strcmp(kind, "mpionly"); r++)
    openmp(g, r, !strcmp(kind, "nested"));
  messages(g, world, split, !strcmp(kind, "nosend"));
  collectives(g, world, split);
  if (!strcmp(kind, "reorder"))
    reorder(g, world);
  mg_close(g);
  return 0;
}
