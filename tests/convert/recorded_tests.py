#!/usr/bin/python3
"""omptrace-convert on archives it did not make up: OpenMP programs traced
with libomptrace.so (tests/summary/progs, tests/sampling) and real Score-P 8.4
archives. Every output is checked with the independent format rules
(trace_rules.py); counts that follow from the program are exact (tasks
created, critical sections entered), and a sampled run's stack frames must
name the program's functions and libomp states (<OMP-...>).

usage: recorded_tests.py CONVERT SPEEDSCOPE_SCHEMA WORKDIR CASE [PROGRAM LIBOMPTRACE]
       recorded_tests.py CONVERT SPEEDSCOPE_SCHEMA WORKDIR scorep FIXTURES"""
import collections
import os
import shutil
import subprocess
import sys

import trace_rules as T

CONVERT, SCHEMA, WORK, CASE = sys.argv[1:5]
EXTRA = sys.argv[5:]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def record(prog, lib, env_extra=None):
    out = os.path.join(WORK, os.path.basename(prog))
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, OMP_TOOL_LIBRARIES=lib, OMPTRACE_OUTPUT=out, OMPTRACE_QUIET="1",
               **(env_extra or {}))
    subprocess.run([prog], env=env, check=True, timeout=300, stdout=subprocess.DEVNULL)
    if not os.path.exists(os.path.join(out, "traces.otf2")):
        sys.exit("FAIL: %s wrote no archive to %s (is %s loadable?)" % (prog, out, lib))
    return out


def both(archive):
    digests = []
    for fmt in ("chrome", "speedscope"):
        out = os.path.join(WORK, "%s.%s.json" % (os.path.basename(archive), fmt))
        p = subprocess.run([CONVERT, archive, "--to", fmt, "-o", out], capture_output=True,
                           text=True, timeout=600)
        if p.returncode:
            sys.exit("FAIL: %s %s: exit %d: %s" % (archive, fmt, p.returncode, p.stderr))
        digests.append(T.check_chrome(out) if fmt == "chrome" else
                       T.check_speedscope(out, SCHEMA))
    return digests


def slice_count(d, pred):
    return sum(1 for t in d["slices"] for s in d["slices"][t] if pred(s[0]))


def case_tiny_tasks():
    # one thread creates 400 tasks: 400 arrows from creation to first run
    dc, ds = both(record(*EXTRA))
    flows = collections.Counter(f[0] for f in dc["flows"])
    check(flows == {"task": 400}, "flows %r, want 400 task flows" % flows)
    check(len(dc["threads"]) == 2, "threads %r" % dc["threads"])
    check(len(ds["profiles"]) == 2, "speedscope profiles %r" % ds["profiles"])


def case_locks():
    # 2 threads x 5 omp_set_lock, 2 x 4 critical; thread 0 holds the lock
    # while thread 1 asks for it, so at least one arrow crosses threads
    dc, _ = both(record(*EXTRA))
    crit = slice_count(dc, lambda n: n.startswith("critical @"))
    check(crit == 8, "critical slices %d, want 8" % crit)
    locks = [f for f in dc["flows"] if f[0] == "lock"]
    check(locks and all(f[1] != f[3] for f in locks), "lock flows %r" % locks)


def case_sampled():
    # waits.c sampled at 1 kHz: critical waits show as <OMP-lock_wait> under
    # the user's critical_part(); work() is where the time goes
    dc, ds = both(record(*EXTRA, env_extra={"OMPTRACE_SAMPLING": "1kHz"}))
    check(len(dc["samples"]) > 0, "no samples")
    names = {n.split(":")[0] for _, _, p in dc["samples"] for n in p}
    for fn in ("main", "critical_part", "work"):
        check(fn in names, "%s missing from sampled stack frames %r" % (fn, sorted(names)))
    check(any(n.startswith("<OMP-") for n in names), "no <OMP-...> state in %r" % sorted(names))
    flat = {n for s in ds["sampled"] for n in s}
    check({"main", "critical_part", "work"} <= flat, "speedscope sampled frames %r" % flat)


def case_paused():
    # progs/pause.c: recording paused around the second of three parallel
    # regions: one "recording paused" interval per thread, that region absent
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "progs", "pause.c")
    lines = {tag: n for n, text in enumerate(open(src, encoding="utf-8"), 1)
             for tag in ("LINE_FIRST", "LINE_PAUSED", "LINE_LAST") if tag in text}
    dc, ds = both(record(*EXTRA))
    for tid in (0, 1):
        gaps = [x[0] for x in dc["x"][tid]]
        check(gaps == ["recording paused"], "thread %d gaps %r" % (tid, gaps))
        par = sorted(s[0] for s in dc["slices"][tid] if s[0].startswith("parallel @"))
        want = ["parallel @ pause.c:%d" % lines[k] for k in ("LINE_FIRST", "LINE_LAST")]
        check(par == want, "thread %d parallel slices %r, want %r" % (tid, par, want))
    paused = sum(1 for p in ds["opened"].values() for f, _, _ in p
                 if ds["frames"][f] == "recording paused")
    check(paused == 2, "speedscope: %d paused intervals, want 2" % paused)


def case_scorep():
    root = EXTRA[0]
    if not os.path.isdir(root):
        print("skipped: Score-P fixtures not found at %s" % root)
        sys.exit(77)
    dc, _ = both(os.path.join(root, "fib-n12"))
    tasks = sum(1 for f in dc["flows"] if f[0] == "task")
    check(tasks == 464, "fib-n12: %d task flows, want 464 tasks" % tasks)
    check(dc["threads"] == {0: "Master thread", 1: "OMP thread 1"}, "threads %r" % dc["threads"])
    dc, _ = both(os.path.join(root, "mixed-locks"))
    # mixed.c: 3 + 3 + 12 tasks; 24 critical sections and 24 omp_set_lock
    tasks = sum(1 for f in dc["flows"] if f[0] == "task")
    check(tasks == 18, "mixed-locks: %d task flows, want 18" % tasks)
    crit = slice_count(dc, lambda n: n == "!$omp critical @mixed.c:18")
    check(crit == 24, "mixed-locks: %d critical slices, want 24" % crit)
    sets = slice_count(dc, lambda n: n == "omp_set_lock")
    check(sets == 24, "mixed-locks: %d omp_set_lock slices, want 24" % sets)


def main():
    os.makedirs(WORK, exist_ok=True)
    try:
        globals()["case_" + CASE]()
    except T.RuleError as e:
        check(False, "format rule: %s" % e)
    if failures:
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
