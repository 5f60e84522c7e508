/* Checks for the unit test programs: each failed check prints one line
 * naming the source line, the case and the got/want values; ut_done()
 * prints the program's closing line and gives its exit status; ut_tmpdir()
 * makes the directory a program keeps its files in. */
#ifndef OMPTRACE_UNIT_CHECK_H
#define OMPTRACE_UNIT_CHECK_H

#include <stddef.h>
#include <stdint.h>

void ut_u64(const char *file, int line, const char *what, uint64_t got, uint64_t want);
void ut_i64(const char *file, int line, const char *what, int64_t got, int64_t want);
/* NULL compares equal only to NULL. */
void ut_str(const char *file, int line, const char *what, const char *got, const char *want);
void ut_true(const char *file, int line, const char *what, int ok);
/* A new directory /tmp/<program>.XXXXXX (mkdtemp) in dir: 0, or -1 after
 * one line on stderr. */
int ut_tmpdir(char *dir, size_t size, const char *program);
/* "<program>: N checks, all passed" or "...: N checks, M failed". */
int ut_done(const char *program);

#define CHECK_U64(what, got, want) ut_u64(__FILE__, __LINE__, (what), (got), (want))
#define CHECK_I64(what, got, want) ut_i64(__FILE__, __LINE__, (what), (got), (want))
#define CHECK_STR(what, got, want) ut_str(__FILE__, __LINE__, (what), (got), (want))
#define CHECK_TRUE(what, ok) ut_true(__FILE__, __LINE__, (what), (ok))

#endif
