"""Exact expectations for the gcc-built programs (tests/recorder/progs/gcc_*.c)
run on libomp's GOMP entry points, on every libomp version (gcc_run.py).

What differs from a clang build, and stays so here (docs/recording.md, "GCC
programs"): gcc runs static loops and `master` without the runtime, and
their barriers (GOMP_barrier) arrive as implementation barriers; the
recorder takes GOMP_loop_end's implementation barrier without a code
address for the loop's implicit barrier, as in a clang build
(events/sync.c); sections arrive as a loop without a code address; reductions
reach libomp only as GOMP_atomic_start (an `atomic` region) when they combine
several variables; taskloop's code addresses point into libomp (the
recorder names it after the enclosing taskgroup, gcc's call)."""

import cases


def _ordered_owners(t):
    owners = sorted((e.acquisition_order, l) for l in t.locs for e in t.events[l]
                    if type(e).__name__ == "ThreadAcquireLock")
    return [l == 0 for _, l in owners]


def check_gcc_loops(t, m):
    t.expect("locations", len(t.locs), 2)
    t.expect_kind("ThreadFork", each=[2], loc0=2)
    t.expect_enters("parallel", m["par"], each=[1, 1], loc0=1)
    t.expect_enters("parallel", m["par_for"], each=[1, 1], loc0=1)
    # dynamic, guided and ordered loops call the runtime; static ones do not
    for name in ("dynamic", "guided", "dynamic_nowait", "ordered"):
        t.expect_enters("loop", m[name], each=[1, 1])
    t.expect_enters("loop", m["par_for"], each=[1, 1])
    t.expect_enters("loop", None, each=[5, 5])
    # a static loop's barrier is GOMP_barrier, at the line before the call
    cases._barrier_pair(t, "implementation barrier", m["static_body"], [1, 1])
    t.expect_enters("implementation barrier", None, each=[1, 1])
    # GOMP_loop_end's barrier (no code address): the loop's implicit barrier
    for name in ("dynamic", "guided", "ordered"):
        cases._barrier_pair(t, "implicit barrier", m[name], [1, 1])
    cases._barrier_pair(t, "implicit barrier", m["par"], [1, 1])
    cases._barrier_pair(t, "implicit barrier", m["par_for"], [1, 1])
    t.expect_enters("implicit barrier", None, each=[5, 5])
    # libomp's GOMP_loop_ordered_static_start dispatches kmp_ord_static
    # without the chunk: iterations 0-3 on the master, then 4-7, in order
    t.expect_enters("ordered", m["ordered"], each=[4, 4])
    t.expect_enters("ordered wait", m["ordered"], each=[4, 4])
    t.expect_enters("ordered sblock", m["ordered"], each=[4, 4])
    t.expect_kind("ThreadAcquireLock", each=[4, 4])
    t.expect("ordered blocks on location 0 by acquisition order", _ordered_owners(t),
             [True] * 4 + [False] * 4)


def check_gcc_sections(t, m):
    t.expect("locations", len(t.locs), 2)
    t.expect_enters("parallel", m["par"], each=[1, 1], loc0=1)
    t.expect_enters("parallel", m["par_sections"], each=[1, 1], loc0=1)
    # GOMP_sections_start reports a loop with no code address: named after
    # the enclosing parallel region
    t.expect_enters("sections", None, total=0)
    t.expect_enters("loop", m["par"], each=[2, 2])
    t.expect_enters("loop", m["par_sections"], each=[1, 1])
    # GOMP_sections_end: an implementation barrier after the last section;
    # `nowait` and the combined construct (its parallel's barrier) have none
    cases._barrier_pair(t, "implementation barrier", m["sections_last"], [1, 1])
    t.expect_enters("implementation barrier", None, each=[1, 1])
    cases._barrier_pair(t, "implicit barrier", m["par"], [1, 1])
    cases._barrier_pair(t, "implicit barrier", m["par_sections"], [1, 1])


def _task_spans(t, site_line):
    return sorted(s for l in t.locs for s in t.spans(l, "task", site_line))


def check_gcc_tasks(t, m):
    n = 3 + 2 + 4
    t.expect_kind("ThreadTaskCreate", each=[n], total=n)
    t.expect_kind("ThreadTaskComplete", total=n)
    t.expect_enters("single", m["single"], each=[1, 1])
    t.expect_enters("single sblock", m["single"], each=[1])
    for site, count in (("dep_out", 1), ("dep_in", 1), ("dep_inout", 1), ("taskgroup", 2),
                        ("taskloop", 4)):
        t.expect_enters("task create", m[site], total=count)
        t.expect_enters("task", m[site], total=count)
    t.expect_enters("taskwait", m["taskwait"], each=[1])
    t.expect_enters("taskgroup", m["taskgroup"], each=[1])
    # GOMP_taskloop: libomp's taskloop within its implicit taskgroup, its
    # code addresses in libomp: named after the taskgroup (gcc's call)
    t.expect_enters("taskgroup", m["taskloop"], each=[1])
    t.expect_enters("taskloop", m["taskloop"], each=[1])
    t.expect_enters("taskloop", None, each=[1])
    # libomp reports depend(out) as inout, as for clang builds
    deps = {k: n for k, n in cases._params(t).items() if k.startswith("omp depend")}
    t.expect("dependence parameters", deps, {"omp depend(inout)": 2, "omp depend(in)": 1})
    out, ins, inout = (_task_spans(t, m[s]) for s in ("dep_out", "dep_in", "dep_inout"))
    if len(out) == len(ins) == len(inout) == 1:
        if ins[0][0] < out[0][1]:
            t.fail("depend(in) task starts at %d before depend(out) task ends at %d" %
                   (ins[0][0], out[0][1]))
        if inout[0][0] < ins[0][1]:
            t.fail("depend(inout) task starts at %d before depend(in) task ends at %d" %
                   (inout[0][0], ins[0][1]))
    cases._barrier_pair(t, "implicit barrier", m["par"], [1, 1])


REPS = 5  # gcc_sync.c


def check_gcc_sync(t, m):
    t.expect_enters("parallel", m["par"], each=[1, 1], loc0=1)
    for name in ("unnamed", "named"):
        t.expect_enters("critical", m[name], each=[REPS, REPS])
        t.expect_enters("critical wait", m[name], each=[REPS, REPS])
        t.expect_enters("critical sblock", m[name], each=[REPS, REPS])
    t.expect_enters("omp_set_lock", m["set"], each=[REPS, REPS])
    t.expect_enters("omp_set_nest_lock", m["nest_outer"], each=[REPS, REPS])
    t.expect_enters("omp_set_nest_lock", m["nest_inner"], each=[REPS, REPS])
    # a re-acquisition by the holder does not wait
    t.expect_enters("lock wait", m["nest_inner"], total=0)
    t.expect_enters("lock wait", None, each=[2 * REPS, 2 * REPS])
    # per thread and repetition: 2 critical sections, the lock, the nest lock once
    t.expect_kind("ThreadAcquireLock", each=[4 * REPS, 4 * REPS])
    t.expect_kind("ThreadReleaseLock", each=[4 * REPS, 4 * REPS])
    t.expect("acquisitions per lock", cases._lock_counts(t), [2 * REPS] * 4)


def check_gcc_reduction(t, m):
    t.expect_enters("parallel", m["par"], each=[1, 1], loc0=1)
    t.expect_enters("loop", m["one"], each=[1, 1])
    t.expect_enters("loop", m["two"], each=[1, 1])
    # no reduction callback: one variable is combined by an atomic
    # instruction, two between GOMP_atomic_start and GOMP_atomic_end
    t.expect_enters("reduction", None, total=0)
    t.expect_enters("atomic", m["two_body"], each=[1, 1])
    t.expect_enters("atomic wait", m["two_body"], each=[1, 1])
    t.expect_enters("atomic sblock", m["two_body"], each=[1, 1])
    t.expect_enters("atomic", None, each=[1, 1])
    t.expect("acquisitions per lock", cases._lock_counts(t), [2])
    t.expect_enters("implementation barrier", None, total=0)
    # each loop's implicit barrier (GOMP_loop_end), the second one after
    # GOMP_atomic_end (finalize/replay.c)
    cases._barrier_pair(t, "implicit barrier", m["one"], [1, 1])
    cases._barrier_pair(t, "implicit barrier", m["two"], [1, 1])
    cases._barrier_pair(t, "implicit barrier", m["par"], [1, 1])


# name -> (check, environment, exit status, complete), as cases.CASES
CASES = {
    "gcc_loops": (check_gcc_loops, {}, 0, True),
    "gcc_sections": (check_gcc_sections, {}, 0, True),
    "gcc_tasks": (check_gcc_tasks, {}, 0, True),
    "gcc_sync": (check_gcc_sync, {}, 0, True),
    "gcc_reduction": (check_gcc_reduction, {}, 0, True),
}
