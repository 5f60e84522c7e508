"""Exact expectations per test program, derived from the program's OpenMP
semantics (tests/recorder/progs/*.c). `m` maps marker names of the
program's `/* @name */` comments to source lines.

Conventions: `each=[...]` lists the non-zero per-location counts (which
worker becomes which location is up to libomp); location 0 is the initial
thread, so `loc0=` pins what the master does.

RUNTIME is the LLVM version of the libomp the program ran on (run_case.py
--runtime; the support matrix, docs/recording.md "Runtime versions"): a
check whose records legitimately differ per runtime decides from it."""

import collections

from archive import REGION_NAME, construct_of, next_event

RUNTIME = 14


def _fork_sizes(t, loc):
    return [e.number_of_requested_threads for e in t.events[loc]
            if type(e).__name__ == "ThreadFork"]


def _lock_counts(t):
    c = collections.Counter()
    for l in t.locs:
        for e in t.events[l]:
            if type(e).__name__ == "ThreadAcquireLock":
                c[e.lock_id] += 1
    return sorted(c.values())


def _every_wait_kept(t):
    """Runs with counters keep every sync wait region (samples do not)."""
    return any(t.kind_count("Metric", l) for l in t.locs)


def _barrier_pair(t, construct, line, each):
    # No task runs inside these barriers: each wait spans its whole barrier
    # and is left out (docs/otf2-mapping.md, "Sync regions").
    t.expect_enters(construct, line, each=each)
    if _every_wait_kept(t):
        t.expect_enters(construct + " wait", line, each=each)
    else:
        t.expect_enters(construct + " wait", line, total=0)


def check_parallel(t, m):
    t.expect("locations", len(t.locs), 4)
    t.expect_kind("ThreadFork", each=[6, 1], loc0=6)
    t.expect_kind("ThreadJoin", each=[6, 1], loc0=6)
    t.expect("fork sizes on location 0", _fork_sizes(t, 0), [2, 2, 1, 3, 4, 2])
    t.expect_kind("ThreadTeamBegin", total=2 + 4 + 1 + 3 + 4 + 2)
    t.expect_kind("ThreadTeamEnd", total=16)
    expected = {"outer": [1, 1], "serial": [1], "three": [1, 1, 1], "four": [1, 1, 1, 1],
                "two": [1, 1]}
    for name, each in expected.items():
        t.expect_enters("parallel", m[name], each=each, loc0=1)
        if name == "serial":  # a serialized region has no barrier
            _barrier_pair(t, "implicit barrier", m[name], [])
        else:
            _barrier_pair(t, "implicit barrier", m[name], each)
    # The two inner teams have four members; when the first inner team ends
    # before the second forms, libomp may give its worker to both.
    waits = ("implicit barrier wait",) if _every_wait_kept(t) else ()
    if not waits:
        t.expect_enters("implicit barrier wait", m["inner"], total=0)
    for construct in ("parallel", "implicit barrier") + waits:
        counts = t.per_loc(lambda l: t.enter_count(construct, m["inner"], l))
        if t.multiset(counts) not in ([1, 1, 1, 1], [2, 1, 1]) or counts[:1] != [1]:
            t.fail("Enter(%s @ inner) per location: %r" % (construct, counts))
    sizes = {"outer": [2], "inner": [2, 2], "serial": [1], "three": [3], "four": [4], "two": [2]}
    for name, want in sizes.items():
        t.expect("team sizes at @%s" % name, t.team_sizes(m[name]), want)
    outer = t.team_comm(m["outer"])
    inner = t.team_comm(m["inner"])
    t.expect("distinct inner teams", len(inner), 2)
    for c in outer:
        t.expect("parent of the outer team", c.parent, None)
    for c in inner:
        t.expect("parent of inner team %r" % c.name, c.parent in outer, True)


def check_loop(t, m):
    t.expect("locations", len(t.locs), 2)
    t.expect_enters("parallel", m["par"], each=[1, 1])
    for name in ("static", "dynamic", "nowait"):
        t.expect_enters("loop", m[name], each=[1, 1])
    _barrier_pair(t, "implicit barrier", m["static"], [1, 1])
    _barrier_pair(t, "implicit barrier", m["dynamic"], [1, 1])
    _barrier_pair(t, "implicit barrier", m["nowait"], [])
    _barrier_pair(t, "implicit barrier", m["par"], [1, 1])
    t.expect_enters("implicit barrier", None, each=[3, 3])


def check_sections(t, m):
    t.expect_enters("parallel", m["par"], each=[1, 1])
    t.expect_enters("sections", m["sections"], each=[1, 1])
    _barrier_pair(t, "implicit barrier", m["sections"], [1, 1])
    _barrier_pair(t, "implicit barrier", m["par"], [1, 1])
    t.expect_enters("implicit barrier", None, each=[2, 2])


def check_single(t, m):
    t.expect_enters("single", m["single"], each=[1, 1])
    t.expect_enters("single sblock", m["single"], each=[1])
    _barrier_pair(t, "implicit barrier", m["single"], [1, 1])
    t.expect_enters("single", m["nowait"], each=[1, 1])
    t.expect_enters("single sblock", m["nowait"], each=[1])
    _barrier_pair(t, "implicit barrier", m["nowait"], [])
    _barrier_pair(t, "implicit barrier", m["par"], [1, 1])


def check_masked(t, m):
    t.expect_enters("masked", m["master"], loc0=1, total=1)
    t.expect_enters("masked", m["masked"], loc0=1, total=1)
    t.expect_enters("masked", m["filter"], loc0=0, total=1)
    t.expect_enters("masked", None, each=[2, 1])


def check_barrier(t, m):
    t.expect("locations", len(t.locs), 3)
    _barrier_pair(t, "barrier", m["first"], [1, 1, 1])
    _barrier_pair(t, "barrier", m["second"], [1, 1, 1])
    _barrier_pair(t, "barrier", m["loop"], [3, 3, 3])
    _barrier_pair(t, "implicit barrier", m["par"], [1, 1, 1])
    t.expect_enters("barrier", None, each=[5, 5, 5])


def check_flush(t, m):
    t.expect_enters("flush", m["flush"], each=[1, 1])
    t.expect_enters("flush", m["list"], each=[3, 3])


# Creation order of the 17 tasks in tasks.c: marker of each generation.
TASK_SITES = (["plain"] * 4 + ["grouped"] * 3 + ["dep_out"] + ["dep_in"] * 2 + ["dep_inout"] +
              ["untied"] + ["undeferred"] + ["taskloop"] * 4)


def check_tasks(t, m):
    n = len(TASK_SITES)
    t.expect_kind("ThreadTaskCreate", each=[n], total=n)
    t.expect_kind("ThreadTaskComplete", total=n)
    t.expect_enters("task create", None, each=[n])
    for site, count in collections.Counter(TASK_SITES).items():
        t.expect_enters("task create", m[site], total=count)
        if site != "untied":
            t.expect_enters("task", m[site], total=count)
    t.expect_enters("task", None, total=n - 1)
    t.expect_enters("single", m["single"], each=[1, 1])
    t.expect_enters("single sblock", m["single"], each=[1])
    t.expect_enters("taskwait", m["taskwait"], each=[1])
    t.expect_enters("taskwait", m["taskwait2"], each=[1])
    t.expect_enters("taskgroup", m["taskgroup"], each=[1])
    t.expect_enters("taskgroup", m["taskloop"], each=[1])  # taskloop's implicit taskgroup
    t.expect_enters("taskloop", m["taskloop"], each=[1])
    _check_task_sites(t, m)
    _check_dependences(t, m)


def _check_task_sites(t, m):
    """The first switch to generation g enters the task region of g's
    pragma; later switches to it (an untied task resumed, possibly on
    another thread) continue its regions without an Enter."""
    creator = [l for l in t.locs if t.kind_count("ThreadTaskCreate", l)]
    if len(creator) != 1:
        return
    creator = creator[0]
    switches = []
    for l in t.locs:
        evs = t.events[l]
        for i, e in enumerate(evs):
            if type(e).__name__ == "ThreadTaskSwitch" and e.generation_number != 0:
                switches.append((e.time, l, i))
    started = set()
    for _, l, i in sorted(switches):
        evs = t.events[l]
        e = evs[i]
        g = e.generation_number
        if e.creating_thread != creator or not 1 <= g <= len(TASK_SITES):
            t.fail("switch to unexpected task (%d, %d)" % (e.creating_thread, g))
            continue
        if g in started:
            continue
        started.add(g)
        nxt = next_event(evs, i)
        rm = REGION_NAME.match(nxt.region.name) if nxt is not None and \
            type(nxt).__name__ == "Enter" else None
        site = TASK_SITES[g - 1]
        want = "untied task" if site == "untied" else "task"
        if not rm or rm.group("construct") != want or int(rm.group("line")) != m[site]:
            t.fail("task %d (@%s) runs as %r" % (g, site, nxt.region.name if nxt else None))
    t.expect("tasks started", len(started), len(TASK_SITES))
    t.expect_enters("untied task", m["untied"], total=1)
    params = collections.Counter()
    for l in t.locs:
        for e in t.events[l]:
            if type(e).__name__ == "ParameterUnsignedInt":
                params[e.parameter.name] += 1
    # libomp reports depend(out) as inout.
    t.expect("dependence parameters", dict(params), {"omp depend(inout)": 2, "omp depend(in)": 2})


def _check_dependences(t, m):
    def spans(site):
        return sorted(s for l in t.locs for s in t.spans(l, "task", m[site]))

    out, ins, inout = spans("dep_out"), spans("dep_in"), spans("dep_inout")
    if len(out) != 1 or len(ins) != 2 or len(inout) != 1:
        return  # counted above
    for s in ins:
        if s[0] < out[0][1]:
            t.fail("depend(in) task starts at %d before depend(out) task ends at %d" % (
                s[0], out[0][1]))
        if inout[0][0] < s[1]:
            t.fail("depend(inout) task starts at %d before depend(in) task ends at %d" % (
                inout[0][0], s[1]))


def check_critical(t, m):
    for name, n in (("unnamed", 10), ("named", 5)):
        t.expect_enters("critical", m[name], each=[n, n])
        t.expect_enters("critical wait", m[name], each=[n, n])
        t.expect_enters("critical sblock", m[name], each=[n, n])
    t.expect_kind("ThreadAcquireLock", each=[15, 15])
    t.expect_kind("ThreadReleaseLock", each=[15, 15])
    t.expect("acquisitions per lock", _lock_counts(t), [10, 20])


def check_locks(t, m):
    t.expect_enters("omp_set_lock", m["set"], each=[5, 5])
    t.expect_enters("omp_set_nest_lock", m["nest_outer"], each=[3, 3])
    # Every omp_set_nest_lock call is a region; nested re-acquisitions
    # write no lock records.
    t.expect_enters("omp_set_nest_lock", m["nest_inner"], each=[3, 3])
    t.expect_enters("omp_set_lock", m["hold"], loc0=1, total=1)
    t.expect_enters("omp_set_lock", m["test_fail"], loc0=0, total=1)
    t.expect_enters("omp_set_lock", m["test_ok"], loc0=0, total=1)
    # A re-acquisition by the holder does not wait: no lock wait @nest_inner.
    t.expect_enters("lock wait", m["nest_inner"], total=0)
    t.expect_enters("lock wait", None, total=10 + 6 + 3)
    for b in ("b1", "b2", "b3"):
        _barrier_pair(t, "barrier", m[b], [1, 1])
    # loc0: 5 set + hold + 3 nest; worker: 5 set + test_ok + 3 nest.
    t.expect_kind("ThreadAcquireLock", each=[9, 9], loc0=9)
    t.expect_kind("ThreadReleaseLock", each=[9, 9], loc0=9)
    t.expect("acquisitions per lock", _lock_counts(t), [6, 12])


def check_ordered(t, m):
    t.expect_enters("loop", m["loop"], each=[1, 1])
    t.expect_enters("ordered", m["ordered"], each=[4, 4])
    t.expect_enters("ordered wait", m["ordered"], each=[4, 4])
    t.expect_enters("ordered sblock", m["ordered"], each=[4, 4])
    t.expect_kind("ThreadAcquireLock", each=[4, 4])
    t.expect("acquisitions per lock", _lock_counts(t), [8])
    # schedule(static, 1): iteration i runs on thread i % 2, in order.
    owners = sorted((e.acquisition_order, l) for l in t.locs for e in t.events[l]
                    if type(e).__name__ == "ThreadAcquireLock")
    got = [l == 0 for _, l in owners]
    t.expect("ordered blocks on location 0 by acquisition order", got,
             [i % 2 == 0 for i in range(8)])


def check_reduction(t, m):
    t.expect_enters("reduction", m["par"], each=[1, 1])
    t.expect_enters("reduction", m["par2"], each=[1, 1])
    t.expect_enters("loop", m["loop"], each=[1, 1])


def check_tree_reduce(t, m):
    """The master's implementation barrier at the loop holds its wait and,
    inside it, the one reduction; the worker's wait spans its barrier and
    is left out (docs/otf2-mapping.md, sync regions)."""
    t.expect_enters("loop", m["loop"], each=[1, 1])
    t.expect_enters("implementation barrier", m["loop"], each=[1, 1])
    t.expect_enters("reduction", m["loop"], loc0=1, total=1)
    t.expect_enters("implementation barrier wait", m["loop"], loc0=1, total=1)
    names = [e.region.name.split(" @ ")[0] for e in t.events[t.locs[0]]
             if type(e).__name__ in ("Enter", "Leave")]
    i = names.index("implementation barrier") if "implementation barrier" in names else 0
    t.expect("master's barrier, its wait and the reduction inside", names[i:i + 6],
             ["implementation barrier", "implementation barrier wait", "reduction", "reduction",
              "implementation barrier wait", "implementation barrier"])


def check_cancel(t, m):
    t.expect_enters("cancel parallel activated", m["cancel_par"], each=[1, 1])
    t.expect_enters("cancel loop activated", m["cancel_for"], each=[1, 1])
    t.expect_enters("loop", m["loop"], each=[1, 1])
    t.expect_enters("parallel", m["par"], each=[1, 1])
    t.expect_enters("parallel", m["par2"], each=[1, 1])


def check_exit_inside(t, m):
    t.expect_enters("parallel", m["par"], each=[1, 1])
    _barrier_pair(t, "barrier", m["barrier"], [1, 1])
    t.expect_kind("ThreadFork", each=[1], loc0=1)
    t.expect_kind("ThreadTeamBegin", each=[1, 1])


def check_exit_task(t, m):
    t.expect_enters("parallel", m["par"], each=[1, 1])
    _barrier_pair(t, "barrier", m["barrier"], [1, 1])
    t.expect_enters("task create", m["task"], loc0=1, total=1)
    t.expect_kind("ThreadTaskCreate", loc0=1, total=1)
    # Thread 0 is sampled after its last record (the task create): those
    # samples must not push the deferred Leave(task create) back in time.
    if t.kind_count("CallingContextSample", 0) == 0:
        t.fail("no sample on location 0 during its 20 ms of computation")


def check_serial_gap(t, m):
    t.expect("locations", len(t.locs), 2)
    for name in ("first", "second"):
        t.expect_enters("parallel", m[name], each=[1, 1], loc0=1)
    joins = [e.time for e in t.events[0] if type(e).__name__ == "ThreadJoin"]
    forks = [e.time for e in t.events[0] if type(e).__name__ == "ThreadFork"]
    if len(joins) != 2 or len(forks) != 2:
        return
    gap = forks[1] - joins[0]
    if gap < 200 * 10**6:
        t.fail("serial gap on the master is %d ns, the program sleeps 200 ms" % gap)
    # Structural, whatever the load: the worker's end-barrier wait lies inside
    # the master's fork..join of @first; had the serial gap leaked in, it
    # would run on to the next fork.
    region = joins[0] - forks[0]
    worker_wait = sum(b - a for a, b in t.spans(1, "implicit barrier", m["first"]))
    if worker_wait > region:
        t.fail("the worker's end barrier of @first waits %d ns in a %d ns region: the serial gap "
               "leaked in" % (worker_wait, region))
    for a, b in t.spans(1, "parallel", m["first"]):
        if b > joins[0]:
            t.fail("the worker leaves @first at %d, after the master's join at %d" % (b, joins[0]))


def check_app(t, m):
    t.expect_enters("parallel", m["par"], each=[1, 1])


def check_spill(t, m):
    t.expect_enters("parallel", m["par"], each=[200, 200])
    t.expect_enters("critical", m["critical"], each=[200 * 100, 200 * 100])
    t.expect_enters("barrier", m["barrier"], each=[200, 200])


def check_gcc_parallel(t, m):
    t.expect_enters("parallel", m["first"], each=[1, 1], loc0=1)
    t.expect_enters("parallel", m["second"], each=[1, 1], loc0=1)
    t.expect_kind("ThreadFork", each=[2], loc0=2)


def _line_of(region):
    rm = REGION_NAME.match(region.name)
    return int(rm.group("line")) if rm else None


def _enclosing(t, construct, line):
    """(location, enclosing regions outermost first, team entered with it)
    for every Enter of construct at line."""
    out = []
    for l in t.locs:
        stack, team = [], None
        for e in t.events[l]:
            k = type(e).__name__
            if k == "ThreadTeamBegin":
                team = e.thread_team
            elif k == "Enter":
                if construct_of(e.region) == construct and _line_of(e.region) == line:
                    out.append((l, [(construct_of(s.region), _line_of(s.region)) for s in stack],
                                team))
                stack.append(e)
                team = None
            elif k == "Leave" and stack:
                stack.pop()
    return out


def check_teams(t, m):
    t.expect("locations", len(t.locs), 2)
    # League fork sizes are the teams that ran; the parallel region in each
    # team of @league_par has one thread (thread_limit(1)). libomp's
    # internal region of each team writes no fork, team or region.
    t.expect("fork sizes on location 0", _fork_sizes(t, 0), [2, 2, 1, 2, 1])
    t.expect("fork sizes on location 1", _fork_sizes(t, 1), [1])
    t.expect_kind("ThreadJoin", each=[5, 1], loc0=5)
    t.expect_kind("ThreadTeamBegin", each=[5, 4], loc0=5)
    t.expect_kind("ThreadTeamEnd", each=[5, 4], loc0=5)
    for name in ("league", "league_par", "league_dist"):
        t.expect_enters("teams", m[name], each=[1, 1], loc0=1)
        _barrier_pair(t, "implicit barrier", m[name], [1, 1])
    t.expect_enters("teams", m["one"], each=[1], loc0=1)
    _barrier_pair(t, "implicit barrier", m["one"], [])  # a league of one team has no barrier
    t.expect_enters("parallel", m["inner"], each=[1, 1])
    t.expect_enters("parallel", None, each=[1, 1])
    t.expect_enters("distribute", m["dist"], each=[1, 1])
    leagues = set()
    for name, members in (("league", [0, 1]), ("league_par", [0, 1]), ("league_dist", [0, 1]),
                          ("one", [0])):
        for l, outer, comm in _enclosing(t, "teams", m[name]):
            t.expect("regions around teams @%s on location %d" % (name, l), outer, [])
            if comm is None:
                t.fail("teams @%s on location %d: no ThreadTeamBegin" % (name, l))
                continue
            leagues.add(comm)
            t.expect("league of @%s" % name,
                     (comm.name.split()[1], [x._ref for x in comm.group.members], comm.parent),
                     ("league", members, None))
    for l, outer, comm in _enclosing(t, "parallel", m["inner"]):
        t.expect("regions around parallel @inner on location %d" % l, outer,
                 [("teams", m["league_par"])])
        if comm is not None:
            t.expect("team of parallel @inner on location %d" % l,
                     (comm.name.split()[1], [x._ref for x in comm.group.members],
                      comm.parent in leagues), ("team", [l], True))
    for l, outer, _ in _enclosing(t, "distribute", m["dist"]):
        t.expect("regions around distribute on location %d" % l, outer,
                 [("teams", m["league_dist"])])


REPS = 5  # gcc_single.c


def check_gcc_single(t, m):
    """GOMP_single_start reports no end to the executing thread: each single
    ends where that thread begins the construct after it."""
    t.expect("locations", len(t.locs), 2)
    t.expect_kind("ThreadFork", each=[1], loc0=1)
    t.expect("fork sizes on location 0", _fork_sizes(t, 0), [2])
    t.expect("team sizes at @par", t.team_sizes(m["par"]), [2])
    t.expect_enters("parallel", m["par"], each=[1, 1], loc0=1)
    for name in ("single", "nowait"):
        t.expect_enters("single", m[name], each=[REPS, REPS])
        t.expect_enters("single sblock", m[name], total=REPS)
    _barrier_pair(t, "implementation barrier", m["single_body"], [REPS, REPS])
    _barrier_pair(t, "implicit barrier", m["par"], [1, 1])
    for name in ("single", "nowait"):
        for l, outer, _ in _enclosing(t, "single", m[name]):
            if outer != [("parallel", m["par"])]:
                t.fail("single @%s on location %d entered inside %r" % (name, l, outer))
    follows = {m["single"]: [("implementation barrier", m["single_body"])],
               m["nowait"]: [("single", m["nowait"]), ("implicit barrier", m["par"])]}
    for l in t.locs:
        evs = t.events[l]
        for i, e in enumerate(evs):
            if type(e).__name__ != "Leave" or construct_of(e.region) != "single":
                continue
            executed = i > 0 and type(evs[i - 1]).__name__ == "Leave" and \
                construct_of(evs[i - 1].region) == "single sblock"
            nxt = next_event(evs, i)
            got = (construct_of(nxt.region), _line_of(nxt.region)) \
                if nxt is not None and type(nxt).__name__ == "Enter" else None
            if got not in follows.get(_line_of(e.region), []):
                t.fail("location %d: %r is followed by %r" % (l, e.region.name, got))
            elif executed and nxt.time != e.time:
                t.fail("location %d: the executed %r ends at %d, the next construct begins at %d"
                       % (l, e.region.name, e.time, nxt.time))


def check_nested_tasks(t, m):
    # Team of one: each child runs at its creation while the parent is
    # suspended; the parent's regions stay open across (one Enter).
    t.expect_enters("task", m["solo_parent"], total=1)
    t.expect_enters("task create", m["solo_parent"], total=1)
    t.expect_enters("taskwait", m["solo_wait"], total=1)
    t.expect_enters("task create", m["team_parent"], total=2)
    t.expect_enters("task create", m["child"], total=6)
    t.expect_enters("task", m["child"], total=6)
    t.expect_kind("ThreadTaskCreate", total=9)
    t.expect_kind("ThreadTaskComplete", total=9)
    # One Enter per task and per taskwait, whatever the suspensions.
    t.expect_enters("task", m["team_parent"], total=2)
    t.expect_enters("taskwait", m["wait"], total=3)


def _params(t):
    c = collections.Counter()
    for l in t.locs:
        for e in t.events[l]:
            if type(e).__name__ == "ParameterUnsignedInt":
                c[e.parameter.name] += 1
    return dict(c)


def _param_owners(t):
    """(parameter name, region name of the innermost open region) per
    dependence parameter: where a reader finds it."""
    owners = []
    for l in t.locs:
        stack = []
        for e in t.events[l]:
            k = type(e).__name__
            if k == "Enter":
                stack.append(e.region.name)
            elif k == "Leave" and stack:
                stack.pop()
            elif k == "ParameterUnsignedInt":
                owners.append((e.parameter.name, stack[-1] if stack else None))
    return sorted(owners)


def _max_depth(t, loc):
    """Deepest region stack of a running task (a suspended task's open
    regions belong to its own stack, not to the one running)."""
    own = {}  # task -> its open regions
    current, below, peak = (loc, 0), 0, 0
    for e in t.events[loc]:
        k = type(e).__name__
        if k == "ThreadTaskSwitch":
            if current[1] == 0:
                below = own.get(current, 0)
            current = (e.creating_thread, e.generation_number)
        elif k in ("Enter", "Leave"):
            own[current] = own.get(current, 0) + (1 if k == "Enter" else -1)
        depth = own.get(current, 0) + (below if current[1] else 0)
        peak = max(peak, depth)
    return peak


def check_task_final(t, m):
    # rec(d) creates 2 tasks for d >= 1: 2 + 4 + ... + 2^10 = 2046, half per site.
    n = 2 ** 11 - 2
    t.expect_kind("ThreadTaskCreate", each=[n], total=n)
    t.expect_kind("ThreadTaskComplete", total=n)
    t.expect_enters("task create", m["fin"], total=n // 2)
    t.expect_enters("task create", m["merge"], total=n // 2)
    # Every task is entered once, however often it is suspended for a child
    # (and the untied ones for libomp's C->P, C->C).
    for construct, site in (("untied task", "fin"), ("task", "merge")):
        t.expect_enters(construct, m[site], total=n // 2)
    # One taskwait per call with d >= 1: 2^10 - 1.
    t.expect_enters("taskwait", m["fwait"], total=2 ** 10 - 1)
    # Every task suspends its parent: a running stack never holds more than
    # parallel > single > sblock > taskwait (> wait) > task.
    t.expect("peak nesting on location 0", _max_depth(t, 0) <= 6, True)


def check_task_depwait(t, m):
    t.expect_kind("ThreadTaskCreate", each=[2], total=2)  # the pseudo task is none
    t.expect_kind("ThreadTaskComplete", total=2)
    t.expect_kind("ThreadTaskSwitch", total=4)  # to each task and back, no stray one
    t.expect_enters("task create", m["producer"], total=1)
    t.expect_enters("task create", m["if0"], total=1)
    t.expect_enters("taskwait", m["dwait"], total=1)
    t.expect_enters("taskwait wait", m["dwait"], total=1)
    t.expect_enters("taskwait", m["wait"], total=1)
    # libomp reports depend(out) as inout.
    t.expect("dependence parameters and their regions", _param_owners(t), sorted([
        ("omp depend(inout)", "task create @ task_depwait.c:%d" % m["producer"]),
        ("omp depend(in)", "taskwait @ task_depwait.c:%d" % m["dwait"]),
        ("omp depend(inout)", "task create @ task_depwait.c:%d" % m["if0"])]))


def check_task_detach(t, m):
    t.expect_kind("ThreadTaskCreate", loc0=2, total=2)
    t.expect_kind("ThreadTaskComplete", loc0=2, total=2)
    t.expect_enters("task create", m["late"], total=1)
    t.expect_enters("task create", m["early"], total=1)
    # The late task's body, then its completion at the fulfill (zero length).
    t.expect_enters("task", m["late"], loc0=2, total=2)
    t.expect_enters("task", m["early"], loc0=1, total=1)
    late = t.spans(0, "task", m["late"])
    if len(late) == 2 and late[1][0] != late[1][1]:
        t.fail("the late-fulfill completion lasts %d ns" % (late[1][1] - late[1][0]))


def check_task_cancel(t, m):
    t.expect_kind("ThreadTaskCreate", each=[4], total=4)
    # Discarded tasks complete too (zero length), after the discard marker.
    t.expect_kind("ThreadTaskComplete", each=[4], total=4)
    t.expect_enters("task", m["task"], each=[4])
    t.expect_enters("cancel taskgroup activated", m["cancel"], each=[1])
    t.expect_enters("cancel taskgroup discarded", None, each=[3])
    spans = t.spans(0, "task", m["task"])
    t.expect("zero-length (discarded) tasks", sum(1 for a, b in spans[1:] if a == b), 3)


def check_doacross(t, m):
    t.expect_enters("loop", m["loop"], each=[1, 1])
    # N = 6 iterations: each posts its source, all but the first wait on a sink.
    t.expect("dependence parameters", _params(t),
             {"omp depend(source)": 6, "omp depend(sink)": 5})
    t.expect("regions holding them", {r for _, r in _param_owners(t)},
             {"loop @ doacross.c:%d" % m["loop"]})


def check_task_nested_par(t, m):
    t.expect_kind("ThreadTaskCreate", total=3)
    t.expect_kind("ThreadTaskComplete", total=3)
    t.expect_enters("task", m["task"], loc0=1, total=1)  # never suspended by the inner team
    t.expect_enters("task", m["child"], total=2)
    t.expect_enters("parallel", m["inner"], each=[1, 1], loc0=1)


def check_error_directive(t, m):
    """`error at(execution)` (libomp 19's ompt_callback_error; clang before
    19 does not compile it): a zero-length region per encounter."""
    t.expect_enters("parallel", m["par"], each=[1, 1], loc0=1)
    t.expect_enters("error", m["each"], each=[1, 1])
    t.expect_enters("masked", m["masked"], loc0=1, total=1)
    t.expect_enters("error", m["master"], loc0=1, total=1)
    for a, b in t.spans(0, "error", m["master"]):
        if a != b:
            t.fail("the error directive @master lasts %d ns" % (b - a))


# name -> (check, environment, exit status, complete)
CASES = {
    "parallel": (check_parallel, {}, 0, True),
    "loop": (check_loop, {}, 0, True),
    "sections": (check_sections, {}, 0, True),
    "single": (check_single, {}, 0, True),
    "masked": (check_masked, {}, 0, True),
    "barrier": (check_barrier, {}, 0, True),
    "flush": (check_flush, {}, 0, True),
    "tasks": (check_tasks, {}, 0, True),
    "nested_tasks": (check_nested_tasks, {}, 0, True),
    "critical": (check_critical, {}, 0, True),
    "locks": (check_locks, {}, 0, True),
    "ordered": (check_ordered, {}, 0, True),
    "reduction": (check_reduction, {"KMP_FORCE_REDUCTION": "critical"}, 0, True),
    "tree_reduce": (check_tree_reduce, {"KMP_FORCE_REDUCTION": "tree"}, 0, True),
    "cancel": (check_cancel, {"OMP_CANCELLATION": "true"}, 0, True),
    "exit_inside": (check_exit_inside, {}, 3, False),
    "exit_task": (check_exit_task, {"OMPTRACE_SAMPLING": "1kHz"}, 3, False),
    "serial_gap": (check_serial_gap, {}, 0, True),
    "app": (check_app, {}, 0, True),
    "spill": (check_spill, {}, 0, True),
    "gcc_parallel": (check_gcc_parallel, {}, 0, True),
    "task_final": (check_task_final, {}, 0, True),
    "task_depwait": (check_task_depwait, {}, 0, True),
    "task_detach": (check_task_detach, {}, 0, True),
    "task_cancel": (check_task_cancel, {"OMP_CANCELLATION": "true"}, 0, True),
    "doacross": (check_doacross, {}, 0, True),
    "task_nested_par": (check_task_nested_par, {}, 0, True),
    "gcc_single": (check_gcc_single, {}, 0, True),
    "teams": (check_teams, {}, 0, True),
    # libomp prints the directive's warning unless KMP_WARNINGS=0.
    "error_directive": (check_error_directive, {"KMP_WARNINGS": "0"}, 0, True),
}
