#!/usr/bin/python3
"""Where a traced run's exit goes (docs/performance.md, "End to end"): the
time from the program's printed end to finalize's first line (the last flush
and loading the run), from the replay's end to the exit line (closing the
event writers, definitions) and from the program's end to the process's
exit, each from the arrival time of stdout and stderr lines.

    bench/exit_phases.py --build DIR [--reps N] [--before LIB] [--program "ARGS"]...

Runs `ot_scale` programs (default `fib 26` and `tasks 2000000`) under
omptrace with OMPTRACE_VERBOSE=1 and line-buffered output (stdbuf), and
under the --before library when given, interleaved, N times (default 11),
and prints each phase's median and range in milliseconds."""
import os
import re
import selectors
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import scale_cli

PROGRAM_END = re.compile(rb"^(?!omptrace: ).*: [\d.]+ s$")  # ot_scale's closing line
MARKS = {"finalize": re.compile(rb"^omptrace: finalize: symbols, scan"),
         "replay": re.compile(rb"^omptrace: replay: "),
         "wrote": re.compile(rb"^omptrace: wrote ")}


def lines_with_times(cmd, env, cwd):
    """Runs cmd; returns [(seconds since start, line)] of stdout and stderr
    as they arrive (raw reads: no line waits in a reader's buffer)."""
    t0 = time.monotonic()
    p = subprocess.Popen(["stdbuf", "-oL", "-eL"] + cmd, env=env, cwd=cwd,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    sel = selectors.DefaultSelector()
    pending = {p.stdout.fileno(): b"", p.stderr.fileno(): b""}
    for fd in pending:
        sel.register(fd, selectors.EVENT_READ)
    out = []
    while pending:
        for key, _ in sel.select():
            data = os.read(key.fd, 65536)
            now = time.monotonic() - t0
            if not data:
                sel.unregister(key.fd)
                del pending[key.fd]
                continue
            pending[key.fd] += data
            while b"\n" in pending[key.fd]:
                line, pending[key.fd] = pending[key.fd].split(b"\n", 1)
                out.append((now, line))
    if p.wait() != 0:
        sys.exit("exit_phases: %s exited with %d" % (" ".join(cmd), p.returncode))
    out.append((time.monotonic() - t0, b"<exit>"))
    return out


def phases(lines):
    """(end -> finalize, replay -> wrote, end -> exit) in ms, or None when a
    line is missing."""
    at = {}
    for t, line in lines:
        if PROGRAM_END.match(line):
            at["end"] = t
        for name, rx in MARKS.items():
            if rx.match(line):
                at[name] = t
    at["exit"] = lines[-1][0]
    if not {"end", "finalize", "replay", "wrote"} <= at.keys():
        return None
    return ((at["finalize"] - at["end"]) * 1e3, (at["wrote"] - at["replay"]) * 1e3,
            (at["exit"] - at["end"]) * 1e3)


def main():
    a, scale, lib = scale_cli.parse(__doc__, "exit_phases", reps=11)
    if not shutil.which("stdbuf"):
        sys.exit("exit_phases: stdbuf (coreutils) is missing")
    base = dict(os.environ, OMP_NUM_THREADS=str(a.threads), OMPTRACE_VERBOSE="1")
    variants = [("omptrace", lib)] + ([("before", a.before)] if a.before else [])
    work = tempfile.mkdtemp(prefix="omptrace-phases-")
    try:
        for prog in a.program or ["fib 26", "tasks 2000000"]:
            got = {name: [] for name, _ in variants}
            for _ in range(a.reps):
                for name, path in variants:
                    cwd = tempfile.mkdtemp(dir=work)
                    p = phases(lines_with_times([scale] + prog.split(),
                                                dict(base, OMP_TOOL_LIBRARIES=path), cwd))
                    if not a.keep:
                        shutil.rmtree(cwd, ignore_errors=True)
                    if p:
                        got[name].append(p)
            for name, _ in variants:
                runs = got[name]
                if not runs:
                    print("program=%s variant=%s: no run printed every line" % (
                        prog.replace(" ", "_"), name))
                    continue
                cols = []
                for i, label in enumerate(("end_to_finalize", "replay_to_wrote", "end_to_exit")):
                    v = [r[i] for r in runs]
                    cols.append("%s_ms=%.1f (%.1f-%.1f)" % (label, statistics.median(v), min(v),
                                                             max(v)))
                print("program=%s variant=%s runs=%d %s" % (prog.replace(" ", "_"), name,
                                                           len(runs), " ".join(cols)), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
