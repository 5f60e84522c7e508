#!/usr/bin/python3
"""Cost per MPI message (blocking ping-pong), per nonblocking exchange
(MPI_Irecv + MPI_Isend + MPI_Waitall), per MPI_Barrier and per MPI_Test of
a null request (bench/mpi_bench.c, mpirun -np 2) in three variants, run interleaved (none, omp, mpi, none, ...) so load
drift hits all alike; prints the median per variant and its ratio to no
tool.
  none: no tool; omp: libomptrace.so only (OpenMP recorded, MPI not);
  mpi: the launcher, which adds libomptrace-mpi.so;
  mpi+buf (with --buffer SIZE): the same with OMPTRACE_BUFFER_SIZE=SIZE, so
  a run that fits the buffer writes its record log only at the end.

Usage: bench/mpi_bench.py [--build DIR] [--reps N] [--iters N]"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KEYS = ("message_ns", "exchange_ns", "barrier_ns", "test_ns")
HEADS = ("ns/message", "ns/exchange", "ns/barrier", "ns/MPI_Test")


def run(a, variant, out):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMP_NUM_THREADS="1", OMPTRACE_QUIET="1", OMPTRACE_OUTPUT=out)
    env.pop("OMP_TOOL_LIBRARIES", None)
    prog = [os.path.join(a.build, "bench", "ot_mpi_bench"), str(a.iters)]
    if variant == "omp":
        env["OMP_TOOL_LIBRARIES"] = os.path.join(a.build, "recorder", "libomptrace.so")
    elif variant.startswith("mpi"):
        if variant == "mpi+buf":
            env["OMPTRACE_BUFFER_SIZE"] = a.buffer
        prog = [os.path.join(a.build, "share", "omptrace")] + prog
    p = subprocess.run(["mpirun", "--oversubscribe", "-np", str(a.np)] + prog, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        sys.exit("mpi_bench: %s failed: %s" % (variant, p.stderr.strip()[-300:]))
    f = p.stdout.split()
    return [float(f[f.index(k) + 1]) for k in KEYS]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--iters", type=int, default=20000)
    ap.add_argument("--buffer", help="also run the launcher with OMPTRACE_BUFFER_SIZE=BUFFER")
    ap.add_argument("--np", type=int, default=2, help="ranks (1: MPI_Test and barriers only)")
    a = ap.parse_args()
    variants = ("none", "omp", "mpi") + (("mpi+buf",) if a.buffer else ())
    res = {v: tuple([] for _ in KEYS) for v in variants}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.reps):
            for v in variants:
                for i, x in enumerate(run(a, v, os.path.join(tmp, "%s%d" % (v, r)))):
                    res[v][i].append(x)
    idx = range(len(KEYS))
    base = [statistics.median(res["none"][i]) for i in idx]
    print("mpirun -np %d, %d iterations, %d interleaved reps, medians" % (a.np, a.iters, a.reps))
    print("%-7s" % "tool" + "".join(" %12s %6s" % (h, "ratio") for h in HEADS))
    for v in variants:
        m = [statistics.median(res[v][i]) for i in idx]
        print("%-7s" % v + "".join(" %12.1f %6.2f" % (m[i], m[i] / base[i] if base[i] else 0)
                                   for i in idx))


if __name__ == "__main__":
    main()
