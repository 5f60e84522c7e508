/* Optional features chosen when omptrace is configured (CMake options
 * OMPTRACE_COUNTERS, OMPTRACE_SAMPLING): whether one is built in, for
 * `omptrace --help` and for the one run-time line of a feature that is
 * not (core/features.c). */
#ifndef OMPTRACE_FEATURES_H
#define OMPTRACE_FEATURES_H

/* NULL when the variable's feature is built in (or the variable belongs to
 * no optional feature); otherwise why not, e.g. "omptrace was built without
 * PAPI". */
const char *ot_feature_missing(const char *variable);

#endif
