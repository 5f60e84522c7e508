/* Allocation that reports and exits on exhaustion (one clear message rather
 * than a crash further on). */
#ifndef OMPTRACE_OTR_XALLOC_H
#define OMPTRACE_OTR_XALLOC_H

#include <stddef.h>

void *otr_xmalloc(size_t n);
void *otr_xcalloc(size_t n, size_t size);
void *otr_xrealloc(void *p, size_t n);
char *otr_xstrdup(const char *s);

#endif
