/* Archive reader shared by the converters: opens an OTF2 archive, loads its
 * definitions into tables and streams its events once, in global time order,
 * as OpenMP intervals (regions with a time category, lock waits and holds,
 * task fragments, parallel-region instances, counter deltas, samples).
 * Memory grows with definitions, locations and open regions, not events. */
#ifndef OMPTRACE_OTR_H
#define OMPTRACE_OTR_H

#include <otf2/otf2.h>
#include <stdbool.h>
#include <stdint.h>

#define OTR_NONE UINT32_MAX

/* What a region is, decided by its role first and its name second. */
typedef enum {
  OTR_C_USER,
  OTR_C_PARALLEL,
  OTR_C_LOOP,
  OTR_C_SECTIONS,
  OTR_C_SECTION,
  OTR_C_SINGLE,
  OTR_C_SINGLE_SBLOCK,
  OTR_C_MASTER,
  OTR_C_WORKSHARE,
  OTR_C_IBARRIER,
  OTR_C_EBARRIER,
  OTR_C_TASKWAIT,
  OTR_C_TASKGROUP,
  OTR_C_CRITICAL,
  OTR_C_CRITICAL_SBLOCK,
  OTR_C_ORDERED,
  OTR_C_ORDERED_SBLOCK,
  OTR_C_LOCK, /* lock acquisition: omp_set_lock, omp_test_lock, lock wait */
  OTR_C_TASK,
  OTR_C_TASK_CREATE,
  OTR_C_RUNTIME, /* other OpenMP runtime time: flush, reduction, API calls */
  OTR_C_COUNT
} otr_class;

/* Where a location's time goes; the innermost open region decides (a
 * region without a category of its own, a user function, takes its
 * enclosing region's: code called inside an MPI call is MPI time). */
typedef enum {
  OTR_T_OUTSIDE, /* no parallel region open: serial code or idle thread */
  OTR_T_WORK,
  OTR_T_IBARRIER,
  OTR_T_EBARRIER,
  OTR_T_TASKWAIT,
  OTR_T_TASKGROUP,
  OTR_T_LOCK,
  OTR_T_CRITICAL,
  OTR_T_ORDERED,
  OTR_T_FORKJOIN, /* between fork and team begin, team end and join */
  OTR_T_TASKCREATE,
  OTR_T_RUNTIME,
  OTR_T_MPI, /* inside an MPI call (paradigm MPI), in or outside a parallel region */
  OTR_T_COUNT
} otr_cat;

static inline bool otr_cat_is_wait(otr_cat c) {
  return c >= OTR_T_IBARRIER && c <= OTR_T_ORDERED;
}

typedef struct {
  const char *name;      /* as defined */
  const char *construct; /* name without "!$omp " and " @ ..." */
  const char *file;      /* source file, "" when unknown */
  uint32_t line;
  OTF2_RegionRole role;
  OTF2_Paradigm paradigm;
  otr_class cls;
  bool site_inferred; /* name, file and line taken from the first construct it ended */
} otr_region;

typedef struct {
  const char *name;
  const char *unit;
  bool is_double;
} otr_metric;

typedef struct {
  uint32_t region;  /* OTR_NONE for a root's missing region */
  uint32_t parent;  /* context index or OTR_NONE */
  const char *file; /* source location, "" when unknown */
  uint32_t line;
} otr_context;

/* Throttled instances of one construct on one thread (not in the events). */
typedef struct {
  uint32_t region, loc; /* region and location indices */
  uint64_t count, ns;
} otr_throttled;

typedef struct {
  uint64_t resolution; /* ticks per second */
  uint64_t offset;
  uint64_t length;
  char *program; /* location group name, else "" */
  uint32_t n_regions, n_locations, n_metrics, n_contexts, n_generators;
  otr_region *regions;
  uint64_t *location_ids; /* index -> OTF2 id */
  char **location_names;
  uint64_t *location_events; /* from the Location definitions */
  /* an offload device's location (ACCELERATOR_STREAM: busy while a kernel or
   * transfer is on it, docs/otf2-mapping.md), not a thread; n_devices of them */
  bool *location_device;
  uint32_t n_devices;
  otr_metric *metrics; /* member slots over all metric classes */
  otr_context *contexts;
  uint64_t *generator_period_ns; /* 0 when unknown */
  uint64_t total_events;         /* sum of location event counts */
  uint32_t n_groups;
  char **group_names;       /* location groups (processes) */
  uint32_t *location_group; /* index -> its group's index, OTR_NONE when unknown */
  /* OMPTRACE_FILTER's rules and the regions it left out, one per line
   * ("omptrace::filter", "omptrace::filtered"); NULL without a filter */
  char *filter_rules, *filtered;
  /* MPI jobs (docs/otf2-mapping.md, "MPI"): rank R is the PROCESS location
   * group named "rank R"; n_ranks is 0 for a program without MPI */
  uint32_t n_ranks;
  uint32_t *location_rank; /* index -> world rank, OTR_NONE when not in a rank */
  const char **rank_node;  /* rank -> its system tree node (host), "" when unknown */
  uint32_t n_comms;
  struct otr_comm *comms; /* MPI communicators (not OpenMP teams) */
  char *mpi_problem;      /* the first inconsistency of the MPI definitions, else NULL */
  /* OMPTRACE_THROTTLE's counts ("omptrace::throttled"): what each thread
   * ran of each throttled construct without recording it */
  char *throttled_text;
  otr_throttled *throttled;
  uint32_t n_throttled;
  /* Of that, the throttled task time each thread ran inside a wait
   * ("omptrace::throttled_waits"): n_locations x OTR_T_COUNT ns, indexed
   * loc * OTR_T_COUNT + wait category; NULL when none */
  char *throttled_waits_text;
  uint64_t *throttled_wait_ns;
  /* omptrace's samples expected and taken ("omptrace::samples"): lines
   * "<location> <expected> <reached> <taken>"; NULL when absent */
  char *samples_text;
  /* OMPTRACE::CHUNKS: set when the runtime gave no loop chunks (libomp 14) */
  bool no_chunks;
} otr_defs;

/* An MPI communicator: world[r] is the world rank of its rank r. */
typedef struct otr_comm {
  const char *name;
  uint32_t size;   /* 0 when its group is missing */
  uint32_t *world; /* NULL for MPI_COMM_SELF: rank 0 is the caller */
  uint32_t parent; /* comm index or OTR_NONE */
} otr_comm;

/* One point-to-point message: a send matched with its receive (same
 * communicator, sender, receiver and tag, in order, as MPI matches them).
 * Each side's call is the innermost MPI region around its record: MPI_Send
 * or MPI_Isend, MPI_Recv or the MPI_Wait* that completed an MPI_Irecv. */
typedef struct {
  uint32_t comm, tag;
  uint32_t sender, receiver;         /* world ranks */
  uint32_t send_loc, recv_loc;       /* location indices */
  uint64_t bytes;                    /* as the receive says */
  uint64_t send_t, recv_t;           /* the MpiSend/MpiIsend and MpiRecv/MpiIrecv records */
  uint64_t send_begin, send_end;     /* the send call's Enter and Leave */
  uint64_t recv_begin, recv_end;     /* the completing receive call's Enter and Leave */
  uint64_t posted;                   /* receive posted: MPI_Irecv's request, else recv_begin */
  uint32_t send_region, recv_region; /* the calls' regions, OTR_NONE outside any MPI call */
  bool isend, irecv;
} otr_msg;

/* One rank's part in a collective operation (MpiCollectiveBegin..End),
 * or in a nonblocking one (nbc: NonBlockingCollectiveRequest..Complete;
 * loc and region those of the call that completed it). */
typedef struct {
  uint32_t loc, rank;  /* location index, world rank */
  uint32_t comm, root; /* root: comm rank or OTR_NONE */
  OTF2_CollectiveOp op;
  uint64_t sent, received;
  uint64_t begin, end; /* the records' times */
  uint32_t region;     /* the call's region, OTR_NONE outside any MPI call */
  bool nbc;
} otr_coll;

/* One parallel-region instance (a team running one parallel region). */
typedef struct otr_team {
  uint64_t id;
  uint32_t region;
  uint32_t size;   /* requested by the fork, else members seen */
  uint32_t joined; /* members that entered */
  uint32_t inside; /* members still inside */
  uint64_t begin, end;
  void *user; /* owned by the visitor */
  struct otr_team *next;
  uint64_t key;
} otr_team;

/* One open region on a location's stack. */
typedef struct {
  uint32_t region;
  otr_class cls;
  otr_cat cat;
  uint64_t enter;
  uint64_t wait0;       /* location's cumulative wait time at enter */
  uint64_t mpi0;        /* location's MPI time at enter */
  uint64_t barrier0;    /* location's cumulative barrier time at enter */
  uint64_t nested_task; /* inclusive time of task frames left directly below */
  uint64_t child;       /* inclusive time of left children */
  uint32_t last_child;  /* region of the most recently left child */
  uint32_t depth_par;   /* parallel regions open at and below this frame */
  otr_team *team;       /* innermost enclosing parallel instance */
  uint64_t task;        /* task key for task frames */
  bool fork_marker;     /* pseudo frame between fork and join */
  bool metrics;         /* a Metric record came with the enter */
} otr_frame;

typedef struct {
  uint32_t index;
  uint64_t first, last; /* first and last event time */
  uint64_t events;
  uint64_t wait_cum; /* time in wait categories so far */
  uint64_t cat_time[OTR_T_COUNT];
  uint64_t lost; /* time in any location's measurement gap: in no category */
  /* of cat_time[OTR_T_OUTSIDE], the time before its first and after its
   * last event (all of the run for a location without events) */
  uint64_t edges;
  /* forked, or called MPI, outside any parallel region: it runs the
   * program's serial code (its outside time is serial, not idle) */
  bool forked;
} otr_loc;

/* Callbacks of one pass; any may be NULL. Times are in ticks from the
 * archive's clock; convert with otr_ns(). mdelta: counter deltas per member
 * slot (NaN when unknown) or NULL when no Metric bracketed the region. */
typedef struct {
  void *user;
  void (*span)(void *u, const otr_loc *l, otr_cat cat, uint64_t t0, uint64_t t1,
               const otr_frame *top);
  void (*enter)(void *u, const otr_loc *l, const otr_frame *f);
  void (*leave)(void *u, const otr_loc *l, const otr_frame *f, const otr_frame *parent, uint64_t t,
                const double *mdelta);
  void (*team_end)(void *u, otr_team *team);
  void (*lock_acquire)(void *u, const otr_loc *l, uint32_t lock, uint32_t order, uint64_t wait0,
                       uint64_t t, uint32_t site);
  void (*lock_release)(void *u, const otr_loc *l, uint32_t lock, uint32_t order, uint64_t t);
  void (*task_create)(void *u, const otr_loc *l, uint64_t t, uint64_t task);
  void (*task_dep)(void *u, const otr_loc *l, uint64_t t, const char *kind);
  /* a loop chunk ("omp chunk(<kind>) first/iterations" parameters; kind
   * loop, taskloop or distribute; section and iteration with iterations 0
   * and the runtime's value as first); top: the innermost open region */
  void (*chunk)(void *u, const otr_loc *l, uint64_t t, const otr_frame *top, const char *kind,
                uint64_t first, uint64_t iterations);
  /* active: time the fragment ran, without tasks nested in it */
  void (*task_fragment)(void *u, const otr_loc *l, uint64_t task, uint32_t region, uint64_t active);
  void (*task_complete)(void *u, const otr_loc *l, uint64_t t, uint64_t task);
  void (*sample)(void *u, const otr_loc *l, uint64_t t, uint32_t context, uint32_t generator);
  void (*metric_total)(void *u, const otr_loc *l, const double *first, const double *last);
  /* each Metric record: the location's latest value per member slot (NaN until seen) */
  void (*metric)(void *u, const otr_loc *l, uint64_t t, const double *values);
  /* MeasurementOnOff, after an OFF has closed the location's open regions;
   * paused: the gap is a pause (omp_control_tool), not lost records */
  void (*onoff)(void *u, const otr_loc *l, uint64_t t, bool on, bool paused);
  /* MPI: a message once both its calls have left; a collective operation
   * once every rank of its communicator has left it (n = comm size, m in
   * comm rank order; the k-th collective of each rank on a comm is one;
   * nonblocking ones apart: the k-th each rank initiated on a comm) */
  void (*mpi_message)(void *u, const otr_msg *m);
  void (*mpi_collective)(void *u, const otr_coll *m, uint32_t n);
} otr_visitor;

typedef struct otr_archive otr_archive;

/* A measurement gap: records of one location were dropped between
 * MeasurementOnOff(OFF) at t0 and MeasurementOnOff(ON) at t1 (t1 is the
 * end of the run when recording never resumed). records: how many, from
 * omptrace's "omptrace::lost_records" attribute of the OFF record; unknown
 * (records_known false) when the OFF has none (Score-P, older archives). */
typedef struct {
  uint32_t loc;
  uint64_t t0, t1;
  uint64_t records;
  bool records_known;
  bool stopped; /* "omptrace::stopped": the thread's recording ended here (recovered run) */
  bool paused;  /* "omptrace::paused": recording was paused (omp_control_tool); nothing lost */
} otr_gap;

/* Accepts the anchor file (traces.otf2) or its directory. On failure
 * returns NULL and writes one line into err. */
otr_archive *otr_open(const char *path, char *err, size_t errlen);
const otr_defs *otr_defs_of(const otr_archive *a);
const char *otr_anchor(const otr_archive *a);
/* Streams all events; returns false with a message on a read error. */
bool otr_read(otr_archive *a, const otr_visitor *v, char *err, size_t errlen);
/* After otr_read: per-location totals, global first/last time, serial time. */
const otr_loc *otr_location(const otr_archive *a, uint32_t index);
uint64_t otr_first_time(const otr_archive *a);
uint64_t otr_last_time(const otr_archive *a);
/* Serial time: no location inside a parallel region, a fork or an MPI
 * call; MPI-only time: some location inside an MPI call and none inside a
 * parallel region or a fork. Measurement gaps are left out of both. */
uint64_t otr_serial_ticks(const otr_archive *a);
uint64_t otr_mpi_only_ticks(const otr_archive *a);
uint64_t otr_events_read(const otr_archive *a);
/* Measurement gaps in the order they ended, and the time in which at least
 * one location was in a gap (excluded from serial time). */
const otr_gap *otr_gaps(const otr_archive *a, uint32_t *n);
uint64_t otr_lost_ticks(const otr_archive *a);
/* The part of it in paused intervals (omp_control_tool; gaps with paused
 * set), and how many such intervals (overlapping gaps of all locations
 * count once). */
uint64_t otr_paused_ticks(const otr_archive *a, uint32_t *intervals);
/* The union of the gaps in which records are missing (neither paused nor
 * stopped), and the time of the stops (a recovered run: from a thread's
 * last record to the run's end, "omptrace::stopped") outside them. */
uint64_t otr_missing_ticks(const otr_archive *a);
uint64_t otr_stopped_ticks(const otr_archive *a);
uint64_t otr_ns(const otr_archive *a, uint64_t ticks);
void otr_close(otr_archive *a);
/* After otr_read: MPI records that could not be matched (a receive without
 * its send, a send never received, a peer outside its communicator, a
 * collective some rank never entered); problem: a line naming the first. */
uint64_t otr_mpi_unmatched(const otr_archive *a, const char **problem);
/* "allreduce", "bcast", ... */
const char *otr_coll_op_name(OTF2_CollectiveOp op);

const char *otr_class_name(otr_class c);
const char *otr_cat_name(otr_cat c);
otr_class otr_classify(const char *name, OTF2_RegionRole role, OTF2_Paradigm paradigm);

#endif
