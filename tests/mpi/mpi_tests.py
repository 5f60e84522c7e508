#!/usr/bin/python3
"""MPI + OpenMP programs run with `mpirun --oversubscribe -np N omptrace
PROG`: every rank's archive (DIR/rank-R) read back with python3-otf2 and
cross-checked with otf2-print. Counts are exact from the programs'
semantics (progs/*.c); nothing depends on timing.

Usage: mpi_tests.py --launcher L --bin DIR --src DIR --work DIR CASE
Exits 77 (skip) when mpirun is missing."""

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys

import otf2.definitions
from otf2.enums import CollectiveOp, GroupType, Paradigm, RegionRole

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "recorder"))
import archive  # noqa: E402
import otf2_print  # noqa: E402

A = None
problems = []
ROUNDS = 5  # progs/pingpong.c
NB_ROUNDS = 3  # progs/nonblock.c
UNDEFINED = 2**32 - 1

ROLES = {"MPI_Send": RegionRole.POINT2POINT, "MPI_Recv": RegionRole.POINT2POINT,
         "MPI_Allreduce": RegionRole.COLL_ALL2ALL, "MPI_Barrier": RegionRole.BARRIER,
         "MPI_Bcast": RegionRole.COLL_ONE2ALL, "MPI_Init_thread": RegionRole.FUNCTION,
         "MPI_Init": RegionRole.FUNCTION, "MPI_Finalize": RegionRole.FUNCTION,
         "MPI_Comm_split": RegionRole.FUNCTION, "MPI_Comm_dup": RegionRole.FUNCTION,
         "MPI_Comm_free": RegionRole.FUNCTION, "MPI_Abort": RegionRole.FUNCTION,
         "MPI_Sendrecv": RegionRole.POINT2POINT, "MPI_Reduce": RegionRole.COLL_ALL2ONE,
         "MPI_Isend": RegionRole.POINT2POINT, "MPI_Irecv": RegionRole.POINT2POINT,
         "MPI_Wait": RegionRole.POINT2POINT, "MPI_Waitall": RegionRole.POINT2POINT,
         "MPI_Waitany": RegionRole.POINT2POINT, "MPI_Test": RegionRole.POINT2POINT,
         "MPI_Testall": RegionRole.POINT2POINT, "MPI_Gather": RegionRole.COLL_ALL2ONE,
         "MPI_Gatherv": RegionRole.COLL_ALL2ONE, "MPI_Scatter": RegionRole.COLL_ONE2ALL,
         "MPI_Scatterv": RegionRole.COLL_ONE2ALL, "MPI_Allgather": RegionRole.COLL_ALL2ALL,
         "MPI_Allgatherv": RegionRole.COLL_ALL2ALL, "MPI_Alltoall": RegionRole.COLL_ALL2ALL,
         "MPI_Alltoallv": RegionRole.COLL_ALL2ALL, "MPI_Reduce_scatter": RegionRole.COLL_ALL2ALL,
         "MPI_Ibarrier": RegionRole.BARRIER, "MPI_Ibcast": RegionRole.COLL_ONE2ALL,
         "MPI_Ireduce": RegionRole.COLL_ALL2ONE, "MPI_Iallreduce": RegionRole.COLL_ALL2ALL,
         "MPI_Igather": RegionRole.COLL_ALL2ONE, "MPI_Igatherv": RegionRole.COLL_ALL2ONE,
         "MPI_Iscatter": RegionRole.COLL_ONE2ALL, "MPI_Iscatterv": RegionRole.COLL_ONE2ALL,
         "MPI_Iallgather": RegionRole.COLL_ALL2ALL, "MPI_Iallgatherv": RegionRole.COLL_ALL2ALL,
         "MPI_Ialltoall": RegionRole.COLL_ALL2ALL, "MPI_Ialltoallv": RegionRole.COLL_ALL2ALL,
         "MPI_Ireduce_scatter": RegionRole.COLL_ALL2ALL}
ROLES.update((n, RegionRole.POINT2POINT) for n in (
    "MPI_Waitsome", "MPI_Testany", "MPI_Testsome", "MPI_Sendrecv_replace", "MPI_Send_init",
    "MPI_Recv_init", "MPI_Start", "MPI_Startall", "MPI_Request_free", "MPI_Cancel", "MPI_Ssend"))

# A rank's archive lists its communicators' members as WORLD ranks while
# its MPI COMM_LOCATIONS group holds only its own location (the merged
# archive holds them all, docs/otf2-mapping.md): python3-otf2 would map
# the ranks to locations, so MPI groups keep the ranks here.
_location = otf2.definitions.Group.location


def _rank_or_location(self, rank):
    return rank if self.paradigm == Paradigm.MPI else _location(self, rank)


otf2.definitions.Group.location = _rank_or_location


def eq(got, want, what):
    if got != want:
        problems.append("%s: expected %r, got %r" % (what, want, got))


def mpirun(prog, n, out):
    """Runs prog on n ranks under the launcher writing to out/rank-R."""
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, OMPTRACE_OUTPUT=out, OMP_NUM_THREADS="2", OMP_WAIT_POLICY="passive",
               OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    # Sanitizer builds: Open MPI's components leak at exit and are unloaded
    # by then (no module to suppress them by); the recorder's own leaks are
    # checked by the tests without MPI.
    env["ASAN_OPTIONS"] = "detect_leaks=0" + (":" + env["ASAN_OPTIONS"] if "ASAN_OPTIONS" in env
                                              else "")
    cmd = ["mpirun", "--oversubscribe", "-np", str(n), A.launcher, os.path.join(A.bin, prog)]
    return subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=240)


def mpi_calls(t):
    """Per location: the names of its MPI Enters, in order, and the open
    regions' names at each Enter (checks nesting); also every Enter/Leave
    pair matches and timestamps never decrease."""
    calls = {}
    for loc, evs in t.events.items():
        stack, last, seen = [], 0, []
        for e in evs:
            eq(e.time >= last, True, "loc %d time monotonic" % loc)
            last = e.time
            kind = type(e).__name__
            if kind == "Enter":
                if e.region.paradigm == Paradigm.MPI:
                    seen.append((e.region.name, tuple(r.name for r in stack)))
                    eq(e.region.region_role, ROLES.get(e.region.name), e.region.name + " role")
                stack.append(e.region)
            elif kind == "Leave":
                eq(stack and stack[-1].name, e.region.name, "loc %d leave matches" % loc)
                if stack:
                    stack.pop()
        eq(stack, [], "loc %d regions all left" % loc)
        calls[loc] = seen
    return calls


def check_rank(t, rank, want, inside=None, parallels=1):
    """want: MPI function -> Enters on the master thread; none elsewhere.
    inside: function -> construct that must enclose each of its calls."""
    calls = mpi_calls(t)
    loc0 = t.locs[0]
    got = collections.Counter(name for name, _ in calls[loc0])
    eq(dict(got), want, "rank %d MPI calls on thread 0" % rank)
    for loc in t.locs[1:]:
        eq(calls[loc], [], "rank %d MPI calls on location %d" % (rank, loc))
    for name, construct in (inside or {}).items():
        for n, stack in calls[loc0]:
            if n == name:
                eq(any(r.split(" @ ")[0] == construct for r in stack), True,
                   "rank %d %s inside %s" % (rank, name, construct))
    eq(t.enter_count("parallel", None, loc0), parallels, "rank %d parallel regions" % rank)
    eq(len(t.locs), 2, "rank %d OpenMP threads" % rank)
    eq([g.name for g in t.location_groups], ["rank %d" % rank], "rank %d location group" % rank)
    eq(Paradigm.MPI in [p.paradigm for p in t.paradigms], True, "rank %d MPI paradigm" % rank)
    counts, _ = otf2_print.otf2_print_counts(t.anchor)
    eq(sum(counts[("ENTER", loc)] for loc in t.locs),
       sum(len(ev) for ev in ([e for e in t.events[loc] if type(e).__name__ == "Enter"]
                              for loc in t.locs)), "rank %d otf2-print Enters" % rank)


def mpi_records(t, loc):
    """(record kind, event, innermost region name) of every Mpi* event of
    loc; checks that collective begin/end sit right after the Enter and
    right before the Leave of their call."""
    out, stack, evs = [], [], t.events[loc]
    for i, e in enumerate(evs):
        kind = type(e).__name__
        if kind == "Enter":
            stack.append(e.region.name)
        elif kind == "Leave" and stack:
            stack.pop()
        elif kind.startswith("Mpi"):
            out.append((kind, e, stack[-1] if stack else None))
            near = archive.prev_event(evs, i) if kind == "MpiCollectiveBegin" else \
                archive.next_event(evs, i) if kind == "MpiCollectiveEnd" else None
            if near is not None:
                eq(type(near).__name__, "Enter" if kind == "MpiCollectiveBegin" else "Leave",
                   "loc %d %s next to its call" % (loc, kind))
    return out


def messages(t, loc, kind):
    """(call, peer, communicator, tag, bytes) of loc's records of kind."""
    peer = "receiver" if kind in ("MpiSend", "MpiIsend") else "sender"
    return sorted((r, getattr(e, peer), e.communicator.name, e.msg_tag, e.msg_length)
                  for k, e, r in mpi_records(t, loc) if k == kind)


def collectives(t, loc):
    """(call, op, communicator, root, sent, received) of loc's collectives;
    every end has its begin in the same call."""
    recs = mpi_records(t, loc)
    begins = [r for k, _, r in recs if k == "MpiCollectiveBegin"]
    ends = [(r, e.collective_op, e.communicator.name, e.root, e.size_sent, e.size_received)
            for k, e, r in recs if k == "MpiCollectiveEnd"]
    eq(begins, [x[0] for x in ends], "loc %d collective begins and ends" % loc)
    return ends


def check_comms(t, rank, n, created=None):
    """MPI_COMM_WORLD (ranks 0..n-1), MPI_COMM_SELF and created: name ->
    (member world ranks, parent name); one MPI COMM_LOCATIONS group with
    the location that called MPI_Init."""
    comms = {c.name: c for c in t.comms if c.group.paradigm == Paradigm.MPI}
    created = created or {}
    eq(sorted(comms), sorted(["MPI_COMM_WORLD", "MPI_COMM_SELF"] + list(created)),
       "rank %d communicators" % rank)
    if "MPI_COMM_WORLD" in comms:
        eq(list(comms["MPI_COMM_WORLD"].group.members), list(range(n)), "rank %d WORLD" % rank)
    if "MPI_COMM_SELF" in comms:
        eq(comms["MPI_COMM_SELF"].group.group_type, GroupType.COMM_SELF, "rank %d SELF" % rank)
    for name, (members, parent) in created.items():
        c = comms.get(name)
        eq(c and list(c.group.members), members, "rank %d %s members" % (rank, name))
        eq(c and c.parent and c.parent.name, parent, "rank %d %s parent" % (rank, name))
    locs = [list(g.members) for g in t.groups
            if g.group_type == GroupType.COMM_LOCATIONS and g.paradigm == Paradigm.MPI]
    eq(locs, [[t.locations[0]]], "rank %d MPI COMM_LOCATIONS group" % rank)


def call_site(t, name, marker, src):
    line = archive.markers(os.path.join(A.src, src))[marker]
    lines = {r.source_file.rsplit("/", 1)[-1] + ":%d" % r.begin_line_number
             for r in t.regions if r.name == name and r.source_file}
    eq(lines, {"%s:%d" % (src, line)}, name + " call site")


def case_pingpong(n):
    out = os.path.join(A.work, "pingpong_np%d" % n)
    p = mpirun("mpi_pingpong", n, out)
    eq(p.returncode, 0, "exit status (stderr: %s)" % p.stderr[-500:])
    eq(sorted(os.listdir(out)), ["rank-%d" % r for r in range(n)], "rank directories")
    for r in range(n):
        t = archive.Trace(os.path.join(out, "rank-%d" % r, "traces.otf2"))
        want = {"MPI_Init_thread": 1, "MPI_Allreduce": 1, "MPI_Barrier": 1, "MPI_Finalize": 1}
        if r < 2:
            want.update({"MPI_Send": ROUNDS, "MPI_Recv": ROUNDS})
        check_rank(t, r, want, {"MPI_Allreduce": "masked"})
        check_comms(t, r, n)
        loc0 = t.locs[0]
        peer = [("MPI_Send", 1 - r, "MPI_COMM_WORLD", i, 400) for i in range(ROUNDS)] if r < 2 \
            else []
        eq(messages(t, loc0, "MpiSend"), peer, "rank %d sends" % r)
        eq(messages(t, loc0, "MpiRecv"), [("MPI_Recv",) + m[1:] for m in peer],
           "rank %d receives" % r)
        eq(collectives(t, loc0),
           [("MPI_Allreduce", CollectiveOp.ALLREDUCE, "MPI_COMM_WORLD", UNDEFINED, 8 * n, 8 * n),
            ("MPI_Barrier", CollectiveOp.BARRIER, "MPI_COMM_WORLD", UNDEFINED, 0, 0)],
           "rank %d collectives" % r)
        counts, _ = otf2_print.otf2_print_counts(t.anchor)
        eq((counts[("MPI_SEND", loc0)], counts[("MPI_RECV", loc0)]),
           (len(peer), len(peer)), "rank %d otf2-print messages" % r)
        if r == 0:
            call_site(t, "MPI_Send", "send0", "pingpong.c")
            call_site(t, "MPI_Allreduce", "allreduce", "pingpong.c")
    one_rank_summary(os.path.join(out, "rank-1"))


def one_rank_summary(d):
    """One rank's archive is reported as a single process: no MPI section
    (whose per-rank table would show the other ranks empty)."""
    summary = os.path.join(os.path.dirname(os.path.dirname(A.launcher)), "converters",
                           "summary", "omptrace-summary")
    p = subprocess.run([summary, "--format", "json", d], capture_output=True, text=True)
    eq(p.returncode, 0, "omptrace-summary on %s (stderr: %s)" % (d, p.stderr[-300:]))
    if p.returncode == 0:
        eq("mpi" in json.loads(p.stdout), False, "MPI section in one rank's summary")
    # Its messages go to ranks the archive does not hold: not "unmatched".
    eq("unmatched" in p.stderr, False, "warning on one rank's summary (%s)" % p.stderr[-300:])


def case_split():
    out = os.path.join(A.work, "split_np4")
    p = mpirun("mpi_split", 4, out)
    eq(p.returncode, 0, "exit status (stderr: %s)" % p.stderr[-500:])
    for r in range(4):  # the halves' roots are ranks 0 and 1
        eq("rank %d value %d" % (r, 100 + r % 2) in p.stdout, True, "rank %d broadcast" % r)
        t = archive.Trace(os.path.join(out, "rank-%d" % r, "traces.otf2"))
        check_rank(t, r, {"MPI_Init": 1, "MPI_Comm_split": 1, "MPI_Comm_dup": 1,
                          "MPI_Bcast": 1, "MPI_Comm_free": 2, "MPI_Finalize": 1},
                   {"MPI_Bcast": "masked"})
        # names from the half's first world rank and its count of created communicators
        half, dup = "MPI_Comm_split %d.1" % (r % 2), "MPI_Comm_dup %d.2" % (r % 2)
        members = [r % 2, r % 2 + 2]
        check_comms(t, r, 4, {half: (members, "MPI_COMM_WORLD"), dup: (members, half)})
        eq(collectives(t, t.locs[0]),
           [("MPI_Bcast", CollectiveOp.BCAST, dup, 0, 8 if r < 2 else 0, 4)],
           "rank %d collectives" % r)


def dead_job(prog, dead_last):
    """Rank 1 ends the job after MPI_Init and MPI_Barrier (its last MPI call
    dead_last, or none); rank 0 is ended by mpirun: after its barrier,
    blocked in MPI_Recv or just before it (both are right; which one
    depends on timing). Every rank's archive is written at the end or
    recovered from its log."""
    out = os.path.join(A.work, prog.replace("mpi_", "") + "_np2")
    p = mpirun(prog, 2, out)
    eq(p.returncode != 0, True, "mpirun reports the failed job")
    for r in range(2):
        d = os.path.join(out, "rank-%d" % r)
        if not os.path.exists(os.path.join(d, "traces.otf2")):
            rec = subprocess.run([A.launcher, "recover", d], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
            eq(rec.returncode, 0, "rank %d recover (%s)" % (r, rec.stderr.strip()))
        t = archive.Trace(os.path.join(d, "traces.otf2"))
        calls = [n for n, _ in mpi_calls(t)[t.locs[0]]]
        eq(t.enter_count("parallel", None, t.locs[0]), 1, "rank %d parallel regions" % r)
        if r == 1:
            eq(calls, ["MPI_Init", "MPI_Barrier"] + dead_last, "rank 1 MPI calls")
        elif calls != ["MPI_Init", "MPI_Barrier"]:
            eq(calls, ["MPI_Init", "MPI_Barrier", "MPI_Recv"], "rank 0 MPI calls")


def case_abort():
    """Rank 1 calls MPI_Abort: it writes its archive first."""
    dead_job("mpi_abort", ["MPI_Abort"])


def case_kill():
    """Rank 1 sends itself a message, flushes its log and dies by SIGKILL:
    recover builds its archive with every MPI call, message, collective
    and communicator up to there."""
    out = os.path.join(A.work, "kill_np2")
    dead_job("mpi_kill", ["MPI_Isend", "MPI_Recv", "MPI_Wait"])
    t = archive.Trace(os.path.join(out, "rank-1", "traces.otf2"))
    loc0 = t.locs[0]
    check_comms(t, 1, 2)
    eq(messages(t, loc0, "MpiIsend"), [("MPI_Isend", 1, "MPI_COMM_WORLD", 3, 4)],
       "rank 1 recovered Isend")
    eq(messages(t, loc0, "MpiRecv"), [("MPI_Recv", 1, "MPI_COMM_WORLD", 3, 4)],
       "rank 1 recovered Recv")
    recs = mpi_records(t, loc0)
    isend = [e.request_id for k, e, _ in recs if k == "MpiIsend"]
    eq([(r, e.request_id) for k, e, r in recs if k == "MpiIsendComplete"],
       [("MPI_Wait", i) for i in isend], "rank 1 recovered Isend completion")
    eq(collectives(t, loc0), [("MPI_Barrier", CollectiveOp.BARRIER, "MPI_COMM_WORLD", UNDEFINED,
                               0, 0)], "rank 1 recovered barrier")
    eq(os.path.isdir(os.path.join(out, "rank-1", ".log")), False, "rank 1 log recovered")


def case_multiple():
    """MPI_THREAD_MULTIPLE: each thread's 3 MPI_Sendrecv on its own location."""
    out = os.path.join(A.work, "multiple_np2")
    p = mpirun("mpi_multiple", 2, out)
    eq(p.returncode, 0, "exit status (stderr: %s)" % p.stderr[-500:])
    if "no MPI_THREAD_MULTIPLE" in p.stdout:
        print("the MPI library does not provide MPI_THREAD_MULTIPLE: skipped")
        sys.exit(77)
    for r in range(2):
        eq("rank %d exchanged ok" % r in p.stdout, True, "rank %d exchange" % r)
        t = archive.Trace(os.path.join(out, "rank-%d" % r, "traces.otf2"))
        calls = mpi_calls(t)
        eq(len(t.locs), 2, "rank %d OpenMP threads" % r)
        for i, loc in enumerate(t.locs):
            want = ["MPI_Init_thread"] if i == 0 else []
            want += ["MPI_Sendrecv"] * 3 + (["MPI_Finalize"] if i == 0 else [])
            eq([n for n, _ in calls[loc]], want, "rank %d location %d MPI calls" % (r, i))
            eq(all("parallel" in [s.split(" @ ")[0] for s in st] for n, st in calls[loc]
                   if n == "MPI_Sendrecv"), True, "rank %d location %d Sendrecv in parallel" % (r, i))
            # each thread's messages on its own location: tag = thread number
            want = [("MPI_Sendrecv", 1 - r, "MPI_COMM_WORLD", i, 4)] * 3
            eq(messages(t, loc, "MpiSend"), want, "rank %d location %d sends" % (r, i))
            eq(messages(t, loc, "MpiRecv"), want, "rank %d location %d receives" % (r, i))


def case_imbalance():
    """Rank R runs R + 1 parallel loops, then MPI_Barrier and MPI_Reduce."""
    out = os.path.join(A.work, "imbalance_np4")
    p = mpirun("mpi_imbalance", 4, out)
    eq(p.returncode, 0, "exit status (stderr: %s)" % p.stderr[-500:])
    eq("total %d" % (10 * sum(i % 7 for i in range(100000))) in p.stdout, True,
       "program output (%s)" % p.stdout.strip())
    for r in range(4):
        t = archive.Trace(os.path.join(out, "rank-%d" % r, "traces.otf2"))
        check_rank(t, r, {"MPI_Init": 1, "MPI_Barrier": 1, "MPI_Reduce": 1, "MPI_Finalize": 1},
                   parallels=r + 1)
        for loc in t.locs:
            eq(t.enter_count("loop", None, loc), r + 1, "rank %d location %d loops" % (r, loc))


def case_nonblock():
    """progs/nonblock.c on 4 ranks: every rank's nonblocking sends and
    receives with their requests completed in the right calls, matching
    the neighbours' records; nothing towards MPI_PROC_NULL."""
    n = 4
    out = os.path.join(A.work, "nonblock_np4")
    p = mpirun("mpi_nonblock", n, out)
    eq(p.returncode, 0, "exit status (stderr: %s)" % p.stderr[-500:])
    w = "MPI_COMM_WORLD"
    for r in range(n):
        right, left = (r + 1) % n, (r - 1) % n
        eq("rank %d got tag %d" % (r, 40 + left) in p.stdout, True, "rank %d output" % r)
        t = archive.Trace(os.path.join(out, "rank-%d" % r, "traces.otf2"))
        mpi_calls(t)
        check_comms(t, r, n)
        loc0 = t.locs[0]
        blocks = [(i, 400) for i in range(NB_ROUNDS)] + [(99, 4), (77, 4)]
        eq(messages(t, loc0, "MpiIsend"),
           sorted([("MPI_Isend", right, w, tag, b) for tag, b in blocks + [(40 + r, 40)]]),
           "rank %d Isends" % r)
        eq(messages(t, loc0, "MpiIrecv"),
           sorted([("MPI_Waitall", left, w, tag, b) for tag, b in blocks[:NB_ROUNDS]] +
                  [("MPI_Test", left, w, 40 + left, 40), ("MPI_Waitany", left, w, 99, 4),
                   ("MPI_Testall", left, w, 77, 4)]), "rank %d Irecvs" % r)
        eq(messages(t, loc0, "MpiSend"), [("MPI_Sendrecv", right, w, 5, 12)], "rank %d sends" % r)
        eq(messages(t, loc0, "MpiRecv"), [("MPI_Sendrecv", left, w, 5, 12)], "rank %d recvs" % r)
        recs = mpi_records(t, loc0)
        ids = lambda kind: [e.request_id for k, e, _ in recs if k == kind]  # noqa: E731
        done = collections.Counter(r for k, _, r in recs if k == "MpiIsendComplete")
        eq(dict(done), {"MPI_Waitall": NB_ROUNDS, "MPI_Wait": 1, "MPI_Waitany": 1,
                        "MPI_Testall": 1}, "rank %d Isend completions" % r)
        eq(sorted(ids("MpiIsendComplete")), sorted(ids("MpiIsend")), "rank %d Isend ids" % r)
        eq(sorted(ids("MpiIrecv")), sorted(ids("MpiIrecvRequest")), "rank %d Irecv ids" % r)
        eq(len(set(ids("MpiIsend") + ids("MpiIrecvRequest"))), 2 * (NB_ROUNDS + 3),
           "rank %d request ids unique" % r)
        eq([r for k, _, r in recs if k == "MpiIrecvRequest"], ["MPI_Irecv"] * (NB_ROUNDS + 3),
           "rank %d Irecv requests (none from MPI_PROC_NULL)" % r)


def case_colls():
    """progs/colls.c on 4 ranks: each collective's operation, root and
    bytes by Score-P's conventions (docs/otf2-mapping.md); the barrier on
    a communicator from MPI_Cart_create is a region only."""
    n, w = 4, "MPI_COMM_WORLD"
    out = os.path.join(A.work, "colls_np4")
    p = mpirun("mpi_colls", n, out)
    eq(p.returncode, 0, "exit status (stderr: %s)" % p.stderr[-500:])
    for r in range(n):
        t = archive.Trace(os.path.join(out, "rank-%d" % r, "traces.otf2"))
        calls = [name for name, _ in mpi_calls(t)[t.locs[0]]]
        eq(calls.count("MPI_Barrier"), 1, "rank %d barrier on the cartesian communicator" % r)
        check_comms(t, r, n)

        def rooted(root, root_sent, root_recv, sent, recv):
            return (root,) + ((root_sent, root_recv) if r == root else (sent, recv))
        want = [
            ("MPI_Bcast", CollectiveOp.BCAST) + rooted(1, 4 * 8, 8, 0, 8),
            ("MPI_Reduce", CollectiveOp.REDUCE) + rooted(2, 12, 4 * 12, 12, 0),
            ("MPI_Gather", CollectiveOp.GATHER) + rooted(0, 4, 16, 4, 0),
            ("MPI_Gatherv", CollectiveOp.GATHERV) + rooted(3, 16, 40, 4 * (r + 1), 0),
            ("MPI_Scatter", CollectiveOp.SCATTER) + rooted(0, 4 * 8, 8, 0, 8),
            ("MPI_Scatterv", CollectiveOp.SCATTERV) + rooted(1, 40, 8, 0, 4 * (r + 1)),
            ("MPI_Allgather", CollectiveOp.ALLGATHER, UNDEFINED, 16, 16),
            ("MPI_Allgatherv", CollectiveOp.ALLGATHERV, UNDEFINED, 16 * (r + 1), 40),
            ("MPI_Alltoall", CollectiveOp.ALLTOALL, UNDEFINED, 16, 16),
            ("MPI_Alltoallv", CollectiveOp.ALLTOALLV, UNDEFINED, 16, 16),
            ("MPI_Reduce_scatter", CollectiveOp.REDUCE_SCATTER, UNDEFINED, 16, 16),
            ("MPI_Allreduce", CollectiveOp.ALLREDUCE, UNDEFINED, 60, 60)]  # in place: 3 blocks
        got = [(c, op, root, s, rv) for c, op, comm, root, s, rv in collectives(t, t.locs[0])
               if comm == w]
        eq(got, want, "rank %d collectives" % r)
        eq(len(collectives(t, t.locs[0])), len(want), "rank %d collectives in all" % r)


# ---- requests, their completions and message order (docs/mpi.md) --------
K, ITERS, BIG = 4, 3, 1 << 20  # progs/requests.c
HALO_ITERS = 4  # progs/halo.c


def records(t):
    """(kind, event, innermost region, location) of every Mpi* and
    NonBlockingCollective* event of every location of t."""
    out = []
    for loc, evs in t.events.items():
        stack = []
        for e in evs:
            kind = type(e).__name__
            if kind == "Enter":
                stack.append(e.region.name)
            elif kind == "Leave" and stack:
                stack.pop()
            elif kind.startswith("Mpi") or kind.startswith("NonBlocking"):
                out.append((kind, e, stack[-1] if stack else None, loc))
    return out


def msgs(recs, kind):
    """(call, peer, tag, bytes) of the records of kind, sorted."""
    peer = "receiver" if kind in ("MpiSend", "MpiIsend") else "sender"
    return sorted((r, getattr(e, peer), e.msg_tag, e.msg_length)
                  for k, e, r, _ in recs if k == kind)


def check_requests(recs, rank, uncompleted=()):
    """Every request id is started once; every Isend is completed exactly
    once after it (but those of tags in uncompleted: never), every
    MpiIrecvRequest has exactly one MpiIrecv after it."""
    started = collections.Counter(e.request_id for k, e, _, _ in recs
                                  if k in ("MpiIsend", "MpiIrecvRequest"))
    eq([i for i, c in started.items() if c != 1], [], "rank %d request ids started twice" % rank)
    when = {(k, e.request_id): e.time for k, e, _, _ in recs
            if k in ("MpiIsend", "MpiIrecvRequest", "MpiIsendComplete", "MpiIrecv")}
    for start, done in (("MpiIsend", "MpiIsendComplete"), ("MpiIrecvRequest", "MpiIrecv")):
        want = sorted(e.request_id for k, e, _, _ in recs
                      if k == start and getattr(e, "msg_tag", None) not in uncompleted)
        got = sorted(e.request_id for k, e, _, _ in recs if k == done)
        eq(got, want, "rank %d %s ids (each exactly once)" % (rank, done))
        late = [i for i in got if when.get((start, i), 0) > when[(done, i)]]
        eq(late, [], "rank %d %s before its %s" % (rank, done, start))


def check_send_stamps(t, rank):
    """Every MpiSend and MpiIsend has the time of its call's Enter, read
    before the PMPI call: before the message could leave."""
    late = []
    for loc, evs in t.events.items():
        enter = None
        for e in evs:
            kind = type(e).__name__
            if kind == "Enter":
                enter = e.time
            elif kind in ("MpiSend", "MpiIsend") and e.time != enter:
                late.append((loc, kind, e.msg_tag, e.time - (enter or 0)))
    eq(late, [], "rank %d sends stamped later than their call's Enter" % rank)


def check_order(traces, want_pairs, unreceived=()):
    """Matches every send (MpiSend, MpiIsend) of the rank archives with its
    receive (MpiRecv, MpiIrecv) by sender, receiver and tag in order (MPI
    does not overtake; the programs use one communicator): each send has
    exactly one receive with the same bytes, want_pairs of them, and no
    receive is recorded before its send (ranks on one host share
    CLOCK_MONOTONIC, the time base of the raw archives). Sends of tags in
    unreceived must have no receive record."""
    sends, recvs = collections.defaultdict(list), collections.defaultdict(list)
    for r, t in enumerate(traces):
        for k, e, _, _ in records(t):
            if k in ("MpiSend", "MpiIsend"):
                sends[(r, e.receiver, e.msg_tag)].append((e.time, e.msg_length))
            elif k in ("MpiRecv", "MpiIrecv"):
                recvs[(e.sender, r, e.msg_tag)].append((e.time, e.msg_length))
    pairs, late = 0, []
    for key in [k for k in sends if k[2] in unreceived]:
        eq(recvs.pop(key, []), [], "receives of (sender, receiver, tag) %r" % (key,))
        sends.pop(key)
    for key in set(sends) | set(recvs):
        s, v = sorted(sends[key]), sorted(recvs[key])
        eq(len(s), len(v), "sends and receives of (sender, receiver, tag) %r" % (key,))
        eq([b for _, b in s], [b for _, b in v], "bytes of (sender, receiver, tag) %r" % (key,))
        for (ts, _), (tr, _) in zip(s, v):
            pairs += 1
            if tr < ts:
                late.append((key, tr - ts))
    eq(pairs, want_pairs, "matched messages")
    eq(late, [], "receives recorded before their sends (key, ns)")


def requests_want(r):
    """progs/requests.c: rank r's records as (call, peer, tag, bytes)."""
    o, rep = 1 - r, lambda x, n: [x] * n  # noqa: E731
    if r == 0:
        isend = [("MPI_Isend", o, tag + i, 4) for tag in (10, 20, 30) for i in range(K)] + \
            rep(("MPI_Start", o, 50, 4), ITERS) + rep(("MPI_Startall", o, 51, 4), ITERS) + \
            [("MPI_Isend", o, 60, 4), ("MPI_Isend", o, 61, BIG), ("MPI_Start", o, 62, BIG),
             ("MPI_Isend", o, 63, 4)]
        irecv = [("MPI_Testsome", o, 40 + i, 4) for i in range(K)] + \
            rep(("MPI_Waitall", o, 51, 4), ITERS)
        recv = [("MPI_Sendrecv_replace", o, 70, 4)]
        isend_done = {"MPI_Waitall": K + ITERS, "MPI_Wait": K + ITERS + 1, "MPI_Test": K,
                      "MPI_Request_free": 1}
        irecv_req = {"MPI_Irecv": K, "MPI_Startall": ITERS}
    else:
        isend = [("MPI_Isend", o, 40 + i, 4) for i in range(K)] + \
            rep(("MPI_Startall", o, 51, 4), ITERS)
        irecv = [(call, o, tag + i, 4) for call, tag in
                 (("MPI_Waitall", 10), ("MPI_Waitsome", 20), ("MPI_Testany", 30))
                 for i in range(K)] + rep(("MPI_Wait", o, 50, 4), ITERS) + \
            rep(("MPI_Waitall", o, 51, 4), ITERS) + [("MPI_Request_free", o, 60, 4)]
        recv = [("MPI_Recv", o, 61, BIG), ("MPI_Recv", o, 62, BIG), ("MPI_Recv", o, 63, 4),
                ("MPI_Sendrecv_replace", o, 70, 4)]
        isend_done = {"MPI_Testsome": K, "MPI_Waitall": ITERS}
        irecv_req = {"MPI_Irecv": 3 * K + 1, "MPI_Start": ITERS, "MPI_Startall": ITERS}
    return (sorted(isend), sorted(irecv), [("MPI_Sendrecv_replace", o, 70, 4)], sorted(recv),
            isend_done, irecv_req)


def requests_run(out):
    p = mpirun("mpi_requests", 2, out)
    eq(p.returncode, 0, "exit status (stderr: %s)" % p.stderr[-500:])
    return [archive.Trace(os.path.join(out, "rank-%d" % r, "traces.otf2")) for r in range(2)]


# messages of progs/requests.c: rank 0 to 1 tags 10-33, 50, 51, 60-63, 70; 1 to 0 tags 40-43,
# 51, 70
REQ_PAIRS = (3 * K + 2 * ITERS + 4 + 1) + (K + ITERS + 1)


def case_requests():
    """progs/requests.c on 2 ranks: every Isend and Irecv completed exactly
    once in the call that completed it (sends completed at once with one
    shared handle, copies, polling, Waitsome/Testany/Testsome, persistent
    and freed requests), MPI_Sendrecv_replace, all messages matched."""
    traces = requests_run(os.path.join(A.work, "requests_np2"))
    for r, t in enumerate(traces):
        mpi_calls(t)
        recs = records(t)
        isend, irecv, send, recv, isend_done, irecv_req = requests_want(r)
        eq(msgs(recs, "MpiIsend"), isend, "rank %d Isends" % r)
        eq(msgs(recs, "MpiIrecv"), irecv, "rank %d Irecvs" % r)
        eq(msgs(recs, "MpiSend"), send, "rank %d sends" % r)
        eq(msgs(recs, "MpiRecv"), recv, "rank %d receives" % r)
        eq(dict(collections.Counter(c for k, _, c, _ in recs if k == "MpiIsendComplete")),
           isend_done, "rank %d Isend completions by call" % r)
        eq(dict(collections.Counter(c for k, _, c, _ in recs if k == "MpiIrecvRequest")),
           irecv_req, "rank %d Irecv requests by call" % r)
        # the active sends freed (tags 61, 62) have no completion
        check_requests(recs, r, uncompleted=(61, 62) if r == 0 else ())
        check_send_stamps(t, r)
    check_order(traces, REQ_PAIRS)


def case_causality():
    """progs/requests.c run RUNS times with both cores kept busy: in every
    run's raw rank archives each receive is recorded after its send."""
    runs = 4
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        for i in range(runs):
            check_order(requests_run(os.path.join(A.work, "causality_np2", "run%d" % i)),
                        REQ_PAIRS)
    finally:
        for h in hogs:
            h.kill()
            h.wait()


def case_nbc():
    """progs/nbc.c on 4 ranks: each nonblocking collective one
    NonBlockingCollectiveRequest in its call and one
    NonBlockingCollectiveComplete in the call that completed it, with the
    bytes of its blocking twin (case colls_np4); no MpiCollective*."""
    n, w = 4, "MPI_COMM_WORLD"
    out = os.path.join(A.work, "nbc_np4")
    p = mpirun("mpi_nbc", n, out)
    eq(p.returncode, 0, "exit status (stderr: %s)" % p.stderr[-500:])
    for r in range(n):
        t = archive.Trace(os.path.join(out, "rank-%d" % r, "traces.otf2"))
        mpi_calls(t)
        recs = records(t)

        def rooted(root, root_sent, root_recv, sent, recv):
            return (root,) + ((root_sent, root_recv) if r == root else (sent, recv))
        c = CollectiveOp
        want = [
            ("MPI_Ibarrier", "MPI_Wait", c.BARRIER, UNDEFINED, 0, 0),
            ("MPI_Ibcast", "MPI_Waitall", c.BCAST) + rooted(1, 4 * 8, 8, 0, 8),
            ("MPI_Ireduce", "MPI_Waitall", c.REDUCE) + rooted(2, 12, 4 * 12, 12, 0),
            ("MPI_Igather", "MPI_Waitall", c.GATHER) + rooted(0, 4, 16, 4, 0),
            ("MPI_Igatherv", "MPI_Waitall", c.GATHERV) + rooted(3, 16, 40, 4 * (r + 1), 0),
            ("MPI_Iscatter", "MPI_Waitall", c.SCATTER) + rooted(0, 4 * 8, 8, 0, 8),
            ("MPI_Iscatterv", "MPI_Waitall", c.SCATTERV) + rooted(1, 40, 8, 0, 4 * (r + 1)),
            ("MPI_Iallgather", "MPI_Waitsome", c.ALLGATHER, UNDEFINED, 16, 16),
            ("MPI_Iallgatherv", "MPI_Waitsome", c.ALLGATHERV, UNDEFINED, 16 * (r + 1), 40),
            ("MPI_Ialltoall", "MPI_Test", c.ALLTOALL, UNDEFINED, 16, 16),
            ("MPI_Ialltoallv", "MPI_Testall", c.ALLTOALLV, UNDEFINED, 16, 16),
            ("MPI_Ireduce_scatter", "MPI_Testall", c.REDUCE_SCATTER, UNDEFINED, 16, 16),
            ("MPI_Iallreduce", "MPI_Waitany", c.ALLREDUCE, UNDEFINED, 60, 60)]
        if r == 0:  # its Waitall's requests in reverse order
            want[1:7] = want[6:0:-1]
        started = {e.request_id: (call, e.time) for k, e, call, _ in recs
                   if k == "NonBlockingCollectiveRequest"}
        eq(len(started), len(want), "rank %d NonBlockingCollectiveRequests" % r)
        got = []
        for k, e, call, _ in recs:
            if k == "NonBlockingCollectiveComplete":
                start, when = started.pop(e.request_id, (None, e.time + 1))
                eq(when <= e.time, True, "rank %d %s completed after it started" % (r, start))
                eq(e.communicator.name, w, "rank %d %s communicator" % (r, start))
                got.append((start, call, e.collective_op, e.root, e.size_sent, e.size_received))
        eq(got, want, "rank %d nonblocking collectives (started, completed, op, root, bytes)" % r)
        eq([k for k, _, _, _ in recs if k.startswith("MpiCollective")], [],
           "rank %d blocking collective records" % r)


def case_threads():
    """progs/threads.c, MPI_THREAD_MULTIPLE: each thread's Isends and Irecvs
    completed exactly once, by its own MPI_Waitall, on its own location."""
    rounds, k = 3, 4
    out = os.path.join(A.work, "threads_np2")
    p = mpirun("mpi_threads", 2, out)
    eq(p.returncode, 0, "exit status (stderr: %s)" % p.stderr[-500:])
    if "no MPI_THREAD_MULTIPLE" in p.stdout:
        print("the MPI library does not provide MPI_THREAD_MULTIPLE: skipped")
        sys.exit(77)
    traces = []
    for r in range(2):
        t = archive.Trace(os.path.join(out, "rank-%d" % r, "traces.otf2"))
        traces.append(t)
        mpi_calls(t)
        eq(len(t.locs), 2, "rank %d OpenMP threads" % r)
        recs = records(t)
        check_requests(recs, r)
        for i, loc in enumerate(t.locs):
            mine = [x for x in recs if x[3] == loc]
            tags = [100 * i + j for j in range(rounds * k)]
            eq(msgs(mine, "MpiIsend"), [("MPI_Isend", 1 - r, tag, 4) for tag in tags],
               "rank %d location %d Isends" % (r, i))
            eq(msgs(mine, "MpiIrecv"), [("MPI_Waitall", 1 - r, tag, 4) for tag in tags],
               "rank %d location %d Irecvs" % (r, i))
            eq(sorted(e.request_id for kind, e, _, _ in mine if kind == "MpiIsendComplete"),
               sorted(e.request_id for kind, e, _, _ in mine if kind == "MpiIsend"),
               "rank %d location %d completes its own Isends" % (r, i))
    check_order(traces, 2 * 2 * rounds * k)


def halo_count(rank, d, it):
    return 1024 + it + rank if d == 2 else 1 + d + 3 * it + rank


def case_halo():
    """progs/halo.c on 8 ranks x 2 threads: every face message sent once,
    received once with the same bytes and tag, after its send; every
    request completed exactly once, by the MPI_Waitall of its exchange;
    odd iterations' calls inside the masked construct."""
    n = 8
    out = os.path.join(A.work, "halo_np8")
    p = mpirun("mpi_halo", n, out)
    eq(p.returncode, 0, "exit status (stderr: %s)" % p.stderr[-500:])
    traces = []
    for r in range(n):
        t = archive.Trace(os.path.join(out, "rank-%d" % r, "traces.otf2"))
        traces.append(t)
        calls = mpi_calls(t)
        eq(len(t.locs), 2, "rank %d threads" % r)
        loc0 = t.locs[0]
        got = collections.Counter(name for name, _ in calls[loc0])
        eq(dict(got), {"MPI_Init_thread": 1, "MPI_Irecv": 3 * HALO_ITERS,
                       "MPI_Isend": 3 * HALO_ITERS, "MPI_Waitall": HALO_ITERS,
                       "MPI_Finalize": 1}, "rank %d MPI calls" % r)
        eq(sum(1 for name, stack in calls[loc0] if name == "MPI_Waitall" and
               any(s.split(" @ ")[0] == "masked" for s in stack)), HALO_ITERS // 2,
           "rank %d exchanges inside masked" % r)
        eq([c for loc in t.locs[1:] for c in calls[loc]], [], "rank %d MPI calls on thread 1" % r)
        recs = records(t)
        faces = [(r ^ (1 << d), 10 * it + d, d, it) for it in range(HALO_ITERS) for d in range(3)]
        eq(msgs(recs, "MpiIsend"),
           sorted(("MPI_Isend", peer, tag, 8 * halo_count(r, d, it))
                  for peer, tag, d, it in faces), "rank %d Isends" % r)
        eq(msgs(recs, "MpiIrecv"),
           sorted(("MPI_Waitall", peer, tag, 8 * halo_count(peer, d, it))
                  for peer, tag, d, it in faces), "rank %d Irecvs" % r)
        eq(collections.Counter(c for k, _, c, _ in recs if k == "MpiIsendComplete"),
           collections.Counter({"MPI_Waitall": 3 * HALO_ITERS}), "rank %d Isend completions" % r)
        check_requests(recs, r)
        check_send_stamps(t, r)
    check_order(traces, n * 3 * HALO_ITERS)


CANCEL_BIG = 1 << 20  # progs/cancel.c


def case_cancel():
    """progs/cancel.c on 2 ranks: each cancelled receive has exactly one
    MpiRequestCancelled with its request id, in the call that completed
    it, and no MpiIrecv; the freed active receive has neither; the sends
    rank 0 tried to cancel as the program says MPI did (Open MPI 4.1:
    neither), their receives likewise."""
    out = os.path.join(A.work, "cancel_np2")
    p = mpirun("mpi_cancel", 2, out)
    eq(p.returncode, 0, "exit status (stderr: %s)" % p.stderr[-500:])
    flag = {}
    for line in p.stdout.splitlines():
        w = line.split()
        if len(w) == 4 and w[0] == "tag" and w[2] == "cancelled":
            flag[int(w[1])] = int(w[3])
    eq(sorted(flag), [80, 81, 83, 84, 86, 87], "cancellation flags printed")
    eq([flag.get(t) for t in (80, 81, 83, 84)], [1, 1, 1, 0], "receive cancellation flags")
    sent = [t for t in (86, 87) if not flag.get(t)]  # sends MPI did not cancel
    size = {86: 4, 87: CANCEL_BIG}
    traces = []
    for r in range(2):
        t = archive.Trace(os.path.join(out, "rank-%d" % r, "traces.otf2"))
        traces.append(t)
        calls = collections.Counter(n for n, _ in mpi_calls(t)[t.locs[0]])
        recs = sorted(records(t), key=lambda x: x[1].time)
        by_call = lambda kind: dict(collections.Counter(  # noqa: E731
            c for k, _, c, _ in recs if k == kind))
        cancelled = [(c, e.request_id) for k, e, c, _ in recs if k == "MpiRequestCancelled"]
        if r == 0:
            isend = [e.request_id for k, e, _, _ in recs if k == "MpiIsend"]
            eq(msgs(recs, "MpiIsend"), [("MPI_Isend", 1, 86, 4), ("MPI_Isend", 1, 87, CANCEL_BIG)],
               "rank 0 Isends")
            eq(msgs(recs, "MpiSend"), [("MPI_Send", 1, 84, 4), ("MPI_Send", 1, 88, 8),
                                       ("MPI_Ssend", 1, 85, 4)], "rank 0 sends")
            eq(calls["MPI_Cancel"], 2, "rank 0 MPI_Cancel calls")
            eq(sorted(e.request_id for k, e, _, _ in recs if k == "MpiIsendComplete"),
               sorted(i for i, t in zip(isend, (86, 87)) if t in sent), "rank 0 Isends completed")
            eq(cancelled, [("MPI_Waitall", i) for i, t in zip(isend, (86, 87)) if t not in sent],
               "rank 0 cancelled Isends")
            continue
        # rank 1's receive requests in program order: tags 80..87
        req = [e.request_id for k, e, _, _ in recs if k == "MpiIrecvRequest"]
        eq(len(req), 8, "rank 1 Irecv requests")
        eq(by_call("MpiIrecvRequest"), {"MPI_Irecv": 8}, "rank 1 Irecv requests by call")
        tag_of = dict(zip(req, range(80, 88)))
        eq([(c, tag_of.get(i)) for c, i in cancelled],
           [("MPI_Wait", 80), ("MPI_Test", 81), ("MPI_Request_free", 82), ("MPI_Waitall", 83)] +
           [("MPI_Waitall", t) for t in (86, 87) if t not in sent], "rank 1 cancelled Irecvs")
        eq(msgs(recs, "MpiIrecv"), sorted([("MPI_Waitall", 0, 84, 4)] +
                                          [("MPI_Waitall", 0, t, size[t]) for t in sent]),
           "rank 1 Irecvs")
        eq(sorted(tag_of.get(e.request_id) for k, e, _, _ in recs if k == "MpiIrecv"),
           [84] + sent, "rank 1 Irecv ids")
        eq(msgs(recs, "MpiRecv"), [("MPI_Recv", 0, 88, 8)], "rank 1 receives")
        eq(calls["MPI_Cancel"], 4 + 2 - len(sent), "rank 1 MPI_Cancel calls")
        eq(calls["MPI_Request_free"], 2, "rank 1 MPI_Request_free calls")
    # otf2-print, the other reader, sees the same cancellations
    for r, t in enumerate(traces):
        text = subprocess.run(["otf2-print", os.path.join(out, "rank-%d" % r, "traces.otf2")],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              universal_newlines=True).stdout
        want = (2 - len(sent)) if r == 0 else 4 + 2 - len(sent)
        eq(sum(1 for ln in text.splitlines() if ln.startswith("MPI_REQUEST_CANCELLED ")), want,
           "rank %d MPI_REQUEST_CANCELLED in otf2-print" % r)
    check_order(traces, 2 + len(sent), unreceived=(85,))


def main():
    global A
    ap = argparse.ArgumentParser()
    for o in ("launcher", "bin", "src", "work"):
        ap.add_argument("--" + o, required=True)
    ap.add_argument("case")
    A = ap.parse_args()
    if not shutil.which("mpirun"):
        print("mpirun not found: skipped (apt-get install openmpi-bin)")
        return 77
    os.makedirs(A.work, exist_ok=True)
    {"pingpong_np2": lambda: case_pingpong(2), "pingpong_np4": lambda: case_pingpong(4),
     "split_np4": case_split, "abort_np2": case_abort, "kill_np2": case_kill, "multiple_np2": case_multiple,
     "imbalance_np4": case_imbalance, "nonblock_np4": case_nonblock,
     "colls_np4": case_colls, "requests_np2": case_requests, "causality_np2": case_causality,
     "nbc_np4": case_nbc, "halo_np8": case_halo, "threads_np2": case_threads,
     "cancel_np2": case_cancel}[A.case]()
    for m in problems:
        print("FAIL:", m)
    print("%s: %s" % (A.case, "FAILED (%d)" % len(problems) if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
