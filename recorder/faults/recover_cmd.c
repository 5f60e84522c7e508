/* The omptrace-recover command, prepared at initialize: its path, an
 * environment without the tool in it, and spawn attributes. A signal
 * handler then only has to spawn it. */
#define _GNU_SOURCE /* dladdr */
#include "core/log.h"
#include "faults/faults_int.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

char ot_recover_path[4096];
char **ot_recover_envp;
posix_spawnattr_t ot_recover_attr;
/* Its stdout goes to /dev/null: the program's output stays the program's
 * (snapshot reports are in where.txt). */
static posix_spawn_file_actions_t quiet_stdout;

static int tool_var(const char *entry) {
  static const char *const drop[] = {"OMP_TOOL_LIBRARIES=", "LD_PRELOAD="};
  for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++)
    if (strncmp(entry, drop[i], strlen(drop[i])) == 0)
      return 1;
  return 0;
}

static void build_env(void) {
  size_t n = 0;
  while (environ && environ[n])
    n++;
  char **env = calloc(n + 1, sizeof *env);
  if (!env)
    return;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (!tool_var(environ[i]))
      env[k++] = strdup(environ[i]);
  ot_recover_envp = env;
}

/* The directory of libomptrace.so, from one of its own functions. */
static int library_dir(char *out, size_t size) {
  Dl_info info;
  char real[PATH_MAX];
  if (!dladdr((void *)library_dir, &info) || !info.dli_fname || !realpath(info.dli_fname, real))
    return -1;
  char *slash = strrchr(real, '/');
  if (!slash)
    return -1;
  *slash = '\0';
  return snprintf(out, size, "%s", real) < (int)size ? 0 : -1;
}

int ot_recover_prepare(void) {
  static const char *const where[] = {"", "/../bin", "/../libexec/omptrace"};
  char dir[PATH_MAX];
  ot_recover_path[0] = '\0';
  if (library_dir(dir, sizeof dir) == 0) {
    for (size_t i = 0; i < sizeof where / sizeof where[0]; i++) {
      char p[PATH_MAX + 64], real[PATH_MAX];
      snprintf(p, sizeof p, "%s%s/omptrace-recover", dir, where[i]);
      if (access(p, X_OK) == 0 && realpath(p, real)) {
        snprintf(ot_recover_path, sizeof ot_recover_path, "%s", real);
        break;
      }
    }
  }
  if (!ot_recover_path[0]) {
    ot_verbose("omptrace-recover not found next to libomptrace.so, in ../bin or "
               "../libexec/omptrace: after a signal the log is left for `omptrace recover`");
    return -1;
  }
  build_env();
  posix_spawnattr_init(&ot_recover_attr);
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&ot_recover_attr, &all);
  posix_spawnattr_setsigmask(&ot_recover_attr, &none);
  posix_spawnattr_setflags(&ot_recover_attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawn_file_actions_init(&quiet_stdout);
  posix_spawn_file_actions_addopen(&quiet_stdout, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  ot_verbose("omptrace-recover: %s", ot_recover_path);
  return 0;
}

/* signal-safe: posix_spawn of glibc (no allocation, no lock). */
pid_t ot_recover_spawn(char **argv) {
  if (!ot_recover_path[0] || !ot_recover_envp)
    return -1;
  argv[0] = ot_recover_path;
  pid_t pid;
  if (posix_spawn(&pid, ot_recover_path, &quiet_stdout, &ot_recover_attr, argv, ot_recover_envp) !=
      0)
    return -1;
  return pid;
}
