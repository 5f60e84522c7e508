/* Counter set-up through PAPI: parse OMPTRACE_METRICS, validate every
 * name once, group the working ones by PAPI component (an event set
 * holds events of one component) and describe them for the OTF2 writer.
 * An SDE counter that no library has registered yet (a program that
 * registers at the top of main, after the runtime started the tool) keeps
 * the set open until the first parallel region, which settles it once.
 * Every problem is one stderr line
 *   omptrace: OMPTRACE_METRICS: <event>: <PAPI's reason>; <what happens>
 * and tracing goes on with the counters that work. */
#include "services/counters.h"
#include "core/config.h"
#include "core/log.h"
#include "core/thread.h"
#include "services/counters_internal.h"

#include <papi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t ot_counter_rec_mask;
ot_ctr_global ot_ctr;

static unsigned long papi_thread_id(void) {
  return (unsigned long)pthread_self();
}

/* A long event (the whole list, when PAPI cannot start) is shortened so
 * the line keeps its reason and consequence. */
static void drop(const char *event, const char *reason, const char *what) {
  size_t len = strlen(event);
  if (len > 100)
    ot_warn("OMPTRACE_METRICS: %.80s... (%zu characters): %s; %s", event, len, reason, what);
  else
    ot_warn("OMPTRACE_METRICS: %s: %s; %s", event, reason, what);
}

/* PAPI's message for rc, with the component's own reason when the
 * component is disabled (for example perf_event in a VM without PMU). */
static const char *papi_reason(int rc, int cidx, char *buf, size_t len) {
  const char *msg = PAPI_strerror(rc);
  if (!msg)
    msg = "unknown PAPI error";
  const PAPI_component_info_t *ci = cidx >= 0 ? PAPI_get_component_info(cidx) : NULL;
  if (ci && ci->disabled && ci->disabled_reason[0])
    snprintf(buf, len, "%s (%s: %s)", msg, ci->name, ci->disabled_reason);
  else
    snprintf(buf, len, "%s", msg);
  return buf;
}

/* One event alone in a set, started and read once: catches names that
 * resolve but cannot count (disabled component, unregistered SDE
 * counter placeholder). Returns 0, OT_NOT_YET for an SDE counter no
 * library has registered (yet), or a PAPI error. */
#define OT_NOT_YET 1
static int probe_event(int code, int cidx) {
  int es = PAPI_NULL;
  long long v = 0;
  int rc = PAPI_create_eventset(&es);
  if (rc != PAPI_OK)
    return rc;
  rc = PAPI_add_event(es, code);
  if (rc == PAPI_OK) {
    rc = PAPI_start(es);
    if (rc == PAPI_OK) {
      rc = PAPI_read(es, &v);
      long long stop = 0;
      PAPI_stop(es, &stop);
    }
  }
  PAPI_cleanup_eventset(es);
  PAPI_destroy_eventset(&es);
  /* libsde answers -1 for a counter no library has registered (yet). */
  const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
  if (rc == PAPI_OK && v == -1 && ci && strcmp(ci->name, "sde") == 0)
    return OT_NOT_YET;
  return rc;
}

/* A listed name that resolved; `pending` while it is an SDE counter no
 * library has registered yet (tried again by ot_counters_settle). */
typedef struct cand {
  char name[128];
  int code, cidx, pending;
} cand;

/* The names kept at start-up, in list order, pending ones included. */
static cand cands[OT_CTR_MAX];
static unsigned ncands;

/* Resolves and probes c->name; 0 when it counts or waits (pending).
 * `final`: an unregistered SDE counter is dropped (one line) instead of
 * left pending. */
static int check_name(cand *c, unsigned nprev, int final) {
  char buf[512];
  int rc = PAPI_event_name_to_code(c->name, &c->code);
  if (rc != PAPI_OK) {
    drop(c->name, papi_reason(rc, -1, buf, sizeof buf), "dropped");
    return -1;
  }
  c->cidx = PAPI_get_event_component(c->code);
  for (unsigned i = 0; i < nprev; i++) {
    if (cands[i].code == c->code) {
      snprintf(buf, sizeof buf, "same event as %s, listed earlier", cands[i].name);
      drop(c->name, buf, "dropped");
      return -1;
    }
  }
  rc = probe_event(c->code, c->cidx);
  c->pending = rc == OT_NOT_YET && !final;
  if (rc == OT_NOT_YET && final)
    drop(c->name,
         "no library has registered this SDE counter (PAPI reads -1), neither when the tool "
         "started nor by the first parallel region",
         "dropped");
  else if (rc != PAPI_OK && !c->pending)
    drop(c->name, papi_reason(rc, c->cidx, buf, sizeof buf), "dropped");
  return rc == PAPI_OK || c->pending ? 0 : -1;
}

/* Splits the list into `cands`: at most OT_CTR_MAX names that resolve,
 * are not duplicates and count when alone in an event set, or wait for
 * their SDE library. */
static void resolve(const char *list) {
  const char *p = list;
  char buf[512];
  ncands = 0;
  while (*p) {
    size_t len = strcspn(p, ",");
    const char *s = p, *e = p + len;
    p = *e ? e + 1 : e;
    while (s < e && (*s == ' ' || *s == '\t'))
      s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
      e--;
    int nlen = (int)(e - s);
    if (nlen == 0) {
      drop("\"\"", "empty name in the list", "ignored");
      continue;
    }
    if (nlen >= (int)sizeof cands[0].name) {
      char shown[64];
      snprintf(shown, sizeof shown, "%.40s...", s);
      drop(shown, "name longer than 127 characters", "dropped");
      continue;
    }
    cand c;
    memcpy(c.name, s, (size_t)nlen);
    c.name[nlen] = 0;
    if (check_name(&c, ncands, 0) != 0)
      continue;
    if (ncands == OT_CTR_MAX) {
      snprintf(buf, sizeof buf, "more than %u counters", OT_CTR_MAX);
      drop(c.name, buf, "dropped");
      continue;
    }
    cands[ncands++] = c;
  }
}

/* Creates an empty event set for component cidx, multiplexed if asked
 * and possible. *mpx tells what was obtained. */
static int make_set(int cidx, int want_mpx, int *es, int *mpx) {
  *es = PAPI_NULL;
  *mpx = 0;
  int rc = PAPI_create_eventset(es);
  if (rc != PAPI_OK)
    return rc;
  if (!want_mpx)
    return PAPI_OK;
  rc = PAPI_assign_eventset_component(*es, cidx);
  if (rc == PAPI_OK)
    rc = PAPI_set_multiplex(*es);
  if (rc == PAPI_OK)
    *mpx = 1;
  return rc;
}

static void free_set(int *es) {
  PAPI_cleanup_eventset(*es);
  PAPI_destroy_eventset(es);
}

/* A multiplexed set of component cidx takes every candidate, or the
 * component cannot multiplex (PAPI multiplexes in software through the
 * CPU component, so for example SDE events are refused). */
static int try_multiplex(const cand *c, unsigned nc, int cidx) {
  char buf[512];
  int es, mpx, rc = make_set(cidx, 1, &es, &mpx);
  for (unsigned i = 0; rc == PAPI_OK && i < nc; i++)
    if (c[i].cidx == cidx)
      rc = PAPI_add_event(es, c[i].code);
  free_set(&es);
  if (rc == PAPI_OK)
    return 1;
  const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
  ot_warn("OMPTRACE_MULTIPLEX: %s: %s; its counters are read without multiplexing",
          ci ? ci->name : "component", papi_reason(rc, -1, buf, sizeof buf));
  return 0;
}

/* Adds the candidates of component cidx to one trial set, in list order,
 * the way every thread will: an event that conflicts with the ones
 * before it (too many for the hardware) is dropped. Accepted events are
 * appended to ot_ctr in record order. */
static void place_component(const cand *c, unsigned nc, int cidx, int want_mpx) {
  char buf[512];
  int es, mpx;
  int rc = make_set(cidx, want_mpx && try_multiplex(c, nc, cidx), &es, &mpx);
  if (rc != PAPI_OK) {
    for (unsigned i = 0; i < nc; i++)
      if (c[i].cidx == cidx)
        drop(c[i].name, papi_reason(rc, cidx, buf, sizeof buf), "dropped");
    free_set(&es);
    return;
  }
  ot_ctr_set *set = &ot_ctr.sets[ot_ctr.nsets];
  set->cidx = cidx;
  set->multiplex = mpx;
  set->first = ot_ctr.n;
  set->n = 0;
  for (unsigned i = 0; i < nc; i++) {
    if (c[i].cidx != cidx)
      continue;
    rc = PAPI_add_event(es, c[i].code);
    if (rc != PAPI_OK) {
      drop(c[i].name, papi_reason(rc, cidx, buf, sizeof buf),
           rc == PAPI_ECNFLCT && !mpx ? "dropped (OMPTRACE_MULTIPLEX=1 may count it)" : "dropped");
      continue;
    }
    unsigned k = ot_ctr.n++;
    ot_ctr.code[k] = c[i].code;
    snprintf(ot_ctr.name[k], sizeof ot_ctr.name[k], "%s", c[i].name);
    set->n++;
  }
  free_set(&es);
  if (set->n)
    ot_ctr.nsets++;
}

static void describe(unsigned k) {
  PAPI_event_info_t info;
  memset(&info, 0, sizeof info);
  int ok = PAPI_get_event_info(ot_ctr.code[k], &info) == PAPI_OK;
  snprintf(ot_ctr.unit[k], sizeof ot_ctr.unit[k], "%s", ok && info.units[0] ? info.units : "#");
  const char *d = ok && info.long_descr[0] ? info.long_descr : ok ? info.short_descr : "";
  snprintf(ot_ctr.descr[k], sizeof ot_ctr.descr[k], "%s", d[0] ? d : ot_ctr.name[k]);
}

/* One event set per component, components in order of first mention. */
static void place_all(void) {
  char buf[256];
  for (unsigned i = 0; i < ncands; i++) {
    int seen = 0;
    for (unsigned j = 0; j < i; j++)
      seen |= cands[j].cidx == cands[i].cidx;
    if (seen)
      continue;
    if (ot_ctr.nsets == OT_CTR_MAX_SETS) {
      snprintf(buf, sizeof buf, "counters from more than %d PAPI components", OT_CTR_MAX_SETS);
      drop(cands[i].name, buf, "dropped");
      continue;
    }
    place_component(cands, ncands, cands[i].cidx, ot_cfg.multiplex);
  }
}

/* Helper-thread bodies. An unregistered thread crashes
 * PAPI_event_name_to_code and PAPI_get_event_info (PAPI 7): register
 * first. */
static void *resolve_at_start(void *arg) {
  (void)arg;
  PAPI_register_thread();
  resolve(ot_cfg.metrics);
  unsigned npending = 0;
  for (unsigned i = 0; i < ncands; i++)
    npending += (unsigned)cands[i].pending;
  if (!npending)
    place_all();
  for (unsigned k = 0; k < ot_ctr.n; k++)
    describe(k);
  PAPI_unregister_thread();
  return (void *)(size_t)npending;
}

/* The pending names once more, now as final; then every kept name is
 * placed in list order, exactly as at start-up. */
static void *resolve_again(void *arg) {
  (void)arg;
  PAPI_register_thread();
  unsigned kept = 0;
  for (unsigned i = 0; i < ncands; i++) {
    cand c = cands[i];
    if (c.pending && check_name(&c, kept, 1) != 0)
      continue;
    cands[kept++] = c;
  }
  ncands = kept;
  place_all();
  for (unsigned k = 0; k < ot_ctr.n; k++)
    describe(k);
  PAPI_unregister_thread();
  return NULL;
}

/* Runs fn on a thread of our own: the calling thread may already run an
 * event set of the application's (PAPI runs one per component and
 * thread), which would fail every probe; such a thread is reported when
 * it starts its counters instead. */
static void *on_helper(void *(*fn)(void *)) {
  pthread_t th;
  void *ret = NULL;
  if (pthread_create(&th, NULL, fn, NULL) == 0)
    pthread_join(th, &ret);
  else
    ret = fn(NULL);
  return ret;
}

/* After placing (and describing, on the helper: PAPI 7 crashes in
 * PAPI_get_event_info on a thread it does not know). */
static void conclude(const char *when) {
  if (!ot_ctr.n) {
    ot_warn("OMPTRACE_METRICS: no usable counter; tracing without counters");
    return;
  }
  ot_verbose("counters: %u counter(s), %u PAPI event set(s) per thread, record mask 0x%llx, "
             "settled %s",
             ot_ctr.n, ot_ctr.nsets, (unsigned long long)ot_counter_rec_mask, when);
}

static const char *first_pending(void) {
  for (unsigned i = 0; i < ncands; i++)
    if (cands[i].pending)
      return cands[i].name;
  return NULL;
}

static int has_name(const char *list) {
  for (const char *p = list; *p; p++)
    if (*p != ',' && *p != ' ' && *p != '\t')
      return 1;
  return 0;
}

void ot_counters_init(void) {
  const char *list = ot_cfg.metrics;
  ot_counter_rec_mask = 0;
  memset(&ot_ctr, 0, sizeof ot_ctr);
  atomic_store(&ot_ctr.settled, 1);
  ncands = 0;
  if (!has_name(list)) {
    /* Set but naming nothing is a mistake worth a line; unset is "off". */
    const char *env = getenv("OMPTRACE_METRICS");
    if (env && has_name(env) == 0)
      drop("\"\"", "no event name given", "tracing without counters");
    return;
  }

  char buf[512];
  int rc = PAPI_OK;
  if (PAPI_is_initialized() == PAPI_NOT_INITED) {
    rc = PAPI_library_init(PAPI_VER_CURRENT);
    if (rc == PAPI_VER_CURRENT) {
      ot_ctr.ours = 1;
      rc = PAPI_OK;
    } else if (rc > 0) {
      snprintf(buf, sizeof buf, "PAPI_library_init: library version 0x%x, built for 0x%x", rc,
               PAPI_VER_CURRENT);
      drop(list, buf, "tracing without counters");
      return;
    }
  }
  if (rc == PAPI_OK) {
    rc = PAPI_thread_init(papi_thread_id);
    if (rc == PAPI_OK && ot_cfg.multiplex)
      rc = PAPI_multiplex_init();
  }
  if (rc != PAPI_OK) {
    snprintf(buf, sizeof buf, "PAPI initialisation: %s", PAPI_strerror(rc));
    drop(list, buf, "tracing without counters");
    return;
  }

  if (on_helper(resolve_at_start)) {
    /* Some SDE counter is not registered yet: the set is completed when
     * the first parallel region begins (ot_counters_settle). */
    atomic_store(&ot_ctr.settled, 0);
    ot_counter_rec_mask = ot_counters_parse_groups(ot_cfg.metrics_on);
    ot_verbose("counters: waiting for the first parallel region to resolve %s again",
               first_pending());
    return;
  }
  if (ot_ctr.n)
    ot_counter_rec_mask = ot_counters_parse_groups(ot_cfg.metrics_on);
  conclude("at start-up");
}

void ot_counters_settle(void) {
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  if (atomic_load_explicit(&ot_ctr.settled, memory_order_acquire))
    return;
  pthread_mutex_lock(&lock);
  if (!atomic_load_explicit(&ot_ctr.settled, memory_order_relaxed)) {
    on_helper(resolve_again);
    conclude("at the first parallel region");
    /* Release: a thread that sees `settled` sees the whole counter set. */
    atomic_store_explicit(&ot_ctr.settled, 1, memory_order_release);
  }
  pthread_mutex_unlock(&lock);
}

/* Never settled (no parallel region began): no thread recorded values. */
unsigned ot_counters_count(void) {
  return atomic_load(&ot_ctr.settled) ? ot_ctr.n : 0;
}

const char *ot_counters_name(unsigned i) {
  return i < ot_ctr.n ? ot_ctr.name[i] : "";
}
const char *ot_counters_unit(unsigned i) {
  return i < ot_ctr.n ? ot_ctr.unit[i] : "";
}
const char *ot_counters_description(unsigned i) {
  return i < ot_ctr.n ? ot_ctr.descr[i] : "";
}

int ot_counters_is_estimate(unsigned i) {
  for (unsigned s = 0; s < ot_ctr.nsets; s++)
    if (i >= ot_ctr.sets[s].first && i < ot_ctr.sets[s].first + ot_ctr.sets[s].n)
      return ot_ctr.sets[s].multiplex;
  return 0;
}

int ot_counters_strict(void) {
  if (!ot_counters_count() || atomic_load(&ot_ctr.thread_failed) ||
      atomic_load(&ot_ctr.started_late))
    return 0;
  uint32_t events = ot_cfg.events ? ot_cfg.events : OT_EV_ALL;
  uint64_t need = ot_counters_enter_leave_types(events);
  return (ot_counter_rec_mask & need) == need;
}

void ot_counters_finalize(void) {
  const char *pending = first_pending();
  if (!atomic_load(&ot_ctr.settled) && pending)
    drop(pending,
         "no library had registered this SDE counter when the tool started, and no parallel "
         "region began to try again",
         "no counter values recorded");
  if (!ot_counters_count())
    return;
  /* Threads still running at exit (thread_end never came): stop their
   * sets from here; recording has stopped, so their handlers no longer
   * read. */
  uint32_t n = ot_thread_count();
  for (uint32_t i = 0; i < n; i++) {
    ot_thread *t = ot_thread_get(i);
    if (t && t->nctr)
      ot_counters_release(t, t == ot_self);
  }
  if (ot_ctr.ours && atomic_load(&ot_ctr.threads_live) == 0) {
    PAPI_shutdown();
    ot_ctr.ours = 0;
  }
}
