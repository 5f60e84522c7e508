"""Independent reader for omptrace archives: loads an OTF2 archive with the
python3-otf2 bindings, checks the invariants every archive must satisfy
(docs/otf2-mapping.md) and offers exact count expectations for the
per-program cases. Cross-checks event totals with otf2-print."""

import collections
import os
import re
import socket
import subprocess

import otf2
from otf2.enums import Paradigm, RegionRole

REGION_NAME = re.compile(r"^(?P<construct>.+) @ (?P<file>.+):(?P<line>\d+)$")
MARKER = re.compile(r"/\*\s*@(\w+)\s*\*/")

# Role of every construct name in the mapping table.
ROLES = {
    "parallel": RegionRole.PARALLEL,
    "implicit barrier": RegionRole.IMPLICIT_BARRIER,
    "barrier": RegionRole.BARRIER,
    "implementation barrier": RegionRole.IMPLICIT_BARRIER,
    "taskwait": RegionRole.TASK_WAIT,
    "taskgroup": RegionRole.TASK_WAIT,
    "loop": RegionRole.LOOP,
    "taskloop": RegionRole.LOOP,
    "sections": RegionRole.SECTIONS,
    "single": RegionRole.SINGLE,
    "single sblock": RegionRole.SINGLE_SBLOCK,
    "masked": RegionRole.MASTER,
    "critical": RegionRole.CRITICAL,
    "critical sblock": RegionRole.CRITICAL_SBLOCK,
    "ordered": RegionRole.ORDERED,
    "ordered sblock": RegionRole.ORDERED_SBLOCK,
    "omp_set_lock": RegionRole.WRAPPER,
    "omp_set_nest_lock": RegionRole.WRAPPER,
    "lock wait": RegionRole.ARTIFICIAL,
    "reduction": RegionRole.WRAPPER,
    "flush": RegionRole.FLUSH,
    "task create": RegionRole.TASK_CREATE,
    "task": RegionRole.TASK,
    "untied task": RegionRole.TASK_UNTIED,
    "atomic": RegionRole.ATOMIC,
    "atomic sblock": RegionRole.ATOMIC,
    "workshare": RegionRole.WORKSHARE,
    "distribute": RegionRole.LOOP,
    "scope": RegionRole.WRAPPER,
    "omp_control_tool": RegionRole.ARTIFICIAL,
    "error": RegionRole.ARTIFICIAL,
}
# "<sync> wait" regions take the role of their sync region and sit directly
# inside it; "lock wait" sits inside the lock call.
WAIT_PARENTS = {"lock wait": ("omp_set_lock", "omp_set_nest_lock")}
ZERO_LENGTH = ("flush", "task create", "omp_control_tool", "error")
TASK_ROLES = (RegionRole.TASK, RegionRole.TASK_UNTIED)
SKIP_ADJACENT = ("Metric",)  # records that may sit between paired records


def construct_of(region):
    m = REGION_NAME.match(region.name)
    return m.group("construct") if m else region.name


def markers(source):
    """Marker name -> line number, from `/* @name */` comments in source."""
    found = {}
    with open(source) as f:
        for number, text in enumerate(f, 1):
            for m in MARKER.finditer(text):
                if m.group(1) in found:
                    raise ValueError("marker @%s appears twice in %s" % (m.group(1), source))
                found[m.group(1)] = number
    return found


class Trace:
    """All definitions and per-location event lists of one archive."""

    def __init__(self, anchor):
        self.anchor = anchor
        self.failures = []
        with otf2.reader.open(anchor) as reader:
            d = reader.definitions
            self.clock = d.clock_properties
            self.locations = sorted(d.locations, key=lambda l: l._ref)
            self.regions = list(d.regions)
            self.comms = list(d.comms)
            self.groups = list(d.groups)
            self.location_groups = list(d.location_groups)
            self.system_tree = list(d.system_tree_nodes)
            self.paradigms = list(d.paradigms)
            self.events = {l._ref: [] for l in self.locations}
            for loc, ev in reader.events:
                self.events[loc._ref].append(ev)
        self.locs = [l._ref for l in self.locations]

    # ---- reporting -------------------------------------------------------
    def fail(self, msg):
        self.failures.append(msg)

    def expect(self, what, got, want):
        if got != want:
            self.fail("%s: expected %r, got %r" % (what, want, got))

    # ---- queries -----------------------------------------------------------
    def kind_count(self, kind, loc):
        return sum(1 for e in self.events[loc] if type(e).__name__ == kind)

    def enter_count(self, construct, line, loc):
        n = 0
        for e in self.events[loc]:
            if type(e).__name__ == "Enter":
                m = REGION_NAME.match(e.region.name)
                if m and m.group("construct") == construct and (
                        line is None or int(m.group("line")) == line):
                    n += 1
        return n

    def per_loc(self, fn):
        """Counts per location, in location order."""
        return [fn(l) for l in self.locs]

    @staticmethod
    def multiset(counts):
        return sorted((c for c in counts if c), reverse=True)

    def spans(self, loc, construct, line=None):
        """(enter time, leave time) of every instance of a region on loc."""
        out, stack = [], []
        for e in self.events[loc]:
            k = type(e).__name__
            if k == "Enter":
                stack.append(e)
            elif k == "Leave" and stack:
                enter = stack.pop()
                m = REGION_NAME.match(enter.region.name)
                if m and m.group("construct") == construct and (
                        line is None or int(m.group("line")) == line):
                    out.append((enter.time, e.time))
        return out

    # ---- expectations (exact) --------------------------------------------------
    def expect_enters(self, construct, line, each=None, loc0=None, total=None, tag=""):
        """each: per-location Enter counts as a multiset of the non-zero
        counts (which worker is which location is not fixed); loc0: count on
        the initial thread; total: sum over all locations."""
        counts = self.per_loc(lambda l: self.enter_count(construct, line, l))
        what = "Enter(%s @ line %s)%s" % (construct, line, tag)
        if each is not None:
            self.expect(what + " per location", self.multiset(counts),
                        sorted((c for c in each if c), reverse=True))
        if loc0 is not None:
            self.expect(what + " on location 0", counts[0] if counts else 0, loc0)
        if total is not None:
            self.expect(what + " total", sum(counts), total)

    def expect_kind(self, kind, each=None, loc0=None, total=None):
        counts = self.per_loc(lambda l: self.kind_count(kind, l))
        if each is not None:
            self.expect(kind + " per location", self.multiset(counts),
                        sorted((c for c in each if c), reverse=True))
        if loc0 is not None:
            self.expect(kind + " on location 0", counts[0] if counts else 0, loc0)
        if total is not None:
            self.expect(kind + " total", sum(counts), total)

    def team_sizes(self, line):
        """Sizes of the teams entered at the parallel region of `line`, one
        entry per ThreadTeamBegin on the region's master (member 0)."""
        sizes = []
        for l in self.locs:
            evs = self.events[l]
            for i, e in enumerate(evs):
                if type(e).__name__ != "ThreadTeamBegin":
                    continue
                nxt = self._next(evs, i)
                if nxt is None or type(nxt).__name__ != "Enter":
                    continue
                m = REGION_NAME.match(nxt.region.name)
                if not m or m.group("construct") != "parallel" or int(m.group("line")) != line:
                    continue
                members = e.thread_team.group.members
                if members and members[0]._ref == l:
                    sizes.append(len(members))
        return sorted(sizes)

    def team_comm(self, line):
        """The distinct team Comms entered at the parallel region of `line`."""
        comms = set()
        for l in self.locs:
            evs = self.events[l]
            for i, e in enumerate(evs):
                if type(e).__name__ == "ThreadTeamBegin":
                    nxt = self._next(evs, i)
                    if nxt is not None and type(nxt).__name__ == "Enter":
                        m = REGION_NAME.match(nxt.region.name)
                        if m and m.group("construct") == "parallel" and int(m.group("line")) == line:
                            comms.add(e.thread_team)
        return comms

    @staticmethod
    def _next(evs, i):
        for e in evs[i + 1:]:
            if type(e).__name__ not in SKIP_ADJACENT:
                return e
        return None

    @staticmethod
    def _prev(evs, i):
        for e in reversed(evs[:i]):
            if type(e).__name__ not in SKIP_ADJACENT:
                return e
        return None

    def signature(self):
        """Per-location counts of (record kind, region name), as a sorted list
        (independent of which worker got which location)."""
        sig = []
        for l in self.locs:
            c = collections.Counter()
            for e in self.events[l]:
                k = type(e).__name__
                c[(k, e.region.name if k in ("Enter", "Leave") else "")] += 1
            sig.append(sorted(c.items()))
        return sorted(sig)

    def kinds(self):
        c = collections.Counter()
        for l in self.locs:
            for e in self.events[l]:
                c[type(e).__name__] += 1
        return c


def check_generic(t, source=None, program=None, complete=True, pid=None):
    """Invariants of every archive. complete=False for programs that exit
    inside a parallel region (fork/join, task and lock pairs may stay open;
    Enter/Leave and team begin/end must still balance)."""
    _check_definitions(t, source, program, pid)
    for l in t.locs:
        _check_location(t, l, complete)
    _check_tasks(t, complete)
    _check_locks(t, complete)
    _check_teams(t)


def _check_definitions(t, source, program, pid):
    if not t.locations:
        t.fail("archive has no locations")
    t.expect("location ids", t.locs, list(range(len(t.locs))))
    for loc in t.locations:
        t.expect("location %d name" % loc._ref, loc.name, "OpenMP thread %d" % loc._ref)
        t.expect("location %d type" % loc._ref, str(loc.type), "LocationType.CPU_THREAD")
        t.expect("location %d event count" % loc._ref, loc.number_of_events,
                 len(t.events[loc._ref]))
    if Paradigm.OPENMP not in [p.paradigm for p in t.paradigms]:
        t.fail("no Paradigm definition for OPENMP")
    if program is not None:
        names = [g.name for g in t.location_groups]
        if program not in names:
            t.fail("no location group named %r (have %r)" % (program, names))
    machines = [n for n in t.system_tree if n.class_name == "machine"]
    procs = [n for n in t.system_tree if n.class_name == "process"]
    if len(machines) != 1 or len(procs) != 1:
        t.fail("system tree: expected one machine and one process node, got %r" % t.system_tree)
    else:
        t.expect("machine node name", machines[0].name, socket.gethostname())
        t.expect("process node parent", procs[0].parent, machines[0])
        if pid is not None:
            t.expect("process node name", procs[0].name, str(pid))
        for g in t.location_groups:
            t.expect("location group %r parent" % g.name, g.system_tree_parent, procs[0])
            t.expect("location group %r type" % g.name, str(g.location_group_type),
                     "LocationGroupType.PROCESS")
    lines = set(markers(source).values()) if source else None
    used = {e.region for l in t.locs for e in t.events[l] if type(e).__name__ == "Enter"}
    for r in used:
        m = REGION_NAME.match(r.name)
        if not m:
            t.fail("region name %r is not '<construct> @ <file>:<line>'" % r.name)
            continue
        construct, rfile, rline = m.group("construct"), m.group("file"), int(m.group("line"))
        if r.paradigm != Paradigm.OPENMP:
            t.fail("region %r has paradigm %s" % (r.name, r.paradigm))
        want = _role(construct)
        if want is None:
            t.fail("region %r: construct not in the mapping table" % r.name)
        elif r.region_role != want:
            t.fail("region %r has role %s, expected %s" % (r.name, r.region_role, want))
        if r.source_file is None or os.path.basename(str(r.source_file)) != os.path.basename(rfile):
            t.fail("region %r has source file %r" % (r.name, r.source_file))
        if r.begin_line_number != rline or r.end_line_number != rline:
            t.fail("region %r has lines %d-%d" % (r.name, r.begin_line_number,
                                                  r.end_line_number))
        if r.canonical_name != r.name or r.description != r.name:
            t.fail("region %r: canonical name %r, description %r" % (
                r.name, r.canonical_name, r.description))
        if source is not None:
            if os.path.basename(rfile) != os.path.basename(source):
                t.fail("region %r is not in %s" % (r.name, os.path.basename(source)))
            elif rline not in lines:
                t.fail("region %r: line %d holds no construct marker" % (r.name, rline))


def _role(construct):
    if construct in ROLES:
        return ROLES[construct]
    if construct.startswith("cancel "):
        parts = construct.split()
        ok = (len(parts) == 3 and parts[1] in ("parallel", "sections", "loop", "taskgroup")
              and parts[2] in ("activated", "detected", "discarded"))
        return RegionRole.ARTIFICIAL if ok else None
    if construct.endswith(" wait"):
        return _role(construct[:-5])
    return None


def _check_location(t, l, complete):
    evs = t.events[l]
    lo = t.clock.global_offset
    hi = lo + t.clock.trace_length
    prev = None
    stack, forks, teams = [], 0, []
    current = (l, 0)  # running task (creator, generation)
    closed = []  # regions left by the current run of Leave records, innermost first
    suspended = {}  # task -> regions open inside it when it was suspended, outermost first
    resume = None  # (task, regions still to be re-entered, resume time)
    for i, e in enumerate(evs):
        k = type(e).__name__
        where = "location %d event %d (%s)" % (l, i, k)
        if resume is not None and resume[2] is None and k not in SKIP_ADJACENT:
            resume = (resume[0], resume[1], e.time)  # the task's own Enter
        elif resume is not None and k not in SKIP_ADJACENT:
            task, todo, at = resume
            if k == "Enter" and todo and e.region == todo[0] and e.time == at:
                todo.pop(0)
            elif todo:
                t.fail("%s: task %r resumed without re-entering %r at %d" % (
                    where, task, [r.name for r in todo], at))
                todo.clear()
            if not todo:
                resume = None
        if k == "Leave":
            if construct_of(e.region) not in ZERO_LENGTH:
                closed.append(e.region)
        elif k not in SKIP_ADJACENT:
            closed = []
        if k == "Leave" and e.region.region_role in TASK_ROLES:
            nxt = Trace._next(evs, i)
            if nxt is not None and type(nxt).__name__ == "ThreadTaskSwitch":
                suspended[current] = list(reversed(closed[:-1]))
        elif k == "ThreadTaskSwitch":
            current = (e.creating_thread, e.generation_number)
            if current in suspended:
                nxt = Trace._next(evs, i)
                todo = suspended.pop(current)
                if todo:
                    resume = (current, todo, None)
        if prev is not None and e.time < prev:
            t.fail("%s: time %d before the previous %d" % (where, e.time, prev))
        prev = e.time
        if not lo <= e.time <= hi:
            t.fail("%s: time %d outside the clock range [%d, %d]" % (where, e.time, lo, hi))
        if k == "Enter":
            c = construct_of(e.region)
            if c.endswith(" wait"):
                parents = WAIT_PARENTS.get(c, (c[:-5],))
                top = construct_of(stack[-1].region) if stack else None
                if top not in parents:
                    t.fail("%s: %r entered inside %r, expected inside %s" % (
                        where, e.region.name, stack[-1].region.name if stack else None, parents))
            stack.append(e)
        elif k == "Leave":
            if not stack:
                t.fail("%s: Leave(%r) with no open region" % (where, e.region.name))
            else:
                top = stack.pop()
                if top.region != e.region:
                    t.fail("%s: Leave(%r) while %r is open" % (where, e.region.name, top.region.name))
                elif construct_of(top.region).startswith("cancel ") or \
                        construct_of(top.region) in ZERO_LENGTH:
                    if e.time != top.time:
                        t.fail("%s: %r should have zero length, lasts %d ns" % (
                            where, e.region.name, e.time - top.time))
        elif k == "ThreadFork":
            forks += 1
            if e.model != Paradigm.OPENMP:
                t.fail("%s: model %s" % (where, e.model))
            team = next((x.thread_team for x in evs[i + 1:]
                         if type(x).__name__ == "ThreadTeamBegin"), None)
            members = [m._ref for m in team.group.members] if team is not None else []
            if not complete and team is None:
                pass  # exit() before the team began
            elif len(members) != e.number_of_requested_threads or members[:1] != [l]:
                t.fail("%s: fork of %d threads, but the next team has members %r" % (
                    where, e.number_of_requested_threads, members))
        elif k == "ThreadJoin":
            forks -= 1
            if forks < 0:
                t.fail("%s: ThreadJoin without ThreadFork" % where)
                forks = 0
        elif k == "ThreadTeamBegin":
            teams.append(e.thread_team)
            nxt = Trace._next(evs, i)
            if nxt is None or type(nxt).__name__ != "Enter" or \
                    nxt.region.region_role != RegionRole.PARALLEL:
                t.fail("%s: not followed by Enter(parallel)" % where)
            if l not in [m._ref for m in e.thread_team.group.members]:
                t.fail("%s: location is not a member of team %r" % (where, e.thread_team.name))
        elif k == "ThreadTeamEnd":
            if not teams or teams.pop() != e.thread_team:
                t.fail("%s: ThreadTeamEnd does not match the open team" % where)
            prv = Trace._prev(evs, i)
            if prv is None or type(prv).__name__ != "Leave" or \
                    prv.region.region_role != RegionRole.PARALLEL:
                t.fail("%s: not preceded by Leave(parallel)" % where)
        if k in ("ThreadTaskCreate", "ThreadTaskSwitch", "ThreadTaskComplete") and teams and \
                e.thread_team != teams[-1]:
            t.fail("%s: team %r, but the innermost team is %r" % (
                where, e.thread_team.name, teams[-1].name))
        if k == "ThreadTaskCreate":
            if not stack or stack[-1].region.region_role != RegionRole.TASK_CREATE:
                t.fail("%s: not inside a task create region" % where)
            if e.creating_thread != l:
                t.fail("%s: creating thread %d" % (where, e.creating_thread))
        elif k == "ThreadTaskSwitch":
            nxt = Trace._next(evs, i)
            if e.generation_number != 0 and (nxt is None or type(nxt).__name__ != "Enter" or
                                             nxt.region.region_role not in TASK_ROLES):
                t.fail("%s: switch to a task not followed by Enter(task)" % where)
            if e.generation_number == 0 and e.creating_thread != l:
                t.fail("%s: switch to another thread's implicit task" % where)
        elif k == "ThreadTaskComplete":
            prv = Trace._prev(evs, i)
            if prv is None or type(prv).__name__ != "Leave" or \
                    prv.region.region_role not in TASK_ROLES:
                t.fail("%s: not preceded by Leave(task)" % where)
        elif k in ("ThreadAcquireLock", "ThreadReleaseLock"):
            if e.model != Paradigm.OPENMP:
                t.fail("%s: model %s" % (where, e.model))
    if stack:
        t.fail("location %d: %d regions left open: %r" % (l, len(stack),
                                                           [s.region.name for s in stack]))
    if complete and forks:
        t.fail("location %d: %d ThreadFork without ThreadJoin" % (l, forks))
    if teams:  # closing a parallel region at the end also ends its team
        t.fail("location %d: %d ThreadTeamBegin without ThreadTeamEnd" % (l, len(teams)))


def _check_tasks(t, complete):
    created, completed, last_switch = {}, collections.Counter(), {}
    for l in t.locs:
        for e in t.events[l]:
            if type(e).__name__ == "ThreadTaskCreate":
                key = (e.creating_thread, e.generation_number)
                if key in created:
                    t.fail("task %r created twice" % (key,))
                if e.generation_number == 0:
                    t.fail("task created with generation 0 on location %d" % l)
                created[key] = e.time
    gens = collections.defaultdict(list)
    for c, g in created:
        gens[c].append(g)
    for c, gs in gens.items():
        t.expect("generations of creator %d" % c, sorted(gs), list(range(1, len(gs) + 1)))
    for l in t.locs:
        current = (l, 0)
        for e in t.events[l]:
            k = type(e).__name__
            if k == "ThreadTaskSwitch":
                key = (e.creating_thread, e.generation_number)
                current = key
                if e.generation_number == 0:
                    continue
                if key not in created:
                    t.fail("location %d switches to task %r that was never created" % (l, key))
                elif e.time < created[key]:
                    t.fail("task %r starts before its creation" % (key,))
                if completed[key]:
                    t.fail("location %d switches to task %r after its completion" % (l, key))
                last_switch[key] = l
            elif k == "ThreadTaskComplete":
                key = (e.creating_thread, e.generation_number)
                completed[key] += 1
                if key != current:
                    t.fail("location %d completes task %r while running %r" % (l, key, current))
    for key in created:
        if completed[key] != 1 and (complete or completed[key] > 1):
            t.fail("task %r completed %d times" % (key, completed[key]))
    for key in completed:
        if key not in created:
            t.fail("task %r completed but never created" % (key,))


def _check_locks(t, complete):
    acquisitions = collections.defaultdict(list)
    for l in t.locs:
        held = collections.defaultdict(list)
        for e in t.events[l]:
            k = type(e).__name__
            if k == "ThreadAcquireLock":
                acquisitions[e.lock_id].append((e.time, e.acquisition_order, l))
                held[e.lock_id].append(e.acquisition_order)
            elif k == "ThreadReleaseLock":
                if not held[e.lock_id]:
                    t.fail("location %d releases lock %d it does not hold" % (l, e.lock_id))
                else:
                    order = held[e.lock_id].pop()
                    if order != e.acquisition_order:
                        t.fail("location %d releases lock %d with order %d, acquired as %d" % (
                            l, e.lock_id, e.acquisition_order, order))
        if complete:
            for lock, orders in held.items():
                if orders:
                    t.fail("location %d never releases lock %d (orders %r)" % (l, lock, orders))
    firsts = sorted((min(acq)[0], lock) for lock, acq in acquisitions.items())
    t.expect("lock ids in order of first acquisition", [lock for _, lock in firsts],
             list(range(len(firsts))))
    for lock, acq in acquisitions.items():
        orders = [o for _, o, _ in sorted(acq)]
        if orders != list(range(1, len(orders) + 1)):
            t.fail("lock %d: acquisition orders in time order are %r" % (lock, orders))


def _check_teams(t):
    """A worker's team membership ends no later than the master's join
    (libomp reports the end late; the recorder moves it)."""
    joins = collections.defaultdict(list)  # comm -> master's join time per instance
    ends = collections.defaultdict(lambda: collections.defaultdict(list))
    for l in t.locs:
        evs = t.events[l]
        for i, e in enumerate(evs):
            if type(e).__name__ != "ThreadTeamEnd":
                continue
            members = e.thread_team.group.members
            if members and members[0]._ref == l:
                join = next((x for x in evs[i + 1:] if type(x).__name__ == "ThreadJoin"), None)
                joins[e.thread_team].append(join.time if join is not None else None)
            else:
                ends[e.thread_team][l].append(e.time)
    for comm, per_loc in ends.items():
        for l, times in per_loc.items():
            for n, end in enumerate(times):
                js = joins.get(comm, [])
                if n < len(js) and js[n] is not None and end > js[n]:
                    t.fail("location %d leaves team %r at %d, after the master's join at %d "
                           "(+%d ns)" % (l, comm.name, end, js[n], end - js[n]))


def otf2_print_counts(anchor):
    """Event counts per (record name, location) from otf2-print, which reads
    the archive with OTF2's own C reader."""
    p = subprocess.run(["otf2-print", anchor], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        raise RuntimeError("otf2-print failed (%d): %s" % (p.returncode, p.stderr.strip()))
    counts = collections.Counter()
    started = False
    for line in p.stdout.splitlines():
        if line.startswith("-----"):
            started = True
            continue
        if not started:
            continue
        f = line.split()
        if len(f) >= 3 and f[0].isupper() and f[1].isdigit():
            counts[(f[0], int(f[1]))] += 1
    return counts, p.stderr


# otf2-print's names where they differ from the record class names.
PRINT_NAMES = {"ParameterUnsignedInt": "PARAMETER_UINT64", "ParameterInt": "PARAMETER_INT64"}


def upper_snake(name):
    if name in PRINT_NAMES:
        return PRINT_NAMES[name]
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).upper()


def check_with_otf2_print(t):
    try:
        counts, err = otf2_print_counts(t.anchor)
    except RuntimeError as e:
        t.fail(str(e))
        return
    if err.strip():
        t.fail("otf2-print warnings: %s" % err.strip().splitlines()[0])
    mine = collections.Counter()
    for l in t.locs:
        for e in t.events[l]:
            mine[(upper_snake(type(e).__name__), l)] += 1
    if mine != counts:
        diff = sorted(set(mine) | set(counts))
        detail = ["%s@%d: python %d, otf2-print %d" % (k[0], k[1], mine[k], counts[k])
                  for k in diff if mine[k] != counts[k]]
        t.fail("otf2-print counts differ: " + "; ".join(detail[:10]))


def summary(t):
    """A short human-readable digest, printed by the test drivers."""
    lines = ["%d locations, %d events, kinds %s" % (
        len(t.locs), sum(len(v) for v in t.events.values()), dict(sorted(t.kinds().items())))]
    for l in t.locs:
        c = collections.Counter(construct_of(e.region) + ":" + e.region.name.rsplit(":", 1)[-1]
                                for e in t.events[l] if type(e).__name__ == "Enter")
        lines.append("  loc %d: %s" % (l, ", ".join("%s x%d" % kv for kv in sorted(c.items()))))
    return "\n".join(lines)
