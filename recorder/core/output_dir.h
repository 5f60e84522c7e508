/* Creating the archive directory (core/output_dir.c). */
#ifndef OMPTRACE_OUTPUT_DIR_H
#define OMPTRACE_OUTPUT_DIR_H

/* Creates ot_cfg.output (parents included) or, when it already holds an
 * archive, the first free <dir>.N; stores the absolute path back into
 * ot_cfg.output. Returns 0, or -1 after one error line. */
int ot_output_dir_create(void);
/* Tracing could not start after the directory was claimed: removes the
 * claim (<dir>/.spill) and the directory itself when nothing else is in it. */
void ot_output_dir_abandon(void);
/* mkdir -p: 0 when path is (now) a directory path that exists; -1 with
 * errno set otherwise. */
int ot_make_dirs(const char *path);

#endif
