/* Placeholder while the log format is being written: see codec.h. */
