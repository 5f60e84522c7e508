/* The sampling signal: installation with chaining to the program's own
 * handler, and the handler itself (services/sampler_signal.c). */
#ifndef OMPTRACE_SAMPLER_SIGNAL_H
#define OMPTRACE_SAMPLER_SIGNAL_H

#define OT_SAMPLER_SIGNAL SIGPROF

int ot_sampler_signal_install(void); /* 0 on success */
/* Re-installs the handler if the program replaced it since (its handler
 * then receives every signal that is not the tool's). */
int ot_sampler_signal_reassert(void);
/* Puts the program's handler back (SIG_IGN instead of SIG_DFL, so a
 * signal still in flight cannot kill the process). */
void ot_sampler_signal_restore(void);

#endif
