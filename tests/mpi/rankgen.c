/* rankgen DIR N: writes N rank archives DIR/rank-R/traces.otf2 laid out as
 * the MPI wrappers write them (docs/otf2-mapping.md, "MPI"): the MPI
 * locations group with the one location that initialized MPI, groups of
 * world ranks with Comms MPI_COMM_WORLD, MPI_COMM_SELF and one split
 * communicator per parity ("MPI_Comm_split P.1"), and messages: each even
 * rank sends 8 bytes (tag 5) to the next odd one on MPI_COMM_WORLD, and
 * comm rank 0 of each split sends 16 bytes (tag 9) to its comm rank 1.
 * Odd ranks initialize MPI on their second thread and define their Comms
 * in another order, so the merge must translate locations and ids.
 * rankgen DIR skew: three ranks whose clocks disagree (rankgen_skew.c). */
#include "rankgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static OTF2_FlushType pre(void *u, OTF2_FileType t, OTF2_LocationRef l, void *c, bool f) {
  (void)u, (void)t, (void)l, (void)c, (void)f;
  return OTF2_FLUSH;
}
static OTF2_TimeStamp post(void *u, OTF2_FileType t, OTF2_LocationRef l) {
  (void)u, (void)t, (void)l;
  return 0;
}
static OTF2_FlushCallbacks flush = {pre, post};

OTF2_Archive *rg_open(const char *dir, int r) {
  char path[4096];
  snprintf(path, sizeof path, "%s/rank-%d", dir, r);
  OTF2_Archive *ar =
      OTF2_Archive_Open(path, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                        OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!ar)
    CK(OTF2_ERROR_FILE_CAN_NOT_OPEN);
  CK(OTF2_Archive_SetFlushCallbacks(ar, &flush, NULL));
  CK(OTF2_Archive_SetSerialCollectiveCallbacks(ar));
  CK(OTF2_Archive_OpenEvtFiles(ar));
  return ar;
}

enum {
  S_EMPTY,
  S_VM,
  S_MACHINE,
  S_PID,
  S_PROCESS,
  S_RANK,
  S_T0,
  S_T1,
  S_MPI,
  S_SEND,
  S_RECV,
  S_WORLD,
  S_SELF,
  S_SPLIT,
  S_COUNT
};

/* One message on the MPI location: Enter, the record, Leave. */
static void message(OTF2_EvtWriter *w, uint64_t t, int send, uint32_t peer, uint32_t comm,
                    uint32_t tag, uint64_t bytes) {
  CK(OTF2_EvtWriter_Enter(w, NULL, t, send ? 0 : 1));
  if (send)
    CK(OTF2_EvtWriter_MpiSend(w, NULL, t + 1, peer, comm, tag, bytes));
  else
    CK(OTF2_EvtWriter_MpiRecv(w, NULL, t + 1, peer, comm, tag, bytes));
  CK(OTF2_EvtWriter_Leave(w, NULL, t + 2, send ? 0 : 1));
}

/* Comm ids: even ranks world 0, self 1, split 2; odd ranks split 0, world 1, self 2. */
static void events(OTF2_EvtWriter *w, int r, int n, const uint32_t comm[3]) {
  uint64_t t = 1000;
  if (r % 2 == 0 && r + 1 < n)
    message(w, t, 1, (uint32_t)r + 1, comm[0], 5, 8);
  if (r % 2 == 1)
    message(w, t + 10, 0, (uint32_t)r - 1, comm[0], 5, 8);
  int crank = r / 2, csize = (n - r % 2 + 1) / 2;
  if (crank == 0 && csize > 1)
    message(w, t + 20, 1, 1, comm[2], 9, 16);
  if (crank == 1)
    message(w, t + 30, 0, 0, comm[2], 9, 16);
}

static void defs(OTF2_GlobalDefWriter *d, int r, int n, const uint32_t comm[3]) {
  char rank[32], split[48];
  snprintf(rank, sizeof rank, "rank %d", r);
  snprintf(split, sizeof split, "MPI_Comm_split %d.1", r % 2);
  const char *s[S_COUNT] = {"",
                            "vm",
                            "machine",
                            "4242",
                            "process",
                            rank,
                            "OpenMP thread 0",
                            "OpenMP thread 1",
                            "MPI",
                            "MPI_Send",
                            "MPI_Recv",
                            "MPI_COMM_WORLD",
                            "MPI_COMM_SELF",
                            split};
  CK(OTF2_GlobalDefWriter_WriteClockProperties(d, 1000000000, 1000, 100, 0));
  for (uint32_t i = 0; i < S_COUNT; i++)
    CK(OTF2_GlobalDefWriter_WriteString(d, i, s[i]));
  CK(OTF2_GlobalDefWriter_WriteParadigm(d, OTF2_PARADIGM_MPI, S_MPI, OTF2_PARADIGM_CLASS_PROCESS));
  CK(OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, S_VM, S_MACHINE,
                                              OTF2_UNDEFINED_SYSTEM_TREE_NODE));
  CK(OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 1, S_PID, S_PROCESS, 0));
  CK(OTF2_GlobalDefWriter_WriteLocationGroup(d, 0, S_RANK, OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
                                             OTF2_UNDEFINED_LOCATION_GROUP));
  uint64_t nev[2] = {0, 0};
  int crank = r / 2, csize = (n - r % 2 + 1) / 2;
  nev[r % 2] = 3 * ((r % 2 == 0 && r + 1 < n) + r % 2 + (crank == 0 && csize > 1) + (crank == 1));
  CK(OTF2_GlobalDefWriter_WriteLocation(d, 0, S_T0, OTF2_LOCATION_TYPE_CPU_THREAD, nev[0], 0));
  CK(OTF2_GlobalDefWriter_WriteLocation(d, 1, S_T1, OTF2_LOCATION_TYPE_CPU_THREAD, nev[1], 0));
  CK(OTF2_GlobalDefWriter_WriteRegion(d, 0, S_SEND, S_SEND, S_EMPTY, OTF2_REGION_ROLE_POINT2POINT,
                                      OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, S_EMPTY, 0, 0));
  CK(OTF2_GlobalDefWriter_WriteRegion(d, 1, S_RECV, S_RECV, S_EMPTY, OTF2_REGION_ROLE_POINT2POINT,
                                      OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, S_EMPTY, 0, 0));
  uint64_t init[1] = {(uint64_t)(r % 2)}, world[64], half[64];
  for (int i = 0; i < n; i++)
    world[i] = (uint64_t)i;
  for (int i = 0; i < csize; i++)
    half[i] = (uint64_t)(r % 2) + 2 * (uint64_t)i;
  CK(OTF2_GlobalDefWriter_WriteGroup(d, 0, S_MPI, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                     OTF2_GROUP_FLAG_NONE, 1, init));
  CK(OTF2_GlobalDefWriter_WriteGroup(d, 1, S_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                     OTF2_GROUP_FLAG_NONE, (uint32_t)n, world));
  CK(OTF2_GlobalDefWriter_WriteGroup(d, 2, S_EMPTY, OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
                                     OTF2_GROUP_FLAG_NONE, 0, NULL));
  CK(OTF2_GlobalDefWriter_WriteGroup(d, 3, S_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                     OTF2_GROUP_FLAG_NONE, (uint32_t)csize, half));
  for (uint32_t id = 0; id < 3; id++) { /* in id order: each rank its own */
    if (id == comm[0])
      CK(OTF2_GlobalDefWriter_WriteComm(d, id, S_WORLD, 1, OTF2_UNDEFINED_COMM,
                                        OTF2_COMM_FLAG_NONE));
    if (id == comm[1])
      CK(OTF2_GlobalDefWriter_WriteComm(d, id, S_SELF, 2, OTF2_UNDEFINED_COMM,
                                        OTF2_COMM_FLAG_NONE));
    if (id == comm[2])
      CK(OTF2_GlobalDefWriter_WriteComm(d, id, S_SPLIT, 3, comm[0], OTF2_COMM_FLAG_NONE));
  }
}

static void rank_archive(const char *dir, int r, int n) {
  OTF2_Archive *ar = rg_open(dir, r);
  uint32_t comm[3] = {0, 1, 2};
  if (r % 2)
    comm[0] = 1, comm[1] = 2, comm[2] = 0;
  OTF2_EvtWriter *w[2] = {OTF2_Archive_GetEvtWriter(ar, 0), OTF2_Archive_GetEvtWriter(ar, 1)};
  events(w[r % 2], r, n, comm);
  for (int t = 0; t < 2; t++)
    CK(OTF2_Archive_CloseEvtWriter(ar, w[t]));
  CK(OTF2_Archive_CloseEvtFiles(ar));
  CK(OTF2_Archive_OpenDefFiles(ar));
  for (int t = 0; t < 2; t++)
    CK(OTF2_Archive_CloseDefWriter(ar, OTF2_Archive_GetDefWriter(ar, (OTF2_LocationRef)t)));
  CK(OTF2_Archive_CloseDefFiles(ar));
  OTF2_GlobalDefWriter *d = OTF2_Archive_GetGlobalDefWriter(ar);
  defs(d, r, n, comm);
  CK(OTF2_Archive_CloseGlobalDefWriter(ar, d));
  CK(OTF2_Archive_Close(ar));
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[2], "skew") == 0)
    return rg_skew(argv[1]);
  int n = argc == 3 ? atoi(argv[2]) : 0;
  if (n < 1 || n > 64) {
    fprintf(stderr, "usage: rankgen DIR N (1..64 ranks) | rankgen DIR skew\n");
    return 2;
  }
  for (int r = 0; r < n; r++)
    rank_archive(argv[1], r, n);
  return 0;
}
