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

#include <dwarf.h>
#include <elfutils/libdw.h>
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

static const char *basename_of(const char *path) {
  const char *s = path ? strrchr(path, '/') : NULL;
  return s ? s + 1 : path;
}

/* Name of a subprogram or inlined-subroutine DIE (follows abstract origins). */
static const char *die_name(Dwarf_Die *die) {
  Dwarf_Attribute attr;
  Dwarf_Die origin;
  const char *name = dwarf_diename(die);
  if (name)
    return name;
  if (dwarf_attr_integrate(die, DW_AT_abstract_origin, &attr) && dwarf_formref_die(&attr, &origin))
    return dwarf_diename(&origin);
  return NULL;
}

static void resolve(uint64_t pc, cached *c) {
  ot_symbol *f = &c->frames[0];
  memset(c, 0, sizeof *c);
  c->n = 1;
  f->function = "??";
  Dwfl_Module *mod = dwfl ? dwfl_addrmodule(dwfl, pc) : NULL;
  if (!mod)
    return;
  Dwarf_Addr mod_lo = 0;
  const char *modname = dwfl_module_info(mod, NULL, &mod_lo, NULL, NULL, NULL, NULL, NULL);
  f->module = keep(basename_of(modname));
  GElf_Off off = 0;
  GElf_Sym sym;
  const char *fn = dwfl_module_addrinfo(mod, pc, &off, &sym, NULL, NULL, NULL);
  f->offset = fn ? off : pc - mod_lo;
  if (fn)
    f->function = keep(fn);
  /* clang emits no .debug_aranges, and this libdw then finds no CU for an
   * address: fall back to asking every CU of the module. */
  Dwarf_Addr bias = 0;
  Dwarf_Die cu_mem;
  Dwarf_Die *cu = dwfl_module_addrdie(mod, pc, &bias);
  if (!cu) {
    for (Dwarf_Die *c = NULL; (c = dwfl_module_nextcu(mod, c, &bias)) != NULL;)
      if (dwarf_haspc(c, pc - bias) > 0) {
        cu_mem = *c;
        cu = &cu_mem;
        break;
      }
  }
  Dwfl_Line *line = dwfl_module_getsrc(mod, pc);
  if (line) {
    int lineno = 0;
    const char *file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
    f->file = keep(file);
    f->line = lineno > 0 ? (uint32_t)lineno : 0;
  } else if (cu) {
    Dwarf_Line *dl = dwarf_getsrc_die(cu, pc - bias);
    int lineno = 0;
    if (dl && dwarf_lineno(dl, &lineno) == 0) {
      f->file = keep(dwarf_linesrc(dl, NULL, NULL));
      f->line = lineno > 0 ? (uint32_t)lineno : 0;
    }
  }
  /* Inline chain: innermost scope first; each inlined subroutine's call
   * site is the position in the next outer frame. */
  Dwarf_Die *scopes = NULL;
  int ns = cu ? dwarf_getscopes(cu, pc - bias, &scopes) : 0;
  if (ns > 0) {
    /* dwarf_getscopes continues with the abstract definition's scopes; the
     * concrete callers of an inlined instance come from its DIE. */
    Dwarf_Die innermost = scopes[0];
    free(scopes);
    scopes = NULL;
    ns = dwarf_getscopes_die(&innermost, &scopes);
  }
  Dwarf_Files *files = NULL;
  if (ns > 0)
    dwarf_getsrcfiles(cu, &files, NULL);
  for (int i = 0; i < ns && c->n < MAX_FRAMES; i++) {
    int tag = dwarf_tag(&scopes[i]);
    if (tag == DW_TAG_subprogram) {
      const char *name = die_name(&scopes[i]);
      if (name)
        c->frames[c->n - 1].function = keep(name);
      break;
    }
    if (tag != DW_TAG_inlined_subroutine)
      continue;
    const char *name = die_name(&scopes[i]);
    if (name)
      c->frames[c->n - 1].function = keep(name);
    Dwarf_Attribute attr;
    Dwarf_Word cfile = 0, cline = 0;
    ot_symbol *outer = &c->frames[c->n];
    *outer = c->frames[c->n - 1];
    outer->function = "??";
    if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &attr), &cfile) == 0 && files)
      outer->file = keep(dwarf_filesrc(files, cfile, NULL, NULL));
    if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &attr), &cline) == 0)
      outer->line = (uint32_t)cline;
    c->n++;
  }
  free(scopes);
  /* Inner frames of an inline chain carry the containing function's offset. */
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
    resolve(pc, c);
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
