/* omptrace-merge: the ranks' archives of an MPI job (DIR/rank-R/traces.otf2)
 * as one archive DIR/traces.otf2 (docs/mpi.md, "One archive per job").
 * Definitions are read into memory, unified, and written once; event files
 * are linked unchanged, with mapping tables and clock offsets in each
 * location's local definitions telling readers how to translate them. */
#ifndef OMPTRACE_MERGE_H
#define OMPTRACE_MERGE_H

#include <otf2/otf2.h>
#include <stddef.h>
#include <stdint.h>

#define ME "omptrace-merge"
#define MG_TMP_DIR ".merge.XXXXXX" /* private (0700) until the archive is complete */

/* Definition kinds, in the order they are unified and written (each refers
 * only to kinds before it, or to its own kind for parents). */
enum mg_kind {
  K_STRING,
  K_PARADIGM,
  K_NODE,
  K_NODEPROP,
  K_LGROUP,
  K_LOCATION,
  K_REGION,
  K_SCL,
  K_CC,
  K_IG,
  K_MEMBER,
  K_METRIC,
  K_PARAM,
  K_ATTR,
  K_GROUP,
  K_COMM,
  MG_KINDS
};
#define MG_FIELDS 9

/* One definition: its id, its fields in the order of the OTF2 record
 * (references are local ids when read, global ids after unification),
 * group or metric-class members, a string's text. */
typedef struct mg_def {
  uint64_t id;
  uint64_t f[MG_FIELDS];
  uint64_t *members;
  uint32_t n;
  char *text;
} mg_def;

typedef struct mg_defs {
  mg_def *v;
  size_t n, cap;
} mg_defs;

/* Byte-string keys -> 64-bit values (merge/hash.c, on finalize/intern.h). */
typedef struct mg_hash mg_hash;
mg_hash *mg_hash_new(void);
void mg_hash_free(mg_hash *h);
/* The value stored under key, or NULL. */
uint64_t *mg_hash_get(mg_hash *h, const void *key, size_t len);
/* Stores val under key unless present; returns the stored value. */
uint64_t mg_hash_put(mg_hash *h, const void *key, size_t len, uint64_t val);

/* One point of DIR/rank-R/clock-sync (docs/mpi.md, "Clocks"). */
typedef struct mg_clock {
  uint64_t time;  /* the rank's own clock, ns */
  int64_t offset; /* rank 0's clock minus the own clock, ns */
  uint64_t error; /* bound of |offset error|, ns (half the round trip) */
} mg_clock;

/* One event of a rank that the causality correction constrains
 * (merge/causal.c): a send record or a collective's Enter (an anchor:
 * other ranks' events must not precede it), or a receive record or a
 * collective's Leave (a requirement: it must not precede others'). */
typedef struct mg_cev {
  uint64_t t;   /* the rank's own clock */
  int64_t req;  /* the least correction it needs (ns), 0 at first */
  int64_t c;    /* its correction in the last pass */
  uint64_t at;  /* its time in the merged archive in the last pass */
  int anchor;   /* 1: send or collective Enter, 0: receive or Leave */
  size_t order; /* reading order, then its index once sorted by t */
} mg_cev;

/* A message record: the communicator (global id), world ranks, tag, when
 * it was posted (a send: its record; a receive: the Enter of its call, or
 * an MpiIrecv's MpiIrecvRequest), and its mg_cev in its rank; sends and
 * receives pair in this order per key, as MPI matches them. */
typedef struct mg_msg {
  uint64_t comm, from, to, tag, posted;
  uint32_t rank;
  size_t seq, ev;
} mg_msg;

/* A blocking collective of one rank: the k-th (seq) on its communicator,
 * the operation, the root as a world rank (UINT32_MAX: none), its Enter
 * and Leave as mg_cevs of its rank. */
typedef struct mg_coll {
  uint64_t comm, seq;
  uint32_t op, root, rank;
  size_t enter, leave;
} mg_coll;

typedef struct mg_rank {
  int rank;
  char *dir;     /* DIR/rank-R */
  char *program; /* its OMPTRACE::PROGRAM property, NULL if none */
  mg_defs defs[MG_KINDS];
  mg_hash *map[MG_KINDS]; /* local id -> global id */
  uint64_t resolution, start, length, realtime;
  uint64_t evt_chunk, def_chunk;
  uint64_t omp_shift; /* members of earlier ranks in the OpenMP locations group */
  mg_clock *clock;    /* the points written: measured, then with causality */
  size_t nclock;
  size_t nmeasured, napplied; /* clock-sync points, those applied */
  mg_cev *cev;
  size_t ncev, capcev;
  uint64_t first, last, nevents; /* its events' times (merge/events.c) */
  int corrected;                 /* the causality correction moved it */
} mg_rank;

/* A text property gathered over the ranks of one host node: the global
 * definition (its index) gets the text when every rank is in. */
typedef struct mg_account {
  size_t def;
  char *text;
  size_t len, cap;
} mg_account;

typedef struct mg_job {
  const char *dir;
  char tmp[4096]; /* DIR/.merge.XXXXXX, where libotf2 writes the archive */
  mg_rank *ranks;
  size_t nranks;
  mg_defs global[MG_KINDS];
  mg_hash *unique[MG_KINDS]; /* content -> global id */
  uint64_t resolution, start, length, realtime;
  uint64_t linked, copied, link_bytes, copy_bytes;
  mg_msg *sends, *recvs;
  size_t nsends, nrecvs, capsends, caprecvs;
  mg_coll *colls;
  size_t ncolls, capcolls;
  uint64_t moved, max_move, passes; /* what the causality correction did */
  mg_account *accounts; /* omptrace::samples of each host node, gathered over its ranks */
  size_t naccounts;
} mg_job;

/* merge/defs.c: appends a zeroed definition. */
mg_def *mg_defs_add(mg_defs *d);
void mg_defs_free(mg_defs *d);
/* merge/read.c: the rank's global definitions, clock properties and chunk
 * sizes. 0, or -1 after one error line. */
int mg_read_rank(mg_rank *r);
/* merge/clock.c: DIR/rank-R/clock-sync (absent: no points); an offset
 * no larger than its error bound is read as 0 (not applied). 0 or -1. */
int mg_read_clock(mg_rank *r);
/* The same correction for the ClockOffset points pts[0..n). */
uint64_t mg_clock_apply_pts(const mg_clock *pts, size_t n, uint64_t t);
/* A rank's local time t in rank 0's time, as OTF2's readers correct it. */
uint64_t mg_clock_apply(const mg_rank *r, uint64_t t);
/* The job's clock properties: one resolution (else -1 after one error
 * line), the time range of every rank after correction. */
int mg_job_clock(mg_job *j);
/* merge/events.c: the rank's message records and blocking collectives
 * (after mg_unify: communicators by global id) and the range of its
 * events' times; with before (its points without the causality
 * correction), instead counts its events the correction moved into
 * j->moved and j->max_move. 0, or -1 after one error line. */
int mg_read_events(mg_job *j, mg_rank *r, const mg_clock *before, size_t nbefore);
/* merge/causal.c: adds to every rank's clock points the corrections that
 * put no receive before its send and no collective's Leave before the
 * Enters it waits for (docs/mpi.md, "Clocks"). 0, or -1 after one line. */
int mg_causal(mg_job *j);
/* Grows *v (elements of size sz, *cap of them) to hold n + 1. */
void mg_grow(void **v, size_t *cap, size_t n, size_t sz);
/* merge/unify.c: the job's global definitions and every rank's map. */
int mg_unify(mg_job *j);
/* merge/write.c: the archive <tmp>/traces.* without event files. */
int mg_write(mg_job *j);
/* merge/files.c: links every location's event file into the new archive,
 * then puts the archive in place (anchor last). */
int mg_link_events(mg_job *j);
int mg_install(mg_job *j);
/* Removes path and everything below it (no error when absent). */
int mg_remove_tree(const char *path);
/* merge/ranks.c: the rank directories DIR/rank-R; a rank with a record log
 * but no archive is recovered first; expect > 0: ranks 0..expect-1 should
 * be there. 0, or -1 after one error line (no rank archive at all). */
int mg_find_ranks(mg_job *j, int expect, const char *self, int quiet);

/* Prints "omptrace-merge: <message>" (one line) to stderr. */
void mg_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* OTF2 reports its errors through mg_otf2_message (the last one, or e's
 * description), not on stderr. */
void mg_quiet_otf2(void);
const char *mg_otf2_message(OTF2_ErrorCode e);
void *mg_xalloc(size_t n);
char *mg_strdup(const char *s);

#endif
