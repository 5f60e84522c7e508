/* Call-site ids: a fixed-size, lock-free table mapping a codeptr to a
 * 16-bit id so a task id (64 bits) can carry its creation site. Insertion
 * uses one CAS the first time a site is seen; lookups are a hash and a
 * load. Id 0 means "unknown" (NULL codeptr or table full). */
#ifndef OMPTRACE_SITES_H
#define OMPTRACE_SITES_H

#include <stdint.h>

uint32_t ot_site_id(const void *codeptr);
const void *ot_site_codeptr(uint32_t id); /* NULL for 0 or unused ids */

#endif
