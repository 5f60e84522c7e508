#!/usr/bin/python3
"""omptrace-summary --format html on archives recorded by libomptrace.so
from the test programs (tests/summary/progs, 2 threads each) and on the
Score-P 8.4 fixtures (when present): the page's plots and tables against
the JSON report of the same archive, and no reference outside the page.

usage: check_html_recorded.py SUMMARY LIBOMPTRACE PROGDIR WORKDIR [SCOREP_DIR]"""
import json
import os
import shutil
import subprocess
import sys

from html_doc import SEGS, bar_mismatches, external_refs, parse, strip_states

SUMMARY, LIB, PROGDIR, WORK = sys.argv[1:5]
failures = []
# The strip states (timeline) each bar segment (thread plot) adds up.
STRIP_STATES = {"st-work": {"work"}, "st-barrier": {"barrier", "taskwait", "sync"},
                "st-serial": {"serial"}, "st-overhead": {"overhead"}, "st-idle": {"idle"},
                "st-lost": set()}


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def record(prog):
    out = os.path.join(WORK, prog)
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, OMP_TOOL_LIBRARIES=LIB, OMPTRACE_OUTPUT=out, OMPTRACE_QUIET="1")
    subprocess.run([os.path.join(PROGDIR, "summary_prog_" + prog)], env=env, check=True,
                   timeout=120)
    return out


def summary(*args):
    p = subprocess.run([SUMMARY] + list(args), capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, "%r: exit %d: %s" % (args, p.returncode, p.stderr))
    return p.stdout


def case(prog, d, nthreads):
    out = os.path.join(WORK, prog + ".html")
    summary("--format", "html", "-o", out, d)
    text = open(out, encoding="utf-8").read()
    root, errors = parse(text)
    check(not errors, prog + ": nesting: %s" % errors)
    check(not external_refs(text, root), prog + ": external references")
    j = json.loads(summary("--format", "json", "--threads", d))
    threads = j["threads"]["threads"]
    check(len(threads) == nthreads, prog + ": %d threads, got %d" % (nthreads, len(threads)))
    for m in bar_mismatches(root, threads):
        check(False, prog + ": " + m)
    svg = root.one("figure", id="plot-timeline").one("svg", "chart")
    states = strip_states(svg)
    check(sorted(states) == list(range(nthreads)), prog + ": strips %r" % sorted(states))
    # The strips agree with the report: a state that holds over 90% of a
    # thread's time (a long end barrier, say) is the state of most of its
    # bins. (Which state the first bin shows depends on how long the run
    # took: a 0.3 ms single is not the bin's majority in a 355 ms run.) A
    # bar's wait segment is all waits; the strip tells barrier, taskwait and
    # lock/critical waits apart. A worker that starts late (on a loaded
    # machine) is idle until its first event, in both.
    for t, row in enumerate(threads):
        total = sum(row[k] for ks in SEGS.values() for k in ks)
        for seg, ks in SEGS.items():
            if total and sum(row[k] for k in ks) > 0.9 * total:
                drawn = [b for b in states[t] if b != "none"]
                share = sum(1 for b in drawn if b in STRIP_STATES[seg]) / max(len(drawn), 1)
                check(share > 0.5, prog + ": thread %d: %s in %.0f%% of its bins, %.0f%% of "
                      "its time" % (t, seg[3:], 100 * share, 100 * sum(row[k] for k in ks) /
                                    total))
    regs = root.one("figure", id="plot-regions").find("g", "region")
    check(len(regs) == min(len(j["regions"]["regions"]), 15), prog + ": region rows")
    # A wait of at least 4 bins in at most 2 pieces (split by the task run
    # inside the barrier) covers a whole bin: the strip shows it.
    wait = threads[1]["implicit_barrier_ns"]
    if prog == "imbalance" and wait >= 4 * int(svg.attrs["data-bin-ns"]):
        check("barrier" in states[1], prog + ": thread 1's barrier wait in its strip")
    return states


os.makedirs(WORK, exist_ok=True)
for p in ("imbalance", "locks", "tiny_tasks"):
    case(p, record(p), 2)
# Score-P 8.4 (its README): fib-n12 ran on 2 threads, mixed and mixed-locks on 4
SCOREP = sys.argv[5] if len(sys.argv) > 5 else ""
for name, n in (("fib-n12", 2), ("mixed", 4), ("mixed-locks", 4)):
    if os.path.isdir(os.path.join(SCOREP, name)):
        case("scorep-" + name, os.path.join(SCOREP, name), n)
    else:
        print("note: no Score-P fixture %s in %r" % (name, SCOREP))
if failures:
    sys.exit("%d failure(s)" % len(failures))
print("ok")
