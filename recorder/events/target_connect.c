/* Whether the offload callbacks the runtime accepted can ever come: LLVM
 * 17 and later's libomptarget connects to the tool through libomp by
 * dlopen("libomp.so"), the development name, which Debian's packages keep
 * in /usr/lib/llvm-N/lib only: off the library path it connects nothing
 * and offload goes unrecorded without a word (docs/recording.md,
 * "Offload"). One line says so and names the directory to add. */
#define _GNU_SOURCE /* dl_iterate_phdr, RTLD_NOLOAD */
#include "core/log.h"
#include "events/handlers.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  int target;        /* libomptarget.so.* is loaded */
  char libomp[4096]; /* path of the libomp.so.5 loaded, "" if none */
} loaded;

static int visit(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  loaded *l = data;
  const char *base = strrchr(info->dlpi_name, '/');
  base = base ? base + 1 : info->dlpi_name;
  if (strncmp(base, "libomptarget.so", 15) == 0)
    l->target = 1;
  else if (strcmp(base, "libomp.so.5") == 0 && !l->libomp[0])
    snprintf(l->libomp, sizeof l->libomp, "%s", info->dlpi_name);
  return 0;
}

void ot_target_check_connect(void) {
  loaded l = {0, ""};
  dl_iterate_phdr(visit, &l);
  if (!l.target)
    return;
  void *h = dlopen("libomp.so", RTLD_LAZY | RTLD_NOLOAD);
  if (h) {
    dlclose(h);
    return;
  }
  char *slash = strrchr(l.libomp, '/');
  if (slash)
    *slash = '\0';
  ot_warn("offload is not recorded: libomptarget finds the OpenMP runtime as libomp.so, which is "
          "not on the library path; run with LD_LIBRARY_PATH=%s",
          l.libomp[0] ? l.libomp : "<the directory of libomp.so>");
}
