"""A program with 10 million tasks is traced with the default settings.

Checks: the program's output and exit status are unchanged, no record was
dropped (exit line), peak resident memory stays bounded (recording buffers
are 16 MiB per thread; finalize memory grows with regions, not events), and
the archive holds exactly one created and one completed task per task, read
back by omptrace-summary's reader (the JSON report) and cross-checked with
the location event counts in the definitions (python3-otf2).
"""
import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys

import otf2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--prog", required=True)
    ap.add_argument("--summary", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--tasks", type=int, default=10_000_000)
    ap.add_argument("--max-rss-mib", type=int, default=400)
    a = ap.parse_args()

    shutil.rmtree(a.out, ignore_errors=True)
    env = dict(os.environ, OMP_TOOL_LIBRARIES=a.lib, OMPTRACE_OUTPUT=a.out)
    env.pop("OMPTRACE_BUFFER_SIZE", None)
    p = subprocess.run([a.prog, str(a.tasks)], env=env, capture_output=True, text=True)
    rss_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(p.stdout.strip())
    print(p.stderr.strip())
    fail = []
    if p.returncode != 0:
        fail.append(f"exit status {p.returncode}")
    if f"{a.tasks} tasks, {a.tasks // 2} odd" not in p.stdout:
        fail.append("program output changed")
    m = re.search(r"wrote .*: (\d+) threads, (\d+) events", p.stderr)
    if not m:
        fail.append("no exit line")
    if re.search(r"records (lost|were dropped)", p.stderr):
        fail.append("records were dropped")
    print(f"peak RSS {rss_mib:.0f} MiB (limit {a.max_rss_mib})")
    if rss_mib > a.max_rss_mib:
        fail.append(f"peak RSS {rss_mib:.0f} MiB above {a.max_rss_mib} MiB")

    anchor = os.path.join(a.out, "traces.otf2")
    s = subprocess.run([a.summary, "--format", "json", anchor], capture_output=True, text=True)
    if s.returncode != 0:
        fail.append(f"summary failed: {s.stderr.strip()}")
    else:
        t = json.loads(s.stdout)["tasks"]["summary"]
        print(f"summary: {t['created']} created, {t['count']} run")
        if t["created"] != a.tasks or t["count"] != a.tasks:
            fail.append(f"tasks created/run {t['created']}/{t['count']}, expected {a.tasks}")

    with otf2.reader.open(anchor) as tr:
        total = sum(loc.number_of_events for loc in tr.definitions.locations)
    print(f"definitions: {total} events")
    if m and int(m.group(2)) != total:
        fail.append(f"exit line says {m.group(2)} events, definitions {total}")
    # Per task at least: create region (2), create, switch, enter, leave,
    # complete, switch back = 8 OTF2 events.
    if total < 8 * a.tasks:
        fail.append(f"only {total} events for {a.tasks} tasks")

    shutil.rmtree(a.out, ignore_errors=True)
    for f in fail:
        print("FAIL:", f)
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
