/* Three parallel regions on 2 threads; the recording is paused around the
 * second one (omp_control_tool), so each thread shows one paused interval
 * and the second region is not in the trace. */
#include <omp.h>

static volatile double sink;

static void work(void) {
  double x = 0;
  for (int i = 0; i < 1000000; i++)
    x += i * 0.5;
  sink = x;
}

int main(void) {
#pragma omp parallel num_threads(2) /* LINE_FIRST */
  work();
  omp_control_tool(omp_control_tool_pause, 0, NULL);
#pragma omp parallel num_threads(2) /* LINE_PAUSED */
  work();
  omp_control_tool(omp_control_tool_start, 0, NULL);
#pragma omp parallel num_threads(2) /* LINE_LAST */
  work();
  return 0;
}
