#!/usr/bin/python3
"""The reader and omptrace-summary on real Score-P 8.4 archives, read in place
from ../shared/fixtures/scorep-8.4 (exit 77, a skip, when that folder is absent).

Expectations come from an independent model built with python3-otf2: Score-P
keeps one region stack per task (a ThreadTaskSwitch changes stacks, a resumed
task continues its regions without an Enter, possibly on another thread), and
a thread's time goes to the category of the innermost region of its current
stack. Checked: program name, events, per-thread times (exact up to the
1 ns rounding of ticks), task counts and times, barrier waits that add up to
the threads' barrier time and never exceed a thread's time in the region,
taskwait reported as taskwait, lock acquisitions, source lines of mixed.c,
no "@0x" names; in the JSON (schema-valid), text and CSV outputs.

usage: scorep_fixtures.py SUMMARY READER_DUMP SCHEMA FIXTURES"""
import collections
import csv
import io
import json
import os
import re
import subprocess
import sys

SUMMARY, DUMP, SCHEMA_PATH, FIXTURES = sys.argv[1:5]
if not os.path.isdir(FIXTURES):
    print("SKIP: no Score-P fixtures at %s" % FIXTURES)
    sys.exit(77)

import otf2  # noqa: E402  (only needed when the fixtures exist)
from otf2.enums import RegionRole  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from schema_check import validate  # noqa: E402

SCHEMA = json.load(open(SCHEMA_PATH))
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def near(got, want, slack, what):
    check(got is not None and abs(got - want) <= slack, "%s: got %r, want %r" % (what, got, want))


TASK_ROLES = (RegionRole.TASK, RegionRole.TASK_UNTIED)


def category(region, in_parallel):
    """Time category of a thread whose innermost open region is region."""
    if not in_parallel:
        return "outside"
    name, role = region.name.replace("!$omp ", ""), region.region_role
    if name.startswith("taskwait"):
        return "taskwait_ns"
    if name.startswith("taskgroup"):
        return "taskgroup_ns"
    if role == RegionRole.IMPLICIT_BARRIER:
        return "implicit_barrier_ns"
    if role == RegionRole.BARRIER:
        return "explicit_barrier_ns"
    if role == RegionRole.CRITICAL:
        return "critical_ns"
    if role == RegionRole.TASK_CREATE:
        return "task_create_ns"
    if name.startswith(("omp_set_lock", "omp_test_lock")):
        return "lock_ns"
    if role == RegionRole.WRAPPER:
        return "runtime_ns"
    return "work_ns"


def label(region):
    """omptrace-summary's row label: construct @ file-basename:line."""
    m = re.match(r"^(?:!\$omp )?(.+?)(?: @\S+)?$", region.name)
    if region.source_file and region.begin_line_number and region.source_file != "OMP":
        return "%s @ %s:%d" % (m.group(1), os.path.basename(str(region.source_file)),
                               region.begin_line_number)
    return region.name


class Model:
    """Per-task region stacks over all records, in time order."""

    def __init__(self, anchor):
        self.base = collections.defaultdict(list)  # location -> implicit-task stack
        self.tstack = collections.defaultdict(list)  # explicit task -> its stack
        self.cur = {}  # location -> current explicit task or None
        self.forks = collections.defaultdict(int)
        self.last = {}
        self.ticks = collections.defaultdict(collections.Counter)
        self.task_ticks = collections.Counter()
        self.task_region = {}
        self.completed = collections.Counter()  # task construct label -> completed tasks
        self.creates = self.acquired_total = 0
        self.acquired = collections.Counter()  # label of the lock's construct -> count
        self.barrier_after = {}  # "@0x" barrier name -> label of the construct before it
        self.left = {}  # location -> label of the last region left
        with otf2.reader.open(anchor) as r:
            d = r.definitions
            self.res = d.clock_properties.timer_resolution
            self.locations = sorted(d.locations, key=lambda x: x._ref)
            self.events_defined = sum(x.number_of_events for x in self.locations)
            self.first = self.end = None
            for loc, ev in r.events:
                self.record(loc._ref, ev)

    def stack(self, l):
        t = self.cur.get(l)
        return self.tstack[t] if t and self.tstack[t] else self.base[l]

    def in_parallel(self, l):
        return any(x.region_role == RegionRole.PARALLEL for x in self.base[l])

    def record(self, l, ev):
        t, kind = ev.time, type(ev).__name__
        self.first = t if self.first is None else min(self.first, t)
        self.end = t if self.end is None else max(self.end, t)
        if l in self.last:
            s = self.stack(l)
            if s:
                cat = category(s[-1], self.in_parallel(l))
            elif self.forks[l]:
                cat = "fork_join_ns" if not self.in_parallel(l) else "work_ns"
            else:
                cat = "outside"
            self.ticks[l][cat] += t - self.last[l]
            task = self.cur.get(l)
            if task and self.tstack[task]:
                self.task_ticks[task] += t - self.last[l]
        self.last[l] = t
        if kind == "Enter":
            task = self.cur.get(l)
            own = task and (self.tstack[task] or ev.region.region_role in TASK_ROLES)
            if ev.region.region_role == RegionRole.IMPLICIT_BARRIER and "@0x" in ev.region.name:
                self.barrier_after.setdefault(ev.region.name, self.left.get(l))
            (self.tstack[task] if own else self.base[l]).append(ev.region)
            if own and ev.region.region_role in TASK_ROLES:
                self.task_region[task] = ev.region
        elif kind == "Leave":
            s = self.stack(l)
            check(s and s[-1] == ev.region, "model: unmatched Leave %s" % ev.region.name)
            if s:
                s.pop()
            self.left[l] = label(ev.region)
        elif kind == "ThreadTaskSwitch":
            self.cur[l] = ((ev.creating_thread, ev.generation_number)
                           if ev.generation_number else None)
        elif kind == "ThreadTaskComplete":
            key = (ev.creating_thread, ev.generation_number)
            self.completed[label(self.task_region[key])] += 1
        elif kind == "ThreadTaskCreate":
            self.creates += 1
        elif kind == "ThreadFork":
            self.forks[l] += 1
        elif kind == "ThreadJoin":
            self.forks[l] -= 1
        elif kind == "ThreadAcquireLock":
            s = self.stack(l)
            self.acquired[label(s[-1])] += 1
        elif kind == "ProgramBegin":
            self.program = os.path.basename(ev.program_name)

    def ns(self, ticks):
        return round(ticks * 1e9 / self.res)


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=300)


def pragma_lines(source):
    """construct -> source lines of its `#pragma omp` directives."""
    lines = collections.defaultdict(set)
    for n, text in enumerate(open(source), 1):
        m = re.match(r"\s*#pragma omp (\w+)", text)
        if m:
            lines[m.group(1)].add(n)
    return lines


def check_archive(name):
    anchor = os.path.join(FIXTURES, name, "traces.otf2")
    m = Model(anchor)
    what = name + ": "
    # --- the reader, through reader_dump
    p = run(DUMP, anchor)
    check(p.returncode == 0, what + "reader_dump exit %d: %s" % (p.returncode, p.stderr))
    dump = p.stdout.splitlines()
    check("program %s" % m.program in dump, what + "reader program: %r" % dump[:1])
    check("fragments" in dump[-1] and dump[-1].endswith(" tasks %d" % sum(m.completed.values())),
          what + "reader completed tasks: " + dump[-1])
    regions = [ln.split("\t")[1:] for ln in dump if ln.startswith("region\t")]
    for _, cls, line, rname in regions:
        check("@0x" not in rname, what + "reader keeps an address name: " + rname)
        short = rname.replace("!$omp ", "")
        for construct in ("taskwait", "taskgroup"):
            if short.startswith(construct):
                check(cls == construct, what + "%s classified %s" % (rname, cls))
    for old, before in m.barrier_after.items():  # named after the construct it ends
        want = "implicit barrier @%s" % before.split(" @ ")[1]
        check(any(r[3].endswith(want) and r[1] == "implicit barrier" for r in regions),
              what + "%s should become ...%s" % (old, want))
    # --- the summary
    p = run(SUMMARY, "--format", "json", "--threads", anchor)
    check(p.returncode == 0, what + "summary exit %d: %s" % (p.returncode, p.stderr))
    j = json.loads(p.stdout)
    for e in validate(j, SCHEMA):
        check(False, what + "schema: " + e)
    o = j["overview"]["run"]
    check(o["program"] == m.program, what + "program %r, want %r" % (o["program"], m.program))
    check(o["events"] == m.events_defined, what + "events %r" % o["events"])
    near(o["wall_ns"], m.ns(m.end - m.first), 0, what + "wall")
    threads = j["threads"]["threads"]
    check(len(threads) == len(m.locations), what + "thread rows")
    cols = ("work_ns", "implicit_barrier_ns", "explicit_barrier_ns", "taskwait_ns",
            "taskgroup_ns", "lock_ns", "critical_ns", "fork_join_ns", "task_create_ns",
            "runtime_ns")
    for i, (row, loc) in enumerate(zip(threads, m.locations)):
        got = m.ticks[loc._ref]
        for c in cols:
            near(row[c], m.ns(got[c]), 1, what + "thread %d %s" % (i, c))
        total = sum(row[c] for c in cols) + row["serial_ns"] + row["idle_ns"]
        near(total, o["wall_ns"], len(cols) + 2, what + "thread %d times add up to the run" % i)
        check(row["wait_ns"] <= o["wall_ns"], what + "thread %d waits longer than the run" % i)
    # tasks
    t = j["tasks"]["summary"]
    ntasks = sum(m.completed.values())
    check((t["count"], t["created"]) == (ntasks, m.creates),
          what + "tasks run/created %r/%r, want %d/%d" % (t["count"], t["created"], ntasks,
                                                         m.creates))
    near(t["total_ns"], sum(m.ns(v) for v in m.task_ticks.values()), ntasks, what + "task time")
    check({c["region"]: c["count"] for c in j["tasks"]["constructs"]} == dict(m.completed),
          what + "tasks per construct %r" % j["tasks"]["constructs"])
    # barrier waits: charged somewhere, never longer than the thread's time in the region
    regs = {r["region"]: r for r in j["regions"]["regions"]}
    per_thread = collections.defaultdict(dict)
    for r in j["regions"]["threads"]:
        per_thread[r["region"]][r["thread"]] = r
    for i, row in enumerate(threads):
        charged = sum(r["barrier_wait_per_thread_ns"][i] for r in regs.values())
        near(charged, row["implicit_barrier_ns"] + row["explicit_barrier_ns"], 2 * len(regs),
             what + "thread %d barrier wait over the rows" % i)
    outer = [k for k, r in regs.items() if r["kind"] == "parallel"]
    for k, r in regs.items():
        for i, w in enumerate(r["barrier_wait_per_thread_ns"]):
            inside = [per_thread[k].get(i, {}).get("time_ns", 0)] if r["kind"] == "parallel" \
                else [per_thread[p].get(i, {}).get("time_ns", 0) for p in outer]
            check(w <= max(inside), what + "%s thread %d: barrier wait %d > time %r" %
                  (k, i, w, inside))
        if r["kind"] == "parallel":
            check(max(r["barrier_wait_per_thread_ns"]) <= r["total_ns"],
                  what + "%s: barrier wait beyond the region" % k)
            check(r["total_ns"] <= o["wall_ns"], what + "%s longer than the run" % k)
    # locks
    got = {x["name"]: x["acquisitions"] for x in j["locks"]["locks"]} if "locks" in j else {}
    check(got == dict(m.acquired), what + "lock acquisitions %r, want %r" % (got, m.acquired))
    # text and CSV say the same
    txt = run(SUMMARY, anchor).stdout
    csv_out = run(SUMMARY, "--format", "csv", anchor).stdout
    for out, fmt in ((p.stdout, "json"), (txt, "text"), (csv_out, "csv")):
        check("@0x" not in out and "Process" not in out, what + fmt + " names")
    check(re.search(r"Program\s+%s\n" % m.program, txt) is not None, what + "text program")
    check(("Taskwait" in txt) == (threads[0]["taskwait_ns"] > 0), what + "text taskwait column")
    block = csv_out.split("# threads.threads\n")[1].split("\n\n")[0]
    rows = list(csv.DictReader(io.StringIO(block)))
    check([int(r["taskwait_ns"]) for r in rows] == [r["taskwait_ns"] for r in threads],
          what + "csv taskwait")
    return m, j, regions


def main():
    fib, j, _ = check_archive("fib-n12")
    check(sum(fib.completed.values()) == 464 and fib.creates == 464, "fib: 464 tasks")
    t0, t1 = j["threads"]["threads"]
    check(t0["taskwait_ns"] > 0 and t1["taskwait_ns"] > 0, "fib: taskwait reported as taskwait")
    check(t0["explicit_barrier_ns"] == 0 == t1["explicit_barrier_ns"], "fib: no explicit barrier")
    check(j["overview"]["run"]["program"] == "fib", "fib: program name")
    lines = pragma_lines(os.path.join(FIXTURES, "mixed.c"))
    want_locks = [{"critical @ mixed.c:18": 24}, {"critical @ mixed.c:18": 24, "omp_set_lock": 24}]
    for name, locks in zip(("mixed", "mixed-locks"), want_locks):
        m, j, regions = check_archive(name)
        check(dict(m.acquired) == locks, name + ": 24 critical (+ 24 lock) acquisitions")
        seen = collections.defaultdict(set)
        for _, cls, line, _ in regions:
            if int(line):
                seen[cls].add(int(line))
        for construct, cls in (("parallel", "parallel"), ("for", "loop"), ("barrier", "barrier"),
                               ("critical", "critical"), ("single", "single"), ("task", "task"),
                               ("taskwait", "taskwait"), ("taskgroup", "taskgroup")):
            check(seen[cls] == lines[construct],
                  "%s: %s lines %r, mixed.c has %r" % (name, cls, seen[cls], lines[construct]))
    print("%d failures" % len(failures))
    return 1 if failures else 0


sys.exit(main())
