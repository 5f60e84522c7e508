/* perf_event task-clock counters as the sampler's CPU-time timers: one
 * counter per thread (user-level only where the kernel's is not allowed),
 * whose overflow signals the thread it counts. With a ring buffer of one
 * data page every overflow signals (a wake-up per record), and the handler
 * only frees the page by moving its tail: about 6 us less per signal than
 * re-arming the counter with an ioctl, which is the fallback where the
 * mapping is refused (perf_event_mlock_kb spent). */
#define _GNU_SOURCE
#include "services/sampler_perf.h"
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RING_PAGES 2 /* the header page and one data page */

int ot_sampler_perf_open(int signo, uint64_t period_ns, void **ring) {
  *ring = NULL;
  struct perf_event_attr a;
  memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_TASK_CLOCK; /* ns of this thread's CPU time */
  a.sample_period = period_ns;
  a.disabled = 1;
  a.exclude_hv = 1;
  a.wakeup_events = 1;
  /* Kernel time too where allowed (CAP_PERFMON, perf_event_paranoid <= 1):
   * libomp's waits spin through sched_yield, and a period that ends in
   * the kernel is otherwise skipped, not deferred. */
  int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) {
    a.exclude_kernel = 1;
    fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  }
  if (fd < 0)
    return -1;
  long page = sysconf(_SC_PAGESIZE);
  void *m = mmap(NULL, (size_t)(RING_PAGES * page), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (m != MAP_FAILED)
    *ring = m;
  struct f_owner_ex owner = {F_OWNER_TID, (pid_t)syscall(SYS_gettid)};
  if (fcntl(fd, F_SETFL, O_ASYNC) != 0 || fcntl(fd, F_SETSIG, signo) != 0 ||
      fcntl(fd, F_SETOWN_EX, &owner) != 0) {
    ot_sampler_perf_close(fd, *ring);
    *ring = NULL;
    return -1;
  }
  return fd;
}

/* signal-safe: reachable from the sampling signal handler. */
int ot_sampler_perf_is(const siginfo_t *si, int fd) {
  return fd >= 0 && si->si_fd == fd && (si->si_code == POLL_IN || si->si_code == POLL_HUP);
}

int ot_sampler_perf_start(int fd, void *ring) {
  return ring ? ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) : ioctl(fd, PERF_EVENT_IOC_REFRESH, 1);
}

/* signal-safe: reachable from the sampling signal handler. */
void ot_sampler_perf_rearm(int fd, void *ring) {
  if (ring) {
    struct perf_event_mmap_page *pg = ring;
    __atomic_store_n(&pg->data_tail, __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE),
                     __ATOMIC_RELEASE);
  } else {
    ioctl(fd, PERF_EVENT_IOC_REFRESH, 1);
  }
}

void ot_sampler_perf_close(int fd, void *ring) {
  if (fd >= 0) {
    ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
    close(fd);
  }
  if (ring)
    munmap(ring, (size_t)(RING_PAGES * sysconf(_SC_PAGESIZE)));
}
