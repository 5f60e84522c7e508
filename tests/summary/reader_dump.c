/* Test helper: what the archive reader makes of an archive, one line per
 * fact, for checks against an independent reader (scorep_fixtures.py):
 *   program <name>
 *   region\t<enters>\t<class>\t<line>\t<name>   (regions entered at least once)
 *   fragments <n> tasks <completed>
 * usage: reader_dump ARCHIVE */
#include "otr.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
  uint64_t *enters;
  uint64_t fragments, completed;
} dump;

static void on_enter(void *u, const otr_loc *l, const otr_frame *f) {
  (void)l;
  ((dump *)u)->enters[f->region]++;
}

static void on_fragment(void *u, const otr_loc *l, uint64_t task, uint32_t region,
                        uint64_t active) {
  (void)l, (void)task, (void)region, (void)active;
  ((dump *)u)->fragments++;
}

static void on_complete(void *u, const otr_loc *l, uint64_t t, uint64_t task) {
  (void)l, (void)t, (void)task;
  ((dump *)u)->completed++;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: reader_dump ARCHIVE\n");
    return 2;
  }
  char err[512];
  otr_archive *a = otr_open(argv[1], err, sizeof err);
  if (!a) {
    fprintf(stderr, "reader_dump: %s\n", err);
    return 1;
  }
  const otr_defs *d = otr_defs_of(a);
  dump u = {.enters = calloc(d->n_regions + 1, sizeof *u.enters)};
  otr_visitor v = {
      .user = &u, .enter = on_enter, .task_fragment = on_fragment, .task_complete = on_complete};
  bool ok = u.enters && otr_read(a, &v, err, sizeof err);
  if (ok) {
    printf("program %s\n", d->program);
    for (uint32_t i = 0; i < d->n_regions; i++)
      if (u.enters[i])
        printf("region\t%llu\t%s\t%u\t%s\n", (unsigned long long)u.enters[i],
               otr_class_name(d->regions[i].cls), d->regions[i].line, d->regions[i].name);
    printf("fragments %llu tasks %llu\n", (unsigned long long)u.fragments,
           (unsigned long long)u.completed);
  } else {
    fprintf(stderr, "reader_dump: %s\n", u.enters ? err : "out of memory");
  }
  free(u.enters);
  otr_close(a);
  return ok ? 0 : 1;
}
