/* Placeholder while the log format is being written: see meta.h. */
