#!/usr/bin/python3
"""An archive recorded by the test whose event file of thread 0 is cut at
half its size: omptrace-summary and omptrace-convert --to speedscope end
with status 1 and one line naming the location with the events read and
defined, counted independently by otf2-print on the intact and cut archives.
With thread 1's count in the definitions lowered, the read stops at the first
record past it with one line (the bound that stops a reader going back). An
anchor file on which libotf2 aborts gives one line instead of a crash.

usage: truncated.py SUMMARY CONVERT LIBOMPTRACE PROG WORKDIR"""
import os
import shutil
import signal
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
# Both threads' files cut (at a half and a third): one line for each, the
# archive named on each.
both = os.path.join(WORK, "both")
shutil.rmtree(both, ignore_errors=True)
shutil.copytree(intact, both)
for loc, frac in ((0, 2), (1, 3)):
    f = os.path.join(both, "traces", "%d.evt" % loc)
    os.truncate(f, os.path.getsize(f) // frac)
lines = ["location %d (%s): %d of %d events read: the archive is damaged"
         % (loc, defs[loc][0], record.events_read(both, loc), defs[loc][1]) for loc in (0, 1)]
for tool, args in ((SUMMARY, [both]),
                   (CONVERT, ["--to", "chrome", "-o", os.path.join(WORK, "out.json"), both])):
    p = subprocess.run([tool] + args, capture_output=True, text=True, timeout=120)
    prog = os.path.basename(tool)
    want = ["%s: %s: %s" % (prog, os.path.join(both, "traces.otf2"), x) for x in lines]
    check(p.returncode == 1 and p.stderr.strip().splitlines() == want,
          "%s, both cut: exit %d, stderr %r, want %r" % (prog, p.returncode, p.stderr, want))

# The definitions' count of thread 1 lowered by 64 (its compressed encoding
# in traces.def: a length byte, then the value's bytes, little-endian): the
# pass stops at the first record past the count, as for a reader going back.
low = os.path.join(WORK, "low")
shutil.rmtree(low, ignore_errors=True)
shutil.copytree(intact, low)
name1, want1 = defs[1]


def compressed(v):
    b = v.to_bytes(8, "little").rstrip(b"\0")
    return bytes([len(b)]) + b


gdef = os.path.join(low, "traces.def")
data = open(gdef, "rb").read()
check(data.count(compressed(want1)) == 1, "count %d of thread 1 not found once" % want1)
open(gdef, "wb").write(data.replace(compressed(want1), compressed(want1 - 64)))
check(record.defined_events(low)[1][1] == want1 - 64, "the lowered count reads back")
over = "location 1 (%s): more events read than the %d its definition states: the archive " \
    "is damaged" % (name1, want1 - 64)
for tool, args in ((SUMMARY, [low]),
                   (CONVERT, ["--to", "speedscope", "-o", os.path.join(WORK, "out.json"), low])):
    p = subprocess.run([tool] + args, capture_output=True, text=True, timeout=120)
    prog = os.path.basename(tool)
    err = p.stderr.strip().splitlines()
    check(p.returncode == 1, "%s %s: exit %d" % (prog, args, p.returncode))
    check(err == ["%s: %s: %s" % (prog, os.path.join(low, "traces.otf2"), over)],
          "%s %s: stderr %r, want %r" % (prog, args, err, over))
# One bit flipped in the byte before the first property name of the anchor
# file makes libotf2 corrupt its heap (otf2-print aborts): the converters
# load the anchor in a child process first and say so in one line.
bad = os.path.join(WORK, "anchor")
shutil.rmtree(bad, ignore_errors=True)
shutil.copytree(intact, bad)
anchor_file = os.path.join(bad, "traces.otf2")
data = bytearray(open(anchor_file, "rb").read())
data[data.index(b"OMPTRACE::") - 1] ^= 0x80
open(anchor_file, "wb").write(bytes(data))
crash = subprocess.run(["otf2-print", anchor_file], capture_output=True, timeout=60).returncode
if crash < 0:
    why = "the anchor file is damaged: the OTF2 library fails on it (%s in a test load)" \
        % signal.strsignal(-crash)
    for tool, args in ((SUMMARY, [bad]), (CONVERT, ["--to", "chrome", "-o",
                                                    os.path.join(WORK, "out.json"), bad])):
        # Under a sanitizer's allocator the same bytes need not corrupt the
        # heap: libotf2 then refuses the anchor itself (and leaks on that
        # path, suppressed as in fuzz.py). Either way: one line, status 1.
        supp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "summary",
                            "lsan.supp")
        env = dict(os.environ, LSAN_OPTIONS="print_suppressions=0:suppressions=" + supp)
        p = subprocess.run([tool] + args, capture_output=True, text=True, timeout=120, env=env)
        prog = os.path.basename(tool)
        head = "%s: %s: " % (prog, anchor_file)
        lines = p.stderr.splitlines()
        said = len(lines) == 1 and (lines[0] == head + why or
                                    lines[0].startswith(head + "not a readable OTF2 archive: "))
        check(p.returncode == 1 and said,
              "%s on the damaged anchor: exit %d, stderr %r" % (prog, p.returncode, p.stderr))
else:
    print("otf2-print reads the damaged anchor (exit %d): no crash to guard" % crash)
print("checked: %s\nchecked: %s\n%d failures" % (line, over, len(failures)))
sys.exit(1 if failures else 0)
