/* META frames of the log (format.h): "key=value\n" lines. Writing appends
 * to a caller's buffer; reading keeps the last value of each key. */
#ifndef OMPTRACE_LOG_META_H
#define OMPTRACE_LOG_META_H

#include <stddef.h>

/* Appends "key=value\n" (value's newlines replaced by blanks) at buf+*len;
 * returns -1 when it does not fit (nothing appended). */
int ot_meta_put(char *buf, size_t cap, size_t *len, const char *key, const char *value);

/* Parsed META text of a whole process file. */
typedef struct ot_meta ot_meta;
ot_meta *ot_meta_new(void);
/* Adds one frame's text (later keys override earlier ones). 0 or -1 (memory). */
int ot_meta_add(ot_meta *m, const char *text, size_t len);
/* Value of key, or NULL. */
const char *ot_meta_get(const ot_meta *m, const char *key);
void ot_meta_free(ot_meta *m);

#endif
