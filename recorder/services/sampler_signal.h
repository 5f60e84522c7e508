/* The sampling signal (OMPTRACE_SAMPLING_SIGNAL, a real-time signal by
 * default): installation with chaining to the program's own handler, the
 * handler itself, and whether the program took the signal over
 * (services/sampler_signal.c). */
#ifndef OMPTRACE_SAMPLER_SIGNAL_H
#define OMPTRACE_SAMPLER_SIGNAL_H

int ot_sampler_signal_install(int sig); /* 0 on success */
int ot_sampler_signal_number(void);     /* the signal installed */
/* Re-installs the handler if the program replaced it since (its handler
 * then receives every signal that is not the tool's). */
int ot_sampler_signal_reassert(void);
/* How often reassert found the handler replaced; whether it is the
 * tool's handler now. Not for the signal handler. */
unsigned ot_sampler_signal_retaken(void);
int ot_sampler_signal_is_ours(void);
/* Puts the program's handler back (SIG_IGN instead of SIG_DFL, so a
 * signal still in flight cannot kill the process). */
void ot_sampler_signal_restore(void);

#endif
