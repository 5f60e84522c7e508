/* Placeholder: the flusher thread (flusher.h) replaces buffer/spill.c. */
