/* Minimal OTF2 archive writer for the summary tests: events go straight to
 * per-location writers (each location's times must not decrease), and the
 * definitions are written when the archive is closed. */
#ifndef OMPTRACE_OTFGEN_H
#define OMPTRACE_OTFGEN_H

#include <otf2/otf2.h>
#include <stdint.h>

#define G_MAXLOC 64

typedef struct gen gen;

gen *g_open(const char *dir, const char *program, int nloc);
void g_close(gen *g);

uint32_t g_region(gen *g, const char *name, OTF2_RegionRole role, OTF2_Paradigm par,
                  const char *file, uint32_t line);
/* A team of the first n locations, with a Comm of its own. */
uint32_t g_team(gen *g, int n);
uint32_t g_param(gen *g, const char *name);
/* Two UINT64 accumulated counters in one metric class. */
uint32_t g_metrics(gen *g, const char *m0, const char *m1);
uint32_t g_context(gen *g, uint32_t region, const char *file, uint32_t line, uint32_t parent);
uint32_t g_generator(gen *g, uint64_t period_ns);

/* ClockProperties with trace length 0: the archive does not say its time range. */
void g_no_range(gen *g);
/* Adds shift to the time of every later event (a run that started later). */
void g_shift(gen *g, uint64_t shift);

void g_enter(gen *g, int l, uint64_t t, uint32_t r);
void g_leave(gen *g, int l, uint64_t t, uint32_t r);
void g_fork(gen *g, int l, uint64_t t, uint32_t n);
void g_join(gen *g, int l, uint64_t t);
void g_team_begin(gen *g, int l, uint64_t t, uint32_t team);
void g_team_end(gen *g, int l, uint64_t t, uint32_t team);
void g_acquire(gen *g, int l, uint64_t t, uint32_t lock, uint32_t order);
void g_release(gen *g, int l, uint64_t t, uint32_t lock, uint32_t order);
void g_task_create(gen *g, int l, uint64_t t, uint32_t team, uint32_t creator, uint32_t gen_);
void g_task_switch(gen *g, int l, uint64_t t, uint32_t team, uint32_t creator, uint32_t gen_);
void g_task_complete(gen *g, int l, uint64_t t, uint32_t team, uint32_t creator, uint32_t gen_);
void g_metric(gen *g, int l, uint64_t t, uint32_t metric, uint64_t v0, uint64_t v1);
void g_param_uint(gen *g, int l, uint64_t t, uint32_t param, uint64_t v);
void g_sample(gen *g, int l, uint64_t t, uint32_t ctx, uint32_t generator);
/* MeasurementOnOff: on = 0 starts a gap (records lost), 1 ends it. */
void g_onoff(gen *g, int l, uint64_t t, int on);
/* MeasurementOnOff(OFF) as omptrace writes it: with the number of records
 * lost in the gap (attribute "omptrace::lost_records"). */
void g_off_lost(gen *g, int l, uint64_t t, uint64_t records);

#endif
