/* Call-site ids: a fixed-size, lock-free table mapping a codeptr to a
 * 16-bit id so a task id (64 bits) can carry its creation site. Insertion
 * uses one CAS the first time a site is seen; lookups are a hash and a
 * load. Id 0 means "unknown" (NULL codeptr or table full). */
#ifndef OMPTRACE_SITES_H
#define OMPTRACE_SITES_H

#include <stdint.h>

/* The code pointer of an id is in the log: each TASK_CREATE record carries
 * both (finalize/scan.c rebuilds the table from them). */
uint32_t ot_site_id(const void *codeptr);

#endif
