#!/usr/bin/python3
"""Cost per MPI message, per MPI_Barrier and per MPI_Test of a null request (bench/mpi_bench.c, mpirun -np
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
    return [float(f[f.index(k) + 1]) for k in ("message_ns", "barrier_ns", "test_ns")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--iters", type=int, default=20000)
    a = ap.parse_args()
    variants = ("none", "omp", "mpi")
    res = {v: ([], [], []) for v in variants}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.reps):
            for v in variants:
                for i, x in enumerate(run(a, v, os.path.join(tmp, "%s%d" % (v, r)))):
                    res[v][i].append(x)
    base = [statistics.median(res["none"][i]) for i in (0, 1, 2)]
    print("mpirun -np 2, %d iterations, %d interleaved reps, medians" % (a.iters, a.reps))
    print("%-6s %12s %6s %12s %6s %12s %6s" % ("tool", "ns/message", "ratio", "ns/barrier",
                                               "ratio", "ns/MPI_Test", "ratio"))
    for v in variants:
        m = [statistics.median(res[v][i]) for i in (0, 1, 2)]
        print("%-6s %12.1f %6.2f %12.1f %6.2f %12.1f %6.2f" % (
            v, m[0], m[0] / base[0], m[1], m[1] / base[1], m[2], m[2] / base[2]))


if __name__ == "__main__":
    main()
