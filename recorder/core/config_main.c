/* omptrace-config: prints the OMPTRACE_* variable table (text or
 * Markdown), the source of `omptrace --help` and docs/configuration.md. */
#include "core/config.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  int markdown = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--markdown") == 0) {
      markdown = 1;
    } else {
      fprintf(stderr, "usage: %s [--markdown]\n", argv[0]);
      return strcmp(argv[i], "--help") == 0 ? 0 : 2;
    }
  }
  ot_config_print_doc(stdout, markdown);
  return 0;
}
