/* Host teams: a league of two teams, a parallel region inside each team,
 * distribute over the league, and a league of one team. */
#include "common.h"
#include <omp.h>
#include <stdio.h>

int main(void) {
  double x[2] = {0.0, 0.0};
  int nteams[4] = {0, 0, 0, 0}, threads[2] = {0, 0}, iters[2] = {0, 0};
#pragma omp teams num_teams(2) /* @league */
  {
    x[omp_get_team_num()] = ot_work(1000);
    nteams[0] = omp_get_num_teams();
  }
#pragma omp teams num_teams(2) thread_limit(1) /* @league_par */
  {
#pragma omp parallel num_threads(2) /* @inner */
    threads[omp_get_team_num()] = omp_get_num_threads();
    nteams[1] = omp_get_num_teams();
  }
#pragma omp teams num_teams(2) /* @league_dist */
  {
#pragma omp distribute /* @dist */
    for (int i = 0; i < 8; i++)
      iters[omp_get_team_num()]++;
    nteams[2] = omp_get_num_teams();
  }
#pragma omp teams num_teams(1) /* @one */
  nteams[3] = omp_get_num_teams();
  printf("teams %.1f teams %d %d %d %d threads %d %d iterations %d %d\n", x[0] + x[1], nteams[0],
         nteams[1], nteams[2], nteams[3], threads[0], threads[1], iters[0], iters[1]);
  return 0;
}
