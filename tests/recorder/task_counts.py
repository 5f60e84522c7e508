#!/usr/bin/python3
"""omptrace-summary's task counts agree with the programs (issue 12): tasks
run == tasks created, and only task dependences are counted as such (not
those of a dependent taskwait or of a doacross loop). Each program is
traced here, then its archive summarized (--format json)."""
import argparse
import json
import os
import shutil
import subprocess
import sys

# program -> (tasks created = run, dependences, tasks with dependences, extra environment)
EXPECT = {
    "task_final": (2046, 0, 0, {}),
    "task_depwait": (2, 2, 2, {}),
    "task_detach": (2, 0, 0, {}),
    "task_cancel": (4, 0, 0, {"OMP_CANCELLATION": "true"}),
    "nested_tasks": (9, 0, 0, {}),
    "doacross": (0, 0, 0, {}),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--bin", required=True, help="directory of the rec_* programs")
    ap.add_argument("--summary", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    fail = []
    for prog, (tasks, deps, with_deps, extra) in EXPECT.items():
        out = os.path.join(a.out, prog)
        shutil.rmtree(out, ignore_errors=True)
        env = dict(os.environ, OMP_TOOL_LIBRARIES=a.lib, OMPTRACE_OUTPUT=out, **extra)
        p = subprocess.run([os.path.join(a.bin, "rec_" + prog)], env=env, capture_output=True,
                           text=True, timeout=300)
        if p.returncode != 0:
            fail.append("%s: exit %d: %s" % (prog, p.returncode, p.stderr.strip()))
            continue
        s = subprocess.run([a.summary, "--format", "json", os.path.join(out, "traces.otf2")],
                           capture_output=True, text=True, timeout=300)
        if s.returncode != 0:
            fail.append("%s: summary failed: %s" % (prog, s.stderr.strip()))
            continue
        t = json.loads(s.stdout).get("tasks", {}).get("summary", {})
        got = (t.get("created", 0), t.get("count", 0), t.get("dependences", 0),
               t.get("tasks_with_dependences", 0))
        want = (tasks, tasks, deps, with_deps)
        print("%s: created %d, run %d, dependences %d, tasks with dependences %d" % ((prog,) + got))
        if got != want:
            fail.append("%s: (created, run, dependences, with dependences) %r, expected %r" % (
                prog, got, want))
    for f in fail:
        print("FAIL:", f)
    print("task_counts: %s" % ("FAILED" if fail else "ok"))
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
