/* rankgen's shared pieces: rank archives as the MPI wrappers write them. */
#ifndef OMPTRACE_TESTS_RANKGEN_H
#define OMPTRACE_TESTS_RANKGEN_H

#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x)                                                                                      \
  do {                                                                                             \
    if ((x) != OTF2_SUCCESS) {                                                                     \
      fprintf(stderr, "rankgen: %s failed\n", #x);                                                 \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

/* DIR/rank-R/traces.otf2 opened for writing, its event files open. */
OTF2_Archive *rg_open(const char *dir, int r);
/* rankgen_skew.c: the three ranks of "rankgen DIR skew"; 0 or exit 1. */
int rg_skew(const char *dir);

#endif
