"""The replay test table (tests/replay/replay_tests.py): groups of cases,
each a few raw records per location and the exact events expected there.
Records are (ts, TYPE, kind, a, b, c); ts in ns (clock=monotonic)."""
import random

# OMPT constants (omp-tools.h)
INITIAL_T, WORKER_T = 1, 2  # ompt_thread_t
T_INITIAL, T_IMPLICIT, T_EXPLICIT, T_TASKWAIT = 0x1, 0x2, 0x4, 0x10  # ompt_task_flag_t
T_UNDEFERRED, T_UNTIED, T_FINAL = 0x08000000, 0x10000000, 0x20000000
COMPLETE, YIELD, CANCEL, DETACH, EARLY, LATE, SWITCH, TW_COMPLETE = 1, 2, 3, 4, 5, 6, 7, 8
BARRIER_EXPL, BARRIER_IMPL, TASKWAIT, TASKGROUP, BARRIER_WS, BARRIER_PAR = 3, 4, 5, 6, 8, 9  # ompt_sync_region_t
LOOP, SINGLE_EXEC, SINGLE_OTHER = 1, 3, 4  # ompt_work_t
M_LOCK, M_TEST, M_NEST, M_CRITICAL = 1, 2, 3, 5  # ompt_mutex_t
PROGRAM = 0x1  # invoker flag of parallel begin/end (OT_PAR_* kind)
LEAGUE = 0x40  # OT_PAR_LEAGUE

CP = 0x401000  # a code pointer (no MAPS: named by address)
CP2 = 0x402000


def task(thread, gen, site=0):
    """OT_TASK_ID"""
    return thread << 48 | site << 32 | gen


def par(thread, seq):
    """OT_PARALLEL_ID"""
    return thread << 48 | seq


P1 = par(0, 1)


def master(body, t0=100):
    """The initial thread: thread and initial task around body."""
    return (INITIAL_T, [(t0, "THREAD_BEGIN", INITIAL_T, 0, 0, 0),
                        (t0 + 1, "IMPLICIT_BEGIN", T_INITIAL, 1, 0, 0)] + body +
            [(9000, "IMPLICIT_END", T_INITIAL, 1, 0, 0), (9001, "THREAD_END", 0, 0, 0, 0)])


def region(body, t0=1000, t1=8000, size=1, pid=P1, cp=CP):
    """A parallel region of `size` threads around body, as its master
    records it (implicit task 0 of the team)."""
    return ([(t0, "PARALLEL_BEGIN", PROGRAM, size, cp, pid),
             (t0 + 1, "IMPLICIT_BEGIN", T_IMPLICIT, size, pid, 0)] + body +
            [(t1 - 1, "IMPLICIT_END", T_IMPLICIT, size, pid, 0),
             (t1, "PARALLEL_END", PROGRAM, 0, cp, pid)])


def solo(body):
    """One location running body inside a parallel region of one thread."""
    return {0: master(region(body))}


PSEUDO = task(0, 0x80000001)  # pseudo task of a dependent taskwait / if(0) depend
I0, T1, T2, T3 = task(0, 0), task(0, 1), task(0, 2), task(0, 3)  # implicit, explicit tasks
LOCK = 0x7FFF0000  # a lock's wait id (its address)


def sched(ts, kind, prior, nxt):
    return (ts, "TASK_SCHEDULE", kind, 0, prior, nxt)


def create(ts, tid, flags=T_EXPLICIT, cp=CP2):
    return (ts, "TASK_CREATE", 0, flags, cp, tid)


IN1 = ["Fork 1", "TeamBegin", "E parallel"]  # a one-thread region, as its master shows it
OUT1 = ["L parallel", "TeamEnd", "Join"]
CREATE1, CREATE2 = ["E task create", "TaskCreate 0:1", "L task create"], \
    ["E task create", "TaskCreate 0:2", "L task create"]
RUN1 = ["TaskSwitch 0:1", "E task"]
DONE1 = ["L task", "TaskComplete 0:1", "TaskSwitch 0:0"]


def untied_migrating(seed=7, ntasks=60, steps=4000):
    """Untied tasks with deep region stacks, suspended and resumed over and
    over on two threads (a suspended task resumes on either): every
    resumption brings back exactly the regions left open (docs/otf2-mapping.md
    "Tasks"). The expected events follow from the mapping alone: a switch
    writes TaskSwitch (and Enter(untied task) the first time the task runs),
    a taskgroup its Enter and Leave, a completion Leave(untied task),
    TaskComplete and the switch to the implicit task."""
    rng = random.Random(seed)
    ids = [task(0, g, site=g % 4) for g in range(1, ntasks + 1)]
    name = {t: "0:%d" % (t & 0xffffffff) for t in ids}
    maxdepth = {t: rng.randint(1, 40) for t in ids}
    depth = {t: 0 for t in ids}
    unstarted, suspended = list(ids), []
    running = {0: None, 1: None}
    recs, want = {0: [], 1: []}, {0: [], 1: []}
    ts = 1002
    for t in ids:
        recs[0].append(create(ts, t, T_EXPLICIT | T_UNTIED))
        want[0] += ["E task create", "TaskCreate " + name[t], "L task create"]
        ts += 1

    def switch_to(loc, nxt):
        prior = running[loc] or task(loc, 0)
        recs[loc].append(sched(ts, SWITCH, prior, nxt))
        want[loc].append("TaskSwitch " + name[nxt])
        if nxt in unstarted:
            unstarted.remove(nxt)
            want[loc].append("E untied task")
        else:
            suspended.remove(nxt)
        if running[loc]:
            suspended.append(running[loc])
        running[loc] = nxt

    def to_implicit(loc, complete):
        t = running[loc]
        recs[loc].append(sched(ts, COMPLETE if complete else SWITCH, t, task(loc, 0)))
        if complete:
            want[loc] += ["L untied task", "TaskComplete " + name[t]]
        else:
            suspended.append(t)
        want[loc].append("TaskSwitch %d:0" % loc)
        running[loc] = None

    def group(loc, begin):
        t = running[loc]
        recs[loc].append((ts, "SYNC_BEGIN" if begin else "SYNC_END", TASKGROUP, 0, CP, P1))
        want[loc].append(("E " if begin else "L ") + "taskgroup")
        depth[t] += 1 if begin else -1

    def step(loc, draining):
        t, ready = running[loc], unstarted + suspended
        if t is None:
            if ready:
                switch_to(loc, rng.choice(ready))
            return
        r = rng.random()
        if draining or r < 0.05:  # finish: close what is open, then complete
            if depth[t]:
                group(loc, False)
            else:
                to_implicit(loc, True)
        elif r < 0.55 and depth[t] < maxdepth[t]:
            group(loc, True)
        elif r < 0.7 and depth[t]:
            group(loc, False)
        elif r < 0.85 and ready:
            switch_to(loc, rng.choice(ready))
        else:
            to_implicit(loc, False)

    for _ in range(steps):
        ts += 1
        step(rng.randint(0, 1), False)
    while unstarted or suspended or running[0] or running[1]:
        ts += 1
        step(rng.randint(0, 1), True)
    end = ts + 100
    return {
        "locs": {0: (INITIAL_T, [(100, "THREAD_BEGIN", INITIAL_T, 0, 0, 0),
                                 (101, "IMPLICIT_BEGIN", T_INITIAL, 1, 0, 0),
                                 (1000, "PARALLEL_BEGIN", PROGRAM, 2, CP, P1),
                                 (1001, "IMPLICIT_BEGIN", T_IMPLICIT, 2, P1, 0)] + recs[0] +
                     [(end - 1, "IMPLICIT_END", T_IMPLICIT, 2, P1, 0),
                      (end, "PARALLEL_END", PROGRAM, 0, CP, P1),
                      (end + 10, "IMPLICIT_END", T_INITIAL, 1, 0, 0),
                      (end + 11, "THREAD_END", 0, 0, 0, 0)]),
                 1: (WORKER_T, [(900, "THREAD_BEGIN", WORKER_T, 0, 0, 0),
                                (1100, "IMPLICIT_BEGIN", T_IMPLICIT, 2, P1, 1)] + recs[1] +
                     [(end - 2, "IMPLICIT_END", T_IMPLICIT, 2, P1, 1),
                      (end + 20, "THREAD_END", 0, 0, 0, 0)])},
        "want": {0: ["Fork 2", "TeamBegin", "E parallel"] + want[0] + OUT1,
                 1: ["TeamBegin", "E parallel"] + want[1] + ["L parallel", "TeamEnd"]}}


def create_sites():
    cp3, cp4 = 0x403000, 0x404000
    seq = [(3, CP2), (3, CP2), (3, CP), (3, 0), (67, cp4), (3, CP2), (67, cp4), (3, 0)]
    recs, want, ts = [], [], 2000
    for g, (site, cp) in enumerate(seq, 1):
        if cp == 0:
            recs.append((ts, "WORK_BEGIN", LOOP, 10, cp3, P1))
            want.append("E loop @ %#x" % cp3)
        recs.append(create(ts + 1, task(0, g, site), T_EXPLICIT, cp))
        want += ["E task create @ %#x" % (cp or cp3), "TaskCreate 0:%d" % g,
                 "L task create @ %#x" % (cp or cp3)]
        if cp == 0:
            recs.append((ts + 2, "WORK_END", LOOP, 10, cp3, P1))
            want.append("L loop @ %#x" % cp3)
        ts += 10
    return {"names": True, "locs": solo(recs),
            "want": {0: ["Fork 1", "TeamBegin", "E parallel @ %#x" % CP] + want +
                     ["L parallel @ %#x" % CP, "TeamEnd", "Join"]}}


TASKS = {
    # create -> schedule P->C -> completion C->P
    "create_run": {
        "locs": solo([create(2000, T1), sched(2100, SWITCH, I0, T1),
                      sched(2200, COMPLETE, T1, I0)]),
        "want": {0: IN1 + CREATE1 + RUN1 + DONE1 + OUT1}},
    # suspension in a taskwait and resumption: the parent's regions stay
    # open in its own stack across the child (no Leave, no Enter again)
    "suspend_resume": {
        "locs": solo([create(2000, T1), sched(2100, SWITCH, I0, T1), create(2200, T2),
                      (2300, "SYNC_BEGIN", TASKWAIT, 0, CP, P1), sched(2400, SWITCH, T1, T2),
                      sched(2500, COMPLETE, T2, T1), (2600, "SYNC_END", TASKWAIT, 0, CP, P1),
                      sched(2700, COMPLETE, T1, I0)]),
        "want": {0: IN1 + CREATE1 + RUN1 + CREATE2 + ["E taskwait", "TaskSwitch 0:2", "E task",
                 "L task", "TaskComplete 0:2", "TaskSwitch 0:1", "L taskwait"] + DONE1 + OUT1}},
    # ... with its wait: spanning the taskwait it is left out, child or not;
    # ending earlier it is written, from the time the parent resumed
    "suspend_in_wait": {
        "times": True,
        "locs": solo([create(2000, T1), sched(2100, SWITCH, I0, T1), create(2200, T2),
                      (2300, "SYNC_BEGIN", TASKWAIT, 0, CP, P1),
                      (2300, "SYNC_WAIT_BEGIN", TASKWAIT, 0, CP, P1), sched(2400, SWITCH, T1, T2),
                      sched(2500, COMPLETE, T2, T1), (2600, "SYNC_WAIT_END", TASKWAIT, 0, CP, P1),
                      (2600, "SYNC_END", TASKWAIT, 0, CP, P1), create(3200, T3),
                      (3300, "SYNC_BEGIN", TASKWAIT, 0, CP, P1),
                      (3300, "SYNC_WAIT_BEGIN", TASKWAIT, 0, CP, P1), sched(3400, SWITCH, T1, T3),
                      sched(3500, COMPLETE, T3, T1), (3550, "SYNC_WAIT_END", TASKWAIT, 0, CP, P1),
                      (3600, "SYNC_END", TASKWAIT, 0, CP, P1), sched(3900, COMPLETE, T1, I0)]),
        "want": {0: ["Fork 1@1000", "TeamBegin@1001", "E parallel@1001", "E task create@2000",
                     "TaskCreate 0:1@2000", "L task create@2000", "TaskSwitch 0:1@2100",
                     "E task@2100", "E task create@2200", "TaskCreate 0:2@2200",
                     "L task create@2200", "E taskwait@2300", "TaskSwitch 0:2@2400",
                     "E task@2400", "L task@2500", "TaskComplete 0:2@2500", "TaskSwitch 0:1@2500",
                     "L taskwait@2600", "E task create@3200", "TaskCreate 0:3@3200",
                     "L task create@3200", "E taskwait@3300", "TaskSwitch 0:3@3400",
                     "E task@3400", "L task@3500", "TaskComplete 0:3@3500", "TaskSwitch 0:1@3500",
                     "E taskwait wait@3500", "L taskwait wait@3550", "L taskwait@3600",
                     "L task@3900", "TaskComplete 0:1@3900", "TaskSwitch 0:0@3900",
                     "L parallel@7999", "TeamEnd@7999", "Join@8000"]}},
    # untied child C in parent P: P->C, C->P, C->C, C done ->P, P->P (the
    # last writes nothing: P runs already)
    "untied_in_parent": {
        "locs": solo([create(2000, T1), sched(2100, SWITCH, I0, T1),
                      create(2200, T2, T_EXPLICIT | T_UNTIED), sched(2300, SWITCH, T1, T2),
                      sched(2400, SWITCH, T2, T1), sched(2500, SWITCH, T2, T2),
                      sched(2600, COMPLETE, T2, T1), sched(2700, SWITCH, T1, T1),
                      sched(2800, COMPLETE, T1, I0)]),
        "want": {0: IN1 + CREATE1 + RUN1 + CREATE2 + [
            "TaskSwitch 0:2", "E untied task",                        # P->C
            "TaskSwitch 0:1",                                         # C->P
            "TaskSwitch 0:2",                                         # C->C
            "L untied task", "TaskComplete 0:2", "TaskSwitch 0:1"]    # C done ->P
            + DONE1 + OUT1}},
    # included (undeferred) and final children run inside their parent
    "included_final": {
        "locs": solo([create(2000, T1), sched(2100, SWITCH, I0, T1),
                      create(2200, T2, T_EXPLICIT | T_UNDEFERRED | T_FINAL),
                      sched(2300, SWITCH, T1, T2), sched(2400, COMPLETE, T2, T1),
                      sched(2500, COMPLETE, T1, I0)]),
        "want": {0: IN1 + CREATE1 + RUN1 + CREATE2 + [
            "TaskSwitch 0:2", "E task", "L task", "TaskComplete 0:2",
            "TaskSwitch 0:1"] + DONE1 + OUT1}},
    # detach: the body ends without completing; the late fulfill completes it
    # as a zero-length piece on the fulfilling thread
    "detached": {
        "locs": solo([create(2000, T1), sched(2100, SWITCH, I0, T1),
                      sched(2200, DETACH, T1, I0), sched(2300, LATE, T1, I0)]),
        "want": {0: IN1 + CREATE1 + RUN1 + ["L task", "TaskSwitch 0:0"] + RUN1 + DONE1 + OUT1}},
    # late fulfill on another thread: that thread shows the zero-length
    # piece and the completion, then returns to its implicit task
    "late_fulfill_elsewhere": {
        "locs": {0: master(region([create(2000, T1), sched(2100, SWITCH, I0, T1),
                                   sched(2200, DETACH, T1, I0)], size=2)),
                 1: (WORKER_T, [(900, "THREAD_BEGIN", WORKER_T, 0, 0, 0),
                                (1100, "IMPLICIT_BEGIN", T_IMPLICIT, 2, P1, 1),
                                sched(2500, LATE, T1, task(1, 0)),
                                (7000, "IMPLICIT_END", T_IMPLICIT, 2, P1, 1),
                                (9500, "THREAD_END", 0, 0, 0, 0)])},
        "want": {0: ["Fork 2", "TeamBegin", "E parallel"] + CREATE1 + RUN1 +
                 ["L task", "TaskSwitch 0:0"] + OUT1,
                 1: ["TeamBegin", "E parallel", "TaskSwitch 0:1", "E task", "L task",
                     "TaskComplete 0:1", "TaskSwitch 1:0", "L parallel", "TeamEnd"]}},
    # early fulfill writes nothing; the task completes at its end
    "early_fulfill": {
        "locs": solo([create(2000, T1), sched(2100, SWITCH, I0, T1),
                      sched(2200, EARLY, T1, I0), sched(2300, COMPLETE, T1, I0)]),
        "want": {0: IN1 + CREATE1 + RUN1 + DONE1 + OUT1}},
    # discarded by cancellation before it ran: zero-length task completed there
    "discarded": {
        "locs": solo([create(2000, T1), (2100, "CANCEL", 0, 0x08 | 0x40, CP, 0),
                      sched(2200, CANCEL, T1, I0)]),
        "want": {0: IN1 + CREATE1 + ["E cancel taskgroup discarded",
                                     "L cancel taskgroup discarded"] + RUN1 + DONE1 + OUT1}},
    # taskwait depend(...): pseudo task = taskwait > taskwait wait, no task
    "dependent_taskwait": {
        "locs": solo([create(2000, PSEUDO, T_TASKWAIT | T_UNDEFERRED | T_EXPLICIT, CP),
                      (2000, "DEPENDENCE", 3, 0, 0x1234, PSEUDO),
                      sched(2300, TW_COMPLETE, PSEUDO, I0)]),
        "want": {0: IN1 + ["E taskwait", "ParameterUnsignedInt omp depend(inout)=4660",
                           "E taskwait wait", "L taskwait wait", "L taskwait"] + OUT1}},
    # task if(0) depend(...): the writer moves the pseudo task's dependences
    # into the if(0) task's create region only when both calls resolve to
    # the same source line (scan.c same_line); these logs have no symbols,
    # so the pseudo task stays a dependent taskwait before the task
    "if0_depend": {
        "locs": solo([create(2000, PSEUDO, T_TASKWAIT | T_UNDEFERRED | T_EXPLICIT, CP2),
                      (2000, "DEPENDENCE", 3, 0, 0x1234, PSEUDO),
                      sched(2100, TW_COMPLETE, PSEUDO, I0),
                      create(2200, T1, T_EXPLICIT | T_UNDEFERRED),
                      sched(2300, SWITCH, I0, T1), sched(2400, COMPLETE, T1, I0)]),
        "want": {0: IN1 + ["E taskwait", "ParameterUnsignedInt omp depend(inout)=4660",
                           "E taskwait wait", "L taskwait wait", "L taskwait"]
                 + CREATE1 + RUN1 + DONE1 + OUT1}},
    # deep stacks of untied tasks moving between two threads (suspension storage)
    "untied_migrating": untied_migrating(),
    # a creation site's task create region follows each create's own code
    # pointer (the replay memoizes it per site): another pointer from the
    # same site, NULL (the enclosing loop's), a site sharing the memo's slot
    "create_sites": create_sites(),
}

def barrier(t0, w0, w1, t1, body=()):
    """An explicit barrier from t0 to t1 whose wait runs from w0 to w1."""
    return ([(t0, "SYNC_BEGIN", BARRIER_EXPL, 0, CP, P1),
             (w0, "SYNC_WAIT_BEGIN", BARRIER_EXPL, 0, CP, P1)] + list(body) +
            [(w1, "SYNC_WAIT_END", BARRIER_EXPL, 0, CP, P1), (t1, "SYNC_END", BARRIER_EXPL, 0, CP, P1)])


def many_regions(n=400):
    """Zero-length regions of n code pointers and two constructs, visited in
    an order that returns to each often: every one keeps its own name
    whatever the replay caches in front of its region table."""
    rng = random.Random(11)
    cps = [0x410000 + 0x40 * i for i in range(n)]
    order = list(range(n)) + [rng.randrange(n) for _ in range(3 * n)] + list(range(n))
    recs, want, ts = [], [], 2000
    for k, i in enumerate(order):
        kind = "FLUSH" if k % 3 else "ERROR"
        recs.append((ts, kind, 0, 0, cps[i], 0))
        name = "%s @ %#x" % ("flush" if k % 3 else "error", cps[i])
        want += ["E " + name, "L " + name]
        ts += 1
    return {"names": True, "locs": solo(recs),
            "want": {0: ["Fork 1", "TeamBegin", "E parallel @ %#x" % CP] + want +
                     ["L parallel @ %#x" % CP, "TeamEnd", "Join"]}}


REGIONS = {
    # a wait that spans its whole barrier (the recorder gives such pairs one
    # timestamp) is the barrier: it is left out
    "wait_spans_barrier": {
        "times": True,
        "locs": solo(barrier(2000, 2000, 3000, 3000)),
        "want": {0: ["Fork 1@1000", "TeamBegin@1001", "E parallel@1001", "E barrier@2000",
                     "L barrier@3000", "L parallel@7999", "TeamEnd@7999", "Join@8000"]}},
    # ... but written where it begins later or ends earlier than the barrier
    "wait_inside_barrier": {
        "times": True,
        "locs": solo(barrier(2000, 2100, 2900, 3000) + barrier(4000, 4000, 4900, 5000) +
                     barrier(6000, 6100, 7000, 7000)),
        "want": {0: ["Fork 1@1000", "TeamBegin@1001", "E parallel@1001", "E barrier@2000",
                     "E barrier wait@2100", "L barrier wait@2900", "L barrier@3000",
                     "E barrier@4000", "E barrier wait@4000", "L barrier wait@4900",
                     "L barrier@5000", "E barrier@6000", "E barrier wait@6100",
                     "L barrier wait@7000", "L barrier@7000", "L parallel@7999", "TeamEnd@7999",
                     "Join@8000"]}},
    # a task run in the wait has its own region stack: the wait still spans
    # the barrier in the implicit task's stack
    "task_in_wait": {
        "locs": solo([create(1500, T1)] + barrier(2000, 2000, 3000, 3000, [
            sched(2500, SWITCH, I0, T1), sched(2600, COMPLETE, T1, I0)])),
        "want": {0: IN1 + CREATE1 + ["E barrier"] + RUN1 + DONE1 + ["L barrier"] + OUT1}},
    # region names by code pointer and construct, many of them
    "many_regions": many_regions(),
    "nested_parallel": {
        "locs": solo(region([], 3000, 4000, 1, par(0, 2), CP2)),
        "want": {0: IN1 + IN1 + OUT1 + OUT1}},
    # two threads; the worker's end-of-region barrier end and implicit-task
    # end come late (after the master's parallel_end): moved to its time
    "late_worker_end": {
        "times": True,
        "locs": {0: master(region([(7000, "SYNC_BEGIN", BARRIER_PAR, 0, CP, P1),
                                   (7500, "SYNC_END", BARRIER_PAR, 0, CP, P1)], size=2)),
                 1: (WORKER_T, [(900, "THREAD_BEGIN", WORKER_T, 0, 0, 0),
                                (1100, "IMPLICIT_BEGIN", T_IMPLICIT, 2, P1, 1),
                                (7100, "SYNC_BEGIN", BARRIER_PAR, 0, 0, P1),
                                (8500, "SYNC_END", BARRIER_PAR, 0, 0, P1),
                                (8600, "IMPLICIT_END", T_IMPLICIT, 2, 0, 1),
                                (9500, "THREAD_END", 0, 0, 0, 0)])},
        "want": {0: ["Fork 2@1000", "TeamBegin@1001", "E parallel@1001",
                     "E implicit barrier@7000", "L implicit barrier@7500",
                     "L parallel@7999", "TeamEnd@7999", "Join@8000"],
                 1: ["TeamBegin@1100", "E parallel@1100", "E implicit barrier@7100",
                     "L implicit barrier@8000", "L parallel@8000", "TeamEnd@8000"]}},
    # host teams league of one team: the internal parallel (NULL code
    # pointer) is folded into the league's teams region
    "teams_league": {
        "locs": {0: master([(1000, "PARALLEL_BEGIN", PROGRAM | LEAGUE, 1, CP, P1),
                            (1001, "IMPLICIT_BEGIN", T_INITIAL, 1, P1, 0),
                            (1100, "PARALLEL_BEGIN", 0x2, 1, 0, par(0, 2)),
                            (1101, "IMPLICIT_BEGIN", T_IMPLICIT, 1, par(0, 2), 0),
                            (1200, "WORK_BEGIN", LOOP, 10, CP2, par(0, 2)),
                            (1300, "WORK_END", LOOP, 10, CP2, par(0, 2)),
                            (1400, "IMPLICIT_END", T_IMPLICIT, 1, par(0, 2), 0),
                            (1401, "PARALLEL_END", 0x2, 0, 0, par(0, 2)),
                            (1500, "SYNC_BEGIN", BARRIER_PAR, 0, CP, P1),
                            (1600, "SYNC_END", BARRIER_PAR, 0, CP, P1),
                            (1700, "IMPLICIT_END", T_INITIAL, 1, P1, 0),
                            (1701, "PARALLEL_END", PROGRAM | LEAGUE, 0, CP, P1)])},
        "want": {0: ["Fork 1", "TeamBegin", "E teams", "E loop", "L loop",
                     "E implicit barrier", "L implicit barrier", "L teams", "TeamEnd", "Join"]}},
}

QUIRKS = {
    # gcc single: the executor gets no end; closed where it begins a barrier
    "gcc_single": {
        "locs": solo([(2000, "WORK_BEGIN", SINGLE_EXEC, 1, CP2, P1),
                      (2100, "FLUSH", 0, 0, CP2, 0),
                      (2200, "SYNC_BEGIN", BARRIER_IMPL, 0, CP, P1),
                      (2300, "SYNC_END", BARRIER_IMPL, 0, CP, P1)]),
        "want": {0: IN1 + ["E single", "E single sblock", "E flush", "L flush",
                           "L single sblock", "L single", "E implementation barrier",
                           "L implementation barrier"] + OUT1}},
    # a lock held: omp_set_lock left at acquired, release alone; a critical
    # holds its sblock; lock ids dense in order of first acquisition
    "lock_and_critical": {
        "locs": solo([(2000, "MUTEX_ACQUIRE", M_LOCK, 0, LOCK, CP2),
                      (2100, "MUTEX_ACQUIRED", M_LOCK, 0, LOCK, CP2),
                      (2200, "MUTEX_ACQUIRE", M_CRITICAL, 0, LOCK + 8, CP),
                      (2300, "MUTEX_ACQUIRED", M_CRITICAL, 0, LOCK + 8, CP),
                      (2400, "MUTEX_RELEASED", M_CRITICAL, 0, LOCK + 8, CP),
                      (2500, "MUTEX_RELEASED", M_LOCK, 0, LOCK, CP2)]),
        "want": {0: IN1 + ["E omp_set_lock", "E lock wait", "L lock wait", "AcquireLock 0",
                           "L omp_set_lock", "E critical", "E critical wait",
                           "L critical wait", "AcquireLock 1", "E critical sblock",
                           "L critical sblock", "ReleaseLock 1", "L critical",
                           "ReleaseLock 0"] + OUT1}},
    # NULL code pointer: an implicit barrier right after a loop's end takes
    # the loop's address; the worker-style barrier inside nothing else takes
    # the enclosing construct's (the parallel's)
    "null_codeptr": {
        "names": True,
        "locs": solo([(2000, "WORK_BEGIN", LOOP, 10, CP2, P1),
                      (2100, "WORK_END", LOOP, 10, CP2, P1),
                      (2200, "SYNC_BEGIN", BARRIER_WS, 0, 0, P1),
                      (2300, "SYNC_END", BARRIER_WS, 0, 0, P1),
                      (2400, "SYNC_BEGIN", BARRIER_PAR, 0, 0, P1),
                      (2500, "SYNC_END", BARRIER_PAR, 0, 0, P1)]),
        "want": {0: ["Fork 1", "TeamBegin", "E parallel @ %#x" % CP, "E loop @ %#x" % CP2,
                     "L loop @ %#x" % CP2, "E implicit barrier @ %#x" % CP2,
                     "L implicit barrier @ %#x" % CP2, "E implicit barrier @ %#x" % CP,
                     "L implicit barrier @ %#x" % CP, "L parallel @ %#x" % CP, "TeamEnd", "Join"]}},
    # LOST inside a region: what is open at the gap is closed at its start
    "lost_in_region": {
        "times": True,
        "locs": {0: master(region([(1500, "WORK_BEGIN", LOOP, 10, CP2, P1),
                                   (2500, "LOST", 0, 3, 2000, 2400),
                                   (2600, "FLUSH", 0, 0, CP2, 0)], 1000, 3000))},
        "want": {0: ["Fork 1@1000", "TeamBegin@1001", "E parallel@1001", "E loop@1500",
                     "L loop@2000", "L parallel@2000", "TeamEnd@2000",
                     "MeasurementOFF omptrace::lost_records=3@2000", "MeasurementON@2500",
                     "E flush@2600", "L flush@2600", "Join@3000"]}},
    # a record earlier than the previous event is written at that event's time
    "time_backwards": {
        "times": True,
        "locs": solo([(2000, "FLUSH", 0, 0, CP2, 0), (1900, "FLUSH", 0, 0, CP2, 0)]),
        "want": {0: ["Fork 1@1000", "TeamBegin@1001", "E parallel@1001", "E flush@2000",
                     "L flush@2000", "E flush@2000", "L flush@2000", "L parallel@7999",
                     "TeamEnd@7999", "Join@8000"]}},
    # nest lock: a re-acquisition by the holder is omp_set_nest_lock alone,
    # no wait, no lock record; one release at the outermost unset
    "nest_lock_reacquire": {
        "locs": solo([(2000, "MUTEX_ACQUIRE", M_NEST, 0, LOCK, CP2),
                      (2100, "MUTEX_ACQUIRED", M_NEST, 0, LOCK, CP2),
                      (2200, "MUTEX_ACQUIRE", M_NEST, 0, LOCK, CP2),
                      (2200, "NEST_LOCK", 1, 0, LOCK, CP2),
                      (2300, "NEST_LOCK", 2, 0, LOCK, CP2),
                      (2400, "MUTEX_RELEASED", M_NEST, 0, LOCK, CP2)]),
        "want": {0: IN1 + ["E omp_set_nest_lock", "E lock wait", "L lock wait",
                           "AcquireLock 0", "L omp_set_nest_lock", "E omp_set_nest_lock",
                           "L omp_set_nest_lock", "ReleaseLock 0"] + OUT1}},
    # failed omp_test_lock: acquire without acquired; closed at the next record
    "failed_test_lock": {
        "locs": solo([(2000, "MUTEX_ACQUIRE", M_TEST, 0, LOCK, CP2),
                      (2100, "FLUSH", 0, 0, CP2, 0)]),
        "want": {0: IN1 + ["E omp_set_lock", "E lock wait", "L lock wait", "L omp_set_lock",
                           "E flush", "L flush"] + OUT1}},
    # LOST between two regions: OFF (with the count) / ON, nothing else
    "lost_records": {
        "locs": {0: master(region([], 1000, 2000) +
                           [(2500, "LOST", 0, 7, 2100, 2400)] +
                           region([], 3000, 4000, 1, par(0, 2)))},
        "want": {0: IN1 + OUT1 + ["MeasurementOFF omptrace::lost_records=7",
                                  "MeasurementON"] + IN1 + OUT1}},
    # a location that stops mid-region: everything open closed at its last
    # record, then OFF with omptrace::stopped; a finished location gets none
    "stopped": {
        "locs": {0: (INITIAL_T, [(100, "THREAD_BEGIN", INITIAL_T, 0, 0, 0),
                                 (101, "IMPLICIT_BEGIN", T_INITIAL, 1, 0, 0),
                                 (1000, "PARALLEL_BEGIN", PROGRAM, 1, CP, P1),
                                 (1001, "IMPLICIT_BEGIN", T_IMPLICIT, 1, P1, 0),
                                 (1200, "WORK_BEGIN", LOOP, 10, CP2, P1)]),
                 1: (WORKER_T, [(900, "THREAD_BEGIN", WORKER_T, 0, 0, 0),
                                (950, "THREAD_END", 0, 0, 0, 0)])},
        # no Join: the docs close open regions (TeamEnd after parallel) but the
        # fork's parallel_end never came
        "want": {0: IN1 + ["E loop", "L loop", "L parallel", "TeamEnd",
                           "MeasurementOFF omptrace::stopped=recording stopped: the program "
                           "ended before the trace was finished"],
                 1: []}},
}

GROUPS = {"tasks": TASKS, "regions": REGIONS, "quirks": QUIRKS}
