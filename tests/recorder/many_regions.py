"""A recording process's memory is bounded however many regions it makes
(issue 26, item 4).

progs/many_regions.c makes N tiny parallel regions of 2 threads (500 k, in
the suite; 1 M by hand with --regions) and prints its own RssAnon after
100 k regions and at the end. With the default
budget B = OMPTRACE_BUFFER_SIZE = 16 MiB per thread the recording holds

  2 x B   the two threads' buffers (resident once used, reused after)
  2 x B   the scan's tables fed during the run: given up past B (finalize
          then scans the log); 2 x B covers a table's doubling in one batch
  8 MiB   the program, libomp, libc and the flusher's frame buffers
          (RssAnon is 2.4 MiB after the first region)

so RssAnon at the end must be below 4 x 16 + 8 = 72 MiB (before the bound it
was 96 MiB at 500 k regions, 152 MiB at 1 M). Between 100 k regions (past the
point where the scan's tables are given up, about 70 k) and the end nothing
may grow: the difference must stay below 2 MiB, i.e. under 6 bytes per region
over 400 k regions (before: about 130 bytes per region, 50 MiB). The archive must
hold every region's events (definitions' counts, otf2-print -G).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

MIB = 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--prog", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--regions", type=int, default=500_000)
    ap.add_argument("--mid", type=int, default=100_000)
    a = ap.parse_args()

    shutil.rmtree(a.out, ignore_errors=True)
    env = dict(os.environ, OMP_TOOL_LIBRARIES=a.lib, OMPTRACE_OUTPUT=a.out)
    for k in ("OMPTRACE_BUFFER_SIZE", "OMPTRACE_BUFFER_TOTAL", "OMPTRACE_EVENTS",
              "OMPTRACE_THROTTLE", "OMPTRACE_FILTER"):
        env.pop(k, None)
    mid = a.mid
    p = subprocess.run([a.prog, str(a.regions), str(mid)], env=env, capture_output=True,
                       text=True)
    print(p.stdout.strip())
    print(p.stderr.strip())
    fail = []
    if p.returncode != 0:
        fail.append(f"exit status {p.returncode}")
    rss = {int(m.group(1)): int(m.group(2))
           for m in re.finditer(r"regions (\d+) rss_anon_kib (\d+)", p.stdout)}
    if mid not in rss or a.regions not in rss:
        fail.append("no RssAnon lines")
    else:
        bound = (4 * 16 + 8) * MIB
        end, grew = rss[a.regions], rss[a.regions] - rss[mid]
        print(f"RssAnon {rss[mid]} KiB at {mid} regions, {end} KiB at {a.regions}: "
              f"grew {grew} KiB (bounds: {bound} KiB at the end, {2 * MIB} KiB growth)")
        if end >= bound:
            fail.append(f"RssAnon {end} KiB at the end, bound {bound} KiB")
        if grew >= 2 * MIB:
            fail.append(f"RssAnon grew {grew} KiB from {mid} to {a.regions} regions")
    if re.search(r"records (lost|were dropped)", p.stderr):
        fail.append("records were dropped")
    # Per region the master writes fork, join, its implicit task's begin and
    # end and the region's and implicit task's enter and leave (8 events),
    # the worker all but fork and join (6): the definitions' event counts.
    pr = subprocess.run(["otf2-print", "-G", os.path.join(a.out, "traces.otf2")],
                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    counts = [int(m.group(1)) for m in
              re.finditer(r"^LOCATION .*# Events: (\d+)", pr.stdout, re.M)]
    if counts != [8 * a.regions, 6 * a.regions]:
        fail.append(f"location event counts {counts}, expected "
                    f"{[8 * a.regions, 6 * a.regions]}")
    shutil.rmtree(a.out, ignore_errors=True)
    if fail:
        print("FAIL: " + "; ".join(fail))
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
