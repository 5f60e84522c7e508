"""Full disks counted exactly (issue 26, item 1), cases of faults.py: every
record the traced program made is either in the record log or counted lost
there, per thread, and each count shows as a gap in the archive (the OFF of
a MeasurementOnOff pair carrying omptrace::lost_records), in
omptrace-recover's line and in omptrace-summary's overview.

The records made are those of the same program run on a roomy disk (its log
kept and read here frame by frame): fault_victim's regions record the same
records whatever the timing. The disk is a small tmpfs (tests/recorder/
tmpdisk.py); phases are separated by the program's "wait" step (a line on
stdin), never by time.
  first        full from the first write to the end: no frame fits; the
               tool's last line counts every record
  first_freed  full from the first write, freed after phase 1 (records
               dropped there); the archive is written in place
  fills        1 MiB, free at the start, filled by the log mid-run and never
               freed: the archive cannot be written; the log, recovered
               elsewhere, counts the records still in memory at the end
  fills_freed  filled mid-run (phase 1), freed, phase 2: archive in place
  sigterm      filled mid-run, SIGTERM at the wait: the signal's flush
               counts what the rings still hold, as a normal end does (the
               records made: the same run killed on a roomy disk once its log
               holds everything before the wait)"""

import collections
import os
import re
import signal
import shutil
import struct
import subprocess
import sys
import zlib

import otf2

HDR = struct.Struct("<IBBHIIII")  # magic type version flags length seq crc loc
MAGIC = 0x474C544F
RECORDS, LOST, STATS = 17, 19, 20
F = None  # the faults module (A, fail, Proc, ...)


def frames(path, whole=None):
    """Validated frames of one log file: (type, loc, payload). A file that
    is not whole frames to its end is named in the list `whole`."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return []
    out, off, seq = [], 0, 0
    while off + HDR.size <= len(data):
        magic, typ, ver, flags, length, fseq, crc, loc = HDR.unpack_from(data, off)
        end = off + HDR.size + length
        if magic != MAGIC or fseq != seq or end > len(data):
            break
        hdr0 = HDR.pack(magic, typ, ver, flags, length, fseq, 0, loc)
        if zlib.crc32(data[off + HDR.size:end], zlib.crc32(hdr0)) & 0xFFFFFFFF != crc:
            break
        out.append((typ, loc, data[off + HDR.size:end]))
        off, seq = end, seq + 1
    if whole is not None and off != len(data):
        whole.append("%s (%d of %d bytes)" % (os.path.basename(path), off, len(data)))
    return out


def log_counts(logdir, torn=None):
    """loc -> [records in RECORDS frames, records in LOST frames, the last
    STATS frame's record count]: the shared file, then each <loc>.log."""
    c = collections.defaultdict(lambda: [0, 0, None])
    frames(os.path.join(logdir, "process"), torn)
    names = sorted((n for n in os.listdir(logdir) if n.endswith(".log")),
                   key=lambda n: int(n[:-4]))
    for name in ["shared"] + names:
        for typ, loc, p in frames(os.path.join(logdir, name), torn):
            if typ == RECORDS:
                c[loc][0] += struct.unpack_from("<I", p)[0]
            elif typ == LOST:
                c[loc][1] += struct.unpack_from("<Q", p)[0]
            elif typ == STATS:
                c[loc][2] = struct.unpack_from("<Q", p)[0]
    return dict(c)


def made(tag, steps):
    """Records per location of the program run on a roomy disk."""
    out = F.fresh(tag + "-ref")
    status, _, err, _ = F.run_plain([F.prog("victim")] + steps, out,
                                    {"OMPTRACE_KEEP_LOG": "1"}, tag=tag + "-ref")
    F.expect_status(tag + "-ref", status, 0)
    c = log_counts(F.log_dir(out))
    if not c or any(v[1] for v in c.values()):
        F.fail("%s: the reference run lost records or left no log: %r %r" % (tag, c, err))
        raise F.Abort()
    return {loc: v[0] for loc, v in c.items()}


def check_log(tag, logdir, want):
    """Every record made is in the log or counted lost there, per thread;
    returns loc -> lost. Frames cut short by the full disk were cut off
    again: every file is whole frames."""
    torn = []
    c = log_counts(logdir, torn)
    if torn:
        F.fail("%s: log files not made of whole frames: %r" % (tag, torn))
    lost = {}
    for loc, n in sorted(want.items()):
        rec, lo, stats = c.get(loc, [0, 0, None])
        if rec + lo != n or stats != n:
            F.fail("%s: thread %d made %d records: the log holds %d and counts %d lost "
                   "(STATS says %r)" % (tag, loc, n, rec, lo, stats))
        lost[loc] = lo
    if sorted(c) != sorted(want):
        F.fail("%s: the log has threads %r, the run %r" % (tag, sorted(c), sorted(want)))
    print("%s: made %r, lost %r" % (tag, want, lost))
    return lost


def check_archive(tag, out, pid, lost, recovered):
    """The gaps of the archive count exactly what the log counts lost, per
    location; omptrace-summary says the same total."""
    t = F.load(tag, out, "victim", False, None if recovered else False, pid,
               excuse=F.GAP_EFFECTS)
    gaps = collections.Counter()
    ngaps = 0
    for l in t.locs:
        off = None  # (time, records) of the open gap
        for e in t.events[l]:
            if type(e).__name__ != "MeasurementOnOff":
                continue
            if e.measurement_mode == otf2.MeasurementMode.ON:
                # Records dropped have distinct times: a gap of several spans time.
                if off and off[1] > 1 and e.time <= off[0]:
                    F.fail("%s: location %d: a gap of %d records lasts 0 ns (at %d)" % (
                        tag, l, off[1], off[0]))
                off = None
                continue
            values = {a.name: v for a, v in (e.attributes or {}).items()}
            if F.LOST_ATTR in values:
                gaps[l] += values[F.LOST_ATTR]
                ngaps += 1
                off = (e.time, values[F.LOST_ATTR])
    want = {l: n for l, n in lost.items() if n}
    if dict(gaps) != want:
        F.fail("%s: the archive's gaps count %r lost records per location, the log %r" % (
            tag, dict(gaps), want))
    summary = os.environ.get("FAULTS_SUMMARY")
    if not summary:
        return
    p = subprocess.run([summary, out], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, timeout=200)
    m = re.search(r"^  Records lost in gaps +(\d+)$", p.stdout, re.M)
    g = re.search(r"^  Measurement gaps \(records missing\) +(\d+)$", p.stdout, re.M)
    if not m or int(m.group(1)) != sum(want.values()) or not g or int(g.group(1)) != ngaps:
        F.fail("%s: omptrace-summary: %r, expected %d records lost in %d gaps" % (
            tag, [x.group(0) for x in (m, g) if x], sum(want.values()), ngaps))


def stderr_lost(tag, err, total):
    said = re.findall(r"(\d+) records were lost while the log could not be written", err)
    if [int(x) for x in said] != [total]:
        F.fail("%s: stderr counts %r lost records, the log %d: %r" % (tag, said, total, err))


def recover_elsewhere(tag, out, lost):
    """Copies the log to the work disk and recovers it there: the line
    counts the log's lost records. Returns the copy."""
    copy = F.fresh(tag + "-copy")
    os.makedirs(copy)
    shutil.copytree(F.log_dir(out), F.log_dir(copy))
    rc, stdout, _ = F.recover("--keep", copy)
    F.expect_status(tag + ": omptrace-recover", rc, 0)
    m = re.search(r", (\d+) records lost,", stdout)
    if not m or int(m.group(1)) != sum(lost.values()):
        F.fail("%s: omptrace-recover says %r, the log counts %d lost" % (
            tag, m and m.group(0), sum(lost.values())))
    return copy


def mount(tag, size, free):
    """tmpfs of `size` with `free` bytes left free (the filler shrunk)."""
    m = F.mount_full(tag, size)
    if m is None:
        return None
    if free:
        os.truncate(m[1], max(0, os.path.getsize(m[1]) - free))
    return m


def t_first():
    tag = "disk-first"
    steps = ["big", "big"]
    want = made(tag, steps)
    m = mount(tag, "1m", 0)
    if m is None:
        return F.SKIP
    try:
        out = os.path.join(m[0], "archive")
        status, stdout, err, _ = F.run_plain([F.prog("victim")] + steps, out,
                                             {"OMPTRACE_KEEP_LOG": "1"}, tag=tag)
        F.expect_status(tag, status, 0)
        if stdout != "done 0\n":
            F.fail("%s: stdout %r" % (tag, stdout))
        said = re.findall(r"(\d+) records were lost: the record log \S+ could not hold them, "
                          r"nor their count \(No space left on device\)", err)
        if [int(x) for x in said] != [sum(want.values())]:
            F.fail("%s: the run made %d records, stderr counts %r lost: %r" % (
                tag, sum(want.values()), said, err))
        # Its log, recovered elsewhere, is empty and said to be so.
        copy = F.fresh(tag + "-copy")
        os.makedirs(copy)
        shutil.copytree(F.log_dir(out), F.log_dir(copy))
        rc, _, rerr = F.recover(copy)
        F.expect_status(tag + ": omptrace-recover", rc, 0)
        if rerr != ("omptrace-recover: %s: the log is empty, without even the frames written as "
                    "the run started: every write to it failed (a full disk: the run's last line "
                    "counted the records lost), or it was emptied since; no archive written\n"
                    % copy):
            F.fail("%s: omptrace-recover on the empty log: %r" % (tag, rerr))
    finally:
        subprocess.run(["umount", m[0]])
    return 0


def t_freed(first):
    """Full from the first write (first) or filled by phase 1, then freed."""
    tag = "disk-first-freed" if first else "disk-fills-freed"
    steps = ["big", "wait", "big"] if first else ["big", "big", "wait", "big"]
    want = made(tag, steps)
    m = mount(tag, "16m", 0 if first else 1 << 19)
    if m is None:
        return F.SKIP
    mnt, filler = m
    try:
        out = os.path.join(mnt, "archive")
        p = F.Proc([F.prog("victim")] + steps, out,
                   {"OMPTRACE_BUFFER_SIZE": "256K", "OMPTRACE_KEEP_LOG": "1"}, tag=tag)
        p.line("reached 1")
        os.remove(filler)
        p.go()
        F.expect_status(tag, p.finish(), 0)
        if p.stdout != "reached 1\ndone 0\n":
            F.fail("%s: stdout %r" % (tag, p.stdout))
        lost = check_log(tag, F.log_dir(out), want)
        if not sum(lost.values()):
            F.fail("%s: nothing was lost: the case tests nothing" % tag)
        stderr_lost(tag, p.stderr(), sum(lost.values()))
        check_archive(tag, out, p.pid, lost, False)
        recover_elsewhere(tag, out, lost)
    except F.Abort:
        pass
    finally:
        subprocess.run(["umount", mnt])
    return 0


def t_fills():
    tag = "disk-fills"
    steps = ["big"] * 5
    want = made(tag, steps)
    m = mount(tag, "1m", 1 << 20)
    if m is None:
        return F.SKIP
    mnt, _ = m
    try:
        out = os.path.join(mnt, "archive")
        # The default buffers (16 MiB) hold all that follows the disk's filling up to the
        # end: without the last pass's accounting, none of it was counted.
        status, stdout, err, pid = F.run_plain([F.prog("victim")] + steps, out, tag=tag)
        F.expect_status(tag, status, 0)
        if stdout != "done 0\n":
            F.fail("%s: stdout %r" % (tag, stdout))
        lost = check_log(tag, F.log_dir(out), want)
        if not sum(lost.values()) or not all(lost.values()):
            F.fail("%s: every thread must lose records here: %r" % (tag, lost))
        stderr_lost(tag, err, sum(lost.values()))
        copy = recover_elsewhere(tag, out, lost)
        check_archive(tag, copy, pid, lost, True)
    except F.Abort:
        pass
    finally:
        subprocess.run(["umount", mnt])
    return 0


def made_until_wait(tag, steps):
    """Records per location made before the program's first wait: the run
    on a roomy disk, SIGKILLed once its log holds them all."""
    out = F.fresh(tag + "-ref")
    p = F.Proc([F.prog("victim")] + steps, out, tag=tag + "-ref")
    t0 = p.line("reached 1")
    F.wait_log_past(p, out, t0)
    os.kill(p.pid, signal.SIGKILL)
    F.expect_status(tag + "-ref", p.finish(), -signal.SIGKILL)
    c = log_counts(F.log_dir(out))
    if not c or any(v[1] for v in c.values()):
        F.fail("%s: the reference run lost records or left no log: %r" % (tag, c))
        raise F.Abort()
    return {loc: v[0] for loc, v in c.items()}


def t_sigterm():
    tag = "disk-sigterm"
    steps = ["big"] * 4 + ["wait"]
    want = made_until_wait(tag, steps)
    m = mount(tag, "1m", 1 << 20)
    if m is None:
        return F.SKIP
    mnt, _ = m
    try:
        out = os.path.join(mnt, "archive")
        p = F.Proc([F.prog("victim")] + steps, out, {"OMPTRACE_BUFFER_SIZE": "512K"}, tag=tag)
        p.line("reached 1")
        os.kill(p.pid, signal.SIGTERM)
        F.expect_status(tag, p.finish(), -signal.SIGTERM)
        err = p.stderr()
        if "SIGTERM received: omptrace-recover failed; run `omptrace recover" not in err:
            F.fail("%s: no line says the archive could not be written: %r" % (tag, err))
        lost = check_log(tag, F.log_dir(out), want)
        if not all(lost.values()):
            F.fail("%s: every thread must lose records here: %r" % (tag, lost))
        copy = recover_elsewhere(tag, out, lost)
        check_archive(tag, copy, p.pid, lost, True)
    except F.Abort:
        pass
    finally:
        subprocess.run(["umount", mnt])
    return 0


def case(faults, name):
    global F
    F = faults
    return {"first": t_first, "first_freed": lambda: t_freed(True), "fills": t_fills,
            "fills_freed": lambda: t_freed(False), "sigterm": t_sigterm}[name]()


def register(cases):
    """faults.py's CASES gets disk_count_<name> for each case above."""
    for name in ("first", "first_freed", "fills", "fills_freed", "sigterm"):
        cases["disk_count_" + name] = (lambda n: lambda: case(sys.modules["__main__"], n))(name)
