/* One-line messages on stderr, prefixed "omptrace: ". Not for the hot path. */
#ifndef OMPTRACE_LOG_H
#define OMPTRACE_LOG_H

void ot_info(const char *fmt, ...) __attribute__((format(printf, 1, 2))); /* unless quiet */
void ot_verbose(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));                                /* OMPTRACE_VERBOSE>=1 */
void ot_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2))); /* always */

#endif
