#!/usr/bin/python3
"""End to end: the whole traced process, exit and archive writing included,
against the same program without a tool (docs/performance.md, "End to end").

    bench/e2e.py --build DIR [--reps N] [--threads N] [--before LIB] [--runtime NAME=LIBDIR]...
                 [--program "ARGS"]...

Runs each program (default: BOTS-style `ot_scale fib 26`,
`ot_scale tasks 2000000` and BOTS-style `ot_scale health 7 20`, all fixed
work) without a tool and under omptrace, interleaved, N times (default 5),
and prints per program and
variant the median wall time of the process, its ratio to no tool, the
median of the program's own printed time (its parallel phase, program_s), and
the archive's events, size, bytes per event and finalize time from omptrace's
exit line. --before LIB adds another libomptrace.so (e.g. a previous build) as a
third variant, interleaved with the others. --runtime NAME=LIBDIR adds the pair
'no tool NAME' and 'omptrace NAME' on the libomp.so.5 of LIBDIR (e.g. libomp 19
beside the system's 14), interleaved too, each with its ratio to its own
runtime's 'no tool NAME'."""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import scale_cli

PHASE = re.compile(r"(?:: |regions: )([\d.]+) s$", re.M)  # ot_scale's own time
EXIT_LINE = re.compile(r"wrote .*?: (\d+) threads, (\d+) events, ([\d.]+) (KiB|MiB|GiB|B) "
                       r"\(([\d.]+) B/event\), finalize ([\d.]+) s")
UNIT = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30}


def run_once(cmd, env, work, keep):
    out = tempfile.mkdtemp(dir=work)
    t0 = time.monotonic()
    p = subprocess.run(cmd, env=env, cwd=out, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    wall = time.monotonic() - t0
    if not keep:
        shutil.rmtree(out, ignore_errors=True)
    if p.returncode != 0:
        sys.exit("e2e: %s exited with %d: %s" % (" ".join(cmd), p.returncode, p.stderr[-500:]))
    m = EXIT_LINE.search(p.stderr)
    info = None
    if m:
        info = (int(m.group(2)), float(m.group(3)) * UNIT[m.group(4)], float(m.group(6)))
    q = PHASE.search(p.stdout)
    return wall, info, float(q.group(1)) if q else None


def main():
    a, scale, lib = scale_cli.parse(__doc__, "e2e", reps=5)
    programs = a.program or ["fib 26", "tasks 2000000", "health 7 20"]
    base = dict(os.environ, OMP_NUM_THREADS=str(a.threads))
    base.pop("OMP_TOOL_LIBRARIES", None)
    variants = [("no tool", base), ("omptrace", dict(base, OMP_TOOL_LIBRARIES=lib))]
    if a.before:
        variants.append(("before", dict(base, OMP_TOOL_LIBRARIES=a.before)))
    baseline = {name: "no tool" for name, _ in variants}
    for r in a.runtime:
        rname, _, libdir = r.partition("=")
        renv = dict(base, LD_LIBRARY_PATH=libdir)
        variants += [("no tool " + rname, renv),
                     ("omptrace " + rname, dict(renv, OMP_TOOL_LIBRARIES=lib))]
        baseline.update({"no tool " + rname: "no tool " + rname,
                         "omptrace " + rname: "no tool " + rname})
    work = tempfile.mkdtemp(prefix="omptrace-e2e-")
    try:
        for prog in programs:
            cmd = [scale] + prog.split()
            walls = {v: [] for v, _ in variants}
            infos = {v: [] for v, _ in variants}
            phases = {v: [] for v, _ in variants}
            for _ in range(a.reps):
                for name, env in variants:
                    wall, info, phase = run_once(cmd, env, work, a.keep)
                    walls[name].append(wall)
                    if info:
                        infos[name].append(info)
                    if phase is not None:
                        phases[name].append(phase)
            for name, _ in variants:
                none = statistics.median(walls[baseline[name]])
                med = statistics.median(walls[name])
                line = "program=%s variant=%s median_s=%.3f ratio=%.2f" % (
                    prog.replace(" ", "_"), name.replace(" ", "_"), med, med / none)
                if phases[name]:
                    line += " program_s=%.3f" % statistics.median(phases[name])
                got = infos[name]
                if got:
                    ev, size, _ = got[len(got) // 2]
                    line += " events=%d archive_MiB=%.1f bytes_per_event=%.2f finalize_s=%.2f" % (
                        ev, size / 2**20, size / ev if ev else 0, statistics.median(
                            i[2] for i in got))
                print(line, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
