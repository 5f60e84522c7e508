#!/usr/bin/python3
"""Environment and bad-input tests of the recorder: bad OMPTRACE_* values,
unwritable and full output locations, OMPTRACE_QUIET, default archive
names, spilling with a tiny buffer and OMPTRACE_EVENTS subsets.

usage: env_tests.py --lib L --bin DIR --src DIR --work DIR TEST [ARG...]
Exit status 77 means skipped (with the reason printed)."""

import argparse
import collections
import hashlib
import os
import re
import shutil
import subprocess
import struct
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402
import archive  # noqa: E402
import invariants  # noqa: E402
import otf2_print  # noqa: E402
import tmpdisk  # noqa: E402
import otf2  # noqa: E402

SKIP = 77
A = None  # parsed arguments
problems = []


def fail(msg):
    problems.append(msg)


def prog(name):
    return os.path.join(A.bin, "rec_" + name)


def source(name):
    return os.path.join(A.src, name + ".c")


def run(name, env_extra, out=None, args=(), cwd=None, traced=True):
    env = dict(os.environ)
    env.pop("OMPTRACE_OUTPUT", None)
    env.pop("OMPTRACE_QUIET", None)
    if traced:
        env["OMP_TOOL_LIBRARIES"] = A.lib
    else:
        env["OMP_TOOL"] = "disabled"
    if out is not None:
        env["OMPTRACE_OUTPUT"] = out
    env.update(env_extra)
    p = subprocess.Popen([prog(name)] + list(args), env=env, cwd=cwd or A.work,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    stdout, stderr = p.communicate(timeout=300)
    sys.stdout.write("--- %s %s stderr ---\n%s" % (
        name, " ".join("%s=%s" % kv for kv in sorted(env_extra.items())), stderr))
    return p.returncode, stdout, stderr, p.pid


def fresh(name):
    path = os.path.join(A.work, name)
    shutil.rmtree(path, ignore_errors=True)
    return path


def load(out, name, complete=True):
    """Reads and fully checks an archive; returns the Trace or None."""
    anchor = os.path.join(out, "traces.otf2")
    if not os.path.exists(anchor):
        fail("no archive at %s" % anchor)
        return None
    try:
        t = archive.Trace(anchor)
    except Exception as e:
        fail("reading %s failed: %s" % (anchor, e))
        return None
    invariants.check_generic(t, source=source(name), program="rec_" + name, complete=complete)
    otf2_print.check_with_otf2_print(t)
    cases.CASES[name][0](t, archive.markers(source(name)))
    for f in t.failures:
        fail("%s: %s" % (out, f))
    return t


def expect_app_intact(rc, stdout, status=0):
    if rc != status:
        fail("application exit status %d, expected %d" % (rc, status))
    if stdout != "app output 42\n":
        fail("application stdout changed: %r" % stdout)


# ---- tests -------------------------------------------------------------------


def t_bad_value(var, value):
    """A bad value: exactly one stderr line, naming the variable; the program
    runs normally and the archive is valid."""
    out = fresh("bad-%s-%s" % (var.lower(), re.sub(r"[^A-Za-z0-9]", "_", value)))
    rc, stdout, stderr, _ = run("app", {var: value, "OMPTRACE_QUIET": "1"}, out)
    expect_app_intact(rc, stdout)
    lines = stderr.splitlines()
    if len(lines) != 1 or var not in lines[0]:
        fail("%s=%r: expected one stderr line naming %s, got %r" % (var, value, var, lines))
    load(out, "app")


def t_bad_line(var, value, reason, used):
    """A bad value gets exactly the line 'omptrace: VAR='VALUE': REASON;
    using USED'; the program runs normally and the archive is valid. For
    OMPTRACE_EVENTS, USED=all must really record every group (the implicit
    barriers of the sync group are there)."""
    out = fresh("line-%s-%s" % (var.lower(), re.sub(r"[^A-Za-z0-9]", "_", value)))
    rc, stdout, stderr, _ = run("app", {var: value, "OMPTRACE_QUIET": "1"}, out)
    expect_app_intact(rc, stdout)
    want = "omptrace: %s='%s': %s; using %s" % (var, value, reason, used)
    if stderr.splitlines() != [want]:
        fail("%s=%r: expected the one line %r, got %r" % (var, value, want, stderr.splitlines()))
    t = load(out, "app")
    if t is not None and var == "OMPTRACE_EVENTS" and used == "all":
        if totals(t)[("Enter", "implicit barrier")] != 2:
            fail("%s=%r: expected every event group (2 implicit barrier Enters), got %r"
                 % (var, value, sorted(totals(t).items())))


def t_long_value():
    """A 5000-character bad value is shown shortened, so the line still
    ends with the reason and the value used instead."""
    value = "x" * 5000
    out = fresh("long-value")
    rc, stdout, stderr, _ = run("app", {"OMPTRACE_CLOCK": value, "OMPTRACE_QUIET": "1"}, out)
    expect_app_intact(rc, stdout)
    want = ("omptrace: OMPTRACE_CLOCK='%s...' (5000 characters): not one of the accepted values; "
            "using tsc" % ("x" * 60))
    if stderr.splitlines() != [want]:
        fail("long value: expected the one line %r, got %r" % (want, stderr.splitlines()))
    load(out, "app")


def t_unknown_variable():
    """Unknown OMPTRACE_* variables: one line each, naming the closest known
    variable when one is close; no line for the variables of the launcher
    and the scripts; the misspelt setting has no effect."""
    long_name = "OMPTRACE_" + "A" * 3000
    env = {"OMPTRACE_SAMPLNG": "1kHz", "OMPTRACE_quiet": "1", "OMPTRACE_METRIC": "PAPI_TOT_INS",
           "OMPTRACE_NO_SUCH_THING": "1", long_name: "1", "OMPTRACE_LIBRARY": A.lib,
           "OMPTRACE_BUILD_DIR": A.work, "OMPTRACE_QUIET": "1"}
    out = fresh("unknown-variable")
    rc, stdout, stderr, _ = run("app", env, out)
    expect_app_intact(rc, stdout)
    want = sorted([
        "omptrace: OMPTRACE_SAMPLNG: unknown variable (did you mean OMPTRACE_SAMPLING?); ignored",
        "omptrace: OMPTRACE_quiet: unknown variable (did you mean OMPTRACE_QUIET?); ignored",
        "omptrace: OMPTRACE_METRIC: unknown variable (did you mean OMPTRACE_METRICS?); ignored",
        "omptrace: OMPTRACE_NO_SUCH_THING: unknown variable (omptrace --help lists the known "
        "ones); ignored",
        "omptrace: %s... (3009 characters): unknown variable (omptrace --help lists the known "
        "ones); ignored" % long_name[:60]])
    if sorted(stderr.splitlines()) != want:
        fail("expected the lines %r, got %r" % (want, stderr.splitlines()))
    t = load(out, "app")
    if t is not None and any("Sample" in k for k, _ in totals(t)):
        fail("OMPTRACE_SAMPLNG took effect: %r" % sorted(totals(t)))


def t_unavailable(var, value, line):
    """A build without a feature (CMake OMPTRACE_COUNTERS or
    OMPTRACE_SAMPLING off): setting its variable gives exactly LINE on
    stderr, the program runs normally and the archive is the complete,
    valid one of a plain run, with no metric and no sample."""
    out = fresh("unavailable-%s" % var.lower())
    rc, stdout, stderr, _ = run("app", {var: value, "OMPTRACE_QUIET": "1"}, out)
    expect_app_intact(rc, stdout)
    if stderr.splitlines() != [line]:
        fail("%s=%r: expected the one line %r, got %r" % (var, value, line, stderr.splitlines()))
    t = load(out, "app")
    if t is not None and any(k == "Metric" or "Sample" in k for k, _ in totals(t)):
        fail("%s=%r took effect: %r" % (var, value, sorted(totals(t).items())))


def t_unwritable(path):
    """An output directory that cannot be created: one error line naming it,
    the application's output and exit status untouched."""
    for status in ("0", "5"):
        rc, stdout, stderr, _ = run("app", {"OMPTRACE_QUIET": "1"}, path, args=[status])
        expect_app_intact(rc, stdout, int(status))
        lines = stderr.splitlines()
        if len(lines) != 1 or not lines[0].startswith("omptrace: ") or path not in lines[0]:
            fail("OMPTRACE_OUTPUT=%s: expected one 'omptrace: ' line naming the path, got %r" %
                 (path, lines))


def t_quiet():
    rc, stdout, stderr, _ = run("app", {}, fresh("loud"))
    expect_app_intact(rc, stdout)
    lines = stderr.splitlines()
    if not lines or not all(l.startswith("omptrace: ") for l in lines):
        fail("without OMPTRACE_QUIET expected start/exit lines, got %r" % lines)
    rc, stdout, stderr, _ = run("app", {"OMPTRACE_QUIET": "1"}, fresh("quiet"))
    expect_app_intact(rc, stdout)
    if stderr:
        fail("OMPTRACE_QUIET=1 still printed %r" % stderr)
    load(os.path.join(A.work, "quiet"), "app")


def digest(path):
    h = hashlib.sha256()
    for root, dirs, files in sorted(os.walk(path)):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(root, f)
            h.update(p[len(path):].encode())
            with open(p, "rb") as fh:
                h.update(fh.read())
    return h.hexdigest()


def t_default_dir():
    """Default name omptrace-<prog>-<YYYYmmdd>-<HHMMSS>-<pid>; an existing
    archive is never overwritten (the next run goes to <dir>.1)."""
    cwd = fresh("default-dir")
    os.makedirs(cwd)
    made = []
    for _ in range(2):
        rc, stdout, _, pid = run("app", {"OMPTRACE_QUIET": "1"}, cwd=cwd)
        expect_app_intact(rc, stdout)
        pattern = re.compile(r"^omptrace-rec_app-\d{8}-\d{6}-%d$" % pid)
        found = [d for d in os.listdir(cwd) if pattern.match(d)]
        if len(found) != 1:
            fail("no directory omptrace-rec_app-<date>-<time>-%d in %r" % (pid, os.listdir(cwd)))
        else:
            made.append(found[0])
    if len(made) == 2 and len(set(os.listdir(cwd))) != 2:
        fail("expected exactly two archives, found %r" % os.listdir(cwd))
    for d in made:
        load(os.path.join(cwd, d), "app")
    if not made:
        return
    first = os.path.join(cwd, made[0])
    before = digest(first)
    for n in (1, 2):
        rc, stdout, _, _ = run("app", {"OMPTRACE_QUIET": "1"}, first, cwd=cwd)
        expect_app_intact(rc, stdout)
        load("%s.%d" % (first, n), "app")
    if digest(first) != before:
        fail("the existing archive %s was modified" % first)


def t_concurrent():
    """Three runs started together with one OMPTRACE_OUTPUT: each claims its
    own directory (<dir>, <dir>.1, <dir>.2), each archive is complete."""
    out = fresh("concurrent")
    for n in (1, 2):
        shutil.rmtree("%s.%d" % (out, n), ignore_errors=True)
    env = dict(os.environ, OMP_TOOL_LIBRARIES=A.lib, OMPTRACE_OUTPUT=out, OMPTRACE_QUIET="1")
    procs = [subprocess.Popen([prog("app")], env=env, cwd=A.work, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True) for _ in range(3)]
    for p in procs:
        stdout, stderr = p.communicate(timeout=300)
        sys.stdout.write("--- concurrent stderr ---\n" + stderr)
        expect_app_intact(p.returncode, stdout)
        if "cannot" in stderr:
            fail("a concurrent run reported an error: %r" % stderr)
    for d in (out, out + ".1", out + ".2"):
        load(d, "app")


def t_spill():
    """A 64K buffer forces many hand-offs; the archive must hold exactly the
    records of a run with a large buffer."""
    small = load_run("spill", {"OMPTRACE_BUFFER_SIZE": "64K"}, "spill-small")
    large = load_run("spill", {"OMPTRACE_BUFFER_SIZE": "256M"}, "spill-large")
    if small is None or large is None:
        return
    if small.signature() != large.signature():
        diff = []
        for loc, (a, b) in enumerate(zip(small.signature(), large.signature())):
            a, b = dict(a), dict(b)
            diff += ["%s %s: %d vs %d" % (k[0], k[1], a.get(k, 0), b.get(k, 0))
                     for k in sorted(set(a) | set(b)) if a.get(k, 0) != b.get(k, 0)]
        fail("64K and 256M buffers give different records (per-location signatures in "
             "sorted order): %s" % "; ".join(diff[:12]))
    for out in ("spill-small", "spill-large"):
        leftover = os.path.join(A.work, out, ".log")
        if os.path.exists(leftover):
            fail("the record log %s is left after the archive was written" % leftover)


def t_damaged_spill():
    """The program damages its own record log file before exit: the archive
    is still written (that thread's records end at the damage), and one
    line says so, not one per finalize pass."""
    out = fresh("damaged-spill")
    victim = os.path.join(out, ".log", "0.log")
    rc, stdout, stderr, _ = run("spill", {"OMPTRACE_BUFFER_SIZE": "64K", "OMPTRACE_QUIET": "1",
                                          "SPILL_DAMAGE": victim}, out)
    ref = run("spill", {}, traced=False)
    if rc != 0 or stdout != ref[1]:
        fail("damaged spill: exit %d, stdout %r (untraced %r)" % (rc, stdout, ref[1]))
    lines = stderr.splitlines()
    said = [l for l in lines if "damaged" in l and victim in l]
    if len(said) != 1 or len(lines) != 1:
        fail("damaged spill: expected one line naming %s, got %r" % (victim, lines))
    anchor = os.path.join(out, "traces.otf2")
    if not os.path.exists(anchor):
        fail("damaged spill: no archive at %s" % anchor)
        return
    t = archive.Trace(anchor)
    invariants.check_generic(t, program="rec_spill", complete=False)
    otf2_print.check_with_otf2_print(t)
    for f in t.failures:
        # The worker's regions forked in the lost part have no address: bare names.
        if "is not '<construct> @ <file>:<line>'" not in f:
            fail("damaged spill: " + f)


def load_run(name, env, outname, status=0):
    out = fresh(outname)
    rc, stdout, _, _ = run(name, dict(env, OMPTRACE_QUIET="1"), out)
    ref = run(name, dict(env), traced=False)
    if rc != status or stdout != ref[1]:
        fail("%s: exit %d, stdout %r (untraced %r)" % (name, rc, stdout, ref[1]))
    return load(out, name)


LOST_ATTR = "omptrace::lost_records"


def full_disk_counted():
    """Spill writes fail on a completely full disk; the space is freed after
    the program's output (it waits for that: SPILL_WAIT), so the archive is
    written. Each gap's MeasurementOnOff(OFF) carries the records it lost in
    the UINT64 attribute omptrace::lost_records (defined once), and over all
    threads they sum exactly to the count both exit lines report."""
    mnt = fresh("full-disk-counted")
    os.makedirs(mnt)
    filler, why = tmpdisk.mount_full(mnt, "4m")
    if not filler:
        fail("full disk, counted: cannot mount a tmpfs: %s" % why)
        return
    try:
        out = os.path.join(mnt, "archive")
        env = dict(os.environ, OMP_TOOL_LIBRARIES=A.lib, OMPTRACE_OUTPUT=out,
                   OMPTRACE_BUFFER_SIZE="64K", SPILL_WAIT=filler)
        env.pop("OMPTRACE_QUIET", None)
        rec = subprocess.Popen([prog("spill")], env=env, cwd=A.work, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True)
        first = rec.stdout.readline()  # all parallel work is done: free the space
        os.remove(filler)
        rest, stderr = rec.communicate(timeout=300)
        sys.stdout.write("--- spill (full disk, counted) stderr ---\n%s" % stderr)
        ref = run("spill", {}, traced=False)
        if rec.returncode != 0 or first + rest != ref[1]:
            fail("full disk, counted: exit %d, stdout %r (untraced %r)"
                 % (rec.returncode, first + rest, ref[1]))
        if not re.search(r"^omptrace: cannot write .*/\.log/(\d+\.log|process): No space left on "
                         r"device", stderr, re.M):
            fail("full disk, counted: no spill write failed: %r" % stderr)
        dropped = re.findall(r"^omptrace: (\d+) records were lost while the log could not be written",
                             stderr, re.M)
        lost = re.findall(r"^omptrace: wrote .*, (\d+) records lost", stderr, re.M)
        if len(dropped) != 1 or dropped != lost:
            fail("full disk, counted: exit lines say %r dropped, %r lost" % (dropped, lost))
            return
        anchor = os.path.join(out, "traces.otf2")
        if not os.path.exists(anchor):
            fail("full disk, counted: no archive at %s" % anchor)
            return
        with otf2.reader.open(anchor) as r:
            defs = [a for a in r.definitions.attributes if a.name == LOST_ATTR]
            offs, ons = collections.Counter(), collections.Counter()
            counts = []
            for loc, ev in r.events:
                if type(ev).__name__ != "MeasurementOnOff":
                    continue
                if ev.measurement_mode != otf2.MeasurementMode.OFF:
                    ons[loc.name] += 1
                    continue
                offs[loc.name] += 1
                values = {a.name: v for a, v in (ev.attributes or {}).items()}
                if LOST_ATTR not in values:
                    fail("full disk, counted: an OFF of %s has no %s" % (loc.name, LOST_ATTR))
                counts.append(values.get(LOST_ATTR, 0))
        if len(defs) != 1 or defs[0].type != otf2.Type.UINT64:
            fail("full disk, counted: %s defined %r"
                 % (LOST_ATTR, [(a.name, a.type) for a in defs]))
        if not offs or max(offs.values()) != 1 or offs != ons:
            fail("full disk, counted: one OFF and one ON per thread with a gap expected: OFF %r, "
                 "ON %r" % (dict(offs), dict(ons)))
        if sum(counts) != int(dropped[0]) or 0 in counts:
            fail("full disk, counted: the OFF records say %r records lost (sum %d), the exit lines "
                 "%s" % (counts, sum(counts), dropped[0]))
    finally:
        subprocess.run(["umount", mnt])


def t_full_disk():
    mnt = fresh("full-disk")
    os.makedirs(mnt)
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", mnt],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if p.returncode != 0:
        print("SKIP: cannot mount a small tmpfs here: %s" % p.stdout.strip())
        return SKIP
    try:
        out = os.path.join(mnt, "archive")
        rc, stdout, stderr, _ = run("spill", {"OMPTRACE_BUFFER_SIZE": "64K", "OMPTRACE_QUIET": "1"},
                                    out)
        ref = run("spill", {}, traced=False)
        if rc != 0 or stdout != ref[1]:
            fail("full disk: exit %d, stdout %r (untraced %r)" % (rc, stdout, ref[1]))
        lines = stderr.splitlines()
        if not lines or not all(l.startswith("omptrace: ") for l in lines):
            fail("full disk: expected 'omptrace: ' error lines, got %r" % lines)
        elif not any("space" in l.lower() for l in lines):
            fail("full disk: no line says the device is full: %r" % lines)
        if len(lines) > 3:
            fail("full disk: %d stderr lines, expected a short clear error" % len(lines))
        if any("resumed" in l for l in lines):
            fail("full disk: the disk never had room, yet a line says writing resumed: %r" % lines)
        if not os.path.isdir(os.path.join(out, ".log")):
            fail("full disk: the record log %s/.log is gone (no archive was written)" % out)
        else:
            log_counts(out, "full disk")  # whatever fit is whole frames
    finally:
        subprocess.run(["umount", mnt])
    full_disk_counted()
    return 0


# ---- the record log (recorder/log/format.h), read independently -------------

LOG_HDR = struct.Struct("<IBBHIIII")  # magic type version flags length seq crc loc
LOG_MAGIC, LOG_CLOCK, LOG_THREAD, LOG_RECORDS, LOG_LOST = 0x474C544F, 2, 16, 17, 19


def log_frames(path):
    """(type, payload, loc) of each frame of a log file, and whether the
    frames cover the whole file (no torn or damaged tail)."""
    with open(path, "rb") as f:
        data = f.read()
    out, off = [], 0
    while off + LOG_HDR.size <= len(data):
        magic, typ, ver, _, length, seq, crc, res = LOG_HDR.unpack_from(data, off)
        end = off + LOG_HDR.size + length
        if magic != LOG_MAGIC or ver != 1 or seq != len(out) or end > len(data):
            break
        hdr0 = LOG_HDR.pack(magic, typ, ver, 0, length, seq, 0, res)
        if zlib.crc32(data[off + LOG_HDR.size:end], zlib.crc32(hdr0)) & 0xFFFFFFFF != crc:
            break
        out.append((typ, data[off + LOG_HDR.size:end], res))
        off = end
    return out, off == len(data)


def log_counts(out, tag):
    """{loc: [records in RECORDS frames, records in LOST frames, LOST frames]}
    of <out>/.log, the shared file's frames by the location in their header
    and each <loc>.log's; every file must be whole frames, and every
    location's frames start with its THREAD frame in both."""
    d = os.path.join(out, ".log")
    counts, seen = {}, set()
    names = sorted(os.listdir(d), key=lambda n: (n != "shared", n))
    for name in names:
        frames, whole = log_frames(os.path.join(d, name))
        if not whole:
            fail("%s: %s does not end on a frame boundary" % (tag, name))
        if name == "process" or not (name == "shared" or name.endswith(".log")):
            continue
        for typ, pay, loc in frames:
            if name != "shared":
                loc = int(name[:-4])
            first = (name, loc) not in seen
            seen.add((name, loc))
            if first and (typ != LOG_THREAD or struct.unpack_from("<I", pay)[0] != loc):
                fail("%s: location %d does not start with its THREAD frame in %s" % (tag, loc, name))
            c = counts.setdefault(loc, [0, 0, 0])
            if typ == LOG_RECORDS:
                c[0] += struct.unpack_from("<I", pay)[0]
            elif typ == LOG_LOST:
                c[1] += struct.unpack_from("<Q", pay)[0]
                c[2] += 1
    return counts


def wait_flushed(out, t0_ns, proc, tag):
    """Until two CLOCK frames taken after t0 are in the process file: the
    pass of the first one wrote everything recorded before t0."""
    process = os.path.join(out, ".log", "process")
    while proc.poll() is None:
        frames, _ = log_frames(process) if os.path.exists(process) else ([], True)
        later = [1 for typ, pay, _ in frames
                 if typ == LOG_CLOCK and struct.unpack_from("<QQ", pay)[1] > t0_ns]
        if len(later) >= 2:
            return True
        time.sleep(0.02)
    fail("%s: the program ended before its log was flushed" % tag)
    return False


def held_log(out, env, tag, filler=None):
    """Runs rec_spill until it holds after its output (SPILL_HOLD), frees
    the disk (removes filler), waits for the periodic flush to write all
    records so far and returns (per-location log counts at that point,
    exit status, stdout, stderr)."""
    hold = os.path.join(A.work, tag + ".hold")
    open(hold, "w").close()
    env = dict(os.environ, OMP_TOOL_LIBRARIES=A.lib, OMPTRACE_OUTPUT=out,
               OMPTRACE_BUFFER_SIZE="64K", OMPTRACE_FLUSH_INTERVAL="50ms", SPILL_HOLD=hold, **env)
    env.pop("OMPTRACE_QUIET", None)
    p = subprocess.Popen([prog("spill")], env=env, cwd=A.work, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, universal_newlines=True)
    first = p.stdout.readline()
    if filler:
        os.remove(filler)
    counts = None
    if wait_flushed(out, time.monotonic_ns(), p, tag):
        counts = log_counts(out, tag)
    os.remove(hold)
    rest, stderr = p.communicate(timeout=300)
    sys.stdout.write("--- %s stderr ---\n%s" % (tag, stderr))
    return counts, p.returncode, first + rest, stderr


def t_log_lost():
    """The record log on a disk that is full while the program records and
    freed before it ends: at the same program point, every location's
    records in RECORDS frames plus those counted in LOST frames equal the
    records of a run on a free disk, exactly; something was lost; every
    file is whole frames; one line says writing failed, one that it
    resumed with the number lost, which is the LOST frames' sum."""
    ref_out = fresh("log-lost-ref")
    ref, rc, stdout, _ = held_log(ref_out, {}, "log-lost-ref")
    untraced = run("spill", {}, traced=False)[1]
    if rc != 0 or stdout != untraced:
        fail("log lost, reference: exit %d, stdout %r (untraced %r)" % (rc, stdout, untraced))
    if not ref or any(c[1] or c[2] for c in ref.values()):
        fail("log lost, reference run: %r (records, lost, LOST frames per location)" % ref)
        return 0
    mnt = fresh("log-lost")
    os.makedirs(mnt)
    filler, why = tmpdisk.mount_full(mnt, "4m", 4096)
    if not filler:
        print("SKIP: cannot mount a small tmpfs here: %s" % why)
        return SKIP
    try:
        out = os.path.join(mnt, "archive")
        got, rc, stdout, stderr = held_log(out, {"SPILL_WAIT": filler}, "log-lost", filler)
        if rc != 0 or stdout != untraced:
            fail("log lost: exit %d, stdout %r (untraced %r)" % (rc, stdout, untraced))
        if got is None:
            return 0
        if sorted(got) != sorted(ref):
            fail("log lost: locations %r, reference %r" % (sorted(got), sorted(ref)))
        for loc in sorted(ref):
            rec, lost, _ = got.get(loc, [0, 0, 0])
            if rec + lost != ref[loc][0]:
                fail("log lost: location %d has %d records + %d lost = %d, the reference %d"
                     % (loc, rec, lost, rec + lost, ref[loc][0]))
        total = sum(c[1] for c in got.values())
        if total == 0:
            fail("log lost: nothing was lost (is the disk full?): %r" % got)
        failed = re.findall(r"^omptrace: cannot write .*/\.log/.*: No space left on device", stderr,
                            re.M)
        resumed = re.findall(r"^omptrace: writing the record log .* resumed; (\d+) records were "
                             r"lost$", stderr, re.M)
        if len(failed) != 1 or resumed != [str(total)]:
            fail("log lost: expected one failure line and one 'resumed; %d records were lost', "
                 "got %r and %r" % (total, failed, resumed))
    finally:
        subprocess.run(["umount", mnt])
    return 0


# Event group of each record kind and region construct (OMPTRACE_EVENTS).
KIND_GROUP = {"ThreadTaskCreate": "tasks", "ThreadTaskSwitch": "tasks",
              "ThreadTaskComplete": "tasks", "ParameterUnsignedInt": "tasks",
              "ThreadAcquireLock": "mutex", "ThreadReleaseLock": "mutex"}
CONSTRUCT_GROUP = {
    "implicit barrier": "sync", "barrier": "sync", "implementation barrier": "sync",
    "taskwait": "sync", "taskgroup": "sync", "task create": "tasks", "task": "tasks",
    "untied task": "tasks", "omp_set_lock": "mutex", "omp_set_nest_lock": "mutex",
    "lock wait": "mutex", "critical": "mutex", "critical sblock": "mutex", "ordered": "mutex",
    "ordered sblock": "mutex", "loop": "work", "taskloop": "work", "sections": "work",
    "single": "work", "single sblock": "work", "masked": "masked", "reduction": "reduction",
    "flush": "flush", "parallel": "parallel"}


def group_of(key):
    kind, region = key
    if kind in ("Enter", "Leave"):
        c = region
        if c.startswith("cancel "):
            return "cancel"
        if c.endswith(" wait") and c not in CONSTRUCT_GROUP:
            c = c[:-5]
        return CONSTRUCT_GROUP.get(c, "?")
    return KIND_GROUP.get(kind, "parallel")


def totals(t):
    """Record counts by (kind, construct). Lines are left out: a construct
    whose codeptr lies in libomp (taskloop) is named after the enclosing
    recorded construct, which depends on the groups recorded."""
    c = collections.Counter()
    for l in t.locs:
        for e in t.events[l]:
            k = type(e).__name__
            c[(k, archive.construct_of(e.region) if k in ("Enter", "Leave") else "")] += 1
    return c


def t_events(name, groups):
    """OMPTRACE_EVENTS=<groups> keeps exactly the records of those groups
    (parallel always) with the counts of a full run."""
    full = load_run(name, {}, "events-%s-all-for-%s" % (name, groups.replace(",", "+")))
    sub_out = fresh("events-%s-%s" % (name, groups.replace(",", "+")))
    rc, stdout, _, _ = run(name, {"OMPTRACE_EVENTS": groups, "OMPTRACE_QUIET": "1"}, sub_out)
    if rc != 0:
        fail("OMPTRACE_EVENTS=%s: exit %d" % (groups, rc))
    anchor = os.path.join(sub_out, "traces.otf2")
    if full is None or not os.path.exists(anchor):
        fail("missing archive")
        return
    sub = archive.Trace(anchor)
    invariants.check_generic(sub, source=source(name), program="rec_" + name)
    otf2_print.check_with_otf2_print(sub)
    for f in sub.failures:
        fail("%s: %s" % (sub_out, f))
    keep = set(groups.split(",")) | {"parallel"}
    # Task switches and untied task pieces vary between runs.
    varying = lambda k: k[0] == "ThreadTaskSwitch" or k[1].startswith("untied task")
    want = {k: v for k, v in totals(full).items() if group_of(k) in keep and not varying(k)}
    got = {k: v for k, v in totals(sub).items() if not varying(k)}
    if want != got:
        keys = sorted(set(want) | set(got))
        diff = ["%s %s: want %d got %d" % (k[0], k[1], want.get(k, 0), got.get(k, 0))
                for k in keys if want.get(k, 0) != got.get(k, 0)]
        fail("OMPTRACE_EVENTS=%s: %s" % (groups, "; ".join(diff[:12])))


TESTS = {"bad_value": t_bad_value, "unwritable": t_unwritable, "quiet": t_quiet,
         "default_dir": t_default_dir, "concurrent": t_concurrent, "spill": t_spill,
         "damaged_spill": t_damaged_spill, "full_disk": t_full_disk, "log_lost": t_log_lost,
         "events": t_events, "bad_line": t_bad_line, "long_value": t_long_value,
         "unknown_variable": t_unknown_variable, "unavailable": t_unavailable}


def main():
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("test", choices=sorted(TESTS))
    ap.add_argument("args", nargs="*")
    A = ap.parse_args()
    os.makedirs(A.work, exist_ok=True)
    rc = TESTS[A.test](*A.args)
    if rc == SKIP:
        return SKIP
    for p in problems:
        print("FAIL: " + p)
    print("%s %s: %s" % (A.test, " ".join(A.args),
                         "FAILED (%d problems)" % len(problems) if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
