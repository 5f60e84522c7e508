#!/usr/bin/python3
"""Reports on MPI jobs tell the truth: `mpirun -np N omptrace report_phases`
(progs/report_phases.c) and the job's archive read back with python3-otf2,
which gives every figure expected of omptrace-summary and omptrace-convert
independently of them, exact to the nanosecond of the records' own times:

- per thread, MPI time (an MPI region open on the thread, in a parallel
  region too), parallel time (a parallel region or a fork open, no MPI
  call) and the rest (serial or idle) partition the run;
- for the job, serial time (no thread in a parallel region, a fork or an
  MPI call), MPI-only time (a thread in an MPI call, none in a parallel
  region) and parallel time partition the run;
- the serial finding says serial only of that serial time; the truncated
  pairs table says how many pairs it leaves out; the Chrome trace's MPI
  slices have cat "mpi"; the HTML timeline has an MPI state.

Usage: report_tests.py --launcher L --summary S --convert C --bin DIR --work DIR CASE
Exits 77 (skip) when mpirun is missing."""

import argparse
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys

import otf2
from otf2.enums import Paradigm, RegionRole

A = None
problems = []
OUT, MPI, PAR = 0, 1, 2  # a thread's state; the job's: serial, MPI only, parallel


def eq(got, want, what):
    if got != want:
        problems.append("%s: expected %r, got %r" % (what, want, got))


def mpirun(prog_args, n, threads, out):
    shutil.rmtree(out, ignore_errors=True)
    e = dict(os.environ, OMPTRACE_OUTPUT=out, OMP_NUM_THREADS=str(threads),
             OMP_WAIT_POLICY="passive", OMPI_ALLOW_RUN_AS_ROOT="1",
             OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")
    # Open MPI's components leak at exit (see mpi_tests.py).
    e["ASAN_OPTIONS"] = "detect_leaks=0" + (":" + e["ASAN_OPTIONS"] if "ASAN_OPTIONS" in e else "")
    cmd = ["mpirun", "--oversubscribe", "-np", str(n), A.launcher,
           os.path.join(A.bin, prog_args[0])] + prog_args[1:]
    p = subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=240)
    eq(p.returncode, 0, "mpirun exit status (stderr: %s)" % p.stderr[-500:])
    eq(os.path.exists(os.path.join(out, "traces.otf2")), True, "the job's merged archive")
    return p


def expected(anchor):
    """From the archive: per location (in definition order) its name, rank
    and times in each state; the job's times in each state; the run's
    first and last event; MPI calls inside parallel regions; MPI Enters."""
    with otf2.reader.open(anchor) as r:
        d = r.definitions
        locs = list(d.locations)
        index = {l._ref: i for i, l in enumerate(locs)}
        names = [l.name for l in locs]
        ranks = [int(l.group.name.split()[-1]) for l in locs]
        stack = [[] for _ in locs]  # per location: open "mpi" / "par" / other entries
        last = [None] * len(locs)
        lfirst = [None] * len(locs)
        main = [False] * len(locs)  # calls MPI outside parallel regions: runs serial code
        state = [OUT] * len(locs)
        per = [[0, 0, 0] for _ in locs]
        job = [0, 0, 0]
        first = glast = None
        onoff = nested = mpi_enters = 0

        def loc_state(s):
            return MPI if "mpi" in s else PAR if "par" in s else OUT

        def job_state():
            return PAR if PAR in state else MPI if MPI in state else OUT

        for loc, ev in r.events:
            i, t = index[loc._ref], ev.time
            first = t if first is None else first
            if glast is not None and t > glast:
                job[job_state()] += t - glast
            glast = t if glast is None or t > glast else glast
            if last[i] is not None:
                per[i][state[i]] += t - last[i]
            else:
                lfirst[i] = t
            last[i] = t
            kind = type(ev).__name__
            s = stack[i]
            if kind == "Enter":
                reg = ev.region
                if reg.paradigm == Paradigm.MPI:
                    mpi_enters += 1
                    nested += "par" in s and "mpi" not in s
                    main[i] = main[i] or "par" not in s
                    s.append("mpi")
                else:
                    s.append("par" if reg.region_role == RegionRole.PARALLEL else "-")
            elif kind == "Leave" and s:
                s.pop()
            elif kind == "ThreadFork":
                s.append("par")
            elif kind == "ThreadJoin":
                while s and s.pop() != "par":
                    pass
            elif kind == "MeasurementOnOff":
                onoff += 1
            state[i] = loc_state(s)
        eq(onoff, 0, "no measurement gaps in the archive")
        for i in range(len(locs)):  # before a thread's first and after its last event: outside
            if last[i] is None:
                continue
            wall = glast - first
            per[i][OUT] = wall - per[i][MPI] - per[i][PAR]
        # before its first and after its last event a thread is idle
        edges = [lfirst[i] - first + glast - last[i] for i in range(len(locs))]
        return {"names": names, "ranks": ranks, "per": per, "job": job, "wall": glast - first,
                "nested": nested, "mpi_enters": mpi_enters, "main": main, "edges": edges}


def summary(d, *args):
    p = subprocess.run([A.summary] + list(args) + [d], capture_output=True, text=True,
                       timeout=120)
    eq(p.returncode, 0, "omptrace-summary %s (stderr: %s)" % (" ".join(args), p.stderr[-300:]))
    return p.stdout


PAR_COLS = ("work_ns", "wait_ns", "fork_join_ns", "task_create_ns", "runtime_ns")


def check_summary(out, x, n, threads):
    doc = json.loads(summary(out, "--format", "json"))
    rows = doc["threads"]["threads"]
    eq(len(rows), len(x["names"]), "threads in the summary")
    for i, row in enumerate(rows):
        what = "thread %d (%s)" % (i, row["name"])
        eq(row["name"].endswith(x["names"][i]), True, what + ": name")
        par = sum(row[c] for c in PAR_COLS)
        got = (row["mpi_ns"], par, row["serial_ns"] + row["idle_ns"])
        eq(got, tuple(x["per"][i][k] for k in (MPI, PAR, OUT)), what + ": MPI, parallel, outside")
        eq(sum(got), x["wall"], what + ": the categories add up to the wall time")
        # A rank's main thread runs serial code between its first and last
        # event; before and after (the rank not started yet or ended) it is idle.
        eq((row["serial_ns"], row["idle_ns"]),
           (x["per"][i][OUT] - x["edges"][i], x["edges"][i]) if x["main"][i] else
           (0, x["per"][i][OUT]), what + ": serial and idle")
    eq(sum(x["main"]), n, "one main thread per rank")
    run = doc["overview"]["run"]
    eq((run["serial_ns"], run["mpi_ns"], run["parallel_ns"], run["measured_ns"]),
       (x["job"][OUT], x["job"][MPI], x["job"][PAR], x["wall"]),
       "overview: serial, MPI only, parallel, measured")
    ranks = doc["mpi"]["ranks"]
    eq([(k["rank"], k["threads"]) for k in ranks], [(r, threads) for r in range(n)], "ranks")
    for k in ranks:
        want = sum(x["per"][i][MPI] for i in range(len(rows)) if x["ranks"][i] == k["rank"])
        eq((k["mpi_ns"], k["mpi_ns"] > 0), (want, True), "rank %d MPI time" % k["rank"])
    # The serial finding: of the serial time alone, with its share.
    texts = [f["text"] for f in doc["findings"]["findings"]]
    serial = [t for t in texts if " is serial: " in t]
    share = float(x["job"][OUT]) / x["wall"]
    eq(len(serial), 1 if share >= 0.1 else 0, "serial findings (serial share %.3f)" % share)
    for t in serial:
        eq(t.startswith("%.0f%% of the run" % (100 * share)), True, "serial share in %r" % t)
        eq("or an MPI call, so %d threads per rank" % threads in t, True, "Amdahl of %r" % t)
    mshare = float(x["job"][MPI]) / x["wall"]
    eq(sum(" is MPI time: " in t for t in texts), 1 if mshare >= 0.1 else 0,
       "MPI-time findings (MPI share %.3f)" % mshare)
    return doc, share


def check_formats(out, x, n):
    pairs = n * (n - 1)
    text = summary(out)
    # --top 10 (the default) shows 10 pairs and says how many more there are
    block = text.split("Messages per pair of ranks\n", 1)[-1].split("\n\n", 1)[0]
    eq(len([l for l in block.splitlines() if re.match(r"\s+\d+\s+\d+\s+1\s+4$", l)]),
       min(pairs, 10), "pair rows in the text")
    note = "  (%d more not shown; --top 0 shows all)" % (pairs - 10)
    eq(note in block.splitlines() if pairs > 10 else "more not shown" not in block, True,
       "the pairs' note %r in:\n%s" % (note, block))
    eq("MPI time (a thread in an MPI call, none in a parallel region)" in text, True,
       "text: MPI time in the overview")
    doc = json.loads(summary(out, "--format", "json", "--top", "0"))
    eq(len(doc["mpi"]["pairs"]), pairs, "pairs with --top 0")
    # CSV: the same MPI column per thread
    blocks = {b.split("\n", 1)[0]: b.split("\n", 1)[1]
              for b in summary(out, "--format", "csv").strip().split("\n\n")}
    rows = list(csv.DictReader(io.StringIO(blocks["# threads.threads"])))
    eq([int(r["mpi_ns"]) for r in rows], [p[MPI] for p in x["per"]], "csv: MPI per thread")
    # HTML: MPI has its own state and colour in the timeline and the bars
    page = summary(out, "--format", "html")
    eq('.st-mpi{fill:#22b8cf}' in page, True, "html: MPI colour")
    legend = page.split('id="plot-timeline"', 1)[-1].split('class="legend">', 1)[-1]
    legend = legend.split("</p>", 1)[0]
    eq('<rect class="st-mpi" width="12" height="12"/></svg> MPI</span>' in legend, True,
       "html: MPI in the timeline's legend: %s" % legend)
    eq('data-state="mpi"' in page, True, "html: MPI bins in the timeline")
    eq(sum(1 for p in x["per"] if p[MPI]) <= page.count('<rect class="st-mpi"'), True,
       "html: an MPI segment in each bar of a thread with MPI time")


def check_chrome(out, x):
    dst = os.path.join(out, "chrome.json")
    p = subprocess.run([A.convert, out, "--to", "chrome", "-o", dst], capture_output=True,
                       text=True, timeout=120)
    eq(p.returncode, 0, "omptrace-convert (stderr: %s)" % p.stderr[-300:])
    evs = json.load(open(dst))["traceEvents"]
    mpi = [e for e in evs if e.get("ph") == "B" and e["name"].startswith("MPI_")]
    eq(len(mpi), x["mpi_enters"], "MPI slices in the Chrome trace")
    eq(sorted(set(e["cat"] for e in mpi)), ["mpi"], "the MPI slices' cat")
    eq(any(e.get("ph") == "B" and e.get("cat") == "parallel" for e in evs), x["nested"] > 0,
       "parallel slices keep their cat")


def case_hybrid():
    """4 ranks x 2 threads: serial, OpenMP and MPI phases, an MPI_Allreduce
    in a parallel region (MPI time on the master thread, no OMP Work)."""
    out = os.path.join(A.work, "report_hybrid_np4")
    mpirun(["mpi_report_phases"], 4, 2, out)
    x = expected(os.path.join(out, "traces.otf2"))
    eq(x["nested"], 4, "MPI_Allreduce inside a parallel region, once per rank")
    check_summary(out, x, 4, 2)
    check_formats(out, x, 4)
    check_chrome(out, x)


def case_mpi_only():
    """8 ranks x 1 thread, no OpenMP: the run is MPI calls (MPI_Init, 56
    messages, a barrier rank 0 comes to 20 ms late) and is never called
    serial for it; 56 pairs of ranks, 10 shown, 46 more."""
    out = os.path.join(A.work, "report_mpi_np8")
    mpirun(["mpi_report_phases", "mpi"], 8, 1, out)
    x = expected(os.path.join(out, "traces.otf2"))
    eq(x["nested"], 0, "no MPI call in a parallel region")
    doc, share = check_summary(out, x, 8, 1)
    # Structurally almost no serial time: every rank is in MPI_Init from its
    # start to its first message and in MPI_Finalize after its last.
    eq(share < 0.1, True, "serial share %.3f of an MPI-only job" % share)
    eq(any("is serial" in f["text"] for f in doc["findings"]["findings"]), False,
       "no serial finding for an MPI-only job")
    eq(doc["overview"]["run"]["mpi_ns"] > doc["overview"]["run"]["serial_ns"], True,
       "MPI time over serial time")
    check_formats(out, x, 8)
    check_chrome(out, x)


# progs/nbc.c on 4 ranks: each nonblocking collective once on MPI_COMM_WORLD,
# bytes sent plus received over the ranks' parts (those of mpi_tests.py
# case nbc_np4, as for the blocking twins of progs/colls.c)
NBC_BYTES = {"ibarrier": 0, "ibcast": 40 + 3 * 8, "ireduce": 60 + 3 * 12,
             "igather": 20 + 3 * 4, "igatherv": 56 + 4 + 8 + 12, "iscatter": 40 + 3 * 8,
             "iscatterv": 48 + 4 + 12 + 16, "iallgather": 4 * 32,
             "iallgatherv": sum(16 * (r + 1) + 40 for r in range(4)), "ialltoall": 4 * 32,
             "ialltoallv": 4 * 32, "ireduce_scatter": 4 * 32, "iallreduce": 4 * 120}


def case_nbc():
    """progs/nbc.c on 4 ranks (rank 0 completes its six rooted ones in
    reverse order): the summary counts each nonblocking collective once,
    with its ranks' parts matched in the order they were issued (bytes
    exact per operation), time from each part's request to its completion
    as the archive says, 13 collectives on MPI_COMM_WORLD, no collective
    wait (the wait is the completing call's MPI time), nothing unmatched."""
    out = os.path.join(A.work, "report_nbc_np4")
    mpirun(["mpi_nbc"], 4, 1, out)
    names = {"BARRIER": "ibarrier", "BCAST": "ibcast", "REDUCE": "ireduce", "GATHER": "igather",
             "GATHERV": "igatherv", "SCATTER": "iscatter", "SCATTERV": "iscatterv",
             "ALLGATHER": "iallgather", "ALLGATHERV": "iallgatherv", "ALLTOALL": "ialltoall",
             "ALLTOALLV": "ialltoallv", "REDUCE_SCATTER": "ireduce_scatter",
             "ALLREDUCE": "iallreduce"}
    span = dict.fromkeys(NBC_BYTES, 0)  # ns from request to completion, over the parts
    with otf2.reader.open(os.path.join(out, "traces.otf2")) as r:
        eq(r.timer_resolution, 10**9, "timer resolution (ticks are ns)")
        issued = {}
        for loc, e in r.events:
            kind = type(e).__name__
            rank = loc.group.name
            if kind == "NonBlockingCollectiveRequest":
                issued[(rank, e.request_id)] = e.time
            elif kind == "NonBlockingCollectiveComplete":
                span[names[str(e.collective_op).split(".")[-1]]] += e.time - issued.pop((rank, e.request_id))
        eq(issued, {}, "every request completed")
    p = subprocess.run([A.summary, "--format", "json", os.path.join(out, "traces.otf2")],
                       capture_output=True, text=True, timeout=120)
    eq((p.returncode, p.stderr), (0, ""), "omptrace-summary: status, no unmatched warning")
    doc = json.loads(p.stdout)
    eq({c["operation"]: (c["count"], c["bytes"], c["time_ns"]) for c in doc["mpi"]["collectives"]},
       {op: (1, b, span[op]) for op, b in NBC_BYTES.items()},
       "collectives: count, bytes, time per operation")
    eq([(c["comm"], c["collectives"]) for c in doc["mpi"]["comms"]],
       [("MPI_COMM_WORLD", 13), ("MPI_COMM_SELF", 0)], "collectives per communicator")
    eq([w for w in doc["mpi"]["waits"] if w["kind"] == "collective_wait"], [],
       "no collective waits")
    text = summary(os.path.join(out, "traces.otf2"))
    eq(re.search(r"^  iallreduce +1 +480 ", text, re.M) is not None, True,
       "the text's iallreduce row")


CASES = {"hybrid_np4": case_hybrid, "mpi_only_np8": case_mpi_only, "nbc_np4": case_nbc}


def main():
    global A
    ap = argparse.ArgumentParser()
    for o in ("launcher", "summary", "convert", "bin", "work"):
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
    print("report.%s: %s" % (A.case, "FAILED (%d)" % len(problems) if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
