/* ot_counters_bench: cost of counter reads per recorded event. */
#ifndef OT_COUNTERS_BENCH_H
#define OT_COUNTERS_BENCH_H

#define OT_CB_MAX_COUNTERS 4

double ot_cb_now_ns(void); /* calling thread's CPU time */
/* Child process: runs one workload, prints ns per operation. */
int ot_cb_child(const char *workload, long iters);
/* In-process PAPI_read / PAPI_read_ts cost with 1, 2, 4 SDE counters. */
void ot_cb_papi_read(int rounds);
double ot_cb_median(double *v, int n);

#endif
