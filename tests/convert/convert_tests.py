#!/usr/bin/python3
"""omptrace-convert end to end: converts archives, checks the output with the
independent format checker (trace_rules.py) and compares what it shows with
what the archive holds: exact slices, flows, counters, samples and gaps of
the synthetic archives of tests/summary/gen_archive.c (their events are
listed there), exact counts after the cut options, and clear failures on bad
input.

usage: convert_tests.py CONVERT GEN_ARCHIVE SPEEDSCOPE_SCHEMA WORKDIR CASE"""
import os
import shutil
import stat
import subprocess
import sys

import trace_rules as T

CONVERT, GEN, SCHEMA, WORK, CASE = sys.argv[1:6]
failures = []
# sanitizer builds: libotf2's own leaks on a corrupt archive are not ours
ENV = dict(os.environ, LSAN_OPTIONS=":".join(filter(None, (
    os.environ.get("LSAN_OPTIONS"),
    "print_suppressions=0:suppressions=" +
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "lsan.supp")))))


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def gen(scenario, *args):
    d = os.path.join(WORK, "gen-" + scenario)
    shutil.rmtree(d, ignore_errors=True)
    subprocess.run([GEN, scenario, d] + [str(a) for a in args], check=True, timeout=120)
    return d


def convert(archive, fmt, *opts, expect_rc=0):
    out = os.path.join(WORK, "%s-%s%s.json" % (os.path.basename(archive), fmt,
                                                "".join(o.strip("-") for o in opts)))
    p = subprocess.run([CONVERT, archive, "--to", fmt, "-o", out] + list(opts),
                       capture_output=True, text=True, timeout=600, env=ENV)
    check(p.returncode == expect_rc, "%s %s: exit %d, want %d: %s"
          % (archive, fmt, p.returncode, expect_rc, p.stderr))
    return out, p.stderr


def both(archive, *opts):
    """Chrome and speedscope digests of one archive, each checked by the rules."""
    c, err_c = convert(archive, "chrome", *opts)
    s, err_s = convert(archive, "speedscope", *opts)
    dc = T.check_chrome(c)
    ds = T.check_speedscope(s, SCHEMA)
    for err, d in ((err_c, dc), (err_s, None)):
        last = err.strip().splitlines()[-1] if err.strip() else ""
        check(last.startswith("omptrace-convert: wrote ") and "bytes/event" in last,
              "final line: %r" % last)
        if d:
            check(last.split()[2] == str(d["events"]), "events in final line %r, file has %d"
                  % (last, d["events"]))
    return dc, ds, err_c


def names(d, tid):
    return sorted(s[0] for s in d["slices"][tid])


def opened(ds, profile):
    return sorted(ds["frames"][f] for f, _, _ in ds["opened"][profile])


IMB0 = sorted(["main", "parallel @ a.c:10", "parallel @ a.c:10", "loop @ a.c:12", "loop @ a.c:12",
               "implicit barrier @ a.c:12", "implicit barrier @ a.c:12",
               "implicit barrier @ a.c:10", "implicit barrier @ a.c:10"])
IMB1 = sorted(IMB0[:] + ["implicit barrier wait @ a.c:12"])
IMB1.remove("main")


def case_imbalance():
    dc, ds, _ = both(gen("imbalance"))
    check(names(dc, 0) == IMB0, "thread 0 slices %r" % names(dc, 0))
    check(names(dc, 1) == IMB1, "thread 1 slices %r" % names(dc, 1))
    check(dc["threads"] == {0: "OpenMP thread 0", 1: "OpenMP thread 1"}, "threads %r"
          % dc["threads"])
    loop = [s for s in dc["slices"][0] if s[0] == "loop @ a.c:12"]
    check([(b, e) for _, b, e, _, _ in loop] == [(101.0, 301.0), (405.0, 505.0)],
          "thread 0 loops (us) %r" % loop)
    check(loop[0][3] == {"file": "a.c", "line": 12}, "loop args %r" % (loop[0][3],))
    check(opened(ds, "OpenMP thread 0") == IMB0, "speedscope thread 0 %r"
          % opened(ds, "OpenMP thread 0"))
    check(opened(ds, "OpenMP thread 1") == IMB1, "speedscope thread 1")


def case_flows():
    dc, _, _ = both(gen("locks"))
    # lock 0 (critical) and lock 1: each release hands the lock to another thread
    want = [("lock", 0, 11.0, 1, 11.0), ("lock", 1, 16.0, 2, 16.0),
            ("lock", 0, 30.0, 1, 30.0), ("lock", 1, 34.0, 2, 34.0)]
    check(sorted(dc["flows"]) == sorted(want), "lock flows %r" % dc["flows"])
    dc, ds, _ = both(gen("tasks"))
    # four tasks created by thread 0 at 1..4 us, first run at 2, 12, 6, 10 us
    want = [("task", 0, 1.0, 1, 2.0), ("task", 0, 2.0, 1, 12.0), ("task", 0, 3.0, 0, 6.0),
            ("task", 0, 4.0, 0, 10.0)]
    check(sorted(dc["flows"]) == sorted(want), "task flows %r" % dc["flows"])
    # task 3 runs [6, 26] us, suspended while task 4 runs [10, 11]: three fragments
    tasks = [(b, e) for n, b, e, _, _ in dc["slices"][0] if n == "task @ c.c:5"]
    check(sorted(tasks) == [(6.0, 10.0), (10.0, 11.0), (11.0, 26.0)],
          "thread 0 task fragments %r" % tasks)


def case_counters():
    dc, _, _ = both(gen("counters"))
    ends = {(tid, s[0]): s[4] for tid in (0, 1) for s in dc["slices"][tid]}
    check(ends.get((0, "loop @ d.c:4")) == {"PAPI_TOT_INS": 4000, "PAPI_TOT_CYC": 2000},
          "thread 0 loop deltas %r" % ends.get((0, "loop @ d.c:4")))
    check(ends.get((1, "parallel @ d.c:3")) == {"PAPI_TOT_INS": 1020, "PAPI_TOT_CYC": 2300},
          "thread 1 parallel deltas %r" % ends.get((1, "parallel @ d.c:3")))
    ins0 = [a["value"] for _, a in dc["counters"]["PAPI_TOT_INS OpenMP thread 0"]]
    check(ins0 == [0, 50, 4050, 4100], "PAPI_TOT_INS track of thread 0 %r" % ins0)
    check(len(dc["counters"]) == 4, "counter tracks %r" % list(dc["counters"]))


def case_samples():
    dc, ds, _ = both(gen("samples"))
    check(len(dc["samples"]) == 20, "%d samples" % len(dc["samples"]))
    paths = sorted(tuple(p) for tid, _, p in dc["samples"] if tid == 1)
    want = sorted([("main:5", "compute:22")] * 4 +
                  [("main:5", "compute:22", "<OMP-lock_wait>:22")] * 6)
    check(paths == want, "thread 1 sample paths %r" % paths)
    check(len(ds["sampled"]) == 20, "speedscope sampled profile: %d samples" % len(ds["sampled"]))
    check(["main", "compute", "<OMP-lock_wait>"] in ds["sampled"], "lock-wait path missing")
    # the call-path profile of thread 1: compute opens once, the lock wait once
    cp = opened(ds, "OpenMP thread 1 call paths (samples)")
    check(cp == ["<OMP-lock_wait>", "compute", "main"], "thread 1 call-path frames %r" % cp)


def case_gap():
    dc, ds, _ = both(gen("gap"))
    check(dc["x"][0] == [("recording off", 254.0, 6000.0)], "thread 0 gap %r" % dc["x"][0])
    check(dc["x"][1] == [("recording off", 254.0, 5996.0)], "thread 1 gap %r" % dc["x"][1])
    off = [(a, b) for f, a, b in ds["opened"]["OpenMP thread 1"]
           if ds["frames"][f] == "recording off"]
    check(off == [(254000, 6250000)], "speedscope thread 1 gap %r" % off)


def case_cuts():
    arch = gen("imbalance")
    dc, ds, err = both(arch, "--threads", "1")
    check(set(dc["threads"]) == {1} and names(dc, 1) == IMB1 and not dc["slices"][0],
          "--threads 1 kept %r" % dc["threads"])
    check(ds["profiles"] == ["OpenMP thread 1"], "speedscope profiles %r" % ds["profiles"])
    check(err.strip().splitlines()[0] == "omptrace-convert: --threads 1: kept 1 of 2 threads",
          "--threads line: %r" % err)
    # window [150 us, 350 us): instance 1 cut at 150 us, main closed at 350 us
    dc, ds, err = both(arch, "--begin", "150us", "--end", "0.35ms")
    want0 = [("implicit barrier @ a.c:10", 302.0, 303.0), ("implicit barrier @ a.c:12", 301.0,
             302.0), ("loop @ a.c:12", 150.0, 301.0), ("main", 150.0, 350.0),
             ("parallel @ a.c:10", 150.0, 303.0)]
    got0 = sorted((n, b, e) for n, b, e, _, _ in dc["slices"][0])
    check(got0 == want0, "window, thread 0: %r" % got0)
    check(len(dc["slices"][1]) == 5, "window, thread 1: %r" % dc["slices"][1])
    check("--begin/--end: kept 0.000150 s to 0.000350 s" in err, "window line: %r" % err)
    # budget: 3 of the 4 enters at 2 us (1 us from the trace start), then all closed
    dc, ds, err = both(gen("nowait"), "--max-events", "3")
    check(dc["events"] == 6, "--max-events 3: %d events, want 3 opens + 3 closes" % dc["events"])
    check("--max-events 3: stopped at 0.000001 s; 3 open regions closed there" in err,
          "budget line: %r" % err)


def case_bad_input():
    bad = os.path.join(WORK, "corrupt")
    shutil.rmtree(bad, ignore_errors=True)
    os.makedirs(bad)
    with open(os.path.join(bad, "traces.otf2"), "w") as f:
        f.write("not an archive\n")
    good = gen("nowait")
    cases = [([os.path.join(WORK, "missing"), "--to", "chrome"], 1, "missing archive"),
             ([bad, "--to", "chrome"], 1, "corrupt archive"),
             ([good, "--to", "xml"], 2, "unknown --to"),
             ([good, "--to", "chrome", "-o", "/nonexistent/dir/x.json"], 1, "unwritable -o"),
             ([good, "--to", "speedscope", "-o", "/dev/full"], 1, "full output device"),
             ([good, "--to", "chrome", "--begin", "soon"], 2, "bad --begin"),
             ([good, "--to", "chrome", "--threads", "7"], 1, "thread index out of range"),
             ([good, "--to", "chrome", "--max-events", "0"], 2, "zero --max-events")]
    for args, rc, what in cases:
        p = subprocess.run([CONVERT] + args, capture_output=True, text=True, timeout=60, env=ENV)
        lines = p.stderr.strip().splitlines()
        check(p.returncode == rc, "%s: exit %d, want %d" % (what, p.returncode, rc))
        check(len(lines) >= 1 and lines[0].startswith("omptrace-convert: "),
              "%s: message %r" % (what, p.stderr))
        check(rc == 2 or len(lines) == 1, "%s: %d lines: %r" % (what, len(lines), p.stderr))
    check(not os.path.exists("/nonexistent/dir/x.json"), "output left behind")
    check(stat.S_ISCHR(os.stat("/dev/full").st_mode), "/dev/full is no longer a device")


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
