#!/usr/bin/python3
"""Runs tsan_stress (a TSan build driving libomptrace.so from pthreads) and
checks its archive with python3-otf2. Fails on any ThreadSanitizer report
(the program's exit status and stderr) and on any difference from the
events the program's callbacks imply:

- every location holds whole iterations of the expected per-iteration
  event pattern (regions by construct and source line, fork sizes, teams,
  task creator and generation, lock acquisition order);
- complete: exactly the iterations each thread did;
- exit (finalize while the workers emit): at least the iterations done
  before finalize began and at most those done in all, then possibly a
  prefix of one more iteration whose open regions are closed;
- the shared lock's acquisition orders over all locations are exactly
  1..n, each release carrying its acquisition's order;
- Enter/Leave nest properly and times never decrease on a location.

usage: check_stress.py STRESS TOOL.so WORKDIR complete|exit [NAME=VALUE...]
(NAME=VALUE: extra environment for the traced run)"""

import os
import re
import shutil
import subprocess
import sys

import otf2

PROBLEMS = []


def fail(msg):
    PROBLEMS.append(msg)


def site_lines(source):
    """site_* function name -> line of its definition in the program."""
    lines = {}
    with open(source) as f:
        for number, text in enumerate(f, 1):
            m = re.match(r"static void (site_\w+)\(void\)", text)
            if m:
                lines[m.group(1)] = number
    return lines


def iteration(sites, forks, task_site):
    """The event pattern of one iteration on one location, as tuples."""
    def region(construct, site):
        return "%s @ stress.c:%d" % (construct, sites[site])

    par = region("parallel", "site_parallel")
    bar = region("barrier", "site_barrier")
    lock = region("omp_set_lock", "site_lock")
    lockw = region("lock wait", "site_lock")
    create = region("task create", task_site)
    task = region("task", task_site)
    loop = region("loop", "site_loop")
    ibar = region("implicit barrier", "site_parallel")
    seq = [("ThreadFork",)] if forks else []
    seq += [("ThreadTeamBegin",), ("Enter", par),
            ("Enter", bar), ("Leave", bar),
            ("Enter", lock), ("Enter", lockw), ("Leave", lockw), ("ThreadAcquireLock",),
            ("Leave", lock), ("ThreadReleaseLock",),
            ("Enter", create), ("ThreadTaskCreate",), ("Leave", create),
            ("ThreadTaskSwitch",), ("Enter", task), ("Leave", task), ("ThreadTaskComplete",),
            ("ThreadTaskSwitch",),
            ("Enter", loop), ("Leave", loop),
            ("Enter", ibar), ("Leave", ibar),
            ("Leave", par), ("ThreadTeamEnd",)]
    if forks:
        seq.append(("ThreadJoin",))
    return seq


def shape(ev):
    name = type(ev).__name__
    return (name, ev.region.name) if name in ("Enter", "Leave") else (name,)


def run(stress, tool, work, mode, extra):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = dict(os.environ)
    env.update({"OMPTRACE_OUTPUT": os.path.join(work, "archive"),
                "OMPTRACE_BUFFER_SIZE": "64K",  # 4 chunks of 16 KiB: a hand-off every 512 records
                "OMPTRACE_VERBOSE": "1",
                "TSAN_OPTIONS": env.get("TSAN_OPTIONS", "halt_on_error=1:exitcode=66")})
    env.update(extra)
    p = subprocess.run([stress, tool, mode], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=600)
    sys.stdout.write(p.stdout)
    sys.stdout.write(p.stderr)
    if "ThreadSanitizer" in p.stderr:
        fail("ThreadSanitizer reported a problem (see above)")
    if extra.get("OMPTRACE_WRITER_THREAD") == "on" and \
            "events written by a second thread" not in p.stderr:
        fail("the archive's events were not written by the writer thread")
    if p.returncode != 0:
        fail("tsan_stress exited with status %d" % p.returncode)
        return None, {}
    threads = {}
    for line in p.stdout.splitlines():
        f = dict(kv.split("=", 1) for kv in line.split())
        threads[f["role"]] = (int(f["iters"]), int(f["before_finalize"]))
    return os.path.join(work, "archive", "traces.otf2"), threads


def load(anchor):
    with otf2.reader.open(anchor) as r:
        d = r.definitions
        locs = sorted(d.locations, key=lambda l: l._ref)
        events = {l._ref: [] for l in locs}
        for loc, ev in r.events:
            events[loc._ref].append(ev)
        clock = d.clock_properties
        return locs, events, (clock.global_offset, clock.global_offset + clock.trace_length)


def roles(events):
    """Location -> role, from what each location's first iteration shows."""
    found = {}
    for ref, evs in events.items():
        first = evs[0] if evs else None
        if ref == 0:
            found[ref] = "main"
        elif type(first).__name__ == "ThreadTeamBegin":
            found[ref] = "pair_member"
        elif type(first).__name__ == "ThreadFork":
            found[ref] = "pair_master" if first.number_of_requested_threads == 2 else "solo"
    return found


def check_nesting_and_time(ref, evs, span):
    stack, last = [], 0
    for ev in evs:
        if ev.time < last:
            fail("location %d: time goes back at %r" % (ref, ev))
        if not span[0] <= ev.time <= span[1]:
            fail("location %d: %r outside the trace's time range" % (ref, ev))
        last = ev.time
        name = type(ev).__name__
        if name == "Enter":
            stack.append(ev.region)
        elif name == "Leave":
            if not stack or stack.pop() != ev.region:
                fail("location %d: Leave(%s) does not close the innermost region" %
                     (ref, ev.region.name))
                return
    if stack:
        fail("location %d: %d regions left open" % (ref, len(stack)))


def check_location(ref, role, evs, sites, expect_iters, partial_ok):
    """Matches evs against whole iterations; returns the iterations found."""
    forks = role != "pair_member"
    patterns = [iteration(sites, forks, "site_task_b" if i % 2 == 0 else "site_task_a")
                for i in range(2)]
    size = len(patterns[0])
    pos, k = 0, 0
    while pos + size <= len(evs) and [shape(e) for e in evs[pos:pos + size]] == patterns[k % 2]:
        it = evs[pos:pos + size]
        fork = [e for e in it if type(e).__name__ == "ThreadFork"]
        want_size = 2 if role == "pair_master" else 1
        if fork and fork[0].number_of_requested_threads != want_size:
            fail("location %d: ThreadFork of %d threads, expected %d" %
                 (ref, fork[0].number_of_requested_threads, want_size))
        # Create, switch to, complete task k+1 of this location; then back to
        # the implicit task (own location, generation 0).
        tasks = [(e.creating_thread, e.generation_number) for e in it
                 if type(e).__name__.startswith("ThreadTask")]
        if tasks != [(ref, k + 1)] * 3 + [(ref, 0)]:
            fail("location %d iteration %d: tasks (creator, generation) %r" % (ref, k, tasks))
            return k
        pos += size
        k += 1
    tail = [shape(e) for e in evs[pos:]]
    if tail and not partial_ok:
        fail("location %d (%s): %d events after %d whole iterations do not match: %r" %
             (ref, role, len(tail), k, tail[:6]))
    elif tail:
        # A prefix of the next iteration, then only the closing of its open regions.
        p = 0
        while p < len(tail) and p < size and tail[p] == patterns[k % 2][p]:
            p += 1
        rest = [t for t in tail[p:] if t[0] not in ("Leave", "ThreadTeamEnd", "ThreadReleaseLock")]
        if rest or p == size:
            fail("location %d (%s): the unfinished iteration is not a prefix plus closings: "
                 "%r" % (ref, role, tail[:size + 4]))
    lo, hi = expect_iters
    if not lo <= k <= hi:
        fail("location %d (%s): %d whole iterations, expected %s" %
             (ref, role, k, lo if lo == hi else "%d..%d" % (lo, hi)))
    return k


def check_locks(events):
    orders = []
    for ref, evs in events.items():
        held = None
        for ev in evs:
            name = type(ev).__name__
            if name == "ThreadAcquireLock":
                orders.append(ev.acquisition_order)
                held = ev.acquisition_order
            elif name == "ThreadReleaseLock":
                if ev.acquisition_order != held:
                    fail("location %d: release order %d after acquisition %r" %
                         (ref, ev.acquisition_order, held))
                held = None
            if name.startswith("Thread") and "Lock" in name and ev.lock_id != 0:
                fail("location %d: lock id %d, expected the one lock 0" % (ref, ev.lock_id))
    if sorted(orders) != list(range(1, len(orders) + 1)):
        fail("acquisition orders of the shared lock are not 1..%d" % len(orders))
    return len(orders)


def main():
    if len(sys.argv) < 5 or sys.argv[4] not in ("complete", "exit") or \
            any("=" not in a for a in sys.argv[5:]):
        sys.exit(__doc__)
    stress, tool, work, mode = sys.argv[1:5]
    extra = dict(a.split("=", 1) for a in sys.argv[5:])
    anchor, threads = run(stress, tool, work, mode, extra)
    if PROBLEMS:
        return report(0)
    if sorted(threads) != ["main", "pair_master", "pair_member", "solo"]:
        fail("tsan_stress did not report its threads: %r" % threads)
        return report(0)
    if not os.path.exists(anchor):
        fail("no archive at %s" % anchor)
        return report(0)
    sites = site_lines(os.path.join(os.path.dirname(os.path.abspath(__file__)), "stress.c"))
    locs, events, span = load(anchor)
    where = roles(events)
    if sorted(where.values()) != sorted(threads):
        fail("locations by role %r, expected one each of %r" % (where, sorted(threads)))
        return report(0)
    total = 0
    for loc in locs:
        ref, evs = loc._ref, events[loc._ref]
        total += len(evs)
        if loc.number_of_events != len(evs):
            fail("location %d: definition says %d events, read %d" %
                 (ref, loc.number_of_events, len(evs)))
        check_nesting_and_time(ref, evs, span)
        role = where[ref]
        done, before = threads[role]
        exact = mode == "complete" or role == "main"
        k = check_location(ref, role, evs, sites, (done, done) if exact else (before, done),
                           not exact)
        print("location %d: %s, %d events, %d whole iterations (done before finalize %d, "
              "in all %d)" % (ref, role, len(evs), k, before, done))
    acquisitions = check_locks(events)
    print("%d events checked, %d acquisitions of the shared lock" % (total, acquisitions))
    return report(total)


def report(total):
    for p in PROBLEMS:
        print("FAIL: " + p)
    if not PROBLEMS:
        print("ok: %d events" % total)
    return 1 if PROBLEMS else 0


if __name__ == "__main__":
    sys.exit(main())
