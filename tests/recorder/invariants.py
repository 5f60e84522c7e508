"""Invariants every omptrace archive must satisfy (docs/otf2-mapping.md):
definitions, region names and roles, per-location nesting and time order,
fork/join and teams, task create/switch/complete pairing, lock acquisition
order, and the repair of libomp's late worker barrier ends."""

import collections
import os
import socket

from otf2.enums import Paradigm, RegionRole

from archive import (REGION_NAME, SKIP_ADJACENT, TASK_ROLES, construct_of, markers,
                     next_event, prev_event)

# Role of every construct name in the mapping table.
ROLES = {
    "parallel": RegionRole.PARALLEL,
    "teams": RegionRole.PARALLEL,
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


def check_generic(t, source=None, program=None, complete=True, pid=None):
    """Invariants of every archive. complete=False for programs that exit
    inside a parallel region (fork/join, task and lock pairs may stay open;
    Enter/Leave and team begin/end must still balance)."""
    _check_definitions(t, source, program, pid)
    first_switch, ran_on = _first_switches(t)
    for l in t.locs:
        _check_location(t, l, complete, first_switch, ran_on)
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
        if r.paradigm == Paradigm.USER:  # named by the program (omp_control_tool, docs/control.md)
            continue
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


def _first_switches(t):
    """Time of each explicit task's first ThreadTaskSwitch over all
    locations, and the locations it ran on."""
    first, ran_on = {}, collections.defaultdict(set)
    for l in t.locs:
        for e in t.events[l]:
            if type(e).__name__ == "ThreadTaskSwitch" and e.generation_number:
                key = (e.creating_thread, e.generation_number)
                ran_on[key].add(l)
                if key not in first or e.time < first[key]:
                    first[key] = e.time
    return first, ran_on


def _check_location(t, l, complete, first_switch, ran_on):
    """One region stack per task (docs/otf2-mapping.md, "Tasks"): a switch
    away from a task keeps its open regions without a Leave, a switch back
    to it continues them without an Enter."""
    evs = t.events[l]
    lo = t.clock.global_offset
    hi = lo + t.clock.trace_length
    prev = None
    stack, forks, teams = [], 0, []
    owners = []  # the task each open region of `stack` belongs to
    running = {}  # team -> task running in it (creator, generation); absent: implicit
    suspended = {}  # task -> (regions, owners) it had open when it was left
    foreign = set()  # untied tasks resumed here after running elsewhere
    for i, e in enumerate(evs):
        k = type(e).__name__
        where = "location %d event %d (%s)" % (l, i, k)
        team = teams[-1] if teams else None
        current = running.get(team, (l, 0, team))
        if k == "ThreadTaskSwitch":
            key = (e.creating_thread, e.generation_number)
            current = running.get(e.thread_team, (l, 0, e.thread_team))
            if current[1] != 0 and key != current:
                n = len(owners)
                while n and owners[n - 1] == current:
                    n -= 1
                if n < len(owners):
                    suspended[current] = (stack[n:], owners[n:])
                    del stack[n:], owners[n:]
            if key[1] != 0 and key != current and key in suspended:
                regions, who = suspended.pop(key)
                stack += regions
                owners += who
            elif key[1] != 0 and key != current and e.time > first_switch.get(key, e.time):
                foreign.add(key)  # resumed here, began elsewhere: its Enters are there
            elif key[1] != 0 and key != current:
                nxt = next_event(evs, i)
                if nxt is None or type(nxt).__name__ != "Enter" or \
                        nxt.region.region_role not in TASK_ROLES:
                    t.fail("%s: switch to a task not followed by Enter(task)" % where)
            if key[1] == 0 and e.creating_thread != l:
                t.fail("%s: switch to another thread's implicit task" % where)
            if key[1] == 0:
                running.pop(e.thread_team, None)
            else:
                running[e.thread_team] = key
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
            owners.append(current)
        elif k == "Leave":
            if current in foreign and (not owners or owners[-1] != current):
                pass  # a region it entered on another location
            elif not stack:
                t.fail("%s: Leave(%r) with no open region" % (where, e.region.name))
            else:
                owners.pop()
                top = stack.pop()
                if top.region != e.region:
                    t.fail("%s: Leave(%r) while %r is open" % (where, e.region.name,
                                                                top.region.name))
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
            nxt = next_event(evs, i)
            if nxt is None or type(nxt).__name__ != "Enter" or \
                    nxt.region.region_role != RegionRole.PARALLEL:
                t.fail("%s: not followed by Enter(parallel)" % where)
            if l not in [m._ref for m in e.thread_team.group.members]:
                t.fail("%s: location is not a member of team %r" % (where, e.thread_team.name))
        elif k == "ThreadTeamEnd":
            if not teams or teams.pop() != e.thread_team:
                t.fail("%s: ThreadTeamEnd does not match the open team" % where)
            prv = prev_event(evs, i)
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
        elif k == "ThreadTaskComplete":
            prv = prev_event(evs, i)
            if prv is None or type(prv).__name__ != "Leave" or \
                    prv.region.region_role not in TASK_ROLES:
                t.fail("%s: not preceded by Leave(task)" % where)
        elif k in ("ThreadAcquireLock", "ThreadReleaseLock"):
            if e.model != Paradigm.OPENMP:
                t.fail("%s: model %s" % (where, e.model))
    if stack:
        t.fail("location %d: %d regions left open: %r" % (l, len(stack),
                                                           [s.region.name for s in stack]))
    for key, (regions, _) in suspended.items():
        if len(ran_on[key]) > 1:
            continue  # an untied task that went on elsewhere
        t.fail("location %d: task %r left suspended with %r open" % (
            l, key, [s.region.name for s in regions]))
    if complete and forks:
        t.fail("location %d: %d ThreadFork without ThreadJoin" % (l, forks))
    if teams:  # closing a parallel region at the end also ends its team
        t.fail("location %d: %d ThreadTeamBegin without ThreadTeamEnd" % (l, len(teams)))


def _check_tasks(t, complete):
    created, completed = {}, collections.defaultdict(list)
    for l in t.locs:
        for e in t.events[l]:
            k = type(e).__name__
            key = (getattr(e, "creating_thread", 0), getattr(e, "generation_number", 0))
            if k == "ThreadTaskCreate":
                if key in created:
                    t.fail("task %r created twice" % (key,))
                if e.generation_number == 0:
                    t.fail("task created with generation 0 on location %d" % l)
                created[key] = e.time
            elif k == "ThreadTaskComplete":
                completed[key].append(e.time)
    gens = collections.defaultdict(list)
    for c, g in created:
        gens[c].append(g)
    for c, gs in gens.items():
        t.expect("generations of creator %d" % c, sorted(gs), list(range(1, len(gs) + 1)))
    for l in t.locs:
        current = {}  # per team: a task with a parallel region inside runs on in its own team
        for e in t.events[l]:
            k = type(e).__name__
            if k == "ThreadTaskSwitch":
                key = (e.creating_thread, e.generation_number)
                current[e.thread_team] = key
                if e.generation_number == 0:
                    continue
                if key not in created:
                    t.fail("location %d switches to task %r that was never created" % (l, key))
                elif e.time < created[key]:
                    t.fail("task %r starts before its creation" % (key,))
                if completed[key] and e.time > min(completed[key]):
                    t.fail("location %d switches to task %r at %d, after its completion at %d" % (
                        l, key, e.time, min(completed[key])))
            elif k == "ThreadTaskComplete":
                key = (e.creating_thread, e.generation_number)
                cur = current.get(e.thread_team, (l, 0))
                if key != cur:
                    t.fail("location %d completes task %r while running %r" % (l, key, cur))
    for key in created:
        n = len(completed[key])
        if n != 1 and (complete or n > 1):
            t.fail("task %r completed %d times" % (key, n))
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
