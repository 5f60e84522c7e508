/* Row keys: regions of one construct at one source location share a row,
 * so several region definitions of the same code (or of the same code in
 * other runs, for --compare) add up. */
#include "summary.h"

#include "xalloc.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s, otr_class c) {
  uint64_t h = 1469598103934665603ULL ^ (uint64_t)c;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

static char *label_of(const otr_region *r) {
  if (!r->file[0] || !r->line)
    return otr_xstrdup(r->name);
  const char *base = strrchr(r->file, '/');
  base = base ? base + 1 : r->file;
  size_t n = strlen(r->construct) + strlen(base) + 32;
  char *s = otr_xmalloc(n);
  snprintf(s, n, "%s @ %s:%u", r->construct, base, r->line);
  return s;
}

void sm_keys_init(sm *s) {
  uint32_t n = s->d->n_regions, cap = 16;
  while (cap < 2 * n + 2)
    cap *= 2;
  uint32_t *slot = otr_xmalloc(cap * sizeof *slot);
  memset(slot, 0xff, cap * sizeof *slot);
  s->key_of = otr_xcalloc(n, sizeof *s->key_of);
  s->keys = otr_xcalloc(n, sizeof *s->keys);
  s->nkeys = 0;
  for (uint32_t i = 0; i < n; i++) {
    const otr_region *r = &s->d->regions[i];
    char *label = label_of(r);
    uint32_t h = (uint32_t)hash(label, r->cls) & (cap - 1);
    while (slot[h] != OTR_NONE &&
           !(s->keys[slot[h]].cls == r->cls && !strcmp(s->keys[slot[h]].label, label)))
      h = (h + 1) & (cap - 1);
    if (slot[h] == OTR_NONE) {
      slot[h] = s->nkeys;
      s->keys[s->nkeys].label = label;
      s->keys[s->nkeys].cls = r->cls;
      s->nkeys++;
    } else {
      free(label);
    }
    s->key_of[i] = slot[h];
  }
  free(slot);
}

void sm_keys_relabel(sm *s) {
  for (uint32_t i = 0; i < s->d->n_regions; i++) {
    sm_key *k = &s->keys[s->key_of[i]];
    char *label = label_of(&s->d->regions[i]);
    if (strcmp(label, k->label) && strstr(k->label, "@0x")) {
      free(k->label);
      k->label = label;
    } else {
      free(label);
    }
  }
}

void sm_keys_free(sm *s) {
  for (uint32_t i = 0; i < s->nkeys; i++)
    free(s->keys[i].label);
  free(s->keys);
  free(s->key_of);
}

/* "(unknown)" for OTR_NONE */
const char *sm_label(const sm *s, uint32_t key) {
  return key < s->nkeys ? s->keys[key].label : "(unknown)";
}

bool sm_match(const sm *s, const char *label) {
  const char *p = s->o.region;
  if (!p || !*p)
    return true;
  if (strpbrk(p, "*?["))
    return fnmatch(p, label, 0) == 0;
  return strstr(label, p) != NULL;
}

uint32_t sm_limit(const sm *s, uint32_t n) {
  return s->o.top > 0 && (uint32_t)s->o.top < n ? (uint32_t)s->o.top : n;
}

uint64_t sm_ns(const sm *s, uint64_t ticks) {
  return otr_ns(s->a, ticks);
}
