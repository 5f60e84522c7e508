#!/usr/bin/python3
"""omptrace-summary on generated archives whose every figure is known:
exact numbers in --format json, schema validity, other formats, options,
--compare, and one clear error (exit 1) for bad input.

usage: check_summary.py SUMMARY GENERATOR SCHEMA WORKDIR [GROUP]"""
import csv
import io
import json
import os
import re
import resource
import shutil
import subprocess
import sys

from schema_check import validate

SUMMARY, GEN, SCHEMA_PATH, WORK = sys.argv[1:5]
GROUP = sys.argv[5] if len(sys.argv) > 5 else "all"
SCHEMA = json.load(open(SCHEMA_PATH))
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def eq(got, want, what):
    ok = abs(got - want) <= 1e-9 * max(1.0, abs(want)) if isinstance(want, float) else got == want
    check(ok, "%s: got %r, want %r" % (what, got, want))


def gen(scenario, *args):
    d = os.path.join(WORK, scenario + "".join("-" + str(a) for a in args))
    shutil.rmtree(d, ignore_errors=True)
    subprocess.run([GEN, scenario, d] + [str(a) for a in args], check=True)
    return d


# libotf2 leaks on a failed open; keep LeakSanitizer (when built in) quiet on that.
ENV = dict(os.environ, LSAN_OPTIONS="print_suppressions=0:suppressions=" + os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "lsan.supp"))


def run(*args):
    return subprocess.run([SUMMARY] + list(args), capture_output=True, text=True, timeout=120,
                          env=ENV)


def summary_json(path, *opts):
    p = run("--format", "json", *opts, path)
    check(p.returncode == 0, "%s: exit %d: %s" % (path, p.returncode, p.stderr))
    doc = json.loads(p.stdout)
    for e in validate(doc, SCHEMA):
        check(False, "%s: schema: %s" % (path, e))
    return doc


def rows(table, key):
    return {r[key]: r for r in table}


def test_imbalance():
    d = gen("imbalance")
    j = summary_json(d, "--threads")
    o = j["overview"]["run"]
    eq(o["threads"], 2, "threads")
    eq(o["wall_ns"], 707000, "wall")
    eq(o["events"], 48, "events")
    eq(o["serial_ns"], 300000, "serial")
    eq(o["serial_share"], 300000 / 707000, "serial share")
    t0, t1 = j["threads"]["threads"]
    for k, v in dict(work_ns=300000, implicit_barrier_ns=103000, wait_ns=103000,
                     fork_join_ns=4000, serial_ns=300000, idle_ns=0).items():
        eq(t0[k], v, "thread 0 " + k)
    for k, v in dict(work_ns=299000, implicit_barrier_ns=104000, wait_ns=104000,
                     fork_join_ns=0, serial_ns=0, idle_ns=304000).items():
        eq(t1[k], v, "thread 1 " + k)
    regs = j["regions"]["regions"]
    eq([r["region"] for r in regs], ["parallel @ a.c:10", "loop @ a.c:12"], "region order")
    p, lp = regs
    for k, v in dict(kind="parallel", instances=2, total_ns=403000, mean_ns=201500,
                     min_ns=201000, max_ns=202000, busy_ns=599000, gain_ns=99500,
                     barrier_wait_ns=4000, barrier_wait_per_thread_ns=[2000, 2000]).items():
        eq(p[k], v, "parallel " + k)
    eq(p["imbalance"], 99500 / 399000, "parallel imbalance")
    for k, v in dict(kind="loop", instances=2, total_ns=399000, mean_ns=199500, min_ns=199000,
                     max_ns=200000, busy_ns=599000, gain_ns=99500, barrier_wait_ns=203000,
                     barrier_wait_per_thread_ns=[101000, 102000]).items():
        eq(lp[k], v, "loop " + k)
    eq(lp["imbalance"], 99500 / 399000, "loop imbalance")
    per = {(r["region"], r["thread"]): r for r in j["regions"]["threads"]}
    eq(per[("loop @ a.c:12", 0)]["busy_ns"], 300000, "loop busy thread 0")
    eq(per[("loop @ a.c:12", 1)]["busy_ns"], 299000, "loop busy thread 1")
    texts = [f["text"] for f in j["findings"]["findings"]]
    check(any("serial" in t and "42%" in t for t in texts), "serial finding: %r" % texts)
    check(any(t.startswith("parallel @ a.c:10 is imbalanced") for t in texts),
          "imbalance finding: %r" % texts)
    # options: --region filters, --top limits
    j2 = summary_json(d, "--region", "loop*")
    eq([r["region"] for r in j2["regions"]["regions"]], ["loop @ a.c:12"], "--region glob")
    j3 = summary_json(d, "--top", "1")
    eq(len(j3["regions"]["regions"]), 1, "--top 1")
    # text and csv carry the same figures
    txt = run(d).stdout
    check("Run overview" in txt and "loop @ a.c:12" in txt and "99.5 us" in txt,
          "text output:\n" + txt)
    out = run("--format", "csv", d).stdout
    blocks = {b.split("\n", 1)[0]: b.split("\n", 1)[1] for b in out.strip().split("\n\n")}
    check("# regions.regions" in blocks, "csv blocks: %r" % list(blocks))
    rr = list(csv.DictReader(io.StringIO(blocks["# regions.regions"])))
    eq(rr[1]["region"], "loop @ a.c:12", "csv region")
    eq(rr[1]["gain_ns"], "99500", "csv gain")
    eq(rr[1]["barrier_wait_per_thread_ns"], "101000;102000", "csv list")


def test_nowait():
    """The end-of-parallel barrier after a nowait loop is the region's, found
    by the barrier's source line, not the loop's."""
    d = gen("nowait")
    j = summary_json(d, "--threads")
    regs = rows(j["regions"]["regions"], "region")
    eq(regs["loop @ a.c:12"]["barrier_wait_ns"], 0, "nowait loop barrier wait")
    eq(regs["parallel @ a.c:10"]["barrier_wait_ns"], 52000, "parallel barrier wait")
    eq(regs["parallel @ a.c:10"]["barrier_wait_per_thread_ns"], [1000, 51000],
       "parallel barrier wait per thread")


def test_locks():
    j = summary_json(gen("locks"))
    th = j["threads"]["threads"]
    want = [dict(work_ns=29000, implicit_barrier_ns=10000, lock_ns=0, critical_ns=0,
                 fork_join_ns=1000, idle_ns=0),
            dict(work_ns=15000, implicit_barrier_ns=6000, lock_ns=9000, critical_ns=9000,
                 idle_ns=1000),
            dict(work_ns=9000, implicit_barrier_ns=5000, lock_ns=12000, critical_ns=13000,
                 idle_ns=1000)]
    for i, w in enumerate(want):
        for k, v in w.items():
            eq(th[i][k], v, "thread %d %s" % (i, k))
    locks = j["locks"]["locks"]
    eq([(x["lock"], x["name"]) for x in locks],
       [(0, "critical @ b.c:7"), (1, "omp_set_lock @ b.c:20")], "locks")
    for x, (wait, mx, held, mean) in zip(locks, [(22000, 13000, 17000, 7333),
                                                 (21000, 12000, 15000, 7000)]):
        eq(x["acquisitions"], 3, "acquisitions")
        eq(x["wait_ns"], wait, "lock wait")
        eq(x["max_wait_ns"], mx, "lock max wait")
        eq(x["held_ns"], held, "lock held")
        eq(x["mean_wait_ns"], mean, "lock mean wait")
        eq(x["contended"], 2, "contended")
        eq(x["contention_share"], 2 / 3, "contention share")
        eq(x["unblamed_wait_ns"], 0, "wait while the lock was free")
    eq([(b["lock"], b["holder"], b["wait_ns"]) for b in j["locks"]["blame"]],
       [(0, "critical @ b.c:7", 22000), (1, "omp_set_lock @ b.c:20", 17000),
        (1, "omp_set_lock @ b.c:30", 4000)], "blame")


def test_ordered():
    """An ordered section taken in iteration order by 2 threads (gen_archive
    ordered): the wait while the previous iteration's section ran is blamed
    on it; the wait before the previous iteration's thread reached its
    ordered section is no holding: it is before_acquirer_ns, and the
    finding says so."""
    d = gen("ordered")
    j = summary_json(d)
    x = j["locks"]["locks"]
    eq([(k["lock"], k["name"]) for k in x], [(0, "ordered @ o.c:5")], "locks")
    if x:
        got = {k: x[0][k] for k in ("acquisitions", "wait_ns", "max_wait_ns", "contended",
                                      "held_ns", "unblamed_wait_ns", "before_acquirer_ns")}
        eq(got, dict(acquisitions=4, wait_ns=3100, max_wait_ns=1500, contended=2, held_ns=4800,
                     unblamed_wait_ns=1300, before_acquirer_ns=600), "ordered lock")
    eq([(b["lock"], b["holder"], b["wait_ns"]) for b in j["locks"]["blame"]],
       [(0, "ordered @ o.c:5", 1800)], "blame")
    text = run(d).stdout
    want = ("The ordered section first taken at ordered @ o.c:5 was contended in 50% of its "
            "acquisitions and cost 3.1 us of waiting; 1.8 us of it while the previous "
            "iteration's ordered section ran (ordered @ o.c:5), 600 ns before the thread of "
            "the previous iteration had reached its ordered section")
    check(want in text, "ordered finding: %r not in\n%s" % (want, text))
    check("for an ordered section, before the previous acquirer took it means" in text,
          "the locks note on ordered sections")


def test_tasks():
    j = summary_json(gen("tasks"))
    s = j["tasks"]["summary"]
    for k, v in dict(count=4, total_ns=58000, mean_ns=14500, median_ns=10000, p99_ns=28000,
                     min_ns=1000, max_ns=28000, quantiles="exact", created=4,
                     create_total_ns=4000, create_mean_ns=1000, dependences=2,
                     tasks_with_dependences=2).items():
        eq(s[k], v, "tasks " + k)
    eq(s["other_thread_share"], 0.5, "other thread share")
    h = j["tasks"]["histogram"]
    eq([x["count"] for x in h], [0, 1, 3, 0, 0, 0, 0], "histogram counts")
    eq([x["total_ns"] for x in h], [0, 1000, 57000, 0, 0, 0, 0], "histogram times")
    eq([(c["region"], c["count"], c["total_ns"], c["max_ns"]) for c in j["tasks"]["constructs"]],
       [("task @ c.c:5", 4, 58000, 28000)], "task constructs")
    eq(sorted((x["kind"], x["count"]) for x in j["tasks"]["dependences"]),
       [("in", 1), ("inout", 1)], "dependences")
    t0, t1 = j["threads"]["threads"]
    for k, v in dict(work_ns=21000, taskwait_ns=15000, implicit_barrier_ns=1000,
                     task_create_ns=4000).items():
        eq(t0[k], v, "thread 0 " + k)
    for k, v in dict(work_ns=39000, implicit_barrier_ns=2000, taskwait_ns=0).items():
        eq(t1[k], v, "thread 1 " + k)


def test_counters():
    j = summary_json(gen("counters"), "--threads")
    regs = j["counters"]["regions"]
    eq([r["region"] for r in regs], ["parallel @ d.c:3", "loop @ d.c:4"], "counter rows")
    eq((regs[0]["PAPI_TOT_INS"], regs[0]["PAPI_TOT_CYC"]), (5120, 4700), "parallel counters")
    eq(regs[0]["ipc"], 5120 / 4700, "parallel IPC")
    eq((regs[1]["PAPI_TOT_INS"], regs[1]["PAPI_TOT_CYC"]), (5000, 4000), "loop counters")
    eq(regs[1]["ipc"], 1.25, "loop IPC")
    th = j["counters"]["threads"]
    eq([(t["thread"], t["PAPI_TOT_INS"], t["PAPI_TOT_CYC"]) for t in th],
       [(0, 4100, 2400), (1, 1020, 2300)], "thread counters")
    per = {(r["region"], r["thread"]): r for r in j["counters"]["region_threads"]}
    eq(per[("loop @ d.c:4", 0)]["ipc"], 2.0, "loop IPC thread 0")
    eq(per[("loop @ d.c:4", 1)]["ipc"], 0.5, "loop IPC thread 1")


def test_samples():
    j = summary_json(gen("samples"))
    s = j["samples"]["summary"]
    for k, v in dict(samples=20, period_ns=1000000, work_samples=12, wait_samples=7,
                     overhead_samples=1, time_ns=20000000).items():
        eq(s[k], v, "samples " + k)
    eq(s["wait_share"], 0.35, "wait share")
    eq([(p["samples"], p["work"], p["wait"], p["overhead"], p["path"])
        for p in j["samples"]["paths"]],
       [(9, 9, 0, 0, "main:5 > compute:22"),
        (6, 0, 6, 0, "main:5 > compute:22 > <OMP-lock_wait>:22"),
        (3, 3, 0, 0, "main:5 > compute:23"),
        (1, 0, 1, 0, "main:5 > <OMP-implicit_barrier>:10"),
        (1, 0, 0, 1, "main:5 > <OMP-overhead>:10")], "call paths")
    eq([(f["function"], f["line"], f["samples"], f["work"], f["wait"], f["overhead"])
        for f in j["samples"]["flat"]],
       [("compute", 22, 15, 9, 6, 0), ("compute", 23, 3, 3, 0, 0), ("main", 5, 2, 0, 1, 1)],
       "flat")


def test_scorep():
    j = summary_json(gen("scorep"))
    regs = rows(j["regions"]["regions"], "region")
    p, f = regs["parallel @ f.c:3"], regs["for @ f.c:5"]
    eq((p["gain_ns"], p["busy_ns"], p["barrier_wait_per_thread_ns"]), (12500, 55000, [5000, 1000]),
       "scorep parallel")
    eq((f["kind"], f["total_ns"], f["busy_ns"], f["gain_ns"], f["barrier_wait_per_thread_ns"]),
       ("loop", 31000, 40000, 10000, [1000, 21000]), "scorep loop")
    eq(f["imbalance"], 1 / 3, "scorep loop imbalance")
    t1 = j["threads"]["threads"][1]
    eq((t1["work_ns"], t1["lock_ns"], t1["implicit_barrier_ns"]), (15000, 9000, 22000),
       "scorep thread 1")
    lk = j["locks"]["locks"][0]
    eq((lk["name"], lk["acquisitions"], lk["wait_ns"], lk["contended"]),
       ("omp_set_lock", 2, 9000, 1), "scorep lock")
    eq([(b["holder"], b["wait_ns"]) for b in j["locks"]["blame"]], [("omp_set_lock", 9000)],
       "scorep blame")


def test_compare():
    runs = [gen("degrade", n) for n in (4, 1, 2)]  # any order on the command line
    p = run("--format", "json", "--compare", *runs)
    check(p.returncode == 0, "compare exit %d: %s" % (p.returncode, p.stderr))
    j = json.loads(p.stdout)
    for e in validate(j, SCHEMA):
        check(False, "compare schema: " + e)
    eq([r["threads"] for r in j["compare"]["runs"]], [1, 2, 4], "compare runs")
    regs = j["compare"]["regions"]
    eq(regs[0]["region"], "parallel @ g.c:20", "worst region first")
    r = rows(regs, "region")
    g20, g10, g30 = r["parallel @ g.c:20"], r["parallel @ g.c:10"], r["parallel @ g.c:30"]
    eq(g20["time_ns"], [100000, 200000, 400000], "g.c:20 times")
    eq(g20["degradation_ranks"], [2, 4], "g.c:20 ranks")
    eq(g20["min_degradation_rank"], 2, "g.c:20 min rank")
    eq(g20["strength_ns"], [0, 200000, 400000], "g.c:20 strength")
    eq(g20["max_strength_ns"], 400000, "g.c:20 max strength")
    eq(g10["speedup"], [1, 2, 4], "g.c:10 speedup")
    eq(g10["efficiency"], [1, 1, 1], "g.c:10 efficiency")
    eq(g10["degradation_ranks"], [], "g.c:10 ranks")
    eq(g10["min_degradation_rank"], None, "g.c:10 min rank")
    eq(g30["efficiency"], [1, 0.5, 0.25], "g.c:30 efficiency")
    eq(g30["degradation_ranks"], [], "g.c:30 ranks")
    txt = run("--compare", *runs).stdout
    check("parallel @ g.c:20 gets slower with more threads" in txt, "compare text:\n" + txt)
    # Equal thread counts keep their command-line order, and a finding compares
    # with a run of fewer threads, not with a faster run of as many threads.
    fast2, slow2, one = gen("degrade", 2, 25), gen("degrade", 2, 200), gen("degrade", 1)
    p = run("--format", "json", "--compare", fast2, slow2, one)
    check(p.returncode == 0, "compare exit %d: %s" % (p.returncode, p.stderr))
    j = json.loads(p.stdout)
    eq([r["archive"] for r in j["compare"]["runs"]], [one, fast2, slow2], "equal counts: order")
    g20 = rows(j["compare"]["regions"], "region")["parallel @ g.c:20"]
    eq((g20["time_ns"], g20["degradation_ranks"]), ([100000, 50000, 400000], [2]), "g.c:20 ranks")
    eq([f["text"] for f in j["findings"]["findings"]],
       ["parallel @ g.c:20 gets slower with more threads: 100 us at 1 thread, 400 us at 2 "
        "threads."], "equal counts: finding")


def test_idle_location():
    d = gen("idle_location")
    j = summary_json(d)
    eq(j["overview"]["run"]["threads"], 2, "threads with events")
    eq(len(j["threads"]["threads"]), 3, "rows for all locations")
    eq(j["threads"]["threads"][2]["idle_ns"], 1000, "location without events is idle")
    os.remove(os.path.join(d, "traces", "2.evt"))  # no events: no file needed
    j = summary_json(d)
    eq(j["overview"]["run"]["threads"], 2, "threads, without the empty event file")
    os.remove(os.path.join(d, "traces", "1.evt"))  # events defined but missing: an error
    p = run(d)
    check(p.returncode == 1 and "OpenMP thread 1" in p.stderr, "missing event file: %r" % p.stderr)


def test_deep():
    j = summary_json(gen("deep"))
    t = j["threads"]["threads"][0]
    eq((t["work_ns"], t["explicit_barrier_ns"], t["wait_ns"]), (43000, 10000, 10000), "deep thread")
    r = j["regions"]["regions"][0]
    eq((r["region"], r["total_ns"], r["busy_ns"], r["barrier_wait_per_thread_ns"]),
       ("parallel @ k.c:3", 53000, 43000, [10000]), "deep region")


def test_errors():
    def bad(args, msg, code=1):
        p = run(*args)
        check(p.returncode == code, "%r: exit %d, want %d" % (args, p.returncode, code))
        lines = p.stderr.strip().splitlines()
        check(len(lines) == 1 and msg in lines[0], "%r: stderr %r, want %r" % (args, p.stderr, msg))
    bad([os.path.join(WORK, "does-not-exist")], "No such file")
    empty = os.path.join(WORK, "empty-dir")
    os.makedirs(empty, exist_ok=True)
    bad([empty], "no OTF2 archive")
    junk = os.path.join(WORK, "junk.otf2")
    open(junk, "w").write("not an archive\n")
    bad([junk], "not a readable OTF2 archive")
    bad([gen("noomp")], "no OpenMP records")
    bad(["--format", "xml", junk], "unknown format", 2)
    bad(["--compare", junk], "at least two", 2)
    for top in ("", "x", "-1", "99999999999"):
        bad(["--top", top, junk], "--top needs a number", 2)
    for tol in ("", "nan", "-5"):
        bad(["--compare", "--tolerance", tol, junk, junk], "--tolerance needs a percentage", 2)
    with open("/dev/full", "w") as full:  # the report cannot be written
        p = subprocess.run([SUMMARY, gen("imbalance")], stdout=full, stderr=subprocess.PIPE,
                           text=True, timeout=120, env=ENV)
    check(p.returncode == 1 and p.stderr.count("\n") == 1 and "cannot write" in p.stderr,
          "/dev/full: exit %d, stderr %r" % (p.returncode, p.stderr))
    p = run("--help")
    check(p.returncode == 0 and "--compare" in p.stdout, "--help")
    p = run("--version")
    check(p.returncode == 0 and p.stdout.startswith("omptrace-summary "), "--version")


def one_line_error(p, msg, what):
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 1, "%s: exit %d, want 1" % (what, p.returncode))
    check(len(lines) == 1 and lines[0].startswith("omptrace-summary: ") and msg in lines[0],
          "%s: stderr %r, want one line with %r" % (what, p.stderr, msg))
    check(p.stdout == "", "%s: stdout %r, want nothing" % (what, p.stdout[:200]))


def text_gap_records(txt):
    """(the overview's "Records lost in gaps" value, the gap table's
    "Records lost" column) of a text report."""
    total = re.search(r"^  Records lost in gaps +(.+)$", txt, re.M)
    lines = txt.split("Measurement gaps (records missing)\n", 1)[-1].split("\n")
    head, col = lines[0], []
    start = head.find("Records lost")
    for line in lines[1:]:
        if not line.startswith("  ") or line.startswith("  ("):
            break
        col.append(line[:start + len("Records lost")].split()[-1])
    return total.group(1) if total else None, col


def csv_gap_records(d):
    """(overview.run lost_records, overview.gaps rows) of the CSV report."""
    out = run("--format", "csv", d).stdout
    blocks = {b.split("\n", 1)[0]: b.split("\n", 1)[1] for b in out.strip().split("\n\n")}
    o = list(csv.DictReader(io.StringIO(blocks.get("# overview.run", ""))))
    g = list(csv.DictReader(io.StringIO(blocks.get("# overview.gaps", ""))))
    return (o[0]["lost_records"] if o else None,
            [(r["thread"], r["start_ns"], r["duration_ns"], r["lost_records"]) for r in g])


def test_gap():
    """Records lost between MeasurementOnOff(OFF) and (ON): the gaps are listed
    and left out of every figure; no finding blames them (the open fork of
    thread 0 used to turn 6 ms of gap into fork/join time)."""
    d = gen("gap")
    j = summary_json(d, "--threads")
    o = j["overview"]["run"]
    for k, v in dict(threads=2, wall_ns=6500000, events=38, gaps=2, lost_records=2200,
                     lost_ns=6000000, measured_ns=500000, serial_ns=245000,
                     parallel_ns=255000).items():
        eq(o[k], v, "gap overview " + k)
    eq(o["serial_share"], 0.49, "gap serial share")
    eq([(g["thread"], g["start_ns"], g["end_ns"], g["duration_ns"], g["lost_records"])
        for g in j["overview"]["gaps"]],
       [(0, 254000, 6254000, 6000000, 1500), (1, 254000, 6250000, 5996000, 700)],
       "gap intervals and records lost")
    t0, t1 = j["threads"]["threads"]
    for k, v in dict(work_ns=250000, fork_join_ns=5000, serial_ns=245000, idle_ns=0,
                     lost_ns=6000000).items():
        eq(t0[k], v, "gap thread 0 " + k)
    # thread 1 recorded again from 6250 us, but the run is complete only from 6254 us
    for k, v in dict(work_ns=250000, fork_join_ns=0, serial_ns=0, idle_ns=250000,
                     lost_ns=6000000).items():
        eq(t1[k], v, "gap thread 1 " + k)
    cats = ("work_ns", "wait_ns", "fork_join_ns", "task_create_ns", "runtime_ns", "serial_ns",
            "idle_ns", "lost_ns")
    for t in (t0, t1):
        eq(sum(t[k] for k in cats), 6500000, "thread %d: categories and gaps add up" % t["thread"])
        eq(sum(t[k] for k in cats[:-1]), 500000, "thread %d: categories add up to the measured "
           "time" % t["thread"])
    p = rows(j["regions"]["regions"], "region")["parallel @ a.c:10"]
    eq((p["instances"], p["total_ns"], p["max_ns"]), (3, 250000, 100000), "gap parallel region")
    eq(j["samples"]["summary"]["samples"], 1, "the sample in the gap is not counted")
    f = j["findings"]["findings"]
    eq(f[0]["text"], "Records are missing in 2 measurement gaps (recording was off: records "
       "dropped on a full disk, or recording switched off): 6 ms of the run (92%) is left out "
       "of every figure; the other findings are about the 500 us that were measured.",
       "gap finding")
    eq(f[0]["impact_ns"], 6000000, "gap finding impact")
    texts = [x["text"] for x in f]
    check(not any("Opening and closing" in t for t in texts), "a finding blames the gap: %r" % texts)
    check(any(t.startswith("49% of the run (245 us) is serial") for t in texts),
          "serial finding of the measured time: %r" % texts)
    txt = run(d).stdout
    check("Measurement gaps (records missing)" in txt and "Lost (gaps)" in txt, "gap text:\n" + txt)
    eq(text_gap_records(txt), ("2200", ["1500", "700"]), "gap text: records lost")
    eq(csv_gap_records(d), ("2200", [("0", "254000", "6000000", "1500"),
                                     ("1", "254000", "5996000", "700")]), "gap csv")
    # Score-P and older omptrace archives do not say how many records a gap
    # lost: unknown (null, empty, "unknown"), never 0; a partial total is a
    # lower bound in text only.
    for uncounted, total, each, text in ((2, None, [1500, None], "unknown (at least 1500)"),
                                         (3, None, [None, None], "unknown")):
        d = gen("gap", uncounted)
        o = summary_json(d)["overview"]
        eq((o["run"]["lost_records"], [g["lost_records"] for g in o["gaps"]]), (total, each),
           "uncounted %d: records lost" % uncounted)
        eq(text_gap_records(run(d).stdout),
           (text, [str(n) if n is not None else "unknown" for n in each]),
           "uncounted %d: text" % uncounted)
        eq([r[3] for r in csv_gap_records(d)[1]], [str(n) if n is not None else "" for n in each],
           "uncounted %d: csv" % uncounted)
        eq(csv_gap_records(d)[0], "", "uncounted %d: csv total" % uncounted)
    # a complete run: no gaps, nothing lost, no gap table
    j = summary_json(gen("imbalance"))
    o = j["overview"]["run"]
    eq((o["gaps"], o["lost_records"], o["lost_ns"], o["measured_ns"]), (0, 0, 0, 707000),
       "complete run")
    check("gaps" not in j["overview"], "complete run has no gap table")


def test_swapped():
    """An event file from another run: its times lie outside the archive's
    clock properties (a 707 us run with an event 215 s later), or its record
    count differs from the definitions. One line, exit 1."""
    later = gen("imbalance", 215000000000)
    eq(summary_json(later)["overview"]["run"]["wall_ns"], 707000, "a run that started later")
    d = gen("imbalance")
    shutil.copy(os.path.join(later, "traces", "1.evt"), os.path.join(d, "traces", "1.evt"))
    for fmt in ("text", "json", "csv"):
        one_line_error(run("--format", fmt, d), "the events of OpenMP thread 1 do not belong to "
                       "this archive: one lies 215.0 s after the start of a run that lasted "
                       "707.0 us", "swapped file, " + fmt)
    d = gen("imbalance")
    shutil.copy(os.path.join(gen("nowait"), "traces", "1.evt"), os.path.join(d, "traces", "1.evt"))
    one_line_error(run(d), "location 1 (OpenMP thread 1): 8 of 22 events read: the archive is "
                   "damaged", "event count")


def test_mismatch():
    """--compare of two different programs: one line, exit 1, no report and
    no nan; a region without a time in one run of one program is shown as
    not applicable, never as nan."""
    a, b = gen("degrade", 1), gen("imbalance")
    for fmt in ("text", "json", "csv"):
        p = run("--format", fmt, "--compare", a, b)
        one_line_error(p, "the runs do not match: %s ('degrade') and %s ('imbalance') have no "
                       "region" % (a, b), "compare of two programs, " + fmt)
        check("nan" not in (p.stdout + p.stderr).lower(), "nan in compare of two programs")
    zero = gen("degrade", 2, 0)  # g.c:20 takes no time: no speedup there
    for fmt in ("text", "json", "csv"):
        p = run("--format", fmt, "--compare", a, zero)
        check(p.returncode == 0 and p.stderr == "", "partial compare %s: exit %d %r"
              % (fmt, p.returncode, p.stderr))
        check("nan" not in p.stdout.lower(), "partial compare %s prints nan:\n%s" % (fmt, p.stdout))
    j = json.loads(run("--format", "json", "--compare", a, zero).stdout)
    g20 = rows(j["compare"]["regions"], "region")["parallel @ g.c:20"]
    eq((g20["speedup"], g20["efficiency"]), ([1, None], [1, None]), "speedup without a time")
    blocks = run("--format", "csv", "--compare", a, zero).stdout.strip().split("\n\n")
    regs = list(csv.DictReader(io.StringIO(blocks[1].split("\n", 1)[1])))
    eq(rows(regs, "region")["parallel @ g.c:20"]["speedup"], "1;", "csv speedup without a time")


def test_anchor():
    """A huge sparse or zero-padded anchor file: one line saying so, exit 1,
    and no attempt to load it (under a 1 GB address-space limit)."""
    asan = b"__asan_init" in open(SUMMARY, "rb").read()

    def limited():
        if not asan:  # AddressSanitizer reserves terabytes of address space
            resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    def run_limited(d):
        return subprocess.run([SUMMARY, d], capture_output=True, text=True, timeout=120,
                              env=ENV, preexec_fn=limited)
    d = gen("imbalance")
    anchor = os.path.join(d, "traces.otf2")
    os.truncate(anchor, 2 << 30)
    p = run_limited(d)
    one_line_error(p, "the anchor file is 2.1 GB, a sparse file, with only ", "sparse anchor")
    check("allocate" not in p.stderr, "sparse anchor: %r" % p.stderr)
    d = gen("imbalance")
    anchor = os.path.join(d, "traces.otf2")
    with open(anchor, "ab") as f:
        f.write(bytes(3 << 20))
    one_line_error(run_limited(d), "the anchor file is 3.1 MB, padded with zero bytes",
                   "padded anchor")
    d = gen("imbalance")  # a little padding is harmless: libotf2 reads the anchor fine
    with open(os.path.join(d, "traces.otf2"), "ab") as f:
        f.write(bytes(4000))
    eq(summary_json(d)["overview"]["run"]["wall_ns"], 707000, "anchor with 4 kB of padding")


os.makedirs(WORK, exist_ok=True)
tests = {k[5:]: v for k, v in globals().items() if k.startswith("test_")}
for name, fn in tests.items():
    if GROUP in ("all", name):
        print("--", name)
        fn()
print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
