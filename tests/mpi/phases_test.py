#!/usr/bin/python3
"""The verbose phase lines bench/mpi_phases.py reads (docs/performance.md,
"MPI_Init and finalize"): progs/pingpong.c on 4 ranks under the launcher
with OMPTRACE_VERBOSE=1 and mpirun --tag-output. Each rank R prints exactly
one "mpi: rank R: MPI_Init_thread" and one "mpi: rank R: MPI_Finalize"
line, one "log: last flush from" and one "finalize: archive written at"
line; the CLOCK_MONOTONIC times in them follow the program's order (init
entered <= left < finalize entered <= left <= last flush <= archive
written), each part is no longer than its whole (tool start and clock sync
within MPI_Init_thread, clock sync within MPI_Finalize), the process CPU
time at the archive's end is no less than at the last flush's start, and
the job's archive is merged. Order only: no verdict on durations.

Usage: phases_test.py --launcher L --bin DIR --work DIR
Exits 77 (skip) when mpirun is missing."""
import argparse
import os
import re
import shutil
import subprocess
import sys

NP = 4
TAG = re.compile(r"^\[\d+,(\d+)\]<stderr>:\s?(.*)$")
F = r"([\d.]+)"
LINES = {
    "init": re.compile(r"^omptrace: mpi: rank (\d+): MPI_Init_thread %s s, clock sync %s s; "
                       r"entered at %s s, left at %s s \(CLOCK_MONOTONIC\), tool start %s s$"
                       % (F, F, F, F, F)),
    "fin": re.compile(r"^omptrace: mpi: rank (\d+): MPI_Finalize %s s, clock sync %s s; "
                      r"entered at %s s, left at %s s \(CLOCK_MONOTONIC\)$" % (F, F, F, F)),
    "flush": re.compile(r"^omptrace: log: last flush from %s to %s s \(CLOCK_MONOTONIC\); "
                        r"process CPU time %s s at its start$" % (F, F, F)),
    "written": re.compile(r"^omptrace: finalize: archive written at %s s \(CLOCK_MONOTONIC\); "
                          r"process CPU time %s s$" % (F, F)),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--launcher", required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    if not shutil.which("mpirun"):
        print("mpirun not found")
        return 77
    out = os.path.join(a.work, "phases_np4")
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, OMPTRACE_OUTPUT=out, OMPTRACE_VERBOSE="1", OMP_NUM_THREADS="2",
               OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    env.pop("OMPTRACE_MERGE", None)
    # Sanitizer builds: Open MPI's components leak at exit (as in mpi_tests.py).
    env["ASAN_OPTIONS"] = "detect_leaks=0" + (":" + env["ASAN_OPTIONS"] if "ASAN_OPTIONS" in env
                                              else "")
    p = subprocess.run(["mpirun", "--oversubscribe", "--tag-output", "-np", str(NP), a.launcher,
                        os.path.join(a.bin, "mpi_pingpong")], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True, timeout=240)
    problems = []
    if p.returncode != 0:
        problems.append("mpirun exited with %d" % p.returncode)
    got = {r: {k: [] for k in LINES} for r in range(NP)}
    for line in p.stdout.splitlines():
        m = TAG.match(line)
        if not m:
            continue
        for name, rx in LINES.items():
            f = rx.match(m.group(2))
            if f:
                got[int(m.group(1))][name].append(f.groups())
    for r in range(NP):
        g = got[r]
        counts = {k: len(v) for k, v in g.items()}
        if counts != {k: 1 for k in LINES}:
            problems.append("rank %d: lines %r, expected one of each" % (r, counts))
            continue
        init, fin, flush, written = g["init"][0], g["fin"][0], g["flush"][0], g["written"][0]
        if int(init[0]) != r or int(fin[0]) != r:
            problems.append("rank %d: lines name ranks %s and %s" % (r, init[0], fin[0]))
        i_total, i_sync, i_in, i_out, i_start = (float(x) for x in init[1:])
        f_total, f_sync, f_in, f_out = (float(x) for x in fin[1:])
        order = [i_in, i_out, f_in, f_out, float(flush[0]), float(flush[1]), float(written[0])]
        if order != sorted(order) or i_out == f_in:
            problems.append("rank %d: times out of order: %r" % (r, order))
        if i_sync > i_total or i_start > i_total or f_sync > f_total:
            problems.append("rank %d: a part longer than its call: init %r, finalize %r"
                            % (r, init, fin))
        if float(written[1]) < float(flush[2]):
            problems.append("rank %d: process CPU time went back from %s to %s s"
                            % (r, flush[2], written[1]))
    if not os.path.exists(os.path.join(out, "traces.otf2")):
        problems.append("no merged archive %s/traces.otf2" % out)
    for m in problems:
        print("FAIL: " + m)
    if problems:
        print(p.stdout[-3000:])
    print("phases_np4: %s" % ("FAILED (%d)" % len(problems) if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
