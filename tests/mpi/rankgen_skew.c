/* rankgen DIR skew: three rank archives whose clocks disagree, with their
 * clock-sync files, for the merge's alignment and causality correction
 * (tests/mpi/merge_tests.py, case causal, derives the expected corrections
 * by hand). Rank 1's clock runs 5000 ns ahead, measured as offset -5000
 * with a bound of 100 (applied); rank 2's offset 3000 has a bound of 4000
 * (not applied). Each rank: one location, messages and collectives on
 * MPI_COMM_WORLD, each call as Enter, record(s), Leave at the times below
 * (the rank's own clock, ns). */
#include "rankgen.h"

#include <string.h>

enum { C_SEND, C_RECV, C_ALLREDUCE, C_BCAST, C_GATHER };

typedef struct call {
  int what;
  uint32_t peer_or_root; /* message peer, collective root (~0u: none) */
  uint64_t t[4];         /* Enter, record(s), Leave (messages: 3 times) */
} call;

#define NONE OTF2_UNDEFINED_UINT32
static const call CALLS[3][4] = {
    {{C_SEND, 1, {10000, 10001, 10002}},
     {C_RECV, 2, {20000, 20010, 20020}},
     {C_ALLREDUCE, NONE, {30000, 30001, 30009, 30010}},
     {C_BCAST, 1, {40500, 40501, 40899, 40900}}},
    {{C_RECV, 0, {14000, 14500, 14600}},
     {C_ALLREDUCE, NONE, {34000, 34001, 34019, 34020}},
     {C_BCAST, 1, {45000, 45001, 45009, 45010}},
     {C_GATHER, 2, {56000, 56001, 56099, 56100}}},
    {{C_SEND, 0, {19000, 19005, 19010}},
     {C_ALLREDUCE, NONE, {30500, 30501, 30599, 30600}},
     {C_BCAST, 1, {40000, 40001, 41999, 42000}},
     {C_GATHER, 2, {50000, 50001, 51999, 52000}}},
};
/* Rank 0's Gather, the fifth call of its own. */
static const call GATHER0 = {C_GATHER, 2, {50000, 50001, 50099, 50100}};
static const char *SYNC[3] = {"1000 0 0\n100000 0 0\n", "1000 -5000 100\n100000 -5000 100\n",
                              "1000 3000 4000\n100000 3000 4000\n"};
static const char *NAMES[] = {"MPI_Send", "MPI_Recv", "MPI_Allreduce", "MPI_Bcast", "MPI_Gather"};
static const OTF2_CollectiveOp OPS[] = {0, 0, OTF2_COLLECTIVE_OP_ALLREDUCE,
                                        OTF2_COLLECTIVE_OP_BCAST, OTF2_COLLECTIVE_OP_GATHER};

static void one(OTF2_EvtWriter *w, const call *c) {
  CK(OTF2_EvtWriter_Enter(w, NULL, c->t[0], (uint32_t)c->what));
  if (c->what == C_SEND || c->what == C_RECV) {
    if (c->what == C_SEND)
      CK(OTF2_EvtWriter_MpiSend(w, NULL, c->t[1], c->peer_or_root, 0, 7, 8));
    else
      CK(OTF2_EvtWriter_MpiRecv(w, NULL, c->t[1], c->peer_or_root, 0, 7, 8));
    CK(OTF2_EvtWriter_Leave(w, NULL, c->t[2], (uint32_t)c->what));
    return;
  }
  CK(OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, c->t[1]));
  CK(OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, c->t[2], OPS[c->what], 0, c->peer_or_root, 8, 8));
  CK(OTF2_EvtWriter_Leave(w, NULL, c->t[3], (uint32_t)c->what));
}

static void defs(OTF2_GlobalDefWriter *d, int r, uint64_t first, uint64_t last) {
  char rank[32];
  snprintf(rank, sizeof rank, "rank %d", r);
  const char *s[] = {"",
                     "vm",
                     "machine",
                     "4242",
                     "process",
                     rank,
                     "OpenMP thread 0",
                     "MPI",
                     "MPI_COMM_WORLD",
                     NAMES[0],
                     NAMES[1],
                     NAMES[2],
                     NAMES[3],
                     NAMES[4]};
  CK(OTF2_GlobalDefWriter_WriteClockProperties(d, 1000000000, first, last - first, 0));
  for (uint32_t i = 0; i < sizeof s / sizeof *s; i++)
    CK(OTF2_GlobalDefWriter_WriteString(d, i, s[i]));
  CK(OTF2_GlobalDefWriter_WriteParadigm(d, OTF2_PARADIGM_MPI, 7, OTF2_PARADIGM_CLASS_PROCESS));
  CK(OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, 1, 2, OTF2_UNDEFINED_SYSTEM_TREE_NODE));
  CK(OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 1, 3, 4, 0));
  CK(OTF2_GlobalDefWriter_WriteLocationGroup(d, 0, 5, OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
                                             OTF2_UNDEFINED_LOCATION_GROUP));
  uint64_t events = r == 0 ? 18 : 15; /* messages: 3 events, collectives: 4 */
  CK(OTF2_GlobalDefWriter_WriteLocation(d, 0, 6, OTF2_LOCATION_TYPE_CPU_THREAD, events, 0));
  for (uint32_t i = 0; i < 5; i++)
    CK(OTF2_GlobalDefWriter_WriteRegion(
        d, i, 9 + i, 9 + i, 0, i < 2 ? OTF2_REGION_ROLE_POINT2POINT : OTF2_REGION_ROLE_COLL_ONE2ALL,
        OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, 0, 0, 0));
  uint64_t init[1] = {0}, world[3] = {0, 1, 2};
  CK(OTF2_GlobalDefWriter_WriteGroup(d, 0, 7, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                     OTF2_GROUP_FLAG_NONE, 1, init));
  CK(OTF2_GlobalDefWriter_WriteGroup(d, 1, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                     OTF2_GROUP_FLAG_NONE, 3, world));
  CK(OTF2_GlobalDefWriter_WriteComm(d, 0, 8, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
}

int rg_skew(const char *dir) {
  for (int r = 0; r < 3; r++) {
    OTF2_Archive *ar = rg_open(dir, r);
    OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, 0);
    for (int i = 0; i < 4; i++)
      one(w, &CALLS[r][i]);
    if (r == 0)
      one(w, &GATHER0);
    CK(OTF2_Archive_CloseEvtWriter(ar, w));
    CK(OTF2_Archive_CloseEvtFiles(ar));
    CK(OTF2_Archive_OpenDefFiles(ar));
    CK(OTF2_Archive_CloseDefWriter(ar, OTF2_Archive_GetDefWriter(ar, 0)));
    CK(OTF2_Archive_CloseDefFiles(ar));
    OTF2_GlobalDefWriter *d = OTF2_Archive_GetGlobalDefWriter(ar);
    uint64_t last = r == 0 ? GATHER0.t[3] : CALLS[r][3].t[3];
    defs(d, r, CALLS[r][0].t[0], last);
    CK(OTF2_Archive_CloseGlobalDefWriter(ar, d));
    CK(OTF2_Archive_Close(ar));
    char path[4096];
    snprintf(path, sizeof path, "%s/rank-%d/clock-sync", dir, r);
    FILE *f = fopen(path, "w");
    if (!f || fputs("# own_time_ns offset_ns error_ns\n", f) < 0 || fputs(SYNC[r], f) < 0 ||
        fclose(f) != 0) {
      perror(path);
      return 1;
    }
  }
  return 0;
}
