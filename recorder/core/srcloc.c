/* Code address to source with libdw (see core/srcloc.h). clang emits no
 * .debug_aranges, so the CU of an address may have to be searched; the
 * inline chain comes from the DIE scopes of the address. */
#include "core/srcloc.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct out {
  ot_symbol *frames;
  int n, max;
  ot_srcloc_keep keep;
  void *ctx;
} out;

#define KEEP(s) o->keep(o->ctx, (s))

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

/* The function a parallel region's body (clang's outlined function, named
 * after nothing in the source) was written in: of the CU's functions of
 * the same file, the last one defined before the pragma's line. */
/* DW_AT_decl_file (an index into the CU's file table) and _line of a DIE. */
static int decl_at(Dwarf_Die *d, Dwarf_Word *file, int *line) {
  Dwarf_Attribute attr;
  return dwarf_formudata(dwarf_attr(d, DW_AT_decl_file, &attr), file) == 0 &&
         dwarf_decl_line(d, line) == 0;
}

static const char *source_function(Dwarf_Die *cu, Dwarf_Addr pc) {
  Dwarf_Die d, outlined;
  int found_outlined = 0;
  for (int rc = dwarf_child(cu, &d); rc == 0 && !found_outlined; rc = dwarf_siblingof(&d, &d))
    if (dwarf_tag(&d) == DW_TAG_subprogram && dwarf_haspc(&d, pc) > 0) {
      outlined = d;
      found_outlined = 1;
    }
  Dwarf_Word file = 0, f = 0;
  int line = 0, l = 0, best = -1;
  const char *found = NULL;
  if (!found_outlined || !decl_at(&outlined, &file, &line))
    return NULL;
  for (int rc = dwarf_child(cu, &d); rc == 0; rc = dwarf_siblingof(&d, &d)) {
    const char *name = dwarf_diename(&d);
    if (dwarf_tag(&d) != DW_TAG_subprogram || !name || name[0] == '.' || !decl_at(&d, &f, &l) ||
        f != file || l > line || l <= best)
      continue;
    best = l;
    found = name;
  }
  return found;
}

static void resolve(Dwfl *dwfl, uint64_t pc, out *o) {
  ot_symbol *f = &o->frames[0];
  memset(o->frames, 0, (size_t)o->max * sizeof *o->frames);
  o->n = 1;
  f->function = "??";
  Dwfl_Module *mod = dwfl ? dwfl_addrmodule(dwfl, pc) : NULL;
  if (!mod)
    return;
  Dwarf_Addr mod_lo = 0;
  const char *modname = dwfl_module_info(mod, NULL, &mod_lo, NULL, NULL, NULL, NULL, NULL);
  f->module = KEEP(basename_of(modname));
  GElf_Off off = 0;
  GElf_Sym sym;
  const char *fn = dwfl_module_addrinfo(mod, pc, &off, &sym, NULL, NULL, NULL);
  f->offset = fn ? off : pc - mod_lo;
  if (fn)
    f->function = KEEP(fn);
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
    f->file = KEEP(file);
    f->line = lineno > 0 ? (uint32_t)lineno : 0;
  } else if (cu) {
    Dwarf_Line *dl = dwarf_getsrc_die(cu, pc - bias);
    int lineno = 0;
    if (dl && dwarf_lineno(dl, &lineno) == 0) {
      f->file = KEEP(dwarf_linesrc(dl, NULL, NULL));
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
  for (int i = 0; i < ns && o->n < o->max; i++) {
    int tag = dwarf_tag(&scopes[i]);
    if (tag == DW_TAG_subprogram) {
      const char *name = die_name(&scopes[i]);
      if (name)
        o->frames[o->n - 1].function = KEEP(name);
      break;
    }
    if (tag != DW_TAG_inlined_subroutine)
      continue;
    const char *name = die_name(&scopes[i]);
    if (name)
      o->frames[o->n - 1].function = KEEP(name);
    Dwarf_Attribute attr;
    Dwarf_Word cfile = 0, cline = 0;
    ot_symbol *outer = &o->frames[o->n];
    *outer = o->frames[o->n - 1];
    outer->function = "??";
    if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &attr), &cfile) == 0 && files)
      outer->file = KEEP(dwarf_filesrc(files, cfile, NULL, NULL));
    if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &attr), &cline) == 0)
      outer->line = (uint32_t)cline;
    o->n++;
  }
  free(scopes);
  ot_symbol *outer = &o->frames[o->n - 1];
  if (cu && outer->function && strncmp(outer->function, ".omp_outlined.", 14) == 0)
    outer->source_function = KEEP(source_function(cu, pc - bias));
  /* Inner frames of an inline chain carry the containing function's offset. */
}

int ot_srcloc_resolve(Dwfl *dwfl, uint64_t pc, ot_symbol *frames, int max, ot_srcloc_keep keep,
                      void *ctx) {
  if (max < 1)
    return 0;
  out o = {frames, 0, max, keep, ctx};
  resolve(dwfl, pc, &o);
  return o.n;
}

void ot_srcloc_region_name(char *buf, size_t len, const char *construct, uint64_t cp,
                           const ot_symbol *s, int n) {
  if (!cp)
    snprintf(buf, len, "%s", construct);
  else if (n >= 1 && s[0].file && s[0].line)
    snprintf(buf, len, "%s @ %s:%u", construct, basename_of(s[0].file), s[0].line);
  else if (n >= 1 && s[0].function && strcmp(s[0].function, "??") != 0)
    /* offset of the call site itself, so the name matches a disassembly */
    snprintf(buf, len, "%s @ %s+0x%" PRIx64, construct, s[0].function, s[0].offset + 1);
  else if (n >= 1 && s[0].module)
    snprintf(buf, len, "%s @ %s+0x%" PRIx64, construct, s[0].module, s[0].offset + 1);
  else
    snprintf(buf, len, "%s @ 0x%" PRIx64, construct, cp);
}
