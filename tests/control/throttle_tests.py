#!/usr/bin/python3
"""Throttling (OMPTRACE_THROTTLE, docs/control.md) on progs/throttle.c: each
case checks with python3-otf2 and otf2-print the exact task and flush
instances recorded per creating thread, the counts of the rest in the
"omptrace::throttled" property (recorded + throttled = what the program
ran; work-sharing, masked and parallel constructs too), a balanced
timeline (invariants.check_generic), recovery after a kill, bad values,
the summary's report in every format, and the exit line that suggests
throttling (finalize/hints.h).

usage: throttle_tests.py --lib L --prog P --src DIR --recover R --summary S
                         --launcher SH --schema JSON --work DIR CASE"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "recorder"))
sys.path.insert(0, os.path.join(HERE, "..", "summary"))
import archive  # noqa: E402
import invariants  # noqa: E402
import otf2_print  # noqa: E402
import schema_check  # noqa: E402

A = None
FAILED = []

# case -> (mode, OMPTRACE_THROTTLE, construct, recorded per thread, run per thread)
# tasks: 1000 tiny tasks, N=100: the first 100 recorded, then throttled.
# slow: every task takes at least 2 ms > T: never throttled.
# cross: 10 tasks of >= 2 ms (window 1 not below T), 10 tiny ones recorded
# (window 2, below T), the other 190 throttled.
CASES = {
    "tasks": ("tasks", "100,1ms", "task", 100, 1000),
    "slow": ("slow", "5,1ms", "task", 20, 20),
    "cross": ("cross", "10,1ms", "task", 20, 210),
    "flush": ("flush", "100,1ms", "flush", 100, 1000),
    "off": ("tasks", None, "task", 1000, 1000),
    # one thread: the runtime runs each task at once (undeferred)
    "serial": ("serial", "100,1ms", "task", 100, 1000),
    # critical: T = 100 ms, far above a contended tiny section; the masked
    # regions inside the last 500 are recorded until their own throttling
    # (SCOPED below).
    "critical": ("critical", "100,100ms", "critical", 100, 1000),
    # lock: each thread its own lock, no contention.
    "lock": ("lock", "100,1ms", "omp_set_lock", 100, 1000),
}

# Work sharing and masked (mode = construct = marker), N=100, T=100ms (far
# above a tiny construct however loaded the machine):
# recorded and run per thread; the critical section held by every 20th
# instance (50 per thread that runs the construct's body) is never
# throttled and nests in whatever is recorded around it: per thread, or
# summed when the runtime picks the thread (sections, single).
SCOPED = {
    "loop": ([100, 100], [1000, 1000], [50, 50]),
    "sections": ([100, 100], [1000, 1000], 100),
    "single": ([100, 100], [1000, 1000], 50),
    "masked": ([100, 0], [1000, 0], [50, 0]),
}


def fail(msg):
    FAILED.append(msg)
    print("FAIL: " + msg)


def expect(what, got, want):
    if got != want:
        fail("%s: expected %r, got %r" % (what, want, got))


def run(mode, value, launcher=False, kill=False, keep_log=False, hint_ns=None):
    shutil.rmtree(A.work, ignore_errors=True)
    os.makedirs(A.work)
    out = os.path.join(A.work, "trace")
    env = dict(os.environ, OMP_TOOL_LIBRARIES=A.lib, OMPTRACE_OUTPUT=out)
    env.pop("OMPTRACE_THROTTLE", None)
    env.pop("OMPTRACE_QUIET", None)
    if keep_log:
        env["OMPTRACE_KEEP_LOG"] = "1"
    if hint_ns:
        env["OMPTRACE_TEST_HINT_NS"] = str(hint_ns)
    cmd = [A.prog, mode]
    if launcher:
        env.pop("OMP_TOOL_LIBRARIES")
        cmd = [A.launcher, "--throttle", value] + cmd
    elif value is not None:
        env["OMPTRACE_THROTTLE"] = value
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=250)
    sys.stdout.write("--- %s %s (exit %d) ---\n%s%s" % (mode, value, p.returncode, p.stdout,
                                                          p.stderr))
    expect("exit status", p.returncode, -9 if kill else 0)
    if kill:
        r = subprocess.run([A.recover, out], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=250)
        sys.stdout.write("--- omptrace-recover (exit %d) ---\n%s" % (r.returncode, r.stdout))
        expect("omptrace-recover exit status", r.returncode, 0)
    return os.path.join(out, "traces.otf2"), p.stdout, p.stderr


def load(anchor, complete=True):
    t = archive.Trace(anchor)
    invariants.check_generic(t, complete=complete)
    otf2_print.check_with_otf2_print(t)
    for f in t.failures:
        fail(f)
    t.failures = []
    return t


def check_counts(anchor, construct, recorded, ran, complete=True):
    """Enters of the construct per creating thread and throttled counts:
    recorded + throttled = ran, per thread (tasks: their creator's)."""
    t = load(anchor, complete)
    n = len(t.locs)
    marker = "lock" if construct == "omp_set_lock" else construct
    line = archive.markers(os.path.join(A.src, "throttle.c"))[marker]
    name = "%s @ throttle.c:%d" % (construct, line)
    enters = t.per_loc(lambda l: t.enter_count(construct, line, l))
    counts = t.throttled()
    if construct == "task":  # a task may run on the other thread: compare totals
        expect("recorded task instances", sum(enters), recorded * n)
        created = t.per_loc(lambda l: t.enter_count("task create", line, l))
        expect("recorded task creations per thread", created, [recorded] * n)
        expect("recorded + throttled tasks", sum(enters) + sum(counts.values()), ran * n)
    else:
        expect("recorded %s per thread" % construct, enters, [recorded] * 2)
        expect("throttled %s per thread" % construct,
               [counts.get((name, l), 0) for l in t.locs], [ran - recorded] * 2)
    if construct in ("critical", "omp_set_lock"):
        kind = "ThreadAcquireLock"
        expect("%s per thread" % kind, t.per_loc(lambda l: t.kind_count(kind, l)),
               [recorded] * 2)
    allowed = [name]
    if construct == "critical":  # what a throttled critical holds is recorded
        inner = archive.markers(os.path.join(A.src, "throttle.c"))["inner"]
        masked = "masked @ throttle.c:%d" % inner
        allowed.append(masked)
        expect("masked regions inside per thread",
               t.per_loc(lambda l: t.enter_count("masked", inner, l)), [recorded, 0])
        expect("throttled masked regions inside per thread",
               [counts.get((masked, l), 0) for l in t.locs], [ran // 2 - recorded, 0])
    unexpected = [k for k in counts if k[0] not in allowed]
    if unexpected:
        fail("throttled constructs other than %s: %r" % (name, unexpected))
    return t


def check_scoped(construct):
    """A throttled work-sharing or masked construct: recorded + throttled =
    run per thread; what it holds is all recorded; its implicit barrier too."""
    recorded, ran, inner = SCOPED[construct]
    anchor, _out, _err = run(construct, "100,100ms")
    t = load(anchor)
    marks = archive.markers(os.path.join(A.src, "throttle.c"))
    line = marks[construct]
    name = "%s @ throttle.c:%d" % (construct, line)
    counts = t.throttled()
    expect("recorded %s per thread" % construct,
           t.per_loc(lambda l: t.enter_count(construct, line, l)), recorded)
    expect("throttled %s per thread" % construct, [counts.get((name, l), 0) for l in t.locs],
           [r - k for r, k in zip(ran, recorded)])
    crit = t.per_loc(lambda l: t.enter_count("critical", marks["wsinner"], l))
    expect("critical sections inside", crit if isinstance(inner, list) else sum(crit), inner)
    if construct != "masked":
        expect("implicit barriers per thread",
               t.per_loc(lambda l: t.enter_count("implicit barrier", line, l)), ran)
    unexpected = [k for k in counts if k[0] != name]
    if unexpected:
        fail("throttled constructs other than %s: %r" % (name, unexpected))


def check_parallel():
    """A throttled parallel region: the whole team records it or none of
    it; its count and time go to the master (thread 0)."""
    anchor, _out, _err = run("parallel", "100,100ms")
    t = load(anchor)
    marks = archive.markers(os.path.join(A.src, "throttle.c"))
    line = marks["parallel"]
    name = "parallel @ throttle.c:%d" % line
    counts = t.throttled()
    expect("recorded parallel regions per thread",
           t.per_loc(lambda l: t.enter_count("parallel", line, l)), [100, 100])
    expect("throttled parallel regions per thread", [counts.get((name, l), 0) for l in t.locs],
           [900, 0])
    for kind, want in (("ThreadFork", [100, 0]), ("ThreadJoin", [100, 0]),
                       ("ThreadTeamBegin", [100, 100]), ("ThreadTeamEnd", [100, 100])):
        expect("%s per thread" % kind, t.per_loc(lambda l: t.kind_count(kind, l)), want)
    expect("end barriers per thread",
           t.per_loc(lambda l: t.enter_count("implicit barrier", line, l)), [100, 100])
    # the critical section of every 20th region: only in the first 100
    expect("critical sections inside per thread",
           t.per_loc(lambda l: t.enter_count("critical", marks["wsinner"], l)), [5, 5])
    unexpected = [k for k in counts if k[0] != name]
    if unexpected:
        fail("throttled constructs other than %s: %r" % (name, unexpected))


def waits_property(anchor):
    """(location, wait) -> ns, from omptrace::throttled_waits."""
    text = subprocess.run(["otf2-print", "-G", anchor], stdout=subprocess.PIPE,
                          universal_newlines=True).stdout
    m = re.search(r'^SYSTEM_TREE_NODE_PROPERTY.*Name: "omptrace::throttled_waits" <\d+>, '
                  r'Type: STRING, Value: "([^"]*)"', text, re.M | re.S)
    got = {}
    for line in (m.group(1) if m else "").splitlines():
        loc, wait, ns = line.split()
        got[(int(loc), wait)] = int(ns)
    return got


def summary_threads(anchor):
    p = subprocess.run([A.summary, "--format", "json", anchor], stdout=subprocess.PIPE,
                       universal_newlines=True)
    expect("omptrace-summary exit status", p.returncode, 0)
    return {r["thread"]: r for r in json.loads(p.stdout)["threads"]["threads"]}


def t_waited():
    """Tasks that run only in a taskwait: the summary counts their
    throttled time as work, not as taskwait. Baseline: the same archive
    with the property renamed (same length), which the summary ignores."""
    anchor, _out, _err = run("waited", "100,100ms")
    t = load(anchor)
    line = archive.markers(os.path.join(A.src, "throttle.c"))["waited"]
    name = "task @ throttle.c:%d" % line
    counts = t.throttled()
    expect("recorded tasks per thread", t.per_loc(lambda l: t.enter_count("task", line, l)),
           [100, 0])
    expect("throttled tasks per thread", [counts.get((name, l), 0) for l in t.locs], [900, 0])
    waits = waits_property(anchor)
    text = subprocess.run(["otf2-print", "-G", anchor], stdout=subprocess.PIPE,
                          universal_newlines=True).stdout
    m = re.search(r'Name: "omptrace::throttled" <\d+>, Type: STRING, Value: "\d+ 0 900 (\d+)',
                  text)
    task_ns = int(m.group(1)) if m else -1
    expect("throttled task time in thread 0's taskwait = the tasks' time",
           waits, {(0, "taskwait"): task_ns})
    base_dir = os.path.join(A.work, "baseline")
    shutil.copytree(os.path.dirname(anchor), base_dir)
    defs = os.path.join(base_dir, "traces.def")
    with open(defs, "rb") as f:
        data = f.read()
    with open(defs, "wb") as f:
        f.write(data.replace(b"omptrace::throttled_waits", b"omptrace::throttled_xxxxx"))
    base, adj = summary_threads(os.path.join(base_dir, "traces.otf2")), summary_threads(anchor)
    moved = task_ns
    for l in (0, 1):
        print("thread %d: baseline %r, adjusted %r" % (
            l, {k: base[l].get(k) for k in ("work_ns", "wait_ns", "taskwait_ns")},
            {k: adj[l].get(k) for k in ("work_ns", "wait_ns", "taskwait_ns")}))
    if base[0].get("taskwait_ns", 0) < moved:
        fail("thread 0's taskwait (%r ns) does not hold the throttled tasks' %d ns"
             % (base[0].get("taskwait_ns"), moved))
    for col, delta in (("taskwait_ns", -moved), ("wait_ns", -moved), ("work_ns", moved)):
        expect("thread 0 %s: baseline %+d" % (col, delta), adj[0].get(col, 0),
               base[0].get(col, 0) + delta)
    for col in ("taskwait_ns", "wait_ns", "work_ns", "implicit_barrier_ns"):
        expect("thread 1 %s unchanged" % col, adj[1].get(col, 0), base[1].get(col, 0))


def t_bad(value, why):
    anchor, _out, err = run("tasks", value)
    want = "OMPTRACE_THROTTLE='%s': %s; using off" % (value, why)
    if want not in err:
        fail("stderr lacks %r" % want)
    check_counts(anchor, "task", 1000, 1000)


HINT = (r"^omptrace: hint: (\d+) tasks of task @ throttle\.c:%d%s ran ([0-9.]+) us on average; "
        r"OMPTRACE_THROTTLE=1000,10us traces the first 1000 per thread and counts the rest "
        r"\(docs/control\.md\)$")


SLOW = 10 ** 9  # a hint bound of 1 s: every task and flush here meets it


def hints(text, marker="task", others=""):
    """(count, mean us) of each hint line in the output naming the marker's site."""
    line = archive.markers(os.path.join(A.src, "throttle.c"))[marker]
    pattern = HINT % (line, re.escape(others))
    return [(int(m.group(1)), float(m.group(2))) for m in re.finditer(pattern, text, re.M)]


def t_hint():
    """100 000 tasks of one site under the hint's time bound get the hint at
    exit; 99 998 do not; of two sites the line names the one with more
    tasks; omptrace-recover decides from the same log with the same bound;
    with the suggested value the run is throttled and says nothing more.
    The bound is set through OMPTRACE_TEST_HINT_NS: 1 s, which every task
    here meets, or 1 ns, which none does, so no verdict depends on how fast
    the machine runs the tasks (the default 10 us is a constant,
    finalize/hints.h)."""
    anchor, _out, err = run("many", None, keep_log=True, hint_ns=SLOW)
    got = hints(err)
    expect("hint lines (count) for 100000 tasks", [c for c, _ in got], [100000])
    if got and not got[0][1] > 0:
        fail("hint's mean %.2f us is not above 0" % got[0][1])
    # a million events: counted from otf2-print's text (python3-otf2 takes minutes)
    line = archive.markers(os.path.join(A.src, "throttle.c"))["task"]
    region = 'Region: "task @ throttle.c:%d"' % line
    p = subprocess.Popen(["otf2-print", anchor], stdout=subprocess.PIPE, universal_newlines=True)
    enters = sum(1 for l in p.stdout if l.startswith("ENTER ") and region in l)
    expect("otf2-print exit status", p.wait(), 0)
    expect("task instances in the archive", enters, 100000)
    log = os.path.dirname(anchor)
    for bound, want in ((SLOW, [100000]), (1, [])):
        r = subprocess.run([A.recover, "-o", os.path.join(A.work, "recovered-%d" % bound), log],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=250,
                           env=dict(os.environ, OMPTRACE_TEST_HINT_NS=str(bound)))
        sys.stdout.write("--- omptrace-recover, hint bound %d ns (exit %d) ---\n%s"
                         % (bound, r.returncode, r.stdout))
        expect("omptrace-recover exit status", r.returncode, 0)
        expect("omptrace-recover's hint (count), bound %d ns" % bound,
               [c for c, _ in hints(r.stdout)], want)
    _anchor, _out, err = run("fewer", None, hint_ns=SLOW)
    expect("hint lines for 99998 tasks", hints(err), [])
    _anchor, _out, err = run("sites", None, hint_ns=SLOW)
    expect("hint lines (count) for 100000 and 100002 tasks of two sites",
           [c for c, _ in hints(err, "task2", " (and 1 more task site)")], [100002])
    expect("hint lines in all", err.count("omptrace: hint:"), 1)
    anchor, _out, err = run("many", "1000,10us")
    expect("hint lines when throttled", hints(err), [])
    if "hint:" in err:
        fail("a hint line when throttled")
    check_counts(anchor, "task", 1000, 50000)


def t_summary():
    anchor, _out, _err = run("tasks", "100,1ms")
    line = archive.markers(os.path.join(A.src, "throttle.c"))["task"]
    name = "task @ throttle.c:%d" % line
    fmt = {}
    for f in ("text", "json", "csv", "html"):
        p = subprocess.run([A.summary, "--format", f, anchor], stdout=subprocess.PIPE,
                           universal_newlines=True)
        expect("omptrace-summary --format %s exit status" % f, p.returncode, 0)
        fmt[f] = p.stdout
    if not re.search(r"^Throttled constructs \(OMPTRACE_THROTTLE\)$", fmt["text"], re.M):
        fail("summary text lacks the throttled section")
    doc = json.loads(fmt["json"])
    rows = doc["overview"].get("throttled", [])
    expect("summary JSON throttled regions", sorted({r["region"] for r in rows}), [name])
    expect("summary JSON: recorded + throttled",
           sum(r["instances"] for r in rows) + 200, 2000)
    with open(A.schema) as f:
        for e in schema_check.validate(doc, json.load(f)):
            fail("schema: %s" % e)
    if "throttled" not in fmt["csv"] or name not in fmt["csv"]:
        fail("summary CSV lacks the throttled table")
    if "Throttled constructs" not in fmt["html"]:
        fail("summary HTML lacks the throttled table")


def main():
    global A
    ap = argparse.ArgumentParser()
    for a in ("--lib", "--prog", "--src", "--recover", "--summary", "--launcher", "--schema",
              "--work"):
        ap.add_argument(a, required=True)
    ap.add_argument("case")
    A = ap.parse_args()
    c = A.case
    if c in CASES:
        mode, value, construct, recorded, ran = CASES[c]
        anchor, out, _err = run(mode, value)
        check_counts(anchor, construct, recorded, ran)
        if construct == "task":
            want = [str(ran), str(ran) if mode != "serial" else "0"]
            expect("program output", out.split(), ["tasks"] + want)
    elif c in SCOPED:
        check_scoped(c)
    elif c == "parallel":
        check_parallel()
    elif c == "waited":
        t_waited()
    elif c == "launcher":
        check_counts(run("tasks", "100,1ms", launcher=True)[0], "task", 100, 1000)
    elif c == "recover":  # killed after omp_control_tool_flush: the log holds the counts
        check_counts(run("kill", "100,1ms", kill=True)[0], "task", 100, 1000, complete=False)
    elif c == "bad_values":
        t_bad("100", "not N,T (a count and a duration, e.g. 100000,10us)")
        t_bad("0,10us", "N is not a count from 1 to 4294967295")
        t_bad("100,10", "T needs a unit (ns, us, ms, s)")
        t_bad("100,-1us", "T is not a positive duration")
        t_bad("100,2s", "T longer than 1s")
    elif c == "summary":
        t_summary()
    elif c == "hint":
        t_hint()
    else:
        fail("unknown case " + c)
    print("FAILED: %d" % len(FAILED) if FAILED else "OK")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
