#!/usr/bin/python3
"""Finalize stays linear in the records for included tasks (issue 12).

Runs progs/included_tasks.c with N and 4N parents (each an untied final
task with one included child, the pattern libomp reports as P->C, C->P,
C->C, ..., C done ->P, P->P) under OMPTRACE_VERBOSE=1 and reads the
replay's work counters from the "replay:" line. Deterministic measures,
no timing: the peak stack depth must not grow with N, frames pushed and
scanned per record must stay the same within 10 % (a replay that stacks a
frame per return, or scans a growing stack per event, grows at least
linearly per record, i.e. x4 here). omptrace-summary must count as many
tasks run as created (2 per parent) in both archives."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

LINE = re.compile(r"replay: (\d+) records, (\d+) frames pushed, (\d+) frames scanned, "
                  r"(\d+) suspension probes, peak stack depth (\d+)")


def run(a, n, fail):
    out = "%s-%d" % (a.out, n)
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, OMP_TOOL_LIBRARIES=a.lib, OMPTRACE_OUTPUT=out, OMPTRACE_VERBOSE="1")
    p = subprocess.run([a.prog, str(n)], env=env, capture_output=True, text=True, timeout=900)
    want = "included_tasks %d" % (n * (n - 1) // 2)
    if p.returncode != 0 or p.stdout.strip() != want:
        fail.append("run %d: exit %d, output %r (expected %r)" % (n, p.returncode, p.stdout, want))
    if re.search(r"records (lost|were dropped)", p.stderr):
        fail.append("run %d: records were dropped" % n)
    m = LINE.search(p.stderr)
    if not m:
        fail.append("run %d: no 'replay:' line on stderr" % n)
        return None
    records, pushed, scanned, probes, depth = (int(x) for x in m.groups())
    print("N=%d: %d records, %d pushed, %d scanned, %d probes, peak depth %d" % (
        n, records, pushed, scanned, probes, depth))
    s = subprocess.run([a.summary, "--format", "json", os.path.join(out, "traces.otf2")],
                       capture_output=True, text=True)
    if s.returncode != 0:
        fail.append("run %d: summary failed: %s" % (n, s.stderr.strip()))
    else:
        t = json.loads(s.stdout)["tasks"]["summary"]
        print("N=%d: summary %d created, %d run" % (n, t["created"], t["count"]))
        if t["created"] != 2 * n or t["count"] != 2 * n:
            fail.append("run %d: tasks created/run %d/%d, expected %d" % (
                n, t["created"], t["count"], 2 * n))
    shutil.rmtree(out, ignore_errors=True)
    return records, pushed, scanned + probes, depth


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--prog", required=True)
    ap.add_argument("--summary", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", type=int, default=250_000)
    a = ap.parse_args()
    fail = []
    small = run(a, a.n, fail)
    big = run(a, 4 * a.n, fail)
    if small and big:
        if big[3] != small[3]:
            fail.append("peak stack depth grows with the run: %d at N, %d at 4N" % (
                small[3], big[3]))
        for name, i in (("frames pushed", 1), ("frames scanned", 2)):
            per_small, per_big = small[i] / small[0], big[i] / big[0]
            print("%s per record: %.3f at N, %.3f at 4N" % (name, per_small, per_big))
            if per_big > 1.1 * per_small + 0.01:
                fail.append("%s per record grows: %.3f at N, %.3f at 4N" % (
                    name, per_small, per_big))
    for f in fail:
        print("FAIL:", f)
    print("linear_finalize: %s" % ("FAILED" if fail else "ok"))
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
