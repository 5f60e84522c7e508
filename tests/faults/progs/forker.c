/* fork() while traced: the parent runs regions before and after the fork,
 * the child (without exec) runs its own regions and exits normally. With
 * the argument "exec" the child execs echo instead; with "spin" the parent
 * then spins for 300 ms of its own CPU time (sampled, the child's exit must
 * leave its sampling as it was). */
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long sum;

static void before(void) {
  for (int r = 0; r < 4; r++) {
#pragma omp parallel num_threads(2) /* @before */
    {
#pragma omp atomic
      sum += 1;
    }
  }
}

static void in_child(void) {
  for (int r = 0; r < 3; r++) {
#pragma omp parallel num_threads(2) /* @child */
    {
#pragma omp barrier /* @childbar */
#pragma omp atomic
      sum += 10;
    }
  }
}

static void after(void) {
  for (int r = 0; r < 5; r++) {
#pragma omp parallel num_threads(2) /* @after */
    {
#pragma omp atomic
      sum += 100;
    }
  }
}

static double cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double spin(double seconds) {
  volatile double x = 0;
  for (double end = cpu_s() + seconds; cpu_s() < end;)
    for (int i = 0; i < 10000; i++)
      x += i * 0.5;
  return x;
}

int main(int argc, char **argv) {
  int do_exec = argc > 1 && !strcmp(argv[1], "exec");
  before();
  printf("parent before %ld\n", sum);
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) {
    perror("fork");
    return 2;
  }
  if (pid == 0) {
    if (do_exec) {
      execlp("echo", "echo", "child exec", (char *)NULL);
      perror("exec");
      _exit(127);
    }
    in_child();
    printf("child %d done %ld\n", (int)getpid(), sum);
    return 0;
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) {
    perror("waitpid");
    return 2;
  }
  if (argc > 1 && !strcmp(argv[1], "spin"))
    sum += spin(0.3) > 0;
  after();
  printf("parent after %ld, child status %d\n", sum, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return 0;
}
