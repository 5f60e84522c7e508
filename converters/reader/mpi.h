/* MPI definitions and records (reader/ only): mpidefs.c reads the Group
 * and Comm definitions and the ranks, mpi.c the MPI event records and
 * matches sends with receives and the ranks' parts of a collective. */
#ifndef OMPTRACE_OTR_MPI_H
#define OMPTRACE_OTR_MPI_H

#include "locstate.h"

/* A Group definition of paradigm MPI. */
typedef struct {
  uint64_t id;
  OTF2_GroupType type;
  uint32_t n;
  uint64_t *members;
} otr_mpigroup;

typedef struct otr_chan otr_chan;
typedef struct otr_inst otr_inst;
typedef struct otr_nbcq otr_nbcq;

/* A record waiting for the Leave of its MPI call. */
typedef struct {
  otr_msg m;
  otr_coll c;
  uint32_t depth; /* stack index of the MPI call, OTR_NONE outside any */
  char kind;      /* 's' send, 'r' receive, 'c' collective */
} otr_pend;

struct otr_mpi {
  otr_mpigroup *groups;
  uint32_t ngroups;
  otr_raw *comms; /* id, a = name, d = group, b = parent id */
  otr_raw *nodes; /* system tree nodes: id, a = name */
  uint32_t nnodes;
  uint32_t ncomms;
  otr_idmap comm_of; /* Comm id -> comm index */
  /* event pass (mpi.c) */
  otr_pend **pend; /* per location: records of open MPI calls */
  uint32_t *npend, *cappend;
  uint64_t **req; /* per location: (request id, post time) pairs of open MPI_Irecv */
  uint32_t *nreq, *capreq;
  otr_msg **held; /* per location: completed receives waiting for earlier posted ones */
  uint32_t *nheld, *capheld;
  otr_chan **chans; /* hash of message channels */
  uint32_t nchans;
  otr_inst *insts;      /* open collective instances */
  uint32_t **coll_seq;  /* per comm, per comm rank: collectives seen */
  uint32_t **nbc_seq;   /* per comm, per comm rank: nonblocking ones */
  otr_nbcq *nbcq;       /* per world rank: nonblocking collectives open (mpinbc.c) */
  uint64_t *coll_begin; /* per location: time of the open MpiCollectiveBegin */
  uint64_t records;     /* MPI event records read */
  uint64_t unmatched;
  char problem[200];
};

/* mpidefs.c: registers the Group and Comm callbacks; their user data must
 * start with the otr_archive pointer. */
void otr_mpi_def_callbacks(OTF2_GlobalDefReaderCallbacks *cb);
/* After the definitions: ranks of the location groups, the comms. */
void otr_mpi_resolve(otr_archive *a);
void otr_mpi_defs_free(otr_archive *a);
/* Comm index of an OTF2 comm id, OTR_NONE when it is not an MPI comm. */
uint32_t otr_mpi_comm(const otr_archive *a, OTF2_CommRef id);
/* World rank of comm rank r of comm c seen from world rank self, OTR_NONE if unknown. */
uint32_t otr_mpi_world(const otr_archive *a, uint32_t c, uint32_t r, uint32_t self);
/* Comm rank of world rank w in comm c, OTR_NONE when not a member. */
uint32_t otr_mpi_local(const otr_archive *a, uint32_t c, uint32_t w);
void otr_mpi_note(otr_archive *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* mpi.c. otr_mpi_pend queues a record of ls inside its innermost open MPI
 * call, with the call's Enter time and region (now and OTR_NONE outside
 * any); otr_mpi_settle then completes it at once if it is outside any. */
otr_mpi *otr_mpi_state(otr_archive *a); /* allocates the event pass's state */
otr_pend *otr_mpi_pend(otr_archive *a, otr_locstate *ls, char kind, uint64_t *begin,
                       uint32_t *region);
void otr_mpi_settle(otr_archive *a, otr_locstate *ls);
/* A completed half ('s' send, 'r' receive): matched with the oldest waiting
 * half of the other kind on its channel, else queued. */
void otr_mpi_match(otr_archive *a, const otr_msg *h, char kind);
/* mpiorder.c: MPI_Irecv's request posted at t on location i; taken back
 * (its time, UINT64_MAX if unknown) by the MpiIrecv completing it. */
void otr_mpi_post(otr_archive *a, uint32_t i, uint64_t req, uint64_t t);
uint64_t otr_mpi_posted(otr_archive *a, uint32_t i, uint64_t req);
/* A completed receive, to the matching in posting order. */
void otr_mpi_received(otr_archive *a, const otr_msg *h);
void otr_mpi_release_all(otr_archive *a);
void otr_mpi_order_free(otr_archive *a);
/* A rank's part in a collective, to the matching with the other ranks'. */
void otr_mpi_collective(otr_archive *a, const otr_coll *p);
/* mpinbc.c: a nonblocking collective's request issued on location i at t;
 * completed (part p without begin) by a call on location i: parts go to
 * the matching in the order the rank issued them. */
void otr_mpi_nbc_issue(otr_archive *a, uint32_t i, uint64_t req, uint64_t t);
void otr_mpi_nbc_done(otr_archive *a, uint32_t i, uint64_t req, const otr_coll *p);
void otr_mpi_nbc_finish(otr_archive *a); /* completed ones still held */
void otr_mpi_nbc_free(otr_archive *a);
/* mpiorder.c: an MPI_Irecv's request found cancelled: open no more. */
void otr_mpi_unpost(otr_archive *a, uint32_t i, uint64_t req);
/* mpirecords.c */
void otr_mpi_evt_callbacks(OTF2_GlobalEvtReaderCallbacks *cb);
/* A Leave of region on ls, before the stack pops: completes the records of
 * the MPI call it closes. */
void otr_mpi_leave(otr_archive *a, otr_locstate *ls, uint32_t region);
/* End of the pass: completes the calls still open, counts what is left. */
void otr_mpi_finish(otr_archive *a);
void otr_mpi_events_free(otr_archive *a);

#endif
