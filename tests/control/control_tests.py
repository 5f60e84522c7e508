#!/usr/bin/python3
"""omp_control_tool tests: runs tests/control/progs/control.c in one mode
under omptrace and checks the archive with python3-otf2 (tests/recorder/
archive.py and invariants.py) and otf2-print: exact region counts before
and after each command, one MeasurementOnOff OFF/ON pair per location
for each pause, the values omp_control_tool returned, and the summary's
paused time."""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "recorder"))
import archive  # noqa: E402
import invariants  # noqa: E402
import otf2_print  # noqa: E402
import otf2  # noqa: E402

A = None
FAILED = []


def fail(msg):
    FAILED.append(msg)
    print("FAIL: " + msg)


def expect(what, got, want):
    if got != want:
        fail("%s: expected %r, got %r" % (what, want, got))


def run(mode, extra=None, sigkill=False, launcher_args=None):
    shutil.rmtree(A.work, ignore_errors=True)
    os.makedirs(A.work)
    out = os.path.join(A.work, "trace")
    env = dict(os.environ, OMP_TOOL_LIBRARIES=A.lib, OMPTRACE_OUTPUT=out, **(extra or {}))
    # libomp leaks the parent's thread structures in a fork child (sanitizer builds)
    env["LSAN_OPTIONS"] = "suppressions=" + os.path.join(HERE, "..", "faults", "lsan.supp")
    cmd = [A.prog, mode]
    if launcher_args is not None:  # the launcher sets the library and the variables itself
        env.pop("OMP_TOOL_LIBRARIES")
        env.pop("OMPTRACE_OUTPUT")
        cmd = [A.launcher, "-o", out] + launcher_args + cmd
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=200)
    sys.stdout.write("--- %s %s (exit %d) ---\n%s%s" % (mode, extra or "", p.returncode,
                                                          p.stdout, p.stderr))
    expect(mode + ": exit status", p.returncode, -9 if sigkill else 0)
    if sigkill:
        r = subprocess.run([A.recover, out], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=200)
        sys.stdout.write("--- omptrace-recover (exit %d) ---\n%s" % (r.returncode, r.stdout))
        expect(mode + ": omptrace-recover exit status", r.returncode, 0)
    return out, p.stdout, p.stderr


def returns(stdout):
    """'what value' lines -> {what: [values]}."""
    got = {}
    for line in stdout.splitlines():
        m = re.match(r"^(.*) (-?\d+)$", line)
        if m:
            got.setdefault(m.group(1), []).append(int(m.group(2)))
    return got


def load(out, complete=True, excuse=None):
    """The archive checked by the generic invariants and otf2-print; failures
    matching the regular expression excuse are expected and dropped."""
    t = archive.Trace(os.path.join(out, "traces.otf2"))
    invariants.check_generic(t, complete=complete)
    otf2_print.check_with_otf2_print(t)
    for f in t.failures:
        if not (excuse and re.search(excuse, f)):
            fail(f)
    t.failures = []
    return t


def onoff(t, loc):
    """The location's MeasurementOnOff modes in order, with the reason of
    each paused OFF: ['OFF:paused', 'ON', ...]."""
    seq = []
    for e in t.events[loc]:
        if type(e).__name__ != "MeasurementOnOff":
            continue
        if e.measurement_mode == otf2.MeasurementMode.ON:
            seq.append("ON")
            continue
        names = {a.name: v for a, v in (e.attributes or {}).items()}
        why = names.get("omptrace::paused", names.get("omptrace::stopped", "lost"))
        seq.append("OFF:" + why.split(" (")[0])
    return seq


def parallel_enters(t):
    return t.per_loc(lambda l: t.enter_count("parallel", None, l))


def t_pause():
    out, stdout, stderr = run("pause", {"OMPTRACE_VERBOSE": "1"})
    # What the recorder kept (OMPTRACE_VERBOSE's replay line): 14 records per recorded 2-thread
    # region (parallel begin/end, 2 x implicit task begin/end, 2 x barrier and its wait begin/end),
    # 6 per paused one (only parallel and implicit task begin/end), the pause, the resume and
    # the second start, 2 thread begins and ends, the initial task's begin and end.
    m = re.search(r"replay: (\d+) records", stderr)
    expect("records kept", int(m.group(1)) if m else None, 14 * 5 + 6 * 4 + 3 + 4 + 2)
    expect("return values", returns(stdout), {
        "pause": [0], "pause again": [0], "start": [0], "start again": [0], "unknown": [1],
        "sink": [18]})
    t = load(out)
    expect("parallel regions per location (3 before, 2 after the pause)", parallel_enters(t),
           [5, 5])
    for l in t.locs:
        expect("location %d MeasurementOnOff" % l, onoff(t, l), ["OFF:recording paused", "ON"])
    # start while recording and the pause/resume themselves: zero-length markers on loc 0
    expect("omp_control_tool regions on location 0", t.enter_count("omp_control_tool", None, 0), 3)
    return out


def t_inside():
    out, stdout, _ = run("inside")
    expect("return values", returns(stdout), {"pause": [1 - 1], "start": [0], "sink": [24]})
    t = load(out)
    expect("loops per location (2 before, 1 after the pause)",
           t.per_loc(lambda l: t.enter_count("loop", None, l)), [3, 3])
    expect("parallel region entered at its start and again at the resume", parallel_enters(t),
           [2, 2])
    expect("ThreadTeamBegin per location", t.per_loc(lambda l: t.kind_count("ThreadTeamBegin", l)),
           [2, 2])
    for l in t.locs:
        expect("location %d MeasurementOnOff" % l, onoff(t, l), ["OFF:recording paused", "ON"])
        # the pause sits inside the parallel region: Leave(parallel) right before OFF
        evs = t.events[l]
        i = next(k for k, e in enumerate(evs) if type(e).__name__ == "MeasurementOnOff")
        nxt = [type(e).__name__ for e in evs[i + 1:i + 3]]
        expect("location %d after ON" % l, [type(evs[i + 1]).__name__] + nxt[1:],
               ["MeasurementOnOff", "ThreadTeamBegin"])


def t_end():
    out, stdout, _ = run("end")
    expect("return values", returns(stdout), {"end": [0], "start": [1], "pause": [1], "sink": [10]})
    t = load(out)
    expect("parallel regions per location (3 before the end)", parallel_enters(t), [3, 3])
    for l in t.locs:
        expect("location %d MeasurementOnOff" % l, onoff(t, l), ["OFF:recording ended"])


def t_paused(extra, want_regions, want_onoff, want_line=None, launcher_args=None, start_rc=0):
    out, stdout, stderr = run("paused", extra, launcher_args=launcher_args)
    expect("return values", returns(stdout), {"start": [start_rc], "sink": [12]})
    t = load(out)
    expect("parallel regions per location", parallel_enters(t), want_regions)
    for l in t.locs:
        expect("location %d MeasurementOnOff" % l, onoff(t, l), want_onoff)
    lines = [x for x in stderr.splitlines() if "OMPTRACE_START" in x]
    expect("stderr lines naming OMPTRACE_START", len(lines), 1 if want_line else 0)
    if want_line and lines and want_line not in lines[0]:
        fail("stderr line %r does not say %r" % (lines[0], want_line))


def t_bad_metrics_on():
    """OMPTRACE_METRICS_ON is checked whether or not counters are recorded:
    a bad list is one line and the default; a good one is silent."""
    for value, bad in (("sometimes", "sometimes"), ("tasks,bogus", "bogus"), ("-all", "-all"),
                       ("tasks, -sync", None), ("", None)):
        out, stdout, stderr = run("paused", {"OMPTRACE_METRICS_ON": value})
        expect("return values", returns(stdout), {"start": [0], "sink": [12]})
        expect("parallel regions per location", parallel_enters(load(out)), [6, 6])
        want = (["omptrace: OMPTRACE_METRICS_ON='%s': unknown group '%s'; using default"
                 % (value, bad)] if bad else [])
        expect("stderr lines naming OMPTRACE_METRICS_ON",
               [x for x in stderr.splitlines() if "OMPTRACE_METRICS_ON" in x], want)


def t_flush(mode, want):
    out, stdout, _ = run(mode, {"OMPTRACE_FLUSH_INTERVAL": "0", "OMPTRACE_SIGNALS": "none"},
                         sigkill=True)
    printed = subprocess.run(["otf2-print", os.path.join(out, "traces.otf2")],
                             stdout=subprocess.PIPE, universal_newlines=True).stdout
    got = len(re.findall(r'^ENTER\s+0\s+\d+\s+Region: "parallel @', printed, re.M))
    expect("parallel regions on location 0 after SIGKILL (otf2-print)", got, want)
    return load(out, complete=False) if want else None


def t_killpause():
    t = t_flush("killpause", 3)
    for l in t.locs:
        expect("location %d MeasurementOnOff" % l, onoff(t, l), ["OFF:recording paused"])


def t_marks():
    out, stdout, _ = run("marks")
    expect("return values", returns(stdout), {"mark": [0, 0, 0], "begin": [0, 0], "end": [0, 0],
                                              "pause": [0], "start": [0], "sink": [4]})
    t = load(out)
    user = {}
    for l in t.locs:
        stack = []
        for e in t.events[l]:
            k = type(e).__name__
            if k == "Enter":
                stack.append(e)
                if e.region.paradigm == otf2.Paradigm.USER:
                    key = (l, e.region.name, str(e.region.region_role))
                    user[key] = user.get(key, 0) + 1
            elif k == "Leave" and stack:
                top = stack.pop()
                if top.region.paradigm == otf2.Paradigm.USER and \
                        top.region.region_role == otf2.RegionRole.ARTIFICIAL and e.time != top.time:
                    fail("point %r lasts %d ns" % (top.region.name, e.time - top.time))
                if top.region.name == "solver phase" and stack:
                    fail("'solver phase' inside %r" % stack[-1].region.name)
    expect("named points and regions", user, {
        (0, "checkpoint", "RegionRole.ARTIFICIAL"): 3,
        (0, "solver phase", "RegionRole.CODE"): 2,
        (0, "io", "RegionRole.ARTIFICIAL"): 1,
        (0, "7", "RegionRole.ARTIFICIAL"): 1})
    # each named region holds its parallel region: Enter(solver), Fork, ..., Join, Leave(solver)
    evs = [e for e in t.events[0] if type(e).__name__ in ("Enter", "Leave", "ThreadFork")]
    inside = 0
    for i, e in enumerate(evs):
        if type(e).__name__ == "Enter" and e.region.name == "solver phase":
            inside += type(evs[i + 1]).__name__ == "ThreadFork"
    expect("named regions holding their parallel region", inside, 2)
    for l in t.locs:
        expect("location %d MeasurementOnOff" % l, onoff(t, l), ["OFF:recording paused", "ON"])


def t_fork():
    """The child of a fork made while paused starts paused and records its
    own resume; the parent stays paused to its end."""
    out, stdout, _ = run("fork")
    expect("return values", returns(stdout), {"pause": [0], "child start": [0], "child exit": [0],
                                              "sink": [10, 4]})
    t = load(out)
    expect("parent: parallel regions per location", parallel_enters(t), [2, 2])
    for l in t.locs:
        expect("parent location %d MeasurementOnOff" % l, onoff(t, l), ["OFF:recording paused"])
    kids = [d for d in os.listdir(A.work) if d.startswith("trace.fork-")]
    expect("child archives", len(kids), 1)
    for d in kids:
        c = load(os.path.join(A.work, d))
        expect("child: parallel regions per location (after its start)", parallel_enters(c),
               [2, 2])
        for l in c.locs:
            expect("child location %d MeasurementOnOff" % l, onoff(c, l),
                   ["OFF:recording paused", "ON"])


def t_snapshot():
    """A snapshot taken while paused shows the pause without its end; the
    run goes on and its archive has the whole pause."""
    shutil.rmtree(A.work, ignore_errors=True)
    os.makedirs(A.work)
    out, go = os.path.join(A.work, "trace"), os.path.join(A.work, "go")
    err_path = os.path.join(A.work, "stderr")
    env = dict(os.environ, OMP_TOOL_LIBRARIES=A.lib, OMPTRACE_OUTPUT=out)
    with open(err_path, "w") as err:
        p = subprocess.Popen([A.prog, "snapshot", go], env=env, stdout=subprocess.PIPE,
                             stderr=err, universal_newlines=True)
        expect("first line", p.stdout.readline().strip(), "pause 0")
        expect("second line", p.stdout.readline().strip(), "waiting")
        os.kill(p.pid, signal.SIGUSR2)
        snap = os.path.join(out, "snapshot-1")
        while p.poll() is None and snap not in open(err_path).read():
            time.sleep(0.05)  # the snapshot's stderr line says it is complete
        open(go, "w").close()
        rest, _ = p.communicate(timeout=200)
    sys.stdout.write(rest + open(err_path).read())
    expect("exit status", p.returncode, 0)
    s = load(snap, complete=False)
    expect("snapshot: parallel regions per location", parallel_enters(s), [2, 2])
    for l in s.locs:
        expect("snapshot location %d MeasurementOnOff" % l, onoff(s, l), ["OFF:recording paused"])
    t = load(out)
    expect("parallel regions per location", parallel_enters(t), [3, 3])
    for l in t.locs:
        expect("location %d MeasurementOnOff" % l, onoff(t, l), ["OFF:recording paused", "ON"])


def t_own_usr2(mode):
    """A program with its own SIGUSR2 handler gets no signal from `omptrace
    snapshot PID` (it counts 0) and runs to its end. Installed before the
    runtime started the tool (own_usr2): the tool left SIGUSR2 to it, and
    the launcher refuses with one line; installed after (late_usr2), over
    the tool's: the snapshot is asked for through the FIFO and written."""
    shutil.rmtree(A.work, ignore_errors=True)
    os.makedirs(A.work)
    out, go = os.path.join(A.work, "trace"), os.path.join(A.work, "go")
    env = dict(os.environ, OMP_TOOL_LIBRARIES=A.lib, OMPTRACE_OUTPUT=out)
    p = subprocess.Popen([A.prog, mode, go], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, universal_newlines=True)
    expect("first line", p.stdout.readline().strip(), "waiting")
    s = subprocess.run([A.launcher, "snapshot", str(p.pid)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=200)
    sys.stdout.write("--- omptrace snapshot (exit %d) ---\n%s%s" % (s.returncode, s.stdout,
                                                                    s.stderr))
    snap = os.path.join(out, "snapshot-1")
    if mode == "own_usr2":
        expect("omptrace snapshot: exit status", s.returncode, 1)
        expect("omptrace snapshot: stderr", s.stderr.splitlines(),
               ["omptrace: snapshot: process %d takes no snapshots: the tool did not install "
                "SIGUSR2 (the program handled it when tracing started, or it is the sampling "
                "signal)" % p.pid])
    else:
        expect("omptrace snapshot: exit status", s.returncode, 0)
        expect("omptrace snapshot: stdout", s.stdout.strip(), snap)
    open(go, "w").close()
    rest, err = p.communicate(timeout=200)
    sys.stdout.write(rest + err)
    expect("program: exit status", p.returncode, 0)
    expect("program: signals received", rest.splitlines()[:1], ["signals 0"])
    expect("snapshot-1 written", os.path.isdir(snap), mode == "late_usr2")
    if mode == "late_usr2":
        for f in ("traces.otf2", "where.txt"):
            if not os.path.isfile(os.path.join(snap, f)):
                fail("snapshot-1/%s missing" % f)
        # The program runs its regions while the snapshot is taken: one may
        # hold the master's fork before the worker recorded its part.
        load(snap, complete=False,
             excuse=r"fork of 2 threads, but the next team has members \[0\]$")
    load(out)


def open_regions(t):
    """Location -> names of the regions still open at the archive's end
    (those a recovered snapshot leaves at its last time stamp), outermost
    first."""
    end = max(e.time for l in t.locs for e in t.events[l])
    got = {}
    for l in t.locs:
        stack = []
        for e in t.events[l]:
            kind = type(e).__name__
            if kind == "Enter":
                stack.append(e.region.name)
            elif kind == "Leave":
                if e.time == end:
                    break
                stack.pop()
        got[l] = stack
    return got


def hang_where(text):
    """Thread -> its indented where.txt lines, when every thread of hang.c
    is at its wait (innermost line), else None."""
    locs, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"thread (\d+) ", line)
        if m:
            cur = int(m.group(1))
            locs[cur] = []
        elif line.startswith("  ") and cur is not None:
            locs[cur].append(line.strip())
    waits = [bool(v) and v[0].startswith(("waiting for lock", "barrier wait")) for v in
             locs.values()]
    return locs if len(locs) == 3 and all(waits) else None


def t_snapshot_where():
    """`omptrace snapshot PID` of a hung program built -O2 (tests/control/
    progs/hang.c): where.txt names every open construct of each waiting
    thread by a line of hang.c (not __kmp_invoke_microtask+0x92, the site
    libomp reports for a tail-called omp_set_lock), each thread's innermost
    wait at the line of the region the snapshot's archive has open, and the
    construct names the archive's ("barrier wait", "omp_set_lock")."""
    shutil.rmtree(A.work, ignore_errors=True)
    os.makedirs(A.work)
    out = os.path.join(A.work, "trace")
    env = dict(os.environ, OMP_TOOL_LIBRARIES=A.lib, OMPTRACE_OUTPUT=out)
    src = os.path.join(HERE, "progs", "hang.c")
    m = archive.markers(src)
    p = subprocess.Popen([A.hang], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True)
    locs, snap = None, None
    try:
        expect("first line", p.stdout.readline().strip(), "hang")
        for n in range(1, 31):  # until every thread's wait is in the log (the first, mostly)
            s = subprocess.run([A.launcher, "snapshot", str(p.pid)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True, timeout=200)
            snap = os.path.join(out, "snapshot-%d" % n)
            expect("omptrace snapshot %d: exit status (stderr %r)" % (n, s.stderr),
                   s.returncode, 0)
            if s.returncode != 0:
                break
            with open(os.path.join(snap, "where.txt")) as f:
                text = f.read()
            locs = hang_where(text)
            if locs:
                break
            time.sleep(0.1)
    finally:
        p.kill()
        p.communicate(timeout=200)
    sys.stdout.write("--- where.txt ---\n%s" % text)
    if not locs:
        fail("no snapshot found all three threads at their waits")
        return
    lines = {str(v) for v in m.values()}
    for loc, frames in sorted(locs.items()):
        for f in frames:
            if f.startswith("initial task"):
                continue
            at = re.findall(r" @ ([^ )]+)", f)
            bad = [x for x in at if not (x.startswith("hang.c:") and x[7:] in lines)]
            if not at or bad:
                fail("thread %d: %r names no marked line of hang.c" % (loc, f))
    t = load(snap, complete=False)
    opened = open_regions(t)
    for loc, frames in sorted(locs.items()):
        inner = opened.get(loc, ["?"])[-1]
        w = re.search(r"(\S+ @ hang\.c:\d+)", frames[0])
        where_at = w.group(1).split(" @ ")[1] if w else frames[0]
        expect("thread %d: innermost wait's line vs the archive's innermost open region %r"
               % (loc, inner), where_at, inner.split(" @ ")[-1])
    # Which worker is OpenMP thread 1 depends on the runtime: found by its barrier.
    bar = [loc for loc, frames in locs.items() if frames[0].startswith("barrier wait @ ")]
    expect("threads waiting in the barrier", len(bar), 1)
    held = {}
    for loc, frames in locs.items():
        for f in frames:
            h = re.match(r"holds omp_set_lock (0x[0-9a-f]+) ", f)
            if h:
                held[h.group(1)] = loc
    for loc in sorted(set(locs) - set(bar)):
        w = re.match(r"waiting for lock (0x[0-9a-f]+) \(omp_set_lock @ hang.c:\d+\) since "
                     r"[\d.]+ s, held by thread (\d+) \(acquired @ hang.c:\d+ at", locs[loc][0])
        if not w:
            fail("thread %d: innermost line is not its lock wait: %r" % (loc, locs[loc][0]))
            continue
        expect("thread %d waits for a lock held by" % loc, int(w.group(2)),
               held.get(w.group(1)))
        expect("thread %d's lock's holder" % loc, int(w.group(2)), 0 if loc == 0 else bar[:1][0])


def summary_paused(out, want_pauses):
    """omptrace-summary --json reports the paused time per thread."""
    import json
    p = subprocess.run([A.summary, "--format", "json", os.path.join(out, "traces.otf2")],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    expect("omptrace-summary exit status", p.returncode, 0)
    j = json.loads(p.stdout)
    threads = j.get("threads", {}).get("threads", [])
    paused = [th.get("paused_ns", 0) for th in threads]
    t = archive.Trace(os.path.join(out, "traces.otf2"))
    want = []
    for l in t.locs:
        evs = [e for e in t.events[l] if type(e).__name__ == "MeasurementOnOff"]
        total = 0
        for off, on in zip(evs[0::2], evs[1::2]):
            total += on.time - off.time
        want.append(total)
    expect("paused_ns per thread (from the OFF/ON pairs)", paused, want)
    # the paused time is in no category (idle, serial, runtime...): they add up to the measured time
    cats = ("work_ns", "wait_ns", "fork_join_ns", "task_create_ns", "runtime_ns", "serial_ns",
            "idle_ns")
    expect("categories per thread", [sum(th.get(k, 0) for k in cats) for th in threads],
           [j["overview"]["run"]["measured_ns"]] * len(threads))
    expect("wall time", j["overview"]["run"]["wall_ns"],
           j["overview"]["run"]["measured_ns"] + j["overview"]["run"]["paused_ns"])
    run_ = j.get("overview", {}).get("run", {})
    expect("paused intervals", run_.get("pauses"), want_pauses)
    expect("records-missing gaps", run_.get("gaps"), 0)
    expect("lost time", run_.get("lost_ns"), 0)
    if not all(want):
        fail("a location without paused time: %r" % want)
    text = subprocess.run([A.summary, os.path.join(out, "traces.otf2")], stdout=subprocess.PIPE,
                          universal_newlines=True).stdout
    if not re.search(r"^\s*Paused time \(left out\)\s+\S", text, re.M):
        fail("no 'Paused time' line in the summary overview")
    if "Measurement gaps (records missing)  " in text and "records are missing" in text:
        fail("the pause is reported as missing records")


def main():
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--prog", required=True)
    ap.add_argument("--recover", required=True)
    ap.add_argument("--summary", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--launcher", required=True)
    ap.add_argument("--hang")
    ap.add_argument("case")
    A = ap.parse_args()
    c = A.case
    if c == "pause":
        t_pause()
    elif c == "inside":
        t_inside()
    elif c == "end":
        t_end()
    elif c == "start_paused":
        t_paused({"OMPTRACE_START": "paused"}, [2, 2], ["OFF:recording paused", "ON"])
    elif c == "launcher_paused":
        t_paused({}, [2, 2], ["OFF:recording paused", "ON"], launcher_args=["--paused"])
    elif c == "start_paused_no_control":  # nothing could resume it: one line, recorded throughout
        t_paused({"OMPTRACE_START": "paused", "OMPTRACE_EVENTS": "parallel,sync"}, [6, 6], [],
                 "OMPTRACE_START=paused needs the control events", start_rc=-1)
    elif c == "bad_start":
        t_paused({"OMPTRACE_START": "sometimes"}, [6, 6], [], "OMPTRACE_START")
    elif c in ("own_usr2", "late_usr2"):
        t_own_usr2(c)
    elif c == "bad_metrics_on":
        t_bad_metrics_on()
    elif c == "flush":
        t_flush("flush", 3)
    elif c == "noflush":
        t_flush("noflush", 0)
    elif c == "recover_paused":
        t_killpause()
    elif c == "snapshot":
        t_snapshot()
    elif c == "snapshot_where":
        t_snapshot_where()
    elif c == "fork":
        t_fork()
    elif c == "marks":
        t_marks()
    elif c == "summary":
        summary_paused(t_pause(), 1)
    else:
        fail("unknown case " + c)
    print("FAILED: %d" % len(FAILED) if FAILED else "OK")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
