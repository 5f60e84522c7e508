#!/usr/bin/python3
"""One archive per MPI job: `mpirun --oversubscribe -np N omptrace PROG`
makes rank 0 merge DIR/rank-R/traces.otf2 into DIR/traces.otf2
(omptrace-merge). The merged archive is read back with python3-otf2 and
otf2-print and compared with the rank archives, event by event: the same
events per location, at the times the ranks' clock offsets
(DIR/rank-R/clock-sync) give, corrected so that no receive precedes its
send and no rank leaves a collective before the ranks it waits for entered
(docs/mpi.md, "Clocks"). Counts are exact; nothing depends on timing.

Usage: merge_tests.py --launcher L --merge M --summary S --rankgen G --bin DIR --work DIR CASE
Exits 77 (skip) when mpirun is missing."""

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys

import otf2
from otf2.enums import GroupType, LocationGroupType, Paradigm

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "recorder"))
import otf2_print  # noqa: E402

A = None
problems = []


def eq(got, want, what):
    if got != want:
        problems.append("%s: expected %r, got %r" % (what, want, got))


def env():
    e = dict(os.environ, OMP_NUM_THREADS="2", OMP_WAIT_POLICY="passive",
             OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
             OMPI_MCA_rmaps_base_oversubscribe="1")
    # Open MPI's components leak at exit (see mpi_tests.py).
    e["ASAN_OPTIONS"] = "detect_leaks=0" + (":" + e["ASAN_OPTIONS"] if "ASAN_OPTIONS" in e else "")
    return e


def mpirun(prog, n, out, extra=(), more_env=None):
    shutil.rmtree(out, ignore_errors=True)
    e = env()
    e.update(more_env or {})
    e["OMPTRACE_OUTPUT"] = out
    cmd = ["mpirun", "--oversubscribe", "-np", str(n), A.launcher] + list(extra) + \
        [os.path.join(A.bin, prog)]
    return subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=240)


def merge(d, *args):
    return subprocess.run([A.merge] + list(args) + [d], env=env(), capture_output=True, text=True,
                          timeout=120)


def clock_points(d, bounds=False):
    """A rank's clock-sync points: (own time, offset[, error bound]); as
    applied (bounds=False), an offset no larger than its bound is 0."""
    pts = []
    path = os.path.join(d, "clock-sync")
    if os.path.exists(path):
        for line in open(path):
            if line.strip() and not line.startswith("#"):
                t, o, e = (int(x) for x in line.split())
                pts.append((t, o, e) if bounds else (t, o if abs(o) > e else 0))
    return pts


def written_points(anchor):
    """The ClockOffset points of each location of an archive (otf2-print -C)."""
    p = subprocess.run(["otf2-print", "-C", anchor], capture_output=True, text=True)
    pts = {}
    for m in re.finditer(r"^CLOCK_OFFSET\s+(\d+)\s+Time: (\d+), Offset: ([+-]?\d+)", p.stdout,
                         re.M):
        pts.setdefault(int(m.group(1)), []).append((int(m.group(2)), int(m.group(3))))
    return pts


def corrected(pts, t):
    """t in rank 0's time: OTF2's reader interpolates between the points
    and extrapolates from the first and last interval."""
    if not pts:
        return t
    i = 0
    while i + 2 < len(pts) and t > pts[i + 1][0]:
        i += 1
    slope = 0.0
    if i + 1 < len(pts):
        slope = (pts[i + 1][1] - pts[i][1]) / float(pts[i + 1][0] - pts[i][0])
    return t + pts[i][1] + int(round(slope * float(t - pts[i][0])))


def describe(v):
    if isinstance(v, (int, float, str)) or v is None:
        return repr(v)
    return repr(getattr(v, "name", v))


def read(anchor):
    """Definitions and, per location id, its events as (kind, time, fields)."""
    with otf2.reader.open(anchor) as r:
        d = r.definitions
        defs = {"groups": list(d.location_groups), "locations": list(d.locations),
                "nodes": list(d.system_tree_nodes), "mpi_groups": [
                    g for g in d.groups if g.paradigm == Paradigm.MPI and
                    g.group_type == GroupType.COMM_LOCATIONS], "clock": d.clock_properties,
                "comms": list(d.comms)}
        events = {l._ref: [] for l in d.locations}
        for loc, ev in r.events:
            fields = tuple(sorted((k, describe(v)) for k, v in vars(ev).items()
                                  if k not in ("time", "attributes")))
            events[loc._ref].append((type(ev).__name__, ev.time, fields, ev))
    return defs, events


def print_events(anchor):
    """Per location its events as (KIND, time, fields) from otf2-print (OTF2's
    own C reader, which applies mapping tables and clock offsets), the
    definition ids (<n>) and peers' locations left out: they differ between
    rank and job."""
    p = subprocess.run(["otf2-print", anchor], capture_output=True, text=True)
    eq(p.returncode, 0, "otf2-print %s (%s)" % (anchor, p.stderr.strip()[-200:]))
    events, started = {}, False
    for line in p.stdout.splitlines():
        if line.startswith("-----"):
            started = True
        elif started and line[:1].isupper():
            kind, loc, t, *rest = line.split(None, 3)
            fields = re.sub(r" <\d+>", "", rest[0] if rest else "")
            # A peer rank's location, as otf2-print resolves it, only in the job's archive.
            fields = re.sub(r' \((?:INVALID|"[^"]*")\)', "", fields)
            events.setdefault(int(loc), []).append((kind, int(t), fields))
    return events


def print_mpi_members(anchor):
    """Members of the MPI COMM_LOCATIONS group(s), from otf2-print -G (which,
    unlike python3-otf2, reads a rank's groups of world ranks)."""
    p = subprocess.run(["otf2-print", "-G", anchor], capture_output=True, text=True)
    return [int(m) for line in p.stdout.splitlines() if line.startswith("GROUP") and
            re.search(r'Type: COMM_LOCATIONS, Paradigm: ("MPI"|MPI)[ ,]', line)
            for m in re.findall(r"<(\d+)>", re.split(r"Members?:", line, maxsplit=1)[-1])]


def check_merged(out, n, want_events=None, want_msgs=None):
    """The job's archive against its n rank archives."""
    anchor = os.path.join(out, "traces.otf2")
    eq(os.path.exists(anchor), True, "merged archive " + anchor)
    if not os.path.exists(anchor):
        return None
    defs, events = read(anchor)
    eq(sorted(g.name for g in defs["groups"]), sorted("rank %d" % r for r in range(n)),
       "location groups")
    host = socket.gethostname()
    for g in defs["groups"]:
        eq(g.location_group_type, LocationGroupType.PROCESS, g.name + " type")
        eq((g.system_tree_parent.name, g.system_tree_parent.class_name), (host, "node"),
           g.name + " node")
        eq(g.system_tree_parent.parent is not None and g.system_tree_parent.parent.parent is None,
           True, g.name + " node under the root")
    printed = print_events(anchor)
    written = written_points(anchor)
    total, mpi_members = 0, []
    for r in range(n):
        ranchor = os.path.join(out, "rank-%d" % r, "traces.otf2")
        rev = print_events(ranchor)
        pts = clock_points(os.path.join(out, "rank-%d" % r))
        for loc, evs in rev.items():
            gid = r << 32 | loc
            got = events.get(gid)
            eq(got is not None, True, "rank %d location %d as %d" % (r, loc, gid))
            if got is None:
                continue
            eq(len(got), len(evs), "rank %d location %d event count" % (r, loc))
            # Both readers apply the archive's ClockOffsets; the causality
            # correction only moves events forward (1 ns: rounding).
            want = [(k, corrected(written.get(gid, []), t), f) for k, t, f in evs]
            eq([x for x in ((w[1] - corrected(pts, t), t) for w, (_, t, _) in zip(want, evs))
                if x[0] < -1], [], "rank %d location %d moved back" % (r, loc))
            eq(printed.get(gid) == want, True, "rank %d location %d events (otf2-print)" % (r, loc))
            eq([e[1] for e in got], [t for _, t, _ in want],
               "rank %d location %d times (python3-otf2)" % (r, loc))
            eq(all(a[1] <= b[1] for a, b in zip(got, got[1:])), True,
               "rank %d location %d monotonic" % (r, loc))
            eq(next(l for l in defs["locations"] if l._ref == gid).group.name, "rank %d" % r,
               "location %d group" % gid)
            total += len(evs)
        mpi_members += [r << 32 | m for m in print_mpi_members(ranchor)]
    eq(sum(len(v) for v in events.values()), total, "merged event count")
    # OpenMP teams: the locations of the team Comm are this rank's, this one among them.
    for loc, evs in events.items():
        for e in evs:
            if e[0] == "ThreadTeamBegin":
                members = [getattr(m, "_ref", m) for m in e[3].thread_team.group.members]
                eq(loc in members and all(m >> 32 == loc >> 32 for m in members), True,
                   "location %d in its team %r" % (loc, members))
    if mpi_members:  # the ranks' archives carry the MPI locations group
        eq([[m._ref for m in g.members] for g in defs["mpi_groups"]], [mpi_members],
           "MPI COMM_LOCATIONS group")
        eq(len(mpi_members), n, "MPI COMM_LOCATIONS members")
    counts, _ = otf2_print.otf2_print_counts(anchor)
    eq(sum(counts[("ENTER", l)] for l in events),
       sum(1 for v in events.values() for e in v if e[0] == "Enter"), "otf2-print Enters")
    msgs = check_messages(events)
    check_collectives(events)
    if want_msgs is not None:
        eq(msgs, want_msgs, "messages sent")
        eq(len(mpi_members), n, "MPI COMM_LOCATIONS members of the job")
    if want_events is not None:
        eq(total, want_events, "events")
    return events


def enclosing(evs, i, kind, step):
    """Time of the nearest kind event from evs[i] in direction step."""
    while 0 <= i < len(evs):
        if evs[i][0] == kind:
            return evs[i][1]
        i += step
    return None


def check_messages(events):
    """When the ranks record messages: every MpiSend/MpiIsend has its
    MpiRecv/MpiIrecv (comm, tag, bytes), in order per (comm, from, to,
    tag), and the receive record is not earlier than the send record in
    the job's archive (the merge's causality correction, whatever the
    clocks' error bounds)."""
    sends, recvs = {}, {}
    for loc, evs in events.items():
        rank = loc >> 32
        for i, e in enumerate(evs):
            if e[0] not in ("MpiSend", "MpiIsend", "MpiRecv", "MpiIrecv"):
                continue
            ev = e[3]
            # python3-otf2 resolves an MPI group's members to the locations
            # of the MPI locations group: location id >> 32 is the world rank.
            members = [m if isinstance(m, int) else m._ref >> 32
                       for m in ev.communicator.group.members]
            if e[0] in ("MpiSend", "MpiIsend"):
                key = (ev.communicator.name, rank, members[ev.receiver], ev.msg_tag)
                sends.setdefault(key, []).append((ev.msg_length, e[1]))
            else:
                key = (ev.communicator.name, members[ev.sender], rank, ev.msg_tag)
                recvs.setdefault(key, []).append((ev.msg_length, e[1]))
    eq(sorted((k, len(v)) for k, v in sends.items()), sorted((k, len(v)) for k, v in recvs.items()),
       "messages per (comm, from, to, tag)")
    for key, ss in sends.items():
        for (sb, st), (rb, rt) in zip(ss, recvs.get(key, [])):
            eq(sb, rb, "bytes of %r" % (key,))
            eq(st <= rt, True, "send before receive %r (send %d, receive %d)" % (key, st, rt))
    return sum(len(v) for v in sends.values())


# Collective operations by what a rank's Leave waits for (docs/mpi.md, "Clocks").
ONE_TO_N = ("BCAST", "SCATTER", "SCATTERV")
N_TO_ONE = ("REDUCE", "GATHER", "GATHERV")
N_TO_N = ("BARRIER", "ALLREDUCE", "ALLGATHER", "ALLGATHERV", "ALLTOALL", "ALLTOALLV", "ALLTOALLW",
          "REDUCE_SCATTER", "REDUCE_SCATTER_BLOCK")


def check_collectives(events):
    """Every blocking collective (the k-th on a communicator on each rank)
    in the job's archive: no rank leaves an N-to-N one before the last rank
    entered, a 1-to-N one before its root entered, and the root of an
    N-to-1 one leaves after every rank entered. Returns the collectives
    with more than one rank."""
    calls = {}
    for loc, evs in events.items():
        rank, seen = loc >> 32, {}
        for i, e in enumerate(evs):
            if e[0] != "MpiCollectiveEnd":
                continue
            ev = e[3]
            comm = ev.communicator.name
            k = seen[comm] = seen.get(comm, -1) + 1
            members = [m if isinstance(m, int) else m._ref >> 32
                       for m in ev.communicator.group.members]
            root = None if ev.root is None or ev.root >= len(members) else members[ev.root]
            calls.setdefault((comm, k), []).append(
                (rank, str(ev.collective_op).split(".")[-1], root, enclosing(evs, i, "Enter", -1),
                 enclosing(evs, i, "Leave", 1)))
    for key, ranks in sorted(calls.items()):
        op = ranks[0][1]
        eq(len({x[1] for x in ranks}), 1, "one operation per collective %r" % (key,))
        last = max(x[3] for x in ranks)
        for rank, _, root, _, leave in ranks:
            if op in N_TO_N or (op in N_TO_ONE and rank == root):
                eq(leave >= last, True, "%s %r: rank %d left at %d, before the last Enter %d" %
                   (op, key, rank, leave, last))
            elif op in ONE_TO_N and rank != root:
                start = [x[3] for x in ranks if x[0] == root]
                eq(not start or leave >= start[0], True, "%s %r: rank %d left at %d, before root "
                   "%r entered at %r" % (op, key, rank, leave, root, start))
    return sum(len(v) > 1 for v in calls.values())


def summary_ranks(out, n, program):
    p = subprocess.run([A.summary, "--format", "json", out], capture_output=True, text=True)
    eq(p.returncode, 0, "omptrace-summary (stderr: %s)" % p.stderr[-300:])
    if p.returncode == 0:
        # The ranks' process groups are "rank R"; the program is named by the
        # archive's OMPTRACE::PROGRAM property, which the merge keeps.
        eq(json.loads(p.stdout)["overview"]["run"]["program"], program, "summary's program")
        ranks = json.loads(p.stdout).get("mpi", {}).get("ranks", [])
        eq([(x["rank"], x["threads"]) for x in ranks], [(r, 2) for r in range(n)],
           "summary per-rank table")


# Point-to-point messages of each program (tests/mpi/progs) with n ranks:
# pingpong 5 rounds there and back between ranks 0 and 1; multiple 3
# MPI_Sendrecv per thread (2) of each of the 2 ranks; the others none.
MESSAGES = {"pingpong": lambda n: 10 if n > 1 else 0, "multiple": lambda n: 3 * 2 * n,
            "split": lambda n: 0, "imbalance": lambda n: 0, "colls": lambda n: 0,
    # halo: 4 iterations, each rank one face to each of its 3 neighbours.
    "halo": lambda n: 4 * 3 * n}


def case_job(prog, n):
    out = os.path.join(A.work, "merge_%s_np%d" % (prog, n))
    p = mpirun("mpi_" + prog, n, out)
    eq(p.returncode, 0, "exit status (stderr: %s)" % p.stderr[-500:])
    eq(sum("omptrace-merge: wrote " in line for line in p.stderr.splitlines()), 1,
       "one merge line")
    if prog == "multiple" and "no MPI_THREAD_MULTIPLE" in p.stdout:
        print("the MPI library does not provide MPI_THREAD_MULTIPLE: skipped")
        sys.exit(77)
    for r in range(n):
        pts = clock_points(os.path.join(out, "rank-%d" % r), bounds=True)
        eq(len(pts), 2, "rank %d clock points" % r)
        # The ranks share this machine's clock: the true offset is 0, which
        # the measurement's bound must hold whatever the load.
        eq([abs(o) <= e for _, o, e in pts], [True] * len(pts), "rank %d |offset| <= bound" % r)
    check_merged(out, n, want_msgs=MESSAGES[prog](n))
    summary_ranks(out, n, "mpi_" + prog)
    return out


def samples_account(anchor):
    """{location id: (expected, reached, taken)} over every system tree
    node's omptrace::samples, and the archive's location ids (otf2-print -G:
    the bindings cannot read a job archive's groups)."""
    p = subprocess.run(["otf2-print", "-G", anchor], capture_output=True, text=True)
    eq(p.returncode, 0, "otf2-print -G %s (%s)" % (anchor, p.stderr.strip()[-200:]))
    acc = {}
    for text in re.findall(r'Name: "omptrace::samples" <\d+>, Type: STRING, Value: "([^"]*)"',
                           p.stdout):
        for line in text.splitlines():
            if line.strip():
                loc, *rest = (int(x) for x in line.split())
                acc[loc] = tuple(rest)
    locs = {int(m) for m in re.findall(r"^LOCATION +(\d+) ", p.stdout, re.M)}
    return acc, locs


def case_sampled():
    """A sampled job (OMPTRACE_SAMPLING=1kHz, imbalance on 2 ranks): each
    rank's samples account reaches the job archive with the job's location
    ids (rank << 32 | the rank's id, each one a location of the archive),
    the same counts as the rank's own archive, and omptrace-summary adds
    them up over the job."""
    out = os.path.join(A.work, "merge_sampled_np2")
    p = mpirun("mpi_imbalance", 2, out, more_env={"OMPTRACE_SAMPLING": "1kHz"})
    eq(p.returncode, 0, "exit status (stderr: %s)" % p.stderr[-500:])
    eq(sum("omptrace-merge: wrote " in line for line in p.stderr.splitlines()), 1,
       "one merge line (stderr: %s)" % p.stderr[-500:])
    own = [samples_account(os.path.join(out, "rank-%d" % r, "traces.otf2"))[0] for r in range(2)]
    if not any(own):
        print("no samples account in the ranks' archives (sampling not built): skipped")
        sys.exit(77)
    job, locs = samples_account(os.path.join(out, "traces.otf2"))
    want = {r << 32 | l: v for r in range(2) for l, v in own[r].items()}
    eq(sorted(job.items()), sorted(want.items()), "job archive's samples account")
    eq(sorted(set(job) - locs), [], "account ids that are not locations of the job archive")
    eq(len(job), 4, "threads in the account (2 ranks x 2 threads)")
    s = subprocess.run([A.summary, "--format", "json", out], capture_output=True, text=True)
    eq(s.returncode, 0, "omptrace-summary (stderr: %s)" % s.stderr[-300:])
    if s.returncode == 0:
        got = json.loads(s.stdout).get("samples", {}).get("summary", [{}])
        row = got[0] if isinstance(got, list) and got else got
        eq(row.get("expected_samples"), sum(v[0] for v in job.values()),
           "summary's samples expected over the job")


def case_loaded(prog, n):
    """The job while two busy loops keep both cores busy: offsets within
    their bounds, and the merged archive causal all the same."""
    busy = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(2)]
    try:
        case_job(prog, n)
    finally:
        for b in busy:
            b.kill()
            b.wait()


def case_dead(prog):
    """Rank 1 dies (kill) or aborts: mpirun fails, rank 0 merges nothing;
    `omptrace merge` recovers what only left a log and merges both."""
    out = os.path.join(A.work, "merge_%s_np2" % prog)
    p = mpirun("mpi_" + prog, 2, out)
    eq(p.returncode != 0, True, "mpirun reports the failed job")
    m = subprocess.run([A.launcher, "merge", out], env=env(), capture_output=True, text=True)
    eq(m.returncode, 0, "omptrace merge (stderr: %s)" % m.stderr)
    for r in range(2):
        eq(os.path.exists(os.path.join(out, "rank-%d" % r, "traces.otf2")), True,
           "rank %d archive" % r)
        eq(len(clock_points(os.path.join(out, "rank-%d" % r))) >= 1, True,
           "rank %d MPI_Init clock point" % r)
    check_merged(out, 2)


def case_idempotent():
    out = case_job("pingpong", 2)
    files = {}
    for rnd in range(2):
        m = merge(out, "-q")
        eq((m.returncode, m.stdout, m.stderr), (0, "", ""), "quiet merge %d" % rnd)
        snap = {}
        for root, _, names in os.walk(out):
            for f in names:
                p = os.path.join(root, f)
                if "/rank-" not in p and f != "traces.otf2":
                    snap[os.path.relpath(p, out)] = open(p, "rb").read()
        files[rnd] = snap
    eq(files[0] == files[1], True, "a second merge writes the same files")
    eq(sorted(n for n in os.listdir(out) if n.startswith(".")), [], "no temporary files left")
    st = os.stat(os.path.join(out, "traces", "%d.evt" % (1 << 32)))
    eq(st.st_nlink, 2, "event file linked, not copied")


def merge_line(m):
    """The merge's clock line: (applied, measured, moved, most) or None."""
    x = re.search(r"^omptrace-merge: clocks: (\d+) of (\d+) measured offsets applied \((\d+) within "
                  r"their error bound: not applied\); causality: (\d+) events moved, by at most "
                  r"(\d+) ns$", m.stdout, re.M)
    eq(x is not None and int(x.group(2)) - int(x.group(1)) == int(x.group(3)), True,
       "clock line in %r" % m.stdout)
    return x and (int(x.group(1)), int(x.group(2)), int(x.group(4)), int(x.group(5)))


def case_clock_shift():
    """Hand-written clock-sync on rankgen's archives (rank 1 and 3 receive
    what 0 and 2 send, then 1 sends to 3): ranks 1 and 3 5 ms behind
    (offset +5 ms at both points) move by exactly +5 ms; offsets growing
    from 0 to 1 ms between two of their events interpolate linearly in
    between and extrapolate outside; neither makes a receive early, so
    nothing else moves. Rank 1 500 ns ahead (offset -500) puts its receive
    before the send: the merge moves it, and the job comes out causal."""
    out = os.path.join(A.work, "merge_clock_shift")
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([A.rankgen, out, "4"], check=True)
    base = {r: print_events(os.path.join(out, "rank-%d" % r, "traces.otf2"))[1] for r in (1, 3)}
    a, b = base[1][0][1], base[1][-1][1]
    for lines, fn, applied in (
            (["%d 5000000 10" % a, "%d 5000000 10" % b], lambda t: t + 5000000, 4),
            (["%d 0 10" % a, "%d 1000000 10" % b],
             lambda t: t + int(round(1000000 * float(t - a) / float(b - a))), 2)):
        for r in (1, 3):
            with open(os.path.join(out, "rank-%d" % r, "clock-sync"), "w") as f:
                f.write("# own offset error\n" + "\n".join(lines) + "\n")
        m = merge(out)
        eq(m.returncode, 0, "merge with clock offsets")
        eq(merge_line(m), (applied, 4, 0, 0), "offsets applied (not 0 +- 10), nothing moved")
        defs, events = read(os.path.join(out, "traces.otf2"))
        for r in (1, 3):
            eq([e[1] for e in events[r << 32 | 1]], [fn(e[1]) for e in base[r]],
               "rank %d shifted" % r)
        eq([e[1] for e in events[0]],
           [e[1] for e in print_events(os.path.join(out, "rank-0", "traces.otf2"))[0]],
           "rank 0 kept")
        first = min(fn(e[1]) for e in base[1])
        eq(defs["clock"].global_offset <= first, True, "global offset covers rank 1")
    os.remove(os.path.join(out, "rank-3", "clock-sync"))
    with open(os.path.join(out, "rank-1", "clock-sync"), "w") as f:
        f.write("%d -500 10\n%d -500 10\n" % (a, b))
    m = merge(out)
    x = merge_line(m)
    eq(x is not None and x[:2] == (2, 2) and x[2] > 0, True, "rank 1's receive moved: %r" % (x,))
    check_merged(out, 4)


# The synthetic job of rankgen_skew.c, merged: rank 1's clock is 5000 ns
# ahead (offset -5000, bound 100: applied), rank 2's offset 3000 has a
# bound of 4000 (not applied). Aligned, rank 1's receive (9500) precedes
# rank 0's send (10001): +501, ramped from rank 1's first event (14000 own
# time, no send or Enter before). Allreduce: last Enter 30500 (rank 2),
# rank 0 leaves at 30010 (+490, ramped from its Enter at 30000: the
# records inside move 49 and 441) and rank 1 at 29020 + 501 (+979 more,
# ramped from its Enter). Bcast (root 1, which now enters at 40000 +
# 1480): rank 0 leaves at 40900 + 490 = 41390, +90 more, ramped from its
# Enter at 40500. Gather (root 2): the last Enter is rank 1's, 51000 +
# 1480; root 2 leaves at 52000: +480, ramped from its Enter at 50000.
# Moved: rank 0 11 events, rank 1 14, rank 2 2; at most 1480 ns.
SKEW_TIMES = {
    0: [10000, 10001, 10002, 20000, 20010, 20020, 30000, 30050, 30450, 30500,
        40990, 40991, 41479, 41480, 50580, 50581, 50679, 50680],
    1: [9000, 10001, 10101, 29501, 29551, 30450, 30500, 41480, 41481, 41489, 41490,
        52480, 52481, 52579, 52580],
    2: [19000, 19005, 19010, 30500, 30501, 30599, 30600, 40000, 40001, 41999, 42000,
        50000, 50001, 52479, 52480],
}


def case_causal():
    out = os.path.join(A.work, "merge_causal")
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([A.rankgen, out, "skew"], check=True)
    m = merge(out)
    eq((m.returncode, m.stderr), (0, ""), "merge")
    eq(m.stdout.splitlines()[0], "omptrace-merge: clocks: 2 of 4 measured offsets applied (2 within "
       "their error bound: not applied); causality: 27 events moved, by at most 1480 ns",
       "clock line")
    events = check_merged(out, 3) or {}
    for r, want in SKEW_TIMES.items():
        eq([e[1] for e in events.get(r << 32, [])], want, "rank %d times" % r)
    eq(check_collectives(events), 3, "collectives checked")
    # Aligned only, the job was not causal: the checks can fail.
    n = len(problems)
    aligned = {r << 32: [(k, t + (-5000 if r == 1 else 0), f, None) for k, t, f in
                         print_events(os.path.join(out, "rank-%d" % r, "traces.otf2"))[0]]
               for r in range(3)}
    for loc, evs in aligned.items():  # the records' fields, as read() gives them
        evs[:] = [(k, t, f, events[loc][i][3]) for i, (k, t, f, _) in enumerate(evs)]
    check_messages(aligned)
    check_collectives(aligned)
    eq(len(problems) - n, 5, "violations without the correction (receive, 2 Allreduce, Bcast, "
       "Gather)")
    del problems[n:]


def case_give_up():
    """OMPTRACE_TEST_CLOCK_SYNC_DELAY_MS=40: rank 0 answers each rank's
    second ping after 40 ms, past the 15 ms budget: each rank gives its
    second round trip up, at MPI_Init (its receive stays posted, the late
    answer lands there) and at MPI_Finalize (cancelled), and keeps its
    first: one round trip per point, the program's messages untouched."""
    out = os.path.join(A.work, "merge_give_up_np4")
    os.environ["OMPTRACE_TEST_CLOCK_SYNC_DELAY_MS"] = "40"
    e = env()
    e["OMPTRACE_VERBOSE"] = "1"
    e["OMPTRACE_OUTPUT"] = out
    shutil.rmtree(out, ignore_errors=True)
    try:
        p = subprocess.run(["mpirun", "--oversubscribe", "-np", "4", A.launcher,
                            os.path.join(A.bin, "mpi_pingpong")], env=e, capture_output=True,
                           text=True, timeout=240)
    finally:
        del os.environ["OMPTRACE_TEST_CLOCK_SYNC_DELAY_MS"]
    eq(p.returncode, 0, "exit status (stderr: %s)" % p.stderr[-500:])
    rounds = sorted(re.findall(r"rank (\d+): clock sync: .*measured [\d.]+ s \((\d+) round trips",
                               p.stderr))
    eq(rounds, sorted([(str(r), "1") for r in (1, 2, 3)] * 2), "one round trip per rank and point")
    for r in (1, 2, 3):
        pts = clock_points(os.path.join(out, "rank-%d" % r), bounds=True)
        eq(len(pts), 2, "rank %d clock points" % r)
        eq([abs(o) <= err for _, o, err in pts], [True] * len(pts), "rank %d |offset| <= bound" % r)
    check_merged(out, 4, want_msgs=MESSAGES["pingpong"](4))


def skewed_job(prog, n=4, busy=0):
    """A job whose rank 1 runs 10 s ahead (OMPTRACE_TEST_CLOCK_SKEW): its
    measured offsets recover -10 s within their bounds, they are applied,
    and the merged archive is causal (check_merged), also with busy loops
    on both cores."""
    out = os.path.join(A.work, "merge_skew_%s_np%d" % (prog, n))
    os.environ["OMPTRACE_TEST_CLOCK_SKEW"] = "1:10000000000"
    loops = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(busy)]
    try:
        p = mpirun("mpi_" + prog, n, out)
    finally:
        del os.environ["OMPTRACE_TEST_CLOCK_SKEW"]
        for b in loops:
            b.kill()
            b.wait()
    eq(p.returncode, 0, "exit status (stderr: %s)" % p.stderr[-500:])
    pts = clock_points(os.path.join(out, "rank-1"), bounds=True)
    eq(len(pts), 2, "rank 1 clock points")
    eq([abs(o + 10000000000) <= err for _, o, err in pts], [True] * len(pts),
       "rank 1's offset -10 s within its bound: %r" % pts)
    raw = print_events(os.path.join(out, "rank-1", "traces.otf2"))
    r0 = print_events(os.path.join(out, "rank-0", "traces.otf2"))
    eq(min(e[1] for v in raw.values() for e in v) > max(e[1] for v in r0.values() for e in v), True,
       "rank 1's own times are 10 s ahead")
    m = merge(out)
    x = merge_line(m)
    eq(x is not None and x[0] >= 2, True, "rank 1's offsets applied: %r" % (x,))
    check_merged(out, n, want_msgs=MESSAGES[prog](n))


def fails(args, status, text, what):
    p = subprocess.run(args, env=env(), capture_output=True, text=True)
    lines = p.stderr.strip().splitlines()
    eq((p.returncode, len(lines)), (status, 1), what + " (stderr: %s)" % p.stderr)
    eq(bool(lines) and text in lines[0], True, what + ": message %r" % lines)


def case_hostile():
    """A job directory in a sticky directory others can write (root's, mode
    1777): a link of another user's at DIR is refused, and names planted
    beside the archive (the pre-0.2 temporary names, links to a root-only
    victim) are never written through: libotf2 writes in a private
    directory made fresh for the merge (docs/mpi.md)."""
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        print("skipped: needs root and setpriv to act as another user")
        sys.exit(77)
    nobody = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    out = case_job("pingpong", 2)
    sticky = os.path.join(A.work, "merge_sticky")
    shutil.rmtree(sticky, ignore_errors=True)
    os.makedirs(sticky)
    os.chmod(sticky, 0o1777)
    job = os.path.join(sticky, "job")
    shutil.copytree(out, job, symlinks=True)
    for f in ("traces.otf2", "traces.def"):
        os.unlink(os.path.join(job, f))
    shutil.rmtree(os.path.join(job, "traces"))
    os.chmod(job, 0o1777)
    victim = os.path.join(A.work, "merge_victim")
    with open(victim, "w") as f:
        f.write("root only\n")
    os.chmod(victim, 0o600)
    before = os.stat(victim)
    link = os.path.join(sticky, "link")
    subprocess.run(nobody + ["ln", "-s", job, link], check=True)
    fails([A.merge, link], 1, "symbolic link owned by another user", "another user's link")
    for name in (".merge-traces.otf2", ".merge-traces.def", ".merge.XXXXXX"):
        subprocess.run(nobody + ["ln", "-s", victim, os.path.join(job, name)], check=True)
    m = merge(job, "-q")
    eq((m.returncode, m.stderr), (0, ""), "merge beside planted links")
    after = os.stat(victim)
    eq((open(victim).read(), after.st_mtime_ns, after.st_size), ("root only\n", before.st_mtime_ns,
                                                                  before.st_size), "victim unchanged")
    eq(sorted(f for f in os.listdir(job) if f.startswith(".merge.") and f != ".merge.XXXXXX"), [],
       "private directory removed")
    check_merged(job, 2)


def case_bad_inputs():
    out = case_job("pingpong", 2)
    empty = os.path.join(A.work, "merge_empty")
    shutil.rmtree(empty, ignore_errors=True)
    os.makedirs(empty)
    fails([A.merge, empty], 1, "no rank archives", "no rank archives")
    fails([A.merge, os.path.join(empty, "missing")], 1, "No such file", "missing directory")
    fails([A.merge, "--bogus", out], 2, "unknown option", "bad option")
    fails([A.merge, "-n", "x", out], 2, "--ranks takes", "bad rank count")
    fails([A.merge], 2, "needs one job directory", "no directory")
    blocker = os.path.join(A.work, "merge_file")
    open(blocker, "w").close()
    fails([A.merge, blocker], 1, "not a directory", "not a directory")
    # A missing rank: one line each, the others merged.
    p = merge(out, "-q", "-n", "3")
    eq((p.returncode, p.stderr.strip()), (0, "omptrace-merge: rank 2: no directory %s/rank-2: "
                                          "left out" % out), "missing rank")
    # A directory nobody may write (immutable: root writes anywhere else).
    if shutil.which("chattr") and \
            subprocess.run(["chattr", "+i", out], capture_output=True).returncode == 0:
        try:
            fails([A.merge, out], 1, "cannot write the merged archive there", "unwritable DIR")
        finally:
            subprocess.run(["chattr", "-i", out])
    # A second job's rank beside this job's.
    os.makedirs(os.path.join(out, "rank-1.1"))
    p = merge(out, "-q")
    eq((p.returncode, p.stderr.strip()), (0, "omptrace-merge: %s/rank-1.1: this directory holds "
                                          "ranks of more than one job; merging rank-R" % out),
       "second job's rank")
    os.rmdir(os.path.join(out, "rank-1.1"))
    # A bad clock-sync line.
    cs = os.path.join(out, "rank-1", "clock-sync")
    good = open(cs).read()
    with open(cs, "a") as f:
        f.write("12 x\n")
    fails([A.merge, out], 1, "expected '<time> <offset> <error>'", "bad clock-sync")
    open(cs, "w").write(good)
    # A corrupt rank archive.
    d = os.path.join(out, "rank-1", "traces.def")
    keep = open(d, "rb").read()
    open(d, "wb").write(keep[:len(keep) // 2])
    fails([A.merge, out], 1, "corrupt archive", "corrupt rank archive")
    open(d, "wb").write(keep)
    eq(merge(out, "-q").returncode, 0, "merge after repair")
    # The summary of a job directory not merged yet names the command.
    os.remove(os.path.join(out, "traces.otf2"))
    fails([A.summary, out], 1, "omptrace merge " + out, "summary before the merge")
    fails([A.summary, os.path.join(out, "traces.otf2")], 1, "omptrace merge " + out,
          "summary of the missing anchor before the merge")
    # --no-merge keeps only the rank archives.
    out2 = os.path.join(A.work, "merge_nomerge_np2")
    p = mpirun("mpi_pingpong", 2, out2, ["--no-merge"])
    eq((p.returncode, os.path.exists(os.path.join(out2, "traces.otf2"))), (0, False), "--no-merge")


def case_contract():
    """Rank archives as the MPI wrappers write them (rankgen.c: MPI groups of
    world ranks, Comms WORLD, SELF and a split per parity, messages; odd
    ranks with other ids and a parent Comm defined after its child): one
    Comm per name, the MPI locations group in rank order, every message
    matched in the job's archive."""
    out = os.path.join(A.work, "merge_contract_np4")
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([A.rankgen, out, "4"], check=True)
    m = merge(out, "-q")
    eq((m.returncode, m.stderr), (0, ""), "merge")
    events = check_merged(out, 4)
    defs = read(os.path.join(out, "traces.otf2"))[0]
    eq(sorted((c.name, c.parent.name if c.parent else None) for c in defs["comms"]),
       [("MPI_COMM_SELF", None), ("MPI_COMM_WORLD", None), ("MPI_Comm_split 0.1", "MPI_COMM_WORLD"),
        ("MPI_Comm_split 1.1", "MPI_COMM_WORLD")], "Comms")
    eq([[m._ref for m in g.members] for g in defs["mpi_groups"]],
       [[0, 1 << 32 | 1, 2 << 32, 3 << 32 | 1]], "MPI locations group")
    sends = sorted((loc >> 32, e[3].communicator.name, e[3].receiver, e[3].msg_length)
                   for loc, evs in (events or {}).items() for e in evs if e[0] == "MpiSend")
    eq(sends, [(0, "MPI_COMM_WORLD", 1, 8), (0, "MPI_Comm_split 0.1", 1, 16),
               (1, "MPI_Comm_split 1.1", 1, 16), (2, "MPI_COMM_WORLD", 3, 8)], "sends")


CASES = {
    "pingpong_np2": lambda: case_job("pingpong", 2),
    "pingpong_np4": lambda: case_job("pingpong", 4),
    "split_np4": lambda: case_job("split", 4),
    "imbalance_np4": lambda: case_job("imbalance", 4),
    "multiple_np2": lambda: case_job("multiple", 2),
    "kill_np2": lambda: case_dead("kill"),
    "abort_np2": lambda: case_dead("abort"),
    "idempotent": case_idempotent,
    "sampled_np2": case_sampled,
    "clock_shift": case_clock_shift,
    "bad_inputs": case_bad_inputs,
    "hostile": case_hostile,
    "contract": case_contract,
    "causal": case_causal,
    "give_up_np4": case_give_up,
    "loaded_pingpong_np8": lambda: case_loaded("pingpong", 8),
    "skew_pingpong_np4": lambda: skewed_job("pingpong"),
    "skew_colls_np4": lambda: skewed_job("colls"),
    "skew_halo_np8_loaded": lambda: skewed_job("halo", 8, busy=2),
}


def main():
    global A
    ap = argparse.ArgumentParser()
    for o in ("launcher", "merge", "summary", "rankgen", "bin", "work"):
        ap.add_argument("--" + o, required=True)
    ap.add_argument("case", choices=sorted(CASES))
    A = ap.parse_args()
    if not shutil.which("mpirun"):
        print("mpirun not found: skipped (apt-get install openmpi-bin)")
        return 77
    os.makedirs(A.work, exist_ok=True)
    CASES[A.case]()
    for m in problems:
        print("FAIL:", m)
    print("merge.%s: %s" % (A.case, "FAILED (%d)" % len(problems) if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
