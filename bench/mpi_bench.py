#!/usr/bin/python3
"""Cost per MPI message and per MPI_Barrier (bench/mpi_bench.c, mpirun -np
2) in three variants, run interleaved (none, omp, mpi, none, ...) so load
drift hits all alike; prints the median per variant and its ratio to no
tool.
  none: no tool; omp: libomptrace.so only (OpenMP recorded, MPI not);
  mpi: the launcher, which adds libomptrace-mpi.so.

Usage: bench/mpi_bench.py [--build DIR] [--reps N] [--iters N]"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(a, variant, out):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMP_NUM_THREADS="1", OMPTRACE_QUIET="1", OMPTRACE_OUTPUT=out)
    env.pop("OMP_TOOL_LIBRARIES", None)
    prog = [os.path.join(a.build, "bench", "ot_mpi_bench"), str(a.iters)]
    if variant == "omp":
        env["OMP_TOOL_LIBRARIES"] = os.path.join(a.build, "recorder", "libomptrace.so")
    elif variant == "mpi":
        prog = [os.path.join(a.build, "share", "omptrace")] + prog
    p = subprocess.run(["mpirun", "--oversubscribe", "-np", "2"] + prog, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        sys.exit("mpi_bench: %s failed: %s" % (variant, p.stderr.strip()[-300:]))
    f = p.stdout.split()
    return float(f[f.index("message_ns") + 1]), float(f[f.index("barrier_ns") + 1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--iters", type=int, default=20000)
    a = ap.parse_args()
    variants = ("none", "omp", "mpi")
    res = {v: ([], []) for v in variants}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.reps):
            for v in variants:
                m, b = run(a, v, os.path.join(tmp, "%s%d" % (v, r)))
                res[v][0].append(m)
                res[v][1].append(b)
    base = [statistics.median(res["none"][i]) for i in (0, 1)]
    print("mpirun -np 2, %d iterations, %d interleaved reps, medians" % (a.iters, a.reps))
    print("%-6s %14s %8s %14s %8s" % ("tool", "ns/message", "ratio", "ns/barrier", "ratio"))
    for v in variants:
        m, b = (statistics.median(res[v][i]) for i in (0, 1))
        print("%-6s %14.1f %8.2f %14.1f %8.2f" % (v, m, m / base[0], b, b / base[1]))


if __name__ == "__main__":
    main()
