#!/usr/bin/python3
"""What recording loop chunks costs (docs/performance.md, "Loop chunks"):
ot_chunks_loop built with clang-N against libomp N, run interleaved with
no tool, the no-op tool (which registers the dispatch callback too: the
runtime's own cost of calling it), omptrace with OMPTRACE_CHUNKS=off and
with chunks recorded, and prints per variant the median of the program's
own loop time and of its CPU time (all threads, the flusher's too), the
median of the paired ratios to chunks off, and the time added per chunk.

    bench/chunks_bench.py --build DIR --llvm N [--rounds R] [--iters I] [--reps R] [--work W]"""
import argparse
import glob
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

LOOPS = re.compile(r"loops: ([\d.]+) s \((\d+) chunks\)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--llvm", default="19")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--iters", type=int, default=20000)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--work", type=int, default=100)
    o = ap.parse_args()
    lib = "/var/cache/omptrace/llvm-%s/usr/lib/llvm-%s/lib" % (o.llvm, o.llvm)
    if o.llvm == "14":
        lib = "/usr/lib/llvm-14/lib"
    incs = glob.glob(lib + "/clang/*/include/omp.h")
    if not incs or not shutil.which("clang-" + o.llvm):
        sys.exit("chunks_bench: no clang-%s or libomp %s in %s" % (o.llvm, o.llvm, lib))
    tool = os.path.join(os.path.abspath(o.build), "recorder", "libomptrace.so")
    work = tempfile.mkdtemp(prefix="chunks_bench.")
    prog = os.path.join(work, "ot_chunks_loop")
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "chunks_loop.c")
    subprocess.run(["clang-" + o.llvm, "-fopenmp", "-O2", "-I" + os.path.dirname(incs[0]), src,
                    "-L" + lib, "-Wl,-rpath," + lib, "-o", prog], check=True)
    noop = os.path.join(os.path.abspath(o.build), "bench", "libot_noop_tool.so")
    variants = [("no tool", {}), ("no-op tool", {"OMP_TOOL_LIBRARIES": noop}),
                ("chunks off", {"OMP_TOOL_LIBRARIES": tool,
                                                 "OMPTRACE_CHUNKS": "off"}),
                ("chunks on", {"OMP_TOOL_LIBRARIES": tool, "OMPTRACE_CHUNKS": "on"})]
    times = {v[0]: [] for v in variants}
    cpu = {v[0]: [] for v in variants}
    chunks = 0
    for _ in range(o.rounds):
        for name, extra in variants:
            env = dict(os.environ, OMPTRACE_QUIET="1", OMPTRACE_OUTPUT=os.path.join(work, "a"),
                       **extra)
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            p = subprocess.run([prog, str(o.iters), str(o.reps), str(o.work)], env=env, check=True,
                               stdout=subprocess.PIPE, universal_newlines=True)
            m = LOOPS.search(p.stdout)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
            times[name].append(float(m.group(1)))
            chunks = int(m.group(2))
            shutil.rmtree(os.path.join(work, "a"), ignore_errors=True)
    shutil.rmtree(work, ignore_errors=True)
    print("libomp %s, %d chunks per run (work %d), %d rounds; loop time | process CPU time" %
          (o.llvm, chunks, o.work, o.rounds))
    for name, _ in variants:
        line = "%-11s" % name
        for what, base in ((times, times["chunks off"]), (cpu, cpu["chunks off"])):
            t = what[name]
            ratio = statistics.median(a / b for a, b in zip(t, base))
            per = statistics.median((a - b) / chunks * 1e9 for a, b in zip(t, base))
            line += " | median %.4f s, to chunks off %.3f, per chunk %+.0f ns" % (
                statistics.median(t), ratio, per)
        print(line)


main()
