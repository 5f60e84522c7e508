/* The sampler's CPU-time source: a perf_event task-clock counter per
 * thread that overflows every period of the thread's own CPU time and
 * signals that thread (services/sampler_perf.c). Precise to the hrtimer,
 * unlike a POSIX CPU-time timer, which the kernel checks only at the
 * scheduler tick (4 ms at HZ=250: a 1 kHz timer then fires at 250 Hz with
 * overruns). */
#ifndef OMPTRACE_SAMPLER_PERF_H
#define OMPTRACE_SAMPLER_PERF_H

#include <signal.h>
#include <stdint.h>

/* Opens the counter of the calling thread, stopped (ot_sampler_perf_start
 * starts it), with its ring buffer in *ring (NULL where the mapping was
 * refused: then every overflow needs a re-arm by ioctl): its descriptor, or
 * -1 (perf_event_open refused: perf_event_paranoid, seccomp, no kernel
 * support). Its overflow sends signo to the thread with si_fd = the
 * descriptor and si_code POLL_IN or POLL_HUP. */
int ot_sampler_perf_open(int signo, uint64_t period_ns, void **ring);
int ot_sampler_perf_start(int fd, void *ring); /* 0, or -1 on an error */
/* signal-safe: reachable from the sampling signal handler. */
int ot_sampler_perf_is(const siginfo_t *si, int fd);
/* signal-safe: reachable from the sampling signal handler.
 * Lets the counter signal its next overflow: frees the ring's page, or
 * (without a ring) re-arms the counter. */
void ot_sampler_perf_rearm(int fd, void *ring);
/* ring: NULL to leave the mapping (a handler on another thread may still
 * read it). */
void ot_sampler_perf_close(int fd, void *ring);

#endif
