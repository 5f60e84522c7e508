/* Call-site table: open addressing over 65535 slots, slot i holds the
 * codeptr whose id is i. Entries are never removed, so a key once found at
 * a probe position stays there and lookups need no lock. */
#include "core/sites.h"

#include <stdatomic.h>
#include <stdint.h>

#define OT_SITES_SLOTS 65536u /* ids 1..65535; slot 0 is "unknown" */
#define OT_SITES_MAX_PROBE 512u

static const void *_Atomic sites[OT_SITES_SLOTS];

static uint32_t slot_of(const void *key, uint32_t probe) {
  uint64_t h = (uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ull;
  return (uint32_t)(((h >> 32) + probe) % (OT_SITES_SLOTS - 1)) + 1;
}

uint32_t ot_site_id(const void *codeptr) {
  const void *key = codeptr;
  if (!key)
    return 0;
  for (uint32_t probe = 0; probe < OT_SITES_MAX_PROBE; probe++) {
    uint32_t i = slot_of(key, probe);
    const void *cur = atomic_load_explicit(&sites[i], memory_order_acquire);
    if (cur == key)
      return i;
    if (cur == NULL) {
      const void *expected = NULL;
      if (atomic_compare_exchange_strong_explicit(&sites[i], &expected, key, memory_order_acq_rel,
                                                  memory_order_acquire))
        return i;
      if (expected == key) /* another thread inserted the same site */
        return i;
    }
  }
  return 0; /* table (or this key's probe window) is full */
}
