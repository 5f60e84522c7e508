#!/usr/bin/python3
"""Replay unit tests: synthetic record streams, written as a record log
(tests/unit/logwrite.py, an independent writer of recorder/log/format.h),
turned into an archive by `omptrace-recover --keep`, read back with
python3-otf2. Each case is a dict: per location its thread type and raw
records (ts, TYPE, kind, a, b, c) as recorder/buffer/record.h describes
them, and the exact event list expected on that location. Expectations
come from docs/recording.md and docs/otf2-mapping.md, not from running
the replay.

The process file has clock=monotonic, so raw ticks are nanoseconds, and no
MAPS frame: code pointers have no symbols and regions are named by
address; events show only a region's construct part (the whole name in
cases with "names": True, times in cases with "times": True).

Usage: replay_tests.py RECOVER WORKDIR GROUP"""
import os
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "unit"))
from logwrite import META, CLOCK, THREAD, RECORDS, frame, encode, rec_types  # noqa: E402
import otf2  # noqa: E402
from replay_cases import GROUPS  # noqa: E402

T = rec_types()


def write_log(d, case, program=b"/replay/case", pid=4242, tid_base=5000, per_frame=None):
    """The case's record log under d/.log: per location one THREAD frame
    (system thread id tid_base + loc) and its records in RECORDS frames of
    per_frame records (None: one frame), as the flusher writes chunks."""
    log = os.path.join(d, ".log")
    os.makedirs(log)
    meta = b"version=1\nprogram=%s\npid=%d\nhost=replayhost\nclock=monotonic\n" % (program, pid)
    with open(os.path.join(log, "process"), "wb") as f:
        f.write(frame(META, 0, meta))
        f.write(frame(CLOCK, 1, struct.pack("<QQ", 1000, 1000)))
        f.write(frame(CLOCK, 2, struct.pack("<QQ", 10**9, 10**9)))
    for loc, (ttype, recs) in case["locs"].items():
        raw = [(ts, T[ty], kind, a, b, c, []) for ts, ty, kind, a, b, c in recs]
        step = per_frame or max(len(raw), 1)
        with open(os.path.join(log, "%d.log" % loc), "wb") as f:
            f.write(frame(THREAD, 0, struct.pack("<IiiI", loc, ttype, tid_base + loc, 0)))
            for seq, i in enumerate(range(0, max(len(raw), 1), step), 1):
                f.write(frame(RECORDS, seq, encode(raw[i:i + step])))


def construct(region, names):
    """The construct part of a region's name, or the whole name."""
    name = region.name
    return name.split(" @ ")[0] if " @ " in name and not names else name


def attrs(ev):
    al = getattr(ev, "attributes", None)
    if not al:
        return ""
    return "".join(" %s=%s" % (k.name, v) for k, v in sorted(al.items(), key=lambda kv: kv[0].name))


def render(ev, times, names):
    """One event as a short string, e.g. 'E parallel', 'TaskSwitch 0:1',
    with '@<ns>' appended when times, whole region names when names."""
    s = render_kind(ev, names)
    return s + "@%d" % ev.time if s is not None and times else s


def render_kind(ev, names):
    n = type(ev).__name__
    if n == "Enter":
        return "E " + construct(ev.region, names)
    if n == "Leave":
        return "L " + construct(ev.region, names)
    if n in ("ThreadTaskCreate", "ThreadTaskSwitch", "ThreadTaskComplete"):
        return "%s %d:%d" % (n[6:], ev.creating_thread, ev.generation_number)
    if n == "ThreadFork":
        return "Fork %d" % ev.number_of_requested_threads
    if n in ("ThreadAcquireLock", "ThreadReleaseLock"):
        return "%s %d" % (n[6:], ev.lock_id)
    if n == "MeasurementOnOff":
        return "Measurement%s%s" % (str(ev.measurement_mode).split(".")[-1], attrs(ev))
    if n in ("ThreadJoin", "ThreadTeamBegin", "ThreadTeamEnd"):
        return n[6:]
    if n == "Metric":
        return None
    if n == "ParameterUnsignedInt":
        return "%s %s=%d" % (n, ev.parameter.name, ev.value)
    return n + attrs(ev)


def read(anchor, times, names):
    out = {}
    with otf2.reader.open(anchor) as r:
        locs = {l._ref: l for l in r.definitions.locations}
        for loc, ev in r.events:
            s = render(ev, times, names)
            if s is not None:
                out.setdefault(loc._ref, []).append(s)
        return {ref: out.get(ref, []) for ref in locs}


def run_case(recover, work, name, case):
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    write_log(d, case)
    p = subprocess.run([recover, "--keep", "-q", d], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=120)
    if p.returncode != case.get("status", 0):
        return ["%s: omptrace-recover exit %d: %s" % (name, p.returncode, p.stderr.strip())]
    got = read(os.path.join(d, "traces.otf2"), case.get("times"), case.get("names"))
    problems = []
    if sorted(got) != sorted(case["want"]):
        problems.append("%s: locations %s, expected %s" % (name, sorted(got), sorted(case["want"])))
    for loc, want in case["want"].items():
        if got.get(loc) != want:
            problems.append("%s: location %d:\n  expected %s\n  got      %s" %
                            (name, loc, want, got.get(loc)))
    return problems


def main(recover, work, group):
    problems, cases = [], GROUPS[group]
    for name, case in cases.items():
        problems += run_case(recover, work, group + "." + name, case)
    for p in problems:
        print("FAIL", p)
    print("replay %s: %d cases, %d failed" % (group, len(cases), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[3] not in GROUPS:
        sys.exit("usage: replay_tests.py RECOVER WORKDIR GROUP (one of %s)" % ", ".join(GROUPS))
    sys.exit(main(*sys.argv[1:]))
