#!/usr/bin/python3
"""Runs one sampling test program under the tool and checks the samples in
its archive with an independent reader (python3-otf2).

Every case checks the OTF2 sampling records in general (interrupt generator,
time order per location, unwind distances as OTF2 defines them, plain
Enter/Leave kept) and then the calling contexts the program's semantics
imply. Expected source lines come from /* LINE_... */ markers in the
program source."""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys

import otf2
from otf2.events import CallingContextSample, Enter, Leave

FAILURES = []
# Innermost open region (name, role) on the sample's location at each
# sample, parallel to the sample lists read_archive returns.
REGIONS = {}


def kind(path):
    """work, wait or overhead as omptrace-summary counts a sample
    (docs/summary.md): the innermost <OMP-...> node decides."""
    for n in reversed(path):
        if n.name.startswith("<OMP-"):
            if "overhead" in n.name:
                return "overhead"
            return "work" if ("reduction" in n.name or "work" in n.name) else "wait"
    return "work"


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)
    return cond


def markers(src):
    lines = {}
    with open(src) as f:
        for no, text in enumerate(f, 1):
            for m in re.finditer(r"/\* (LINE_\w+) \*/", text):
                lines[m.group(1)] = no
    return lines


class Node:
    __slots__ = ("name", "file", "line")

    def __init__(self, ctx):
        self.name = ctx.region.name
        scl = ctx.source_code_location
        self.file = os.path.basename(scl.file) if scl is not None else None
        self.line = scl.line_number if scl is not None else None

    def __repr__(self):
        return "%s[%s:%s]" % (self.name, self.file, self.line)


def chain(ctx):
    """Calling context ids and nodes, root first."""
    ids, nodes = [], []
    while ctx is not None:
        ids.append(ctx)
        nodes.append(Node(ctx))
        ctx = ctx.parent
    return ids[::-1], nodes[::-1]


def read_archive(path, period_ns):
    samples = {}  # location name -> list of node paths
    REGIONS.clear()
    stacks = {}  # location -> open regions
    enters = leaves = 0
    with otf2.reader.open(path) as r:
        clock = r.definitions.clock_properties
        t_lo = clock.global_offset
        t_hi = clock.global_offset + clock.trace_length
        gens = list(r.definitions.interrupt_generators)
        want = 1 if period_ns else 0
        check(len(gens) == want, "%d interrupt generator(s) (got %d)" % (want, len(gens)))
        for g in gens:
            check(str(g.interrupt_generator_mode).endswith("TIME"), "generator mode is TIME")
            check(g.period == period_ns, "generator period %s == %d" % (g.period, period_ns))
        last_time = {}
        prev_ids = {}
        for loc, ev in r.events:
            if ev.time < last_time.get(loc, 0):
                check(False, "time goes back on %s" % loc.name)
            last_time[loc] = ev.time
            if not (t_lo <= ev.time <= t_hi):
                check(False, "event time outside the trace on %s" % loc.name)
            if isinstance(ev, Enter):
                enters += 1
                stacks.setdefault(loc, []).append(ev.region)
            elif isinstance(ev, Leave):
                leaves += 1
                if stacks.get(loc):
                    stacks[loc].pop()
            if not isinstance(ev, CallingContextSample):
                continue
            ids, nodes = chain(ev.calling_context)
            d = ev.unwind_distance
            # OTF2: walking d-1 steps up from the sampled context reaches a
            # node of the previous context (or the undefined root).
            prev = prev_ids.get(loc, [])
            if d < 1 or d > len(ids) + 1:
                check(False, "unwind distance %d out of range for depth %d" % (d, len(ids)))
            else:
                k = len(ids) - (d - 1)  # nodes ids[0:k] are kept
                kept = ids[k - 1] if k > 0 else None
                ok = kept is None or (len(prev) >= k and prev[k - 1] is kept)
                if not ok:
                    check(False, "unwind distance %d on %s does not reach the previous context"
                          % (d, loc.name))
            prev_ids[loc] = ids
            samples.setdefault(loc.name, []).append(nodes)
            top = stacks.get(loc)
            REGIONS.setdefault(loc.name, []).append(
                (top[-1].name, str(top[-1].region_role)) if top else None)
    check(enters > 0 and enters == leaves, "plain Enter/Leave kept and balanced (%d/%d)"
          % (enters, leaves))
    return samples


def names(path):
    return [n.name for n in path]


def is_work(path):
    return not path[-1].name.startswith("<OMP-")


def expect_path(path, spec):
    """spec: list of (name, file, line or None)."""
    if len(path) != len(spec):
        return False
    for n, (name, file, line) in zip(path, spec):
        if n.name != name or (file and n.file != file) or (line is not None and n.line != line):
            return False
    return True


def share(paths, pred):
    return sum(1 for p in paths if pred(p)), len(paths)


def case_callpath(samples, L, src):
    f = os.path.basename(src)
    spec = [("main", f, L["LINE_CALL_A"]), ("a", f, L["LINE_CALL_B"]),
            ("b", f, L["LINE_PARALLEL"]),
            ("parallel @ %s:%d" % (f, L["LINE_PARALLEL"]), f, L["LINE_CALL_HOT"]),
            ("hot", f, None)]
    check(len(samples) == 2, "samples on both threads (%d)" % len(samples))
    for loc, paths in sorted(samples.items()):
        work = [p for p in paths if is_work(p)]
        good, n = share(work, lambda p: expect_path(p, spec)
                        and abs(p[-1].line - L["LINE_HOT"]) <= 2)
        print("%s: %d of %d work samples on main > a > b > parallel > hot" % (loc, good, n))
        check(n >= 50, "%s: at least 50 work samples (%d)" % (loc, n))
        check(good >= 0.9 * n, "%s: >= 90%% of work samples on the expected path" % loc)


def case_machine(samples, L, src):
    check(len(samples) == 2, "samples on both threads (%d)" % len(samples))
    for loc, paths in sorted(samples.items()):
        hot = [p for p in paths if p[-1].name == "hot"]
        runtime = lambda p: any(n.name == "[OpenMP runtime]" or n.name.startswith("__kmp")
                                for n in p)
        outlined = lambda p: any(n.name.startswith(".omp_outlined") for n in p)
        good, n = share(hot, lambda p: runtime(p) and outlined(p))
        print("%s: %d of %d samples in hot show runtime and outlined frames" % (loc, good, n))
        check(n >= 50, "%s: at least 50 samples in hot (%d)" % (loc, n))
        check(good >= 0.9 * n, "%s: >= 90%% show the runtime's frames" % loc)
    case_machine_leaves(samples)


def states_follow_events(samples, title):
    """The thread's own events say where it was: a sample inside an
    implicit barrier must be counted as a wait, one inside the parallel
    region's body as work, whatever the call-stack mode."""
    in_barrier, in_body = [], []
    for loc, paths in samples.items():
        for p, r in zip(paths, REGIONS[loc]):
            if r and r[1].endswith("IMPLICIT_BARRIER"):
                in_barrier.append(kind(p))
            elif r and r[1].endswith(".PARALLEL"):
                in_body.append(kind(p))
    w, b = in_barrier.count("wait"), in_body.count("work")
    print("%s: %d of %d samples in implicit barriers are waits, %d of %d in the region body "
          "work" % (title, w, len(in_barrier), b, len(in_body)))
    check(len(in_barrier) >= 30 and w >= 0.9 * len(in_barrier),
          "%s: >= 30 samples in implicit barriers, >= 90%% of them waits" % title)
    check(len(in_body) >= 30 and b >= 0.9 * len(in_body),
          "%s: >= 30 samples in the region body, >= 90%% of them work" % title)


def case_machine_imbalance(samples, L, src):
    """imbalance.c with OMPTRACE_CALLSTACKS=machine: thread 1's barrier
    samples keep their state, as a leaf below the runtime's frames."""
    idle = samples.get("OpenMP thread 1", [])
    below_runtime = lambda p: (len(p) >= 2 and p[-1].name == "<OMP-implicit_barrier>"
                               and any(n.name == "[OpenMP runtime]" or n.name.startswith("__kmp")
                                       for n in p[:-1])
                               and p[0].name in ("__clone3", "__clone", "clone", "start_thread"))
    good, n = share(idle, below_runtime)
    print("thread 1: %d of %d samples end in <OMP-implicit_barrier> below runtime frames"
          % (good, n))
    check(good >= 30, "thread 1: at least 30 barrier samples (%d)" % good)
    check(good >= 0.8 * n, "thread 1: >= 80% of its samples in the barrier")
    states_follow_events(samples, "machine")
    case_machine_leaves(samples)


def case_machine_leaves(samples):
    """The state leaf is the only pseudo frame: no folding, no stitching."""
    for loc, paths in sorted(samples.items()):
        check(not any(n.name.startswith("<OMP-") for p in paths for n in p[:-1]),
              "%s: pseudo frames only as the leaf in machine mode" % loc)


def case_imbalance(samples, L, src):
    f = os.path.basename(src)
    spec = [("main", f, L["LINE_CALL_IMBALANCED"]), ("imbalanced", f, L["LINE_PARALLEL"]),
            ("parallel @ %s:%d" % (f, L["LINE_PARALLEL"]), f, L["LINE_PARALLEL"]),
            ("<OMP-implicit_barrier>", None, None)]
    idle = samples.get("OpenMP thread 1", [])
    good, n = share(idle, lambda p: expect_path(p, spec))
    print("thread 1: %d of %d samples in <OMP-implicit_barrier> at the call site" % (good, n))
    check(good >= 30, "thread 1: at least 30 barrier samples (%d)" % good)
    check(good >= 0.8 * n, "thread 1: >= 80% of its samples in the region's barrier")
    states_follow_events(samples, "user")


def case_lock(samples, L, src):
    f = os.path.basename(src)
    spec = [("main", f, L["LINE_CALL_CONTENDED"]), ("contended", f, L["LINE_PARALLEL"]),
            ("parallel @ %s:%d" % (f, L["LINE_PARALLEL"]), f, L["LINE_SET_LOCK"]),
            ("<OMP-lock_wait>", None, None)]
    check(len(samples) == 2, "samples on both threads (%d)" % len(samples))
    for loc, paths in sorted(samples.items()):
        good, n = share(paths, lambda p: expect_path(p, spec))
        print("%s: %d of %d samples in <OMP-lock_wait> at omp_set_lock" % (loc, good, n))
        check(good >= 20, "%s: at least 20 lock-wait samples (%d)" % (loc, good))


def case_nested(samples, L, src):
    f = os.path.basename(src)
    nest = [("main", f, L["LINE_CALL_OUTER"]), ("outer", f, L["LINE_OUTER_PARALLEL"]),
            ("parallel @ %s:%d" % (f, L["LINE_OUTER_PARALLEL"]), f, L["LINE_CALL_INNER"]),
            ("inner", f, L["LINE_INNER_PARALLEL"]),
            ("parallel @ %s:%d" % (f, L["LINE_INNER_PARALLEL"]), f, L["LINE_CALL_LEAF"]),
            ("leaf", f, None)]
    task = [("main", f, L["LINE_CALL_TASKS"]), ("tasks", f, L["LINE_TASK_PARALLEL"]),
            ("parallel @ %s:%d" % (f, L["LINE_TASK_PARALLEL"]), f, L["LINE_TASK"]),
            ("task @ %s:%d" % (f, L["LINE_TASK"]), f, L["LINE_CALL_TASK_BODY"]),
            ("task_body", f, None)]
    all_paths = [p for ps in samples.values() for p in ps]
    leaf = [p for p in all_paths if p[-1].name == "leaf"]
    good, n = share(leaf, lambda p: expect_path(p, nest))
    print("%d of %d samples in leaf() stitched through both forks" % (good, n))
    check(n > 0 and good >= 0.9 * n, ">= 90% of leaf() samples on the nested path")
    locs = [l for l, ps in samples.items() if sum(expect_path(p, nest) for p in ps) >= 20]
    check(len(locs) == 4, "4 threads with >= 20 nested samples each (%s)" % locs)
    body = [p for p in all_paths if p[-1].name == "task_body"]
    good, n = share(body, lambda p: expect_path(p, task))
    print("%d of %d samples in task_body() below their creation site" % (good, n))
    check(n > 0 and good >= 0.9 * n, ">= 90% of task samples below the task's creation site")
    locs = [l for l, ps in samples.items() if sum(expect_path(p, task) for p in ps) >= 10]
    check(len(locs) == 2, "2 threads with >= 10 task samples each (%s)" % locs)


def case_paths(samples, L, src):
    f = os.path.basename(src)

    def spec(via, line_call, line_via):
        return [("main", f, L[line_call]), (via, f, L[line_via]),
                ("region", f, L["LINE_PARALLEL"]),
                ("parallel @ %s:%d" % (f, L["LINE_PARALLEL"]), f, L["LINE_CALL_WORK"]),
                ("work", f, None)]

    one = spec("via_one", "LINE_CALL_ONE", "LINE_ONE")
    two = spec("via_two", "LINE_CALL_TWO", "LINE_TWO")
    check(len(samples) == 2, "samples on both threads (%d)" % len(samples))
    for loc, paths in sorted(samples.items()):
        work = [p for p in paths if p[-1].name == "work"]
        n1 = sum(expect_path(p, one) for p in work)
        n2 = sum(expect_path(p, two) for p in work)
        print("%s: %d samples in work: %d via_one, %d via_two" % (loc, len(work), n1, n2))
        check(len(work) >= 50, "%s: at least 50 samples in work" % loc)
        check(n1 + n2 >= 0.9 * len(work), "%s: >= 90%% on one of the two paths" % loc)
        check(min(n1, n2) >= 0.3 * len(work), "%s: each path gets >= 30%% of them" % loc)


def case_waits(samples, L, src):
    f = os.path.basename(src)
    crit = [("main", f, L["LINE_CALL_CRITICAL"]), ("critical_part", f, L["LINE_CRITICAL_PARALLEL"]),
            ("parallel @ %s:%d" % (f, L["LINE_CRITICAL_PARALLEL"]), f, L["LINE_CRITICAL"]),
            ("<OMP-critical_section_wait>", None, None)]
    tw = [("main", f, L["LINE_CALL_TASKWAIT"]), ("taskwait_part", f, L["LINE_TASKWAIT_PARALLEL"]),
          ("parallel @ %s:%d" % (f, L["LINE_TASKWAIT_PARALLEL"]), f, L["LINE_TASKWAIT"]),
          ("<OMP-taskwait>", None, None)]
    check(len(samples) == 2, "samples on both threads (%d)" % len(samples))
    for loc, paths in sorted(samples.items()):
        good, n = share(paths, lambda p: expect_path(p, crit))
        print("%s: %d of %d samples in <OMP-critical_section_wait> at the critical" % (loc, good, n))
        check(good >= 20, "%s: at least 20 critical-wait samples (%d)" % (loc, good))
    good, n = share(samples.get("OpenMP thread 0", []), lambda p: expect_path(p, tw))
    print("OpenMP thread 0: %d of %d samples in <OMP-taskwait> at the taskwait" % (good, n))
    check(good >= 50, "thread 0: at least 50 taskwait samples (%d)" % good)


def case_blocked(samples, L, src):
    """CPU-time clock (the default): a thread is sampled only while it
    runs. Each waiter blocks in the barrier (KMP_BLOCKTIME=0) while thread
    0 computes, so its samples inside the barrier are bounded by the CPU
    time it spent there (printed by the program): one per period of that
    time, plus two (the counter's phase, and an overflow signalled just
    before the barrier). Thread 0's work samples against its work's CPU
    time are only printed: the counter's hrtimer runs while the thread is
    on a CPU, which a VM's steal time makes more than its CPU clock. The
    wait itself stays in the trace: every waiter's barrier interval ends
    after thread 0's last work sample."""
    period = period_ns(ARGS.rate)
    out = RUN.stdout
    n = int(re.search(r"threads (\d+)", out).group(1))
    work_us = int(re.search(r"work_cpu_us (\d+)", out).group(1))
    bar_us = {int(a): int(b) for a, b in re.findall(r"barrier_cpu_us (\d+) (\d+)", out)}
    check(len(bar_us) == n, "the program printed every thread's barrier CPU time")
    f = os.path.basename(src)
    last_work, bar_end, in_bar, in_work = 0, {}, collections.Counter(), 0
    per_loc = collections.Counter()
    archive = os.path.join(ARGS.out, "traces.otf2")
    with otf2.reader.open(archive) as r:
        props = [p.value for p in r.definitions.system_tree_node_properties
                 if p.name == "omptrace::samples"]
        stacks = {}
        for loc, ev in r.events:
            st = stacks.setdefault(loc.name, [])
            if isinstance(ev, Enter):
                st.append(ev.region.name)
            elif isinstance(ev, Leave):
                if st and st.pop() == "barrier @ %s:%d" % (f, L["LINE_BARRIER"]):
                    bar_end[loc.name] = ev.time
            elif isinstance(ev, CallingContextSample):
                per_loc[loc.name] += 1
                top = st[-1] if st else ""
                nodes = [x.name for x in chain(ev.calling_context)[1]]
                if top.startswith("barrier @"):
                    in_bar[loc.name] += 1
                elif loc.name == "OpenMP thread 0" and "work" in nodes:
                    in_work += 1
                    last_work = ev.time
    print("thread 0: %d work samples for %d us of CPU time (%d periods)"
          % (in_work, work_us, work_us * 1000 // period))
    check(in_work > 0, "thread 0: work samples")
    for k in range(1, n):
        name = "OpenMP thread %d" % k
        b = bar_us.get(k, 0) * 1000 // period + 2
        check(in_bar[name] <= b, "%s: %d samples inside its blocked barrier, at most %d (%d us CPU)"
              % (name, in_bar[name], b, bar_us.get(k, 0)))
        check(bar_end.get(name, 0) >= last_work,
              "%s: its barrier interval ends after thread 0's last work sample" % name)
    print("waiters: %d samples inside blocked barriers in all" % sum(in_bar.values()))
    # The accounting (omptrace::samples): taken is what the archive holds,
    # exactly, per location; expected covers at least thread 0's work.
    if not check(len(props) == 1, "one omptrace::samples property (%d)" % len(props)):
        return
    rows = {int(a): (int(e), int(x), int(t)) for a, e, x, t in
            (l.split() for l in props[0].splitlines())}
    check(len(rows) == n, "a line per thread (%d of %d)" % (len(rows), n))
    for k, (e, x, t) in sorted(rows.items()):
        name = "OpenMP thread %d" % k
        check(t == per_loc[name], "%s: taken %d == its samples in the archive %d"
              % (name, t, per_loc[name]))
        check(x >= t, "%s: expirations reached %d >= taken %d" % (name, x, t))
    e0 = rows.get(0, (0, 0, 0))[0]
    check(e0 >= work_us * 1000 // period, "thread 0: expected %d >= its work's CPU time / period %d"
          % (e0, work_us * 1000 // period))
    exp, taken = sum(v[0] for v in rows.values()), sum(v[2] for v in rows.values())
    print("samples: %d taken of %d expected (%d reached the handler)"
          % (taken, exp, sum(v[1] for v in rows.values())))
    if ARGS.summary:
        s = summary_json(ARGS.summary, archive).get("samples", {}).get("summary", {})
        if isinstance(s, list):
            s = s[0] if s else {}
        check(s.get("expected_samples") == exp, "summary: expected_samples %s == %d"
              % (s.get("expected_samples"), exp))
        check(s.get("missing_samples") == max(0, exp - taken), "summary: missing_samples %s == %d"
              % (s.get("missing_samples"), max(0, exp - taken)))


def case_blocked_no_perf(samples, L, src):
    """perf_event_open refused (tests/sampling/no_perf.c): one verbose line
    names the fallback, POSIX CPU-time timers, and everything case_blocked
    checks holds with them (no sample in a blocked wait, the accounting
    exact)."""
    want = "omptrace: sampling: perf_event_open refused"
    check(sum(l.startswith(want) for l in RUN.stderr.splitlines()) == 1,
          "one line: %r" % want)
    case_blocked(samples, L, src)


def case_off(samples, L, src):
    check(not samples, "no samples with OMPTRACE_SAMPLING=0 (%d locations)" % len(samples))


def case_robust(samples, L, src):
    check(len(samples) == 2, "samples on both threads (%d)" % len(samples))
    for loc, paths in sorted(samples.items()):
        check(len(paths) >= 100, "%s: at least 100 samples (%d)" % (loc, len(paths)))


def case_own_handler(samples, L, src):
    check(len(samples) == 2, "samples on both threads (%d)" % len(samples))


def cpu_ms():
    m = re.search(r"cpu_ms (\d+)", RUN.stdout)
    check(m is not None, "the program printed its CPU time")
    return int(m.group(1)) if m else 0


def case_late_handler(samples, L, src):
    """The program's SIGPROF handler, installed after the tool started,
    takes nothing from the tool: a thread is sampled at every 1 ms it
    runs, so the computing region gets about as many samples as it used
    CPU milliseconds (work or spinning in its barrier)."""
    check(len(samples) == 2, "samples on both threads (%d)" % len(samples))
    region = "parallel @ %s:%d" % (os.path.basename(src), L["LINE_WORK_PARALLEL"])
    n = sum(1 for ps in samples.values() for p in ps if any(x.name == region for x in p))
    cpu = cpu_ms()
    print("%d samples in %s for %d ms of CPU time" % (n, region, cpu))
    check(cpu >= 40, "the computation took CPU time (%d ms)" % cpu)
    check(n >= 0.5 * cpu, "samples in the region >= half its CPU ms (%d of %d)" % (n, cpu))


TAKEOVER = re.compile(r"^omptrace: sampling: the program replaced the handler of the sampling "
                      r"signal (\S+): (\d+) samples taken of about (\d+) expected; set "
                      r"OMPTRACE_SAMPLING_SIGNAL to a signal the program does not use$", re.M)


def case_takeover(samples, L, src):
    """The program installed its own handler for the sampling signal:
    one warning names the signal and the samples taken and expected."""
    hits = TAKEOVER.findall(RUN.stderr)
    check(len(hits) == 1, "one takeover warning (%d)" % len(hits))
    if not hits:
        return
    name, taken, expected = hits[0][0], int(hits[0][1]), int(hits[0][2])
    want = RUN.env.get("OMPTRACE_SAMPLING_SIGNAL")
    check(name == want, "the warning names %s (%s)" % (want, name))
    in_archive = sum(len(ps) for ps in samples.values())
    cpu = cpu_ms()
    print("warning: %d taken of about %d expected; %d in the archive; %d ms of CPU time"
          % (taken, expected, in_archive, cpu))
    # Armed wall time covers the computation's CPU time on both threads.
    check(expected >= 0.9 * cpu - 2, "expected (%d) >= the CPU ms (%d)" % (expected, cpu))
    check(taken * 2 < expected, "taken (%d) < half of expected (%d)" % (taken, expected))
    check(in_archive <= taken, "archive samples (%d) <= taken (%d)" % (in_archive, taken))
    m = re.search(r"handler ran (\d+) times", RUN.stdout)
    ran = int(m.group(1)) if m else 0
    check(ran >= 0.5 * cpu, "the program's handler got the timer signals (%d)" % ran)
    if ARGS.summary:
        # The shortfall in omptrace-summary's findings: the archive's own
        # counts (omptrace::samples), exactly.
        archive = os.path.join(ARGS.out, "traces.otf2")
        with otf2.reader.open(archive) as r:
            props = [p.value for p in r.definitions.system_tree_node_properties
                     if p.name == "omptrace::samples"]
        exp = sum(int(l.split()[1]) for p in props for l in p.splitlines())
        out = subprocess.run([ARGS.summary, archive], capture_output=True, text=True,
                             timeout=120).stdout
        line = "(%d taken of %d)" % (in_archive, exp)
        print("summary finding: %s" % ("found " + line if line in out else "none"))
        check("of the expected samples are missing " + line in out,
              "summary: the finding says %s" % line)


BAD_SIGNAL = re.compile(r"^omptrace: OMPTRACE_SAMPLING_SIGNAL='([^']*)': not SIGPROF, SIGALRM, "
                        r"SIGVTALRM, SIGUSR1, SIGUSR2 or a real-time signal \(SIGRTMIN\+N, "
                        r"SIGRTMAX-N, \d+\.\.\d+\); using SIGRTMIN\+4$", re.M)


def case_bad_signal(samples, L, src):
    """A bad OMPTRACE_SAMPLING_SIGNAL: one line, the default signal, and
    the samples as without it."""
    hits = BAD_SIGNAL.findall(RUN.stderr)
    check(hits == [RUN.env["OMPTRACE_SAMPLING_SIGNAL"]], "one bad-value line (%s)" % hits)
    case_callpath(samples, L, src)


def vite_states(archive, out_svg):
    """Rows with drawn states in ViTE's SVG export (ViTE draws only plain
    Enter/Leave; samples must not take them away)."""
    if os.path.exists(out_svg):
        os.remove(out_svg)
    subprocess.run(["xvfb-run", "-a", "vite", archive, "-e", out_svg], capture_output=True,
                   timeout=120)
    if not os.path.exists(out_svg):
        return None
    text = open(out_svg).read()
    rows = set()
    for group in re.findall(r'<g clip-path="url\(#stateArea\)">(.*?)</g>', text, re.S):
        rows.update(re.findall(r'<rect x="[^"]*" y="([^"]*)"', group))
    return len(rows)


CASES = {
    "callpath": case_callpath,
    "machine": case_machine,
    "imbalance": case_imbalance,
    "lock": case_lock,
    "nested": case_nested,
    "nested_eager": case_nested,
    "paths": case_paths,
    "off": case_off,
    "waits": case_waits,
    "blocked_2": case_blocked,
    "blocked_2_machine": case_blocked,
    "blocked_64": case_blocked,
    "blocked_64_machine": case_blocked,
    "blocked_2_no_perf": case_blocked_no_perf,
    "robust": case_robust,
    "own_handler": case_own_handler,
    "late_handler": case_late_handler,
    "takeover": case_takeover,
    "takeover_sigprof": case_takeover,
    "bad_signal": case_bad_signal,
    "signal_number": case_callpath,
    "machine_imbalance": case_machine_imbalance,
}


def period_ns(rate):
    if rate == "0":
        return 0
    m = re.fullmatch(r"(\d+)kHz", rate)
    return 1000000 // int(m.group(1)) if m else int(1e9 / int(rate.rstrip("Hz")))


class Run:
    """One traced run of the program: its output and environment."""

    def __init__(self, prog, env):
        r = subprocess.run([prog], env=env, capture_output=True, text=True, timeout=120)
        self.stdout, self.stderr, self.env = r.stdout, r.stderr, env
        sys.stdout.write(r.stdout)
        sys.stderr.write(r.stderr)
        check(r.returncode == 0, "program exit status 0 (got %d)" % r.returncode)
        case = env.get("SMP_CASE", "")
        if "takeover" not in case:
            # no_perf runs verbose: the fallback's line and the count are no warning
            ok = re.compile(r"omptrace: sampling: (perf_event_open refused|\d+ samples taken)"
                            if "no_perf" in case else r"$^")
            check(not [l for l in r.stderr.splitlines() if l.startswith("omptrace: sampling:")
                       and not ok.match(l)], "no sampling warning")
        if case != "bad_signal":
            check("omptrace: OMPTRACE_" not in r.stderr, "no bad-value warning")


RUN = None


def summary_json(tool, archive):
    r = subprocess.run([tool, "--format", "json", archive], capture_output=True, text=True,
                       timeout=120)
    check(r.returncode == 0, "omptrace-summary exit status 0 (got %d)" % r.returncode)
    return json.loads(r.stdout) if r.returncode == 0 else {}


def modes_agree(a, env):
    """The same program in user and machine mode: machine mode changes
    the paths, not the Work/Wait split. In each mode the samples' states
    follow the thread's own events, omptrace-summary counts exactly the
    kinds the archive's leaves carry, and the same wait kinds dominate."""
    global RUN
    leaves = {}
    for mode in ("user", "machine"):
        out = os.path.join(a.out, mode)
        RUN = Run(a.prog, dict(env, OMPTRACE_OUTPUT=out, OMPTRACE_CALLSTACKS=mode))
        archive = os.path.join(out, "traces.otf2")
        if not check(os.path.exists(archive), "%s: archive written" % mode):
            return
        samples = read_archive(archive, period_ns(a.rate))
        states_follow_events(samples, mode)
        paths = [p for ps in samples.values() for p in ps]
        kinds = collections.Counter(kind(p) for p in paths)
        got = summary_json(a.summary, archive).get("samples", {}).get("summary", {})
        print("%s: archive %s, summary work %s wait %s overhead %s" % (
            mode, dict(kinds), got.get("work_samples"), got.get("wait_samples"),
            got.get("overhead_samples")))
        for k in ("work", "wait", "overhead"):
            check(got.get(k + "_samples") == kinds[k],
                  "%s: summary %s_samples == the archive's count" % (mode, k))
        check(kinds["wait"] >= 30, "%s: at least 30 wait samples (%d)" % (mode, kinds["wait"]))
        waits = collections.Counter(p[-1].name for p in paths if kind(p) == "wait")
        leaves[mode] = {n for n, c in waits.items() if c >= 0.05 * len(paths)}
    print("wait kinds with >= 5%% of the samples: %s" % leaves)
    check(leaves["user"] == leaves["machine"] == {"<OMP-implicit_barrier>"},
          "the same wait kinds in both modes")


def main():
    global RUN
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--prog", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--case", required=True, choices=sorted(CASES) + ["modes_agree"])
    ap.add_argument("--rate", default="1kHz")
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE for the run")
    ap.add_argument("--vite", action="store_true", help="also check ViTE draws each thread")
    ap.add_argument("--summary", help="omptrace-summary (modes_agree)")
    a = ap.parse_args()
    global ARGS
    ARGS = a
    shutil.rmtree(a.out, ignore_errors=True)
    env = dict(os.environ, OMP_TOOL_LIBRARIES=a.lib, OMPTRACE_OUTPUT=a.out,
               OMPTRACE_SAMPLING=a.rate, SMP_CASE=a.case)
    for kv in a.env:
        k, v = kv.split("=", 1)
        env[k] = v
    if a.case == "modes_agree":
        modes_agree(a, env)
    else:
        RUN = Run(a.prog, env)
        archive = os.path.join(a.out, "traces.otf2")
        if not check(os.path.exists(archive), "archive written"):
            return 1
        samples = read_archive(archive, period_ns(a.rate))
        CASES[a.case](samples, markers(a.src), a.src)
        if a.vite:
            rows = vite_states(archive, os.path.join(a.out, "vite.svg"))
            check(rows is not None, "ViTE exported the archive")
            check(rows == len(samples), "ViTE draws states on every sampled thread (%s of %d)"
                  % (rows, len(samples)))
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
