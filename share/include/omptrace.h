/* omptrace's commands for omp_control_tool (docs/control.md). The OpenMP
 * commands (omp_control_tool_start, _pause, _flush, _end) need nothing
 * from here; these tool-specific ones (OpenMP reserves values from 64 for
 * tools) name points and regions of the program in the archive:
 *
 *   omp_control_tool(OMPTRACE_CONTROL_MARK, 0, "checkpoint");    a point
 *   omp_control_tool(OMPTRACE_CONTROL_BEGIN, 0, "solver phase"); a region
 *   omp_control_tool(OMPTRACE_CONTROL_END, 0, "solver phase");   ... ends
 *
 * arg is a NUL-terminated name (at most 120 bytes are kept); with a NULL
 * arg a nonzero modifier is the name, in decimal (Fortran's
 * omp_control_tool has no arg). Any of the four OpenMP commands takes a
 * name the same way. Without omptrace the calls return
 * omp_control_tool_notool and do nothing. Fortran: use the values. */
#ifndef OMPTRACE_H
#define OMPTRACE_H

enum { OMPTRACE_CONTROL_MARK = 64, OMPTRACE_CONTROL_BEGIN = 65, OMPTRACE_CONTROL_END = 66 };

#endif
