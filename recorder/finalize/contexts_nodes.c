/* Code addresses to calling-context nodes: one symbol lookup per distinct
 * address (inline frames included), one region per function. */
#define _GNU_SOURCE
#include "finalize/contexts.h"
#include "finalize/defs.h"
#include "finalize/regions.h"
#include "finalize/symbols.h"
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OT_CTX_MAX_INLINE 16

typedef struct entry {
  uint64_t key; /* 0 = empty */
  uint32_t first, count;
  unsigned flags;
  uint32_t value; /* construct/scl caches */
} entry;

typedef struct table {
  entry *e;
  size_t cap, n;
} table;

static table frames, scls;
static ot_ctx_node *pool;
static size_t pool_n, pool_cap;
static uintptr_t self_lo, self_hi; /* this tool's text */

static uint64_t hash64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  return k;
}

static entry *find(table *t, uint64_t key, int *fresh) {
  if (t->n * 2 >= t->cap) {
    size_t ncap = t->cap ? t->cap * 2 : 1024;
    entry *ne = calloc(ncap, sizeof *ne);
    if (!ne)
      return NULL;
    for (size_t i = 0; i < t->cap; i++) {
      if (!t->e[i].key)
        continue;
      size_t j = hash64(t->e[i].key) & (ncap - 1);
      while (ne[j].key)
        j = (j + 1) & (ncap - 1);
      ne[j] = t->e[i];
    }
    free(t->e);
    t->e = ne;
    t->cap = ncap;
  }
  size_t j = hash64(key) & (t->cap - 1);
  while (t->e[j].key && t->e[j].key != key)
    j = (j + 1) & (t->cap - 1);
  *fresh = !t->e[j].key;
  if (*fresh) {
    t->e[j].key = key;
    t->n++;
  }
  return &t->e[j];
}

static int find_self(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  uintptr_t me = *(const uintptr_t *)arg;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
      continue;
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
    if (me >= lo && me < hi) {
      self_lo = lo;
      self_hi = hi;
      return 1;
    }
  }
  return 0;
}

static int in_self(uint64_t pc) {
  if (!self_hi) {
    uintptr_t me = (uintptr_t)&find_self;
    dl_iterate_phdr(find_self, &me);
  }
  return pc >= self_lo && pc < self_hi;
}

static int starts_with(const char *s, const char *p) {
  return s && !strncmp(s, p, strlen(p));
}

static uint32_t scl_of(const ot_symbol *s) {
  if (!s->file || !s->line)
    return OTF2_UNDEFINED_SOURCE_CODE_LOCATION;
  return ot_defs_source_location(s->file, s->line);
}

int ot_ctx_frame_nodes(uint64_t pc, int exact, const ot_ctx_node **nodes, unsigned *flags) {
  int fresh;
  entry *e = find(&frames, (pc << 1) | (exact ? 1 : 0), &fresh);
  if (!e) {
    *flags = OT_FRAME_RUNTIME;
    return 0;
  }
  if (fresh) {
    ot_symbol sym[OT_CTX_MAX_INLINE];
    int n = ot_symbols_lookup(exact ? pc : pc - 1, sym, OT_CTX_MAX_INLINE);
    if (n < 1)
      n = 0;
    if (pool_n + (size_t)n > pool_cap) {
      size_t ncap = pool_cap ? pool_cap * 2 : 4096;
      while (ncap < pool_n + (size_t)n)
        ncap *= 2;
      ot_ctx_node *np = realloc(pool, ncap * sizeof *np);
      if (!np)
        n = 0;
      else {
        pool = np;
        pool_cap = ncap;
      }
    }
    int runtime = ot_symbols_in_runtime(pc) || in_self(pc);
    e->flags = runtime ? OT_FRAME_RUNTIME : 0;
    e->first = (uint32_t)pool_n;
    e->count = (uint32_t)n;
    for (int k = 0; k < n; k++) {
      char buf[512];
      const char *name = sym[k].function;
      if (!name || !strcmp(name, "??")) {
        if (runtime)
          name = "[OpenMP runtime]";
        else {
          snprintf(buf, sizeof buf, "[%s]", sym[k].module ? sym[k].module : "unknown");
          name = buf;
        }
      }
      pool[pool_n].region = ot_defs_region(name, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_SAMPLING,
                                           sym[k].file, 0, 0);
      pool[pool_n].scl = scl_of(&sym[k]);
      pool_n++;
    }
    /* An outlined body may be inlined into its unnamed wrapper: the
     * first outlined symbol of the chain and all outer ones are the body. */
    for (int k = 0; k < n; k++) {
      const char *f = sym[k].function;
      if (starts_with(f, ".omp_outlined") || starts_with(f, ".omp_task_entry")) {
        e->flags |= OT_FRAME_OUTLINED;
        e->count = (uint32_t)k + 1;
        break;
      }
    }
    if (n > 0 && sym[n - 1].function && !strcmp(sym[n - 1].function, "main"))
      e->flags |= OT_FRAME_MAIN;
  }
  *flags = e->flags;
  *nodes = pool + e->first;
  return (int)e->count;
}

uint32_t ot_ctx_codeptr_scl(uint64_t codeptr) {
  if (!codeptr)
    return OTF2_UNDEFINED_SOURCE_CODE_LOCATION;
  int fresh;
  entry *e = find(&scls, codeptr, &fresh);
  if (!e)
    return OTF2_UNDEFINED_SOURCE_CODE_LOCATION;
  if (fresh) {
    ot_symbol sym[OT_CTX_MAX_INLINE];
    int n = ot_symbols_lookup(codeptr - 1, sym, OT_CTX_MAX_INLINE);
    e->value = n >= 1 ? scl_of(&sym[0]) : OTF2_UNDEFINED_SOURCE_CODE_LOCATION;
  }
  return e->value;
}

uint32_t ot_ctx_construct_region(const char *construct, uint64_t codeptr) {
  /* The writer's own region for the construct, so samples and events
   * name the same region. */
  enum ot_construct c = !strcmp(construct, "task")          ? OC_TASK
                        : !strcmp(construct, "untied task") ? OC_UNTIED_TASK
                                                            : OC_PARALLEL;
  return ot_region(c, codeptr);
}

uint32_t ot_ctx_pseudo_region(const char *name) {
  return ot_defs_region(name, OTF2_REGION_ROLE_ARTIFICIAL, OTF2_PARADIGM_OPENMP, NULL, 0, 0);
}

void ot_ctx_nodes_reset(void) {
  free(frames.e);
  free(scls.e);
  free(pool);
  memset(&frames, 0, sizeof frames);
  memset(&scls, 0, sizeof scls);
  pool = NULL;
  pool_n = pool_cap = 0;
}
