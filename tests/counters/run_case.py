#!/usr/bin/python3
"""Runs the counter test program under omptrace and checks its stderr
and archive.

  run_case.py --program P --tool libomptrace.so --out DIR [--env K=V]...
              [--expect REGEX]... -- <check_counters.py arguments>

Each --expect must match exactly one stderr line, and every stderr line
about counters (OMPTRACE_METRICS, OMPTRACE_METRICS_ON, OMPTRACE_MULTIPLEX)
must be expected. Then otf2-print must read the archive and
check_counters.py must accept it."""
import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    argv = sys.argv[1:]
    rest = []
    if "--" in argv:
        i = argv.index("--")
        argv, rest = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser()
    ap.add_argument("--program", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("--otf2-print", default="otf2-print")
    args = ap.parse_args(argv)

    shutil.rmtree(args.out, ignore_errors=True)
    env = dict(os.environ)
    for k in [k for k in env if k.startswith("OMPTRACE_")]:
        del env[k]
    env.update({"OMP_TOOL_LIBRARIES": args.tool, "OMPTRACE_OUTPUT": args.out,
                "OMP_NUM_THREADS": "2"})
    for kv in args.env:
        k, _, v = kv.partition("=")
        env[k] = v
    p = subprocess.run([args.program], env=env, capture_output=True, text=True, timeout=120)
    lines = p.stderr.splitlines()
    ok = True
    if p.returncode != 0:
        print("program exited with %d" % p.returncode)
        ok = False
    used = set()
    for rx in args.expect:
        hits = [i for i, l in enumerate(lines) if re.fullmatch(rx, l)]
        if len(hits) != 1:
            print("expected exactly one stderr line matching %r, got %d" % (rx, len(hits)))
            ok = False
        used.update(hits)
    for i, l in enumerate(lines):
        if i not in used and re.match(r"omptrace: OMPTRACE_(METRICS|MULTIPLEX)", l):
            print("unexpected stderr line: %s" % l)
            ok = False
    if not ok:
        print("--- stderr ---\n" + p.stderr)
        return 1
    archive = os.path.join(args.out, "traces.otf2")
    pr = subprocess.run([args.otf2_print, archive], capture_output=True, text=True)
    if pr.returncode != 0:
        print("otf2-print failed: %s" % pr.stderr)
        return 1
    return subprocess.run([sys.executable, os.path.join(HERE, "check_counters.py"), archive]
                          + rest).returncode


if __name__ == "__main__":
    sys.exit(main())
