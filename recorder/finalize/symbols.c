/* Code addresses to source with elfutils libdw: over the live process
 * when the run was loaded by the process that recorded it, else over the
 * modules listed in the /proc/self/maps text the log saved (the files are
 * read from disk, so a dead process's addresses still resolve). Results
 * are cached per address; strings live in an intern table until
 * ot_symbols_close. */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include "finalize/symbols.h"
#include "finalize/intern.h"
#include "finalize/run.h"

#include <elfutils/libdwfl.h>
#include <inttypes.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_FRAMES 8

typedef struct cached {
  int n;
  ot_symbol frames[MAX_FRAMES];
} cached;

static Dwfl *dwfl;
static ot_intern names; /* owns every string handed out */
static ot_u64map cache; /* pc -> cached* */
static uint64_t rt_lo[4], rt_hi[4];
static int rt_n;
uint64_t ot_symbols_rt_lo, ot_symbols_rt_hi;

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
};

static const char *keep(const char *s) {
  if (!s)
    return NULL;
  uint32_t id = ot_intern_get(&names, s, (uint32_t)strlen(s), NULL);
  return id == UINT32_MAX ? NULL : ot_intern_key(&names, id);
}

static int is_runtime(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  return strncmp(base, "libomp", 6) == 0 || strncmp(base, "libiomp", 7) == 0;
}

static int find_runtime(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  (void)arg;
  if (!is_runtime(info->dlpi_name))
    return 0;
  for (int i = 0; i < info->dlpi_phnum && rt_n < 4; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
      rt_lo[rt_n] = info->dlpi_addr + ph->p_vaddr;
      rt_hi[rt_n] = rt_lo[rt_n] + ph->p_memsz;
      rt_n++;
    }
  }
  return 1;
}

/* The runtime's executable mappings from the saved maps text. */
static void runtime_from_maps(const char *maps) {
  for (const char *l = maps; l && *l && rt_n < 4;) {
    const char *nl = strchr(l, '\n');
    uint64_t lo, hi;
    char perms[8], path[512] = "";
    if (sscanf(l, "%" SCNx64 "-%" SCNx64 " %7s %*s %*s %*s %511[^\n]", &lo, &hi, perms, path) >=
            3 &&
        strchr(perms, 'x') && is_runtime(path)) {
      rt_lo[rt_n] = lo;
      rt_hi[rt_n++] = hi;
    }
    l = nl ? nl + 1 : NULL;
  }
}

/* Modules of the recorded process: the live one, or the saved maps. */
static int report_modules(const ot_run *run) {
  if (run->live)
    return dwfl_linux_proc_report(dwfl, getpid());
  if (!run->maps)
    return -1;
  FILE *f = fmemopen(run->maps, run->maps_len, "r");
  if (!f)
    return -1;
  int rc = dwfl_linux_proc_maps_report(dwfl, f);
  fclose(f);
  return rc;
}

int ot_symbols_open(const ot_run *run) {
  if (dwfl)
    return 0;
  rt_n = 0;
  if (run->maps)
    runtime_from_maps(run->maps);
  else if (run->live)
    dl_iterate_phdr(find_runtime, NULL);
  ot_symbols_rt_lo = rt_n ? UINT64_MAX : 0;
  ot_symbols_rt_hi = 0;
  for (int i = 0; i < rt_n; i++) {
    ot_symbols_rt_lo = rt_lo[i] < ot_symbols_rt_lo ? rt_lo[i] : ot_symbols_rt_lo;
    ot_symbols_rt_hi = rt_hi[i] > ot_symbols_rt_hi ? rt_hi[i] : ot_symbols_rt_hi;
  }
  dwfl = dwfl_begin(&callbacks);
  if (!dwfl)
    return -1;
  dwfl_report_begin(dwfl);
  int rc = report_modules(run);
  dwfl_report_end(dwfl, NULL, NULL);
  return rc == 0 ? 0 : -1;
}

int ot_symbols_in_runtime(uint64_t pc) {
  for (int i = 0; i < rt_n; i++)
    if (pc >= rt_lo[i] && pc < rt_hi[i])
      return 1;
  return 0;
}

static const char *keep_cb(void *ctx, const char *s) {
  (void)ctx;
  return keep(s);
}

int ot_symbols_lookup(uint64_t pc, ot_symbol *frames, int max) {
  int is_new = 0;
  uint64_t *slot = ot_u64map_put(&cache, pc, &is_new);
  cached *c = slot ? (cached *)(uintptr_t)*slot : NULL;
  cached local;
  if (!c) {
    c = slot ? malloc(sizeof *c) : NULL;
    if (!c)
      c = &local;
    c->n = ot_srcloc_resolve(dwfl, pc, c->frames, MAX_FRAMES, keep_cb, NULL);
    if (slot && c != &local)
      *slot = (uint64_t)(uintptr_t)c;
  }
  int n = c->n < max ? c->n : max;
  memcpy(frames, c->frames, (size_t)n * sizeof *frames);
  return n;
}

void ot_symbols_close(void) {
  for (uint64_t i = 0; i < cache.cap; i++)
    if (cache.used[i])
      free((void *)(uintptr_t)cache.vals[i]);
  ot_u64map_free(&cache);
  ot_intern_free(&names);
  if (dwfl)
    dwfl_end(dwfl);
  dwfl = NULL;
}
