#!/usr/bin/python3
"""One archive per MPI job: what the merge and the clock alignment cost.

1. Merge time: one 4-rank job of bench/mpi_bench.c (mpirun -np 4, the
   launcher with --no-merge) with a few million events, merged --reps times
   with omptrace-merge, interleaved with a plain copy of the same event
   files (what a merge that copies or rewrites events costs at least);
   prints events, medians and ranges of both wall times, their ratio, and
   the bytes of event files the merge linked and copied (a copy only where a
   hard link fails, e.g. across file systems).
2. Clock alignment: --jobs short jobs of --ranks ranks (default 4), with
   --busy busy loops beside them; the ranks of this machine share one
   clock, so each measured offset (DIR/rank-R/clock-sync) is the alignment
   error itself. Prints median and max |offset| and the error bound (half
   the round trip) at MPI_Init and at MPI_Finalize, and what the sync took
   per rank (OMPTRACE_VERBOSE's lines): the longest measuring of a rank,
   the longest answering of rank 0 and the longest wait for rank 0.

Usage: bench/merge_bench.py [--build DIR] [--iters N] [--reps N] [--jobs N] [--ranks N]
                            [--busy N]"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def job(a, out, iters, ranks=4):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMP_NUM_THREADS="1", OMPTRACE_QUIET="1", OMPTRACE_OUTPUT=out, OMPTRACE_MERGE="0",
               OMPTRACE_VERBOSE="1")
    cmd = ["mpirun", "--oversubscribe", "-np", str(ranks),
           os.path.join(a.build, "share", "omptrace"),
           os.path.join(a.build, "bench", "ot_mpi_bench"), str(iters)]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("merge_bench: job failed: %s" % p.stderr.strip()[-300:])
    return p.stderr


def copy_events(out, dst):
    os.makedirs(dst)
    for r in sorted(os.listdir(out)):
        if r.startswith("rank-"):
            for f in os.listdir(os.path.join(out, r, "traces")):
                if f.endswith(".evt"):
                    shutil.copyfile(os.path.join(out, r, "traces", f), os.path.join(dst, r + f))
    with open(os.path.join(dst, "sync"), "w") as f:
        os.fsync(f.fileno())
    os.sync()


def merge_times(a, out):
    tool = os.path.join(a.build, "recorder", "omptrace-merge")
    secs, copies, line = [], [], ""
    for i in range(a.reps):
        t0 = time.monotonic()
        p = subprocess.run([tool, out], capture_output=True, text=True)
        secs.append(time.monotonic() - t0)
        if p.returncode != 0:
            sys.exit("merge_bench: merge failed: " + p.stderr.strip())
        line = p.stdout.strip()
        dst = os.path.join(os.path.dirname(out), "copy%d" % i)
        t0 = time.monotonic()
        copy_events(out, dst)
        copies.append(time.monotonic() - t0)
        shutil.rmtree(dst)
    g = subprocess.run(["otf2-print", "-G", os.path.join(out, "traces.otf2")],
                       capture_output=True, text=True).stdout
    events = sum(int(n) for n in re.findall(r"# Events: (\d+)", g))
    m = re.search(r"(\d+) linked \((\d+) bytes\), (\d+) copied \((\d+) bytes\)", line)
    print("merge: 4 ranks, %d events; wall s median %.3f (min %.3f, max %.3f) of %d; "
          "event files %s linked (%s bytes), %s copied (%s bytes)"
          % (events, statistics.median(secs), min(secs), max(secs), a.reps, *m.groups()))
    print("copy of the event files: wall s median %.3f (min %.3f, max %.3f); merge/copy %.2f"
          % (statistics.median(copies), min(copies), max(copies),
             statistics.median(secs) / statistics.median(copies)))


SYNC = re.compile(r"omptrace: mpi: rank (\d+): clock sync: waited ([\d.]+) s .*"
                  r"(?:measured|answered) ([\d.]+) s")


def clock_errors(a, tmp):
    pts = {0: [], 1: []}  # sync point (0: MPI_Init, 1: MPI_Finalize) -> (|offset|, bound)
    took = {0: [], 1: []}  # sync point -> (rank, waited s, measured or answered s)
    busy = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(a.busy)]
    try:
        for j in range(a.jobs):
            out = os.path.join(tmp, "clock%d" % j)
            seen = {}
            for line in job(a, out, 1000, a.ranks).splitlines():
                m = SYNC.match(line)
                if m:
                    r = int(m.group(1))
                    k = seen[r] = seen.get(r, -1) + 1
                    if k < 2:
                        took[k].append((r, float(m.group(2)), float(m.group(3))))
            for r in range(1, a.ranks):
                lines = [l.split() for l in open(os.path.join(out, "rank-%d" % r, "clock-sync"))
                         if not l.startswith("#")]
                for k, (_, off, err) in enumerate(lines[:2]):
                    pts[k].append((abs(int(off)), int(err)))
            shutil.rmtree(out)
    finally:
        for b in busy:
            b.kill()
            b.wait()
    for k, name in ((0, "MPI_Init"), (1, "MPI_Finalize")):
        offs = [o for o, _ in pts[k]]
        errs = [e for _, e in pts[k]]
        print("clock %-12s %d offsets (ranks 1-%d, %d jobs, %d busy loops): |offset| ns median %d "
              "max %d; bound ns median %d max %d"
              % (name, len(offs), a.ranks - 1, a.jobs, a.busy, statistics.median(offs), max(offs),
                 statistics.median(errs), max(errs)))
        ranks = [t for r, _, t in took[k] if r]
        print("sync  %-12s measuring per rank ms median %.1f max %.1f; rank 0 answering ms max "
              "%.1f; wait for rank 0 ms max %.1f"
              % (name, 1e3 * statistics.median(ranks), 1e3 * max(ranks),
                 1e3 * max([t for r, _, t in took[k] if not r] or [0]),
                 1e3 * max(w for r, w, _ in took[k] if r)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    ap.add_argument("--iters", type=int, default=40000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=10)
    ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--busy", type=int, default=0)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(dir=os.getcwd()) as tmp:
        out = os.path.join(tmp, "job")
        job(a, out, a.iters)
        merge_times(a, out)
        shutil.rmtree(out)
        clock_errors(a, tmp)


if __name__ == "__main__":
    main()
