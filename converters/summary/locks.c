/* Locks and critical sections. An acquisition's wait runs from the entry
 * into its construct (critical, omp_set_lock, ...) to the acquisition. It is
 * contended when another thread held the lock during the wait, and that
 * overlap is charged (blamed) to the code holding the lock: the construct
 * and line through which the holder acquired it. Each lock keeps its last
 * RING holds, so blame for a wait longer than RING holds is partial.
 * What is not blamed is split at the acquisition just before (by another
 * thread): the time before it took the lock, and the hand-over after the
 * last release. For an ordered section the first is the time the thread
 * of the previous iteration had not yet reached its ordered section (the
 * loop body before it, or its own wait for its turn): it holds nothing
 * then, and no code is blamed for it. */
#include "summary.h"

#include "idmap.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define RING 256

typedef struct {
  uint32_t order, loc, site; /* site: key of the acquiring construct */
  uint64_t acq, rel;         /* rel = UINT64_MAX while held */
} hold;

typedef struct {
  uint32_t key;
  uint64_t wait;
} blame;

typedef struct {
  uint32_t id, label; /* label: key of the first acquisition's construct */
  uint64_t acq, wait, max, contended, held, blamed;
  uint64_t before; /* unblamed, before the previous acquirer took it */
  bool ordered;    /* an ordered section's (acquired through an ordered region) */
  uint32_t seq;
  hold ring[RING];
  blame *b;
  uint32_t nb;
} lockst;

struct sm_locks {
  otr_idmap ids;
  lockst **l;
  uint32_t n;
};

static void init(sm *s) {
  s->locks = otr_xcalloc(1, sizeof(sm_locks));
}

static lockst *get(sm_locks *k, uint32_t id) {
  uint32_t i = otr_idmap_get(&k->ids, id);
  if (i != OTR_NONE)
    return k->l[i];
  k->l = otr_xrealloc(k->l, (k->n + 1) * sizeof *k->l);
  lockst *x = otr_xcalloc(1, sizeof *x);
  x->id = id;
  x->label = OTR_NONE;
  for (int r = 0; r < RING; r++)
    x->ring[r].order = UINT32_MAX;
  k->l[k->n] = x;
  otr_idmap_put(&k->ids, id, k->n++);
  return x;
}

static void charge(lockst *x, uint32_t key, uint64_t w) {
  for (uint32_t i = 0; i < x->nb; i++)
    if (x->b[i].key == key) {
      x->b[i].wait += w;
      return;
    }
  x->b = otr_xrealloc(x->b, (x->nb + 1) * sizeof *x->b);
  x->b[x->nb].key = key;
  x->b[x->nb++].wait = w;
}

static void acquire(sm *s, const otr_loc *l, uint32_t lock, uint32_t order, uint64_t w0, uint64_t t,
                    uint32_t site) {
  lockst *x = get(s->locks, lock);
  uint32_t key = sm_key_of(s, site); /* OTR_NONE for an unknown site */
  if (x->label == OTR_NONE)
    x->label = key;
  if (!order) /* no order in the record: number acquisitions ourselves */
    order = ++x->seq;
  x->acq++;
  uint64_t w = t - w0;
  x->wait += w;
  if (w > x->max)
    x->max = w;
  if (site < s->d->n_regions && s->d->regions[site].cls == OTR_C_ORDERED)
    x->ordered = true;
  /* walk back over earlier holds while they still overlap the wait */
  uint64_t blamed = 0, first = 0; /* first: blamed on the previous acquisition */
  for (uint32_t k = 1; k <= RING && k < order; k++) {
    hold *h = &x->ring[(order - k) % RING];
    if (h->order != order - k)
      continue; /* that acquisition was never seen */
    uint64_t end = h->rel == UINT64_MAX || h->rel > t ? t : h->rel;
    if (end <= w0)
      break;
    if (h->loc == l->index)
      continue;
    uint64_t beg = h->acq > w0 ? h->acq : w0;
    if (end > beg) {
      charge(x, h->site, end - beg);
      blamed += end - beg;
      first += k == 1 ? end - beg : 0;
    }
  }
  /* before the previous acquirer (another thread) took the lock, less what
   * earlier holds explain (holds follow each other: all before it) */
  const hold *p = order > 1 ? &x->ring[(order - 1) % RING] : NULL;
  if (p && p->order == order - 1 && p->loc != l->index && p->acq > w0) {
    uint64_t span = (p->acq < t ? p->acq : t) - w0, earlier = blamed - first;
    x->before += span > earlier ? span - earlier : 0;
  }
  if (blamed)
    x->contended++;
  x->blamed += blamed;
  hold *h = &x->ring[order % RING];
  h->order = order, h->loc = l->index, h->site = key, h->acq = t, h->rel = UINT64_MAX;
}

static void release(sm *s, const otr_loc *l, uint32_t lock, uint32_t order, uint64_t t) {
  (void)l;
  lockst *x = get(s->locks, lock);
  if (!order)
    order = x->seq;
  hold *h = &x->ring[order % RING];
  if (h->order == order && h->rel == UINT64_MAX) {
    h->rel = t;
    x->held += t - h->acq;
  }
}

static int by_wait(const void *a, const void *b) {
  const lockst *x = *(const lockst *const *)a, *y = *(const lockst *const *)b;
  if (x->wait != y->wait)
    return x->wait < y->wait ? 1 : -1;
  return x->id < y->id ? -1 : x->id > y->id;
}

static int blame_by_wait(const void *a, const void *b) {
  const blame *x = a, *y = b;
  if (x->wait != y->wait)
    return x->wait < y->wait ? 1 : -1;
  return x->key < y->key ? -1 : x->key > y->key;
}

/* Orders locks by wait and the blame of each lock shown; the first lock,
 * when it was waited for, is the findings' lock. */
static void finish(sm *s) {
  sm_locks *k = s->locks;
  if (!k->n)
    return;
  qsort(k->l, k->n, sizeof *k->l, by_wait);
  for (uint32_t i = 0; i < sm_limit(s, k->n); i++)
    if (k->l[i]->nb > 1)
      qsort(k->l[i]->b, k->l[i]->nb, sizeof *k->l[i]->b, blame_by_wait);
  const lockst *x = k->l[0];
  if (x->wait) {
    s->facts.lock_label = sm_label(s, x->label);
    s->facts.lock_wait_ns = sm_ns(s, x->wait);
    s->facts.lock_contention = x->acq ? (double)x->contended / (double)x->acq : 0;
    s->facts.lock_ordered = x->ordered;
    s->facts.lock_before_ns = sm_ns(s, x->before);
    if (x->nb) {
      s->facts.blame_label = sm_label(s, x->b[0].key);
      s->facts.blame_ns = sm_ns(s, x->b[0].wait);
    }
  }
}

static void report_locks(sm *s, report *r) {
  sm_locks *k = s->locks;
  if (!k->n)
    return;
  rtable *t = rt_new(r, "locks", "locks", "Locks and critical sections", false);
  rt_col(t, "lock", "Lock", RV_INT);
  rt_col(t, "name", "First acquired at", RV_STR);
  rt_col(t, "acquisitions", "Acquired", RV_INT);
  rt_col(t, "wait_ns", "Wait", RV_NS);
  rt_col(t, "mean_wait_ns", "Mean wait", RV_NS);
  rt_col(t, "max_wait_ns", "Max wait", RV_NS);
  rt_col(t, "contended", "Contended", RV_INT);
  rt_col(t, "contention_share", "Contention", RV_PCT);
  rt_col(t, "held_ns", "Held", RV_NS);
  rt_col(t, "unblamed_wait_ns", "Wait, lock free", RV_NS);
  rt_col(t, "before_acquirer_ns", "Wait before previous acquirer", RV_NS);
  rtable *b = rt_new(r, "locks", "blame", "Lock wait blamed on the holder's code", false);
  rt_col(b, "lock", "Lock", RV_INT);
  rt_col(b, "holder", "Held at", RV_STR);
  rt_col(b, "wait_ns", "Wait caused", RV_NS);
  rt_col(b, "share", "Share of lock's wait", RV_PCT);
  uint32_t shown = sm_limit(s, k->n);
  bool ordered = false;
  for (uint32_t i = 0; i < shown; i++) {
    lockst *x = k->l[i];
    rt_row(t);
    rt_int(t, x->id);
    rt_str(t, sm_label(s, x->label));
    rt_int(t, (int64_t)x->acq);
    rt_ns(t, sm_ns(s, x->wait));
    rt_ns(t, sm_ns(s, x->acq ? x->wait / x->acq : 0));
    rt_ns(t, sm_ns(s, x->max));
    rt_int(t, (int64_t)x->contended);
    rt_pct(t, x->acq ? (double)x->contended / (double)x->acq : 0);
    rt_ns(t, sm_ns(s, x->held));
    rt_ns(t, sm_ns(s, x->wait - x->blamed));
    rt_ns(t, sm_ns(s, x->before));
    ordered |= x->ordered;
    for (uint32_t j = 0; j < sm_limit(s, x->nb); j++) {
      rt_row(b);
      rt_int(b, x->id);
      rt_str(b, sm_label(s, x->b[j].key));
      rt_ns(b, sm_ns(s, x->b[j].wait));
      rt_pct(b, x->wait ? (double)x->b[j].wait / (double)x->wait : 0);
    }
  }
  rt_note(t,
          "%s'Wait, lock free': waiting while no other thread held the lock (hand-over "
          "latency, descheduled waiters); part of it before the previous acquirer took the "
          "lock (another thread was first), the rest after the last release%s",
          shown < k->n ? "more locks with --top 0; " : "",
          ordered ? "; for an ordered section, before the previous acquirer took it means "
                    "the thread of the previous iteration had not reached its ordered "
                    "section yet (the loop body before it, or its own wait for its turn): "
                    "nothing is held then, and that wait is blamed on no code"
                  : "");
}

static void free_locks(sm *s) {
  sm_locks *k = s->locks;
  if (!k)
    return;
  for (uint32_t i = 0; i < k->n; i++) {
    free(k->l[i]->b);
    free(k->l[i]);
  }
  free(k->l);
  otr_idmap_free(&k->ids);
  free(k);
  s->locks = NULL;
}

const sm_analysis sm_locks_analysis = {
    .init = init,
    .hooks = {.lock_acquire = acquire, .lock_release = release},
    .finish = finish,
    .report = report_locks,
    .free = free_locks,
};
