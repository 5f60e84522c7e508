#!/usr/bin/python3
"""An archive recorded by the test whose event file of thread 0 is cut at
half its size: omptrace-summary and omptrace-convert --to speedscope end
with status 1 and one line naming the location with the events read and
defined, counted independently by otf2-print on the intact and cut archives.

usage: truncated.py SUMMARY CONVERT LIBOMPTRACE PROG WORKDIR"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record  # noqa: E402

SUMMARY, CONVERT, LIB, PROG, WORK = sys.argv[1:6]
os.makedirs(WORK, exist_ok=True)
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


intact = record.record(LIB, PROG, os.path.join(WORK, "intact"))
defs = record.defined_events(intact)
name, want = defs[0]
# 400 regions x (fork, team begin/end, enter/leave parallel, implicit task,
# barrier, join...) on the primary thread: the count the definitions state
# must also be what otf2-print reads from the intact file
check(record.events_read(intact, 0) == want, "intact: otf2-print reads %d of %d"
      % (record.events_read(intact, 0), want))
cut = os.path.join(WORK, "cut")
shutil.rmtree(cut, ignore_errors=True)
shutil.copytree(intact, cut)
evt = os.path.join(cut, "traces", "0.evt")
os.truncate(evt, os.path.getsize(evt) // 2)
got = record.events_read(cut, 0)
check(0 < got < want, "cut file: otf2-print reads %d of %d" % (got, want))
line = "location 0 (%s): %d of %d events read: the archive is damaged" % (name, got, want)
anchor = os.path.join(cut, "traces.otf2")
for tool, args in ((SUMMARY, [cut]), (SUMMARY, ["--format", "json", cut]),
                   (CONVERT, ["--to", "speedscope", "-o", os.path.join(WORK, "out.json"), cut])):
    p = subprocess.run([tool] + args, capture_output=True, text=True, timeout=120)
    prog = os.path.basename(tool)
    err = p.stderr.strip().splitlines()
    check(p.returncode == 1, "%s %s: exit %d" % (prog, args, p.returncode))
    check(err == ["%s: %s: %s" % (prog, anchor, line)], "%s %s: stderr %r, want %r"
          % (prog, args, err, line))
    check(p.stdout == "", "%s %s: a report from a damaged archive" % (prog, args))
print("checked: %s\n%d failures" % (line, len(failures)))
sys.exit(1 if failures else 0)
