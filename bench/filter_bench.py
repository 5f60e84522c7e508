#!/usr/bin/python3
"""What an excluded construct costs (OMPTRACE_FILTER, docs/control.md):
ot_hotpath (one thread, callbacks called directly) with the no-op tool,
omptrace unfiltered, omptrace with a filter file excluding the sequences'
sites (functions site_a and site_b of bench/hotpath.c: barrier + wait, loop,
lock; task create and the parallel region itself are never filtered, the
region's barrier is) and, for comparison, omptrace paused
(OMPTRACE_START=paused: the handlers return after one check). Variants run
interleaved, --reps processes each; prints the median over processes of each process's best block (the least
disturbed by other load), in ns per event, and the archive size.

--before LIB adds a fifth variant, another libomptrace.so (an earlier build)
with the same filter file, to compare the excluded path of two versions.

  /usr/bin/python3 bench/filter_bench.py --build BUILD_DIR [--reps N] [--iters N] [--before LIB]"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

FILTER = """# bench/filter_bench.py: every construct at the sequences' sites
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE site_a site_b
SCOREP_REGION_NAMES_END
"""


def run(hotpath, lib, iters, env_extra, out):
    env = dict(os.environ, OMPTRACE_QUIET="1", OMPTRACE_OUTPUT=out, **env_extra)
    # --settle: the filter's decisions are taken on the flusher thread, which
    # a loaded machine may run late
    settle = "2000" if "OMPTRACE_FILTER" in env_extra else "0"
    p = subprocess.run([hotpath, lib, "--iters", str(iters), "--settle", settle], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                       timeout=600)
    if p.returncode != 0:
        sys.exit("ot_hotpath failed (%d): %s" % (p.returncode, p.stderr.strip()[-300:]))
    seqs = {}
    for line in p.stdout.splitlines():
        kv = dict(f.split("=", 1) for f in line.split())
        if "sequence" in kv:
            seqs[kv["sequence"]] = float(kv["best_ns_per_event"])
    size = 0
    for root, _, files in os.walk(out):
        size += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    return seqs, size


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--iters", type=int, default=20000)
    ap.add_argument("--before", help="an earlier libomptrace.so, run filtered too")
    a = ap.parse_args()
    hotpath = os.path.join(a.build, "bench", "ot_hotpath")
    noop = os.path.join(a.build, "bench", "libot_noop_tool.so")
    lib = os.path.join(a.build, "recorder", "libomptrace.so")
    work = tempfile.mkdtemp(prefix="ot_filter_bench_")
    flt = os.path.join(work, "bench.filter")
    with open(flt, "w") as f:
        f.write(FILTER)
    variants = [("no-op tool", noop, {}), ("omptrace", lib, {}),
                ("omptrace filtered", lib, {"OMPTRACE_FILTER": flt}),
                ("omptrace paused", lib, {"OMPTRACE_START": "paused"})]
    if a.before:
        variants.append(("filtered, before", os.path.abspath(a.before), {"OMPTRACE_FILTER": flt}))
    res = {v[0]: [] for v in variants}
    sizes = {v[0]: [] for v in variants}
    for rep in range(a.reps):
        for name, path, extra in variants:
            out = os.path.join(work, "a%d-%s" % (rep, name.replace(" ", "_")))
            seqs, size = run(hotpath, path, a.iters, extra, out)
            res[name].append(seqs)
            sizes[name].append(size)
            shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(work, ignore_errors=True)
    names = [v[0] for v in variants]
    print("ns per event, median of %d processes (each: best of 15 blocks of %d iterations)"
          % (a.reps, a.iters))
    print("| sequence | %s | filtered - no-op | filtered / unfiltered |" % " | ".join(names))
    print("|---|" + "---|" * (len(names) + 2))
    for s in res[names[0]][0]:
        med = [statistics.median(r[s] for r in res[n]) for n in names]
        print("| %s | %s | %+.1f | %.2f |" % (s, " | ".join("%.1f" % m for m in med),
                                               med[2] - med[0], med[2] / med[1]))
    print("archive + log bytes: " + ", ".join(
        "%s %.0f KiB" % (n, statistics.median(sizes[n]) / 1024) for n in names[1:3] + names[4:]))


if __name__ == "__main__":
    main()
