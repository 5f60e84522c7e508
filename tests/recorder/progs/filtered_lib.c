/* The filter-file tests' second source file (SCOREP_FILE_NAMES rules). */
void lib_step(void);

void lib_step(void) {
#pragma omp barrier /* @lib_barrier */
}
