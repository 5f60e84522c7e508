#!/usr/bin/python3
"""What throttling saves on tiny constructs (OMPTRACE_THROTTLE, docs/control.md):
ot_tinytasks (bench/tinytasks.c: tiny tasks, tiny loops or tiny parallel
regions, --case) without a tool, with the no-op tool
(bench/noop_tool.c: what libomp's OMPT path costs by itself), with
omptrace, and with omptrace and OMPTRACE_THROTTLE (default 1000,10us),
interleaved, --reps
processes each. Prints the medians of the task region's wall time, the
whole process's (finalize and archive writing included) and the archive
size (the directory finalize leaves), and the throttled variant's ratios
to the unthrottled one.

  /usr/bin/python3 bench/throttle_bench.py --build BUILD_DIR [--reps N] [--tasks N]
                                           [--throttle N,T] [--threads N]
                                           [--case tasks|loop|parallel]"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run(prog, tasks, case, env_extra, out):
    env = dict(os.environ, OMPTRACE_QUIET="1", OMPTRACE_OUTPUT=out, **env_extra)
    t0 = time.monotonic()
    p = subprocess.run([prog, str(tasks), case], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=900)
    if p.returncode != 0:
        sys.exit("ot_tinytasks failed (%d): %s" % (p.returncode, p.stderr.strip()[-300:]))
    process = time.monotonic() - t0
    wall = float(p.stdout.split()[0].split("=")[1])
    size = 0
    for root, _, files in os.walk(out):
        size += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    return wall, process, size


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--tasks", type=int, default=200000,
                    help="instances per thread (parallel: regions)")
    ap.add_argument("--case", default="tasks", choices=("tasks", "loop", "parallel"))
    ap.add_argument("--throttle", default="1000,10us")
    ap.add_argument("--threads", default="2")
    a = ap.parse_args()
    prog = os.path.join(a.build, "bench", "ot_tinytasks")
    lib = os.path.join(a.build, "recorder", "libomptrace.so")
    os.environ["OMP_NUM_THREADS"] = a.threads
    work = tempfile.mkdtemp(prefix="ot_throttle_bench_")
    noop = os.path.join(a.build, "bench", "libot_noop_tool.so")
    variants = [("no tool", {}), ("no-op tool", {"OMP_TOOL_LIBRARIES": noop}),
                ("omptrace", {"OMP_TOOL_LIBRARIES": lib}),
                ("omptrace throttled", {"OMP_TOOL_LIBRARIES": lib,
                                        "OMPTRACE_THROTTLE": a.throttle})]
    walls = {v[0]: [] for v in variants}
    procs = {v[0]: [] for v in variants}
    sizes = {v[0]: [] for v in variants}
    for rep in range(a.reps):
        for name, extra in variants:
            out = os.path.join(work, "a%d-%s" % (rep, name.replace(" ", "_")))
            wall, process, size = run(prog, a.tasks, a.case, extra, out)
            walls[name].append(wall)
            procs[name].append(process)
            sizes[name].append(size)
            shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(work, ignore_errors=True)
    print("ot_tinytasks %s: %d per thread, %s threads, OMPTRACE_THROTTLE=%s; median of %d "
          "interleaved processes" % (a.case, a.tasks, a.threads, a.throttle, a.reps))
    print("| variant | timed part (s) | per instance (ns) | whole process (s) | archive (MB) |")
    print("|---|---|---|---|---|")
    # instances: tasks and loops per thread; parallel regions per run
    ntasks = a.tasks * (1 if a.case == "parallel" else int(a.threads))
    med = {}
    for name, _ in variants:
        w, s = statistics.median(walls[name]), statistics.median(sizes[name])
        pr = statistics.median(procs[name])
        med[name] = (w, s, pr)
        print("| %s | %.3f | %.0f | %.3f | %.2f |" % (name, w, w * 1e9 / ntasks, pr, s / 1e6))
    base, thr, noop_ = med["omptrace"], med["omptrace throttled"], med["no-op tool"]
    print("throttled / unthrottled: timed part %.2f, whole process %.2f, archive %.3f; above "
          "the no-op tool per instance: unthrottled %.0f ns, throttled %.0f ns"
          % (thr[0] / base[0], thr[2] / base[2], thr[1] / base[1],
             (base[0] - noop_[0]) * 1e9 / ntasks,
             (thr[0] - noop_[0]) * 1e9 / ntasks))


if __name__ == "__main__":
    main()
