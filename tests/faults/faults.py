#!/usr/bin/python3
"""Fault tests (issue 13): a traced program is stopped at a known point by a
signal, a crash, exit/quick_exit/_exit, SIGKILL, a hang, fork or a full
disk; the archive it leaves (written at once, or by `omptrace-recover DIR`
from the record log DIR/.log) is read with python3-otf2 and otf2-print and
must hold exactly what ran before that point (progs/*.c say what).

Programs wait for the driver at known points ("reached K" on stdout, then a
line on stdin). Where the test needs the record log to hold everything up
to that point, it waits until the log's process file has two CLOCK frames
(one per flush) taken after the point: the first flush that starts after
the point has then finished. No verdict depends on speed: waits poll for a
condition and only a far deadline turns into a failure.

usage: faults.py --lib L --bin DIR --src DIR --work DIR --recover EXE [--sanitized] CASE
Exit status 77 means skipped (with the reason printed)."""

import argparse
import collections
import glob
import os
import re
import resource
import shutil
import signal
import struct
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "recorder"))
import archive  # noqa: E402
import invariants  # noqa: E402
import otf2_print  # noqa: E402
import tmpdisk  # noqa: E402
import disk_loss  # noqa: E402
import otf2  # noqa: E402

SKIP = 77
DEADLINE = 120.0  # seconds; only a product that never gets there hits it
FLUSH = "50ms"
A = None
problems = []

# victim.c: THREADS threads, PHASE regions per phase, BIG regions in "big".
THREADS, PHASE, BIG = 3, 8, 2000
STOPPED_ATTR = "omptrace::stopped"
LOST_ATTR = "omptrace::lost_records"


def fail(msg):
    problems.append(msg)


class Abort(Exception):
    """The case cannot go on (a failure is already recorded)."""


def prog(name):
    return os.path.join(A.bin, "fault_" + name)


def source(name):
    return os.path.join(A.src, name + ".c")


def fresh(name):
    path = os.path.join(A.work, name)
    shutil.rmtree(path, ignore_errors=True)
    for d in glob.glob(path + ".*"):
        shutil.rmtree(d, ignore_errors=True)
    return path


# ---- running a traced program ------------------------------------------------


def traced_env(out, extra=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("OMPTRACE_")}
    env.update(OMP_TOOL_LIBRARIES=A.lib, OMPTRACE_OUTPUT=out, OMPTRACE_FLUSH_INTERVAL=FLUSH)
    if A.sanitized:  # ASan's fault reports would replace the program's own death
        env["ASAN_OPTIONS"] = ":".join(x for x in (
            env.get("ASAN_OPTIONS"), "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0")
            if x)
        env["LSAN_OPTIONS"] = ":".join(x for x in (
            env.get("LSAN_OPTIONS"), "suppressions=" + os.path.join(HERE, "lsan.supp"),
            "print_suppressions=0") if x)
    env.update(extra or {})
    return env


def child_setup(ignore=(), as_limit=None):
    """The program starts with default dispositions (a background shell
    ignores SIGINT and SIGQUIT), no core files, and optional limits."""
    def setup():
        for s in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTERM, signal.SIGUSR2,
                  signal.SIGPIPE, signal.SIGALRM):
            signal.signal(s, signal.SIG_IGN if s in ignore else signal.SIG_DFL)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if as_limit is not None:
            resource.setrlimit(resource.RLIMIT_AS, (as_limit, as_limit))
    return setup


class Proc:
    """A traced program with stdin/stdout pipes and stderr in a file (so
    that it can be read while the program runs)."""

    def __init__(self, cmd, out, extra=None, ignore=(), as_limit=None, tag=None):
        self.tag = tag or os.path.basename(out)
        self.err_path = os.path.join(A.work, self.tag + ".stderr")  # never on a full disk
        self.err_file = open(self.err_path, "w+")
        self.p = subprocess.Popen(cmd, env=traced_env(out, extra), cwd=A.work,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=self.err_file, universal_newlines=True,
                                  preexec_fn=child_setup(ignore, as_limit))
        self.pid = self.p.pid
        self.stdout = ""

    def line(self, want):
        """Reads one stdout line; it must be `want`."""
        got = self.p.stdout.readline()
        self.stdout += got
        if got != want + "\n":
            fail("%s: expected stdout line %r, got %r (stderr %r)" % (
                self.tag, want, got, self.stderr()))
            self.kill()
            raise Abort()
        return time.monotonic_ns()

    def go(self):
        self.p.stdin.write("go\n")
        self.p.stdin.flush()

    def finish(self):
        """Waits for the end; returns the exit status (-n for a signal)."""
        try:
            rest, _ = self.p.communicate(timeout=240)  # before ctest's 300 s
        except subprocess.TimeoutExpired:
            self.kill()
            fail("%s: did not end" % self.tag)
            raise Abort()
        self.stdout += rest
        sys.stdout.write("--- %s stderr ---\n%s" % (self.tag, self.stderr()))
        return self.p.returncode

    def stderr(self):
        self.err_file.flush()
        with open(self.err_path) as f:
            return f.read()

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()


def run_plain(cmd, out, extra=None, as_limit=None, tag=None):
    """Runs to the end without interaction: (status, stdout, stderr, pid)."""
    p = Proc(cmd, out, extra, as_limit=as_limit, tag=tag)
    p.p.stdin.close()
    p.p.stdin = None  # EOF: the program never waits
    status = p.finish()
    return status, p.stdout, p.stderr(), p.pid


def untraced(cmd, as_limit=None):
    env = dict(os.environ, OMP_TOOL="disabled")
    p = subprocess.run(cmd, env=env, cwd=A.work, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, universal_newlines=True,
                       preexec_fn=child_setup(as_limit=as_limit), timeout=120)
    return p.returncode, p.stdout


def expect_status(tag, got, want):
    if got != want:
        fail("%s: exit status %r, expected %r" % (tag, got, want))


def expect_stderr_lines(tag, err, most=None):
    """Every stderr line is the tool's ("omptrace: ...")."""
    lines = err.splitlines()
    if A.sanitized:  # LSan in a fork child: "==pid==Running thread N was not suspended"
        lines = [l for l in lines if not re.match(r"==\d+==Running thread", l)]
    for l in lines:
        if not l.startswith("omptrace: "):
            fail("%s: unexpected stderr line %r" % (tag, l))
    if most is not None and len(lines) > most:
        fail("%s: %d stderr lines, expected at most %d: %r" % (tag, len(lines), most, lines))


# ---- the record log (recorder/log/format.h), read independently ---------------

HDR = struct.Struct("<IBBHIIII")  # magic type version flags length seq crc reserved
MAGIC, VERSION = 0x474C544F, 1
FRAME_CLOCK, FRAME_RECORDS = 2, 17


def frames(path):
    """Validated frames of one log file: (offset, type, seq, payload); stops
    at the first frame that does not validate (a torn or damaged end)."""
    out = []
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return out
    off, seq = 0, 0
    while off + HDR.size <= len(data):
        magic, typ, ver, _, length, fseq, crc, res = HDR.unpack_from(data, off)
        end = off + HDR.size + length
        if magic != MAGIC or ver != VERSION or fseq != seq or end > len(data):
            break
        hdr0 = HDR.pack(magic, typ, ver, 0, length, fseq, 0, res)
        if zlib.crc32(data[off + HDR.size:end], zlib.crc32(hdr0)) & 0xFFFFFFFF != crc:
            break
        out.append((off, typ, fseq, data[off + HDR.size:end]))
        off, seq = end, seq + 1
    return out


def log_dir(out):
    return os.path.join(out, ".log")


def wait_log_past(p, out, t0):
    """Waits until the log holds everything recorded before monotonic time
    t0: two flushes (CLOCK frames) taken after t0."""
    process = os.path.join(log_dir(out), "process")
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        later = [1 for _, typ, _, pay in frames(process)
                 if typ == FRAME_CLOCK and len(pay) >= 16 and
                 struct.unpack_from("<QQ", pay)[1] > t0]  # ot_log_clock.ns
        if len(later) >= 2:
            return
        if p is not None and p.p.poll() is not None:
            fail("%s: the program ended while waiting for its log" % p.tag)
            raise Abort()
        time.sleep(0.02)
    fail("%s: %s never got two CLOCK frames after the sync point (is OMPTRACE_FLUSH_INTERVAL "
         "implemented?)" % (p.tag if p else out, process))
    if p is not None:
        p.kill()
    raise Abort()


# ---- recovery and archive checks ------------------------------------------------


def recover(*args):
    if not os.path.exists(A.recover):
        fail("no omptrace-recover at %s" % A.recover)
        raise Abort()
    p = subprocess.run([A.recover] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=200)
    sys.stdout.write("--- omptrace-recover %s (exit %d) ---\n%s%s" % (
        " ".join(args), p.returncode, p.stdout, p.stderr))
    return p.returncode, p.stdout, p.stderr


def archive_after_fault(tag, out, err):
    """The archive of a run ended by a signal or crash: written by the
    tool's automatic recovery (perhaps still running when the program
    died), or else the stderr line names `omptrace recover DIR` and the
    test runs it."""
    busy = re.search(r"omptrace-recover \(pid (\d+)\) is still writing the archive", err)
    end = time.monotonic() + DEADLINE  # a loaded machine: the tool stopped waiting for it
    while busy and os.path.exists("/proc/" + busy.group(1)) and time.monotonic() < end:
        time.sleep(0.05)
    if os.path.exists(os.path.join(out, "traces.otf2")):
        return True
    m = re.search(r"omptrace recover (\S+?)`?$", err, re.M)
    if not m or os.path.realpath(m.group(1)) != os.path.realpath(out):
        fail("%s: no archive at %s and no stderr line naming `omptrace recover %s`: %r" % (
            tag, out, out, err))
        return False
    rc, _, _ = recover(out)
    expect_status(tag + ": omptrace-recover", rc, 0)
    return True


def stopped_marks(t):
    """location -> times of its MeasurementOnOff(OFF) carrying omptrace::stopped."""
    marks = collections.defaultdict(list)
    for l in t.locs:
        for e in t.events[l]:
            if type(e).__name__ != "MeasurementOnOff" or \
                    e.measurement_mode != otf2.MeasurementMode.OFF:
                continue
            names = {a.name for a in (e.attributes or {})}
            if STOPPED_ATTR in names:
                marks[l].append(e.time)
    return marks


def load(tag, out, name, complete, stopped, pid=None, excuse=None):
    """Reads the archive in out with python3-otf2 and otf2-print, checks the
    generic invariants and the omptrace::stopped marker (stopped: True for
    a recovered run, False for a normal end). Returns the Trace or raises."""
    anchor = os.path.join(out, "traces.otf2")
    if not os.path.exists(anchor):
        fail("%s: no archive at %s" % (tag, anchor))
        raise Abort()
    try:
        t = archive.Trace(anchor)
    except Exception as e:  # unreadable archive
        fail("%s: reading %s failed: %s: %s" % (tag, anchor, type(e).__name__, e))
        raise Abort()
    invariants.check_generic(t, source=source(name), program="fault_" + name,
                             complete=complete, pid=pid)
    otf2_print.check_with_otf2_print(t)
    marks = stopped_marks(t)
    if stopped is True and not marks:
        fail("%s: recovered archive has no MeasurementOnOff(OFF) with %s" % (tag, STOPPED_ATTR))
    if stopped is False and marks:
        fail("%s: archive of a normal end carries %s on locations %r" % (
            tag, STOPPED_ATTR, sorted(marks)))
    for l, times in marks.items():
        last = max(e.time for e in t.events[l])
        if len(times) != 1 or times[0] != last:
            fail("%s: location %d: %s at %r, expected once at its last record %d" % (
                tag, l, STOPPED_ATTR, times, last))
    print(archive.summary(t))
    for f in t.failures:
        if excuse is None or not re.search(excuse, f):
            fail("%s: %s" % (tag, f))
    t.failures = []
    return t


def expect_phases(tag, t, name, counts, nthreads):
    """counts: marker -> Enter count expected on every one of nthreads
    locations (0: on none)."""
    m = archive.markers(source(name))
    if len(t.locs) != nthreads:
        fail("%s: %d locations, expected %d" % (tag, len(t.locs), nthreads))
    for marker, n in counts.items():
        construct = "barrier" if "bar" in marker else "parallel"
        got = collections.Counter(t.enter_count(construct, m[marker], l) for l in t.locs)
        if got != collections.Counter({n: nthreads}):
            fail("%s: Enter(%s @%s) per location: expected %d on each of %d locations, got "
                 "{count: locations} %r" % (tag, construct, marker, n, nthreads, dict(got)))


def expect_no_log(tag, out):
    if os.path.exists(log_dir(out)):
        fail("%s: the record log %s is still there" % (tag, log_dir(out)))


# ---- signals ---------------------------------------------------------------------

SIGNALS = {"sigterm": signal.SIGTERM, "sigint": signal.SIGINT, "sighup": signal.SIGHUP,
           "sigquit": signal.SIGQUIT}


def t_signal(name):
    """A terminating signal while the program waits after phase 1: exit
    status of the signal, an archive with exactly phase 1, written by the
    tool itself."""
    sig = SIGNALS[name]
    out = fresh(name)
    p = Proc([prog("victim"), "par1", "wait", "par2"], out)
    p.line("reached 1")
    os.kill(p.pid, sig)
    status = p.finish()
    err = p.stderr()
    expect_status(name, status, -sig)
    if p.stdout != "reached 1\n":
        fail("%s: stdout %r" % (name, p.stdout))
    expect_stderr_lines(name, err)
    if archive_after_fault(name, out, err):
        t = load(name, out, "victim", False, True, p.pid)
        expect_phases(name, t, "victim", {"par1": PHASE, "bar1": PHASE, "par2": 0}, THREADS)
        expect_no_log(name, out)


def t_sigterm_in_region():
    """SIGTERM while every thread is inside a parallel region (thread 0
    waits for input after the region's barrier): the region is in the
    archive on every thread, closed at each thread's last record."""
    tag = "sigterm-in-region"
    out = fresh(tag)
    p = Proc([prog("victim"), "par1", "hold", "par2"], out)
    p.line("reached 1")
    os.kill(p.pid, signal.SIGTERM)
    expect_status(tag, p.finish(), -signal.SIGTERM)
    err = p.stderr()
    expect_stderr_lines(tag, err)
    if archive_after_fault(tag, out, err):
        t = load(tag, out, "victim", False, True, p.pid)
        expect_phases(tag, t, "victim", {"par1": PHASE, "hold": 1, "holdbar": 1, "par2": 0},
                      THREADS)


def t_sigterm_shell():
    """A shell sees 128+15 for a traced program killed by SIGTERM."""
    out = fresh("sigterm-shell")
    p = Proc(["sh", "-c", '"$@"; echo "shell saw $?"', "sh", prog("victim"), "par1", "wait",
              "par2"], out)
    p.line("reached 1")
    kids = []
    with open("/proc/%d/task/%d/children" % (p.pid, p.pid)) as f:
        kids = [int(x) for x in f.read().split()]
    if len(kids) != 1:
        fail("sigterm-shell: shell has children %r" % kids)
        p.kill()
        return
    os.kill(kids[0], signal.SIGTERM)
    expect_status("sigterm-shell", p.finish(), 0)
    if p.stdout != "reached 1\nshell saw 143\n":
        fail("sigterm-shell: stdout %r" % p.stdout)
    if archive_after_fault("sigterm-shell", out, p.stderr()):
        t = load("sigterm-shell", out, "victim", False, True, kids[0])
        expect_phases("sigterm-shell", t, "victim", {"par1": PHASE, "par2": 0}, THREADS)


def t_own_handler(when):
    """The program's own SIGTERM handler (installed before the tool starts,
    or after) keeps its behaviour: the program goes on and ends normally
    with a complete archive."""
    tag = "own-handler-" + when
    out = fresh(tag)
    steps = ["own_term", "par1"] if when == "early" else ["par1", "own_term"]
    p = Proc([prog("victim")] + steps + ["sigwait", "par2"], out)
    p.line("reached 1")
    os.kill(p.pid, signal.SIGTERM)
    expect_status(tag, p.finish(), 3)
    if p.stdout != "reached 1\nhandled 15\ndone 48\n":
        fail("%s: stdout %r" % (tag, p.stdout))
    expect_stderr_lines(tag, p.stderr())
    t = load(tag, out, "victim", True, False, p.pid)
    expect_phases(tag, t, "victim", {"par1": PHASE, "par2": PHASE, "bar2": PHASE}, THREADS)
    expect_no_log(tag, out)


def t_sigterm_ignored():
    """A program that ignores SIGTERM (inherited SIG_IGN) still ignores it."""
    tag = "sigterm-ignored"
    out = fresh(tag)
    p = Proc([prog("victim"), "par1", "wait", "par2"], out, ignore=(signal.SIGTERM,))
    p.line("reached 1")
    os.kill(p.pid, signal.SIGTERM)
    p.go()
    expect_status(tag, p.finish(), 0)
    if p.stdout != "reached 1\ndone 48\n":
        fail("%s: stdout %r" % (tag, p.stdout))
    t = load(tag, out, "victim", True, False, p.pid)
    expect_phases(tag, t, "victim", {"par1": PHASE, "par2": PHASE}, THREADS)


FINALIZE_DELAY = "OMPTRACE_TEST_FINALIZE_DELAY_MS"  # test-only: out.c pauses the archive's writing


def t_signal_in_finalize(name, closed=False):
    """A terminating signal while the archive is written at exit (the
    test-only delay holds finalize after the event files, before the
    definitions and the anchor): the signal's exit status, one line naming
    the kept log and `omptrace recover DIR`, no anchor, and a log that
    omptrace-recover turns into the complete archive (both phases).
    closed: the signal comes once the archive is closed (before the log is
    removed): one line naming the archive, which holds both phases."""
    sig = SIGNALS[name]
    tag = name + "-in-finalize" + ("-closed" if closed else "")
    out = fresh(tag)
    p = Proc([prog("victim"), "par1", "par2"], out,
             extra={FINALIZE_DELAY: "60000" + (",closed" if closed else "")})
    p.p.stdin.close()
    p.p.stdin = None
    end = time.monotonic() + DEADLINE
    while "(" + FINALIZE_DELAY + ")" not in p.stderr() and p.p.poll() is None \
            and time.monotonic() < end:
        time.sleep(0.02)
    os.kill(p.pid, sig)
    status = p.finish()
    err = p.stderr()
    expect_status(tag, status, -sig)
    if p.stdout not in ("", "done 48\n"):  # stdio flushes a pipe after the tool's finalize
        fail("%s: stdout %r" % (tag, p.stdout))
    expect_stderr_lines(tag, err)
    want = ("omptrace: %s during the archive's writing: the record log is kept in %s/.log; "
            "`omptrace recover %s` writes the archive" % (signal.Signals(sig).name, out, out))
    if closed:
        want = "omptrace: %s during the exit: archive written to %s" % (
            signal.Signals(sig).name, out)
    lines = [l for l in err.splitlines() if " during the " in l or " received" in l]
    if lines != [want]:
        fail("%s: expected the one line %r, got %r" % (tag, want, lines))
    if closed:
        t = load(tag, out, "victim", True, False, p.pid)
        expect_phases(tag, t, "victim", {"par1": PHASE, "bar1": PHASE, "par2": PHASE,
                                         "bar2": PHASE}, THREADS)
        return
    if os.path.exists(os.path.join(out, "traces.otf2")):
        fail("%s: an anchor traces.otf2 was left by an archive never finished" % tag)
    if not os.path.isdir(log_dir(out)):
        fail("%s: no record log left in %s" % (tag, log_dir(out)))
        raise Abort()
    rc, _, _ = recover(out)
    expect_status(tag + ": omptrace-recover", rc, 0)
    t = load(tag, out, "victim", True, None, p.pid)
    expect_phases(tag, t, "victim", {"par1": PHASE, "bar1": PHASE, "par2": PHASE, "bar2": PHASE},
                  THREADS)
    expect_no_log(tag, out)


# ---- crashes and exits inside a parallel region ------------------------------------

CRASHES = {"abort": -signal.SIGABRT, "segv": -signal.SIGSEGV, "bus": -signal.SIGBUS,
           "fpe": -signal.SIGFPE, "ill": -signal.SIGILL, "exit": 5, "quick_exit": 6}


def t_crash(how):
    """Thread 1 of a region aborts, faults (SIGSEGV, SIGBUS, SIGFPE,
    SIGILL from the hardware), calls exit() or quick_exit()
    after the region's barrier: the program's exit status is unchanged and
    the archive holds phase 1 and the crash region (one Enter of the region
    and of its barrier on every thread: all were in it)."""
    tag = how.replace("_", "-")
    out = fresh(tag)
    status, stdout, err, pid = run_plain([prog("victim"), "par1", how], out)
    expect_status(tag, status, CRASHES[how])
    if stdout != "":
        fail("%s: stdout %r" % (tag, stdout))
    expect_stderr_lines(tag, err)
    signalled = CRASHES[how] < 0
    if signalled and not archive_after_fault(tag, out, err):
        return
    t = load(tag, out, "victim", False, signalled, pid)
    expect_phases(tag, t, "victim", {"par1": PHASE, "crash": 1, "crashbar": 1}, THREADS)
    expect_no_log(tag, out)


# ---- the program's own SIGSEGV handler, installed in main ------------------------------

# own_segv.c: case -> (steps before "armed", steps after, exit status, times the
# program's handler line is written, whether the tool says the handler is the program's).
OWN_SEGV = {
    "exit": (["exit"], ["par", "segv"], 42, 1, True),
    "reraise": (["reraise"], ["par", "segv"], -signal.SIGSEGV, 1, True),
    "resethand": (["resethand"], ["par", "segv"], -signal.SIGSEGV, 1, True),
    "chain": (["chain"], ["par", "segv"], -signal.SIGSEGV, 1, True),
    "again": (["again"], ["par", "segv"], 43, 1, True),
    "thread": (["thread"], ["par", "segv"], 42, 1, True),
    "ign": (["ign"], ["par", "raise", "par", "segv"], -signal.SIGSEGV, 0, False),
    "dfl": (["dfl"], ["par", "segv"], -signal.SIGSEGV, 0, False),
}
OWN_LINE = ("omptrace: the program installed its own SIGSEGV handler; on a SIGSEGV omptrace "
            "writes the archive first, then calls it")


def t_own_segv(case):
    """The program sets SIGSEGV's action first thing in main, after the
    tool started (its handler, SIG_IGN or SIG_DFL), waits until the tool's
    watch has put its handler back in front ("armed": a condition, not a
    time), runs regions and crashes on thread 1 of a region: the archive
    holds every region up to the crash, the program's handler ran once
    after it (its line, its exit status), and the tool said so in one line
    (a handler) or nothing (SIG_IGN, SIG_DFL). Under SIG_IGN a raised
    SIGSEGV is ignored and recording goes on; the fault still kills."""
    before, after, want_status, own_lines, said = OWN_SEGV[case]
    tag = "own-segv-" + case
    out = fresh(tag)
    status, stdout, err, pid = run_plain([prog("own_segv")] + before + ["armed"] + after, out,
                                         tag=tag)
    expect_status(tag, status, want_status)
    want = "start: tool\narmed\n" + ("raised\n" if "raise" in after else "") + \
        "own handler 11\n" * own_lines
    if stdout != want:
        fail("%s: stdout %r, expected %r" % (tag, stdout, want))
    expect_stderr_lines(tag, err)
    lines = [l for l in err.splitlines() if "its own SIGSEGV handler" in l]
    if lines != ([OWN_LINE] if said else []):
        fail("%s: the program's handler said in %r, expected %s" % (
            tag, lines, "once" if said else "never"))
    received = [l for l in err.splitlines() if "SIGSEGV received" in l]
    if len(received) != 1:
        fail("%s: expected one 'SIGSEGV received' line, got %r" % (tag, received))
    if not archive_after_fault(tag, out, err):
        return
    t = load(tag, out, "own_segv", False, True, pid)
    phases = after.count("par")
    expect_phases(tag, t, "own_segv", {"par": PHASE * phases, "bar": PHASE * phases, "crash": 1,
                                       "crashbar": 1}, THREADS)
    expect_no_log(tag, out)


def t_own_segv_fork():
    """A fork child (recording into <dir>.fork-<pid>) installs its own
    SIGSEGV handler: the child's own watch puts the tool's handler back in
    front, the child's crash writes its archive (its regions after the
    fork, exactly) before its handler _exits with 42; the parent's archive
    is complete and holds only its regions before the fork."""
    tag = "own-segv-fork"
    out = fresh(tag)
    status, stdout, err, pid = run_plain([prog("own_segv"), "par", "fork", "exit", "armed", "par",
                                          "segv"], out, tag=tag)
    expect_status(tag, status, 0)
    m = re.match(r"start: tool\narmed\nown handler 11\nchild (\d+) exit 42\n$", stdout)
    if not m:
        fail("%s: stdout %r" % (tag, stdout))
        return
    child = int(m.group(1))
    expect_stderr_lines(tag, err)
    lines = [l for l in err.splitlines() if "its own SIGSEGV handler" in l]
    if lines != [OWN_LINE]:
        fail("%s: the program's handler said in %r, expected once" % (tag, lines))
    t = load(tag + " (parent)", out, "own_segv", True, False, pid)
    expect_phases(tag + " (parent)", t, "own_segv", {"par": PHASE, "crash": 0}, THREADS)
    dirs = [d for d in siblings(out) if os.path.basename(d) == "%s.fork-%d" % (tag, child)]
    if len(dirs) != 1:
        fail("%s: no directory %s.fork-%d beside it: %r" % (tag, out, child, siblings(out)))
        return
    if not archive_after_fault(tag + " (child)", dirs[0], err):
        return
    tc = load(tag + " (child)", dirs[0], "own_segv", False, True, child)
    expect_phases(tag + " (child)", tc, "own_segv", {"par": PHASE, "bar": PHASE, "crash": 1,
                                                     "crashbar": 1}, THREADS)


# ---- deaths that leave the log: _exit, SIGKILL, torn frames ---------------------------


def killed_after_phase1(tag, how):
    """Runs phase 1, waits until the log holds it, then ends the program by
    `how` ("_exit" or "kill"). Returns (out, pid)."""
    out = fresh(tag)
    steps = ["par1", "wait", "_exit"] if how == "_exit" else ["par1", "wait", "par2"]
    p = Proc([prog("victim")] + steps, out)
    t0 = p.line("reached 1")
    wait_log_past(p, out, t0)
    if how == "_exit":
        p.go()
    else:
        os.kill(p.pid, signal.SIGKILL)
    expect_status(tag, p.finish(), 7 if how == "_exit" else -signal.SIGKILL)
    if os.path.exists(os.path.join(out, "traces.otf2")):
        fail("%s: an archive was written by a process that could not write one" % tag)
    if not os.path.isdir(log_dir(out)):
        fail("%s: no record log left in %s" % (tag, log_dir(out)))
        raise Abort()
    return out, p.pid


def check_phase1_recovered(tag, out, pid):
    t = load(tag, out, "victim", False, True, pid)
    expect_phases(tag, t, "victim", {"par1": PHASE, "bar1": PHASE, "par2": 0}, THREADS)
    return t


def t_left_log(how):
    """_exit() or SIGKILL after phase 1: the log is left, and
    `omptrace-recover DIR` turns it into an archive with all of phase 1
    (everything before the last periodic flush), then removes the log."""
    tag = "underscore-exit" if how == "_exit" else "sigkill"
    out, pid = killed_after_phase1(tag, how)
    rc, stdout, err = recover(out)
    expect_status(tag + ": omptrace-recover", rc, 0)
    check_phase1_recovered(tag, out, pid)
    expect_no_log(tag, out)


def otf2_text(out):
    p = subprocess.run(["otf2-print", os.path.join(out, "traces.otf2")], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    return p.stdout


def t_recover_twice():
    """Recovering twice with --keep gives the same archive; without --keep
    the log goes; a fourth run has nothing to recover and changes nothing."""
    tag = "recover-twice"
    out, pid = killed_after_phase1(tag, "kill")
    texts = []
    for i, args in enumerate((["--keep"], ["--keep"], [])):
        rc, _, _ = recover(*(args + [out]))
        expect_status("%s: run %d (%s)" % (tag, i + 1, " ".join(args)), rc, 0)
        texts.append(otf2_text(out))
        if i < 2 and not os.path.isdir(log_dir(out)):
            fail("%s: --keep removed the log" % tag)
    if len(set(texts)) != 1:
        fail("%s: the three recoveries wrote different archives (otf2-print differs)" % tag)
    expect_no_log(tag, out)
    rc, stdout, err = recover(out)
    expect_status(tag + ": run 4", rc, 0)
    if "nothing to recover" not in stdout + err:
        fail("%s: run 4 did not say 'nothing to recover': %r" % (tag, stdout + err))
    if otf2_text(out) != texts[0]:
        fail("%s: run 4 changed the archive" % tag)
    check_phase1_recovered(tag, out, pid)


def t_torn_frame():
    """A torn frame: the program is killed after phase 2; the first RECORDS
    frame of worker location 1 written after phase 1 is cut in half (and
    with it the rest of the file), as if the process had died writing it.
    The recovered archive keeps all of phase 1 on location 1 and none of
    phase 2 there; the other locations keep both phases; one line names the
    damage. (A worker: when the master's fork records are lost, the
    workers' regions of that part have no source address, by design.)
    Every thread has its own file here (OMPTRACE_LOG_SHARED=0)."""
    tag = "torn-frame"
    out = fresh(tag)
    p = Proc([prog("victim"), "par1", "wait", "par2", "wait"], out, {"OMPTRACE_LOG_SHARED": "0"})
    wait_log_past(p, out, p.line("reached 1"))
    torn = 1
    torn_log = os.path.join(log_dir(out), "%d.log" % torn)
    size1 = os.path.getsize(torn_log)
    p.go()
    wait_log_past(p, out, p.line("reached 2"))
    os.kill(p.pid, signal.SIGKILL)
    expect_status(tag, p.finish(), -signal.SIGKILL)
    intact = out + ".intact"
    shutil.copytree(out, intact)
    later = [(off, pay) for off, typ, _, pay in frames(torn_log)
             if typ == FRAME_RECORDS and off >= size1]
    if not later:
        fail("%s: %s has no RECORDS frame after phase 1 (frames %r)" % (
            tag, torn_log, [(o, ty, len(pa)) for o, ty, _, pa in frames(torn_log)]))
        return
    off, pay = later[0]
    os.truncate(torn_log, off + HDR.size + len(pay) // 2)
    rc, _, _ = recover(intact)
    expect_status(tag + ": recover intact copy", rc, 0)
    rc, stdout, err = recover(out)
    expect_status(tag + ": recover torn log", rc, 0)
    said = [l for l in (stdout + err).splitlines() if torn_log in l]
    if len(said) != 1:
        fail("%s: expected one line naming the damaged %s, got %r" % (tag, torn_log, said))
    ti = load(tag + " (intact)", intact, "victim", False, True, p.pid)
    expect_phases(tag + " (intact)", ti, "victim", {"par1": PHASE, "par2": PHASE}, THREADS)
    # Phase 2's teams have no records of location 1: they list the others.
    t = load(tag, out, "victim", False, True, p.pid,
             excuse=r"fork of %d threads, but the next team has members \[0, 2\]" % THREADS)
    m = archive.markers(source("victim"))
    for marker, want in (("par1", PHASE), ("par2", 0)):
        got = t.enter_count("parallel", m[marker], torn) if torn in t.locs else None
        if got != want:
            fail("%s: Enter(parallel @%s) on location %d: %r, expected %d" % (
                tag, marker, torn, got, want))
    others = [l for l in t.locs if l != torn]
    for marker in ("par1", "par2"):
        got = [t.enter_count("parallel", m[marker], l) for l in others]
        if got != [PHASE] * len(others):
            fail("%s: Enter(parallel @%s) on locations %r: %r, expected %d each" % (
                tag, marker, others, got, PHASE))
    for f in t.failures:
        fail("%s: %s" % (tag, f))


def t_torn_shared():
    """A torn frame in the shared file, where every thread writes here
    (OMPTRACE_LOG_SHARED=16M): killed after phase 2, the file is cut in the
    middle of its first RECORDS frame written after phase 1. Every location
    keeps all of phase 1 and none of phase 2 (nothing valid follows the
    cut); one line names the shared file and the thread whose frame is torn;
    no <loc>.log was created."""
    tag = "torn-shared"
    out = fresh(tag)
    p = Proc([prog("victim"), "par1", "wait", "par2", "wait"], out,
             {"OMPTRACE_LOG_SHARED": "16M"})
    wait_log_past(p, out, p.line("reached 1"))
    shared = os.path.join(log_dir(out), "shared")
    size1 = os.path.getsize(shared)
    p.go()
    wait_log_past(p, out, p.line("reached 2"))
    os.kill(p.pid, signal.SIGKILL)
    expect_status(tag, p.finish(), -signal.SIGKILL)
    own = [n for n in os.listdir(log_dir(out)) if n.endswith(".log")]
    if own:
        fail("%s: files of their own with OMPTRACE_LOG_SHARED=16M: %r" % (tag, own))
    later = [(off, pay) for off, typ, _, pay in frames(shared)
             if typ == FRAME_RECORDS and off >= size1]
    if not later:
        fail("%s: the shared file has no RECORDS frame after phase 1" % tag)
        return
    off, pay = later[0]
    with open(shared, "rb") as f:
        f.seek(off + HDR.size - 4)
        loc = struct.unpack("<I", f.read(4))[0]
    os.truncate(shared, off + HDR.size + len(pay) // 2)
    want = "omptrace: %s ends in a torn frame of thread %d after %d frames (torn: %d payload " \
        "bytes missing): the rest of thread %d is not in the trace" % (
            shared, loc, len(frames(shared)), len(pay) - len(pay) // 2, loc)
    rc, stdout, err = recover(out)
    expect_status(tag + ": recover torn log", rc, 0)
    said = [l for l in (stdout + err).splitlines() if shared in l]
    if said != [want]:
        fail("%s: expected one line %r, got %r" % (tag, want, said))
    t = load(tag, out, "victim", False, True, p.pid)
    m = archive.markers(source("victim"))
    for marker, want in (("par1", PHASE), ("par2", 0)):
        got = [t.enter_count("parallel", m[marker], l) for l in sorted(t.locs)]
        if got != [want] * THREADS:
            fail("%s: Enter(parallel @%s) per location: %r, expected %d each" % (
                tag, marker, got, want))
    for f in t.failures:
        fail("%s: %s" % (tag, f))


# ---- hangs: a deadlock killed by timeout, and a snapshot of it ---------------------------


def where_names_deadlock(text):
    """The report names, for each thread, the lock call it waits in and the
    one where it took the lock the other waits for (by source line)."""
    m = archive.markers(source("deadlock"))
    missing = ["deadlock.c:%d (@%s)" % (m[k], k) for k in ("first_a", "first_b", "second_a",
                                                           "second_b")
               if "deadlock.c:%d" % m[k] not in text]
    for phrase in ("waiting for lock", "held by thread"):
        if text.count(phrase) < 2:
            missing.append("'%s' for both threads" % phrase)
    return missing


def check_deadlock_archive(tag, out, pid, stopped):
    t = load(tag, out, "deadlock", False, stopped, pid)
    expect_phases(tag, t, "deadlock", {"warmup": 1, "warmbar": 1, "par": 1}, 2)
    t.expect_kind("ThreadAcquireLock", each=[1, 1])
    t.expect_kind("ThreadReleaseLock", total=0)
    for f in t.failures:
        fail("%s: %s" % (tag, f))
    return t


def t_deadlock_kill():
    """A deadlocked program killed by `timeout -s KILL` (the driver makes
    timeout expire once the log shows both threads waiting, by sending it
    SIGALRM, so no duration is guessed). omptrace-recover --where then
    names both waits and both holders."""
    tag = "deadlock-kill"
    out = fresh(tag)
    p = Proc(["timeout", "-s", "KILL", "3600", prog("deadlock")], out)
    p.line("both hold their first lock")
    with open("/proc/%d/task/%d/children" % (p.pid, p.pid)) as f:
        pid = int(f.read().split()[0])
    probe = out + ".probe"
    end = time.monotonic() + DEADLINE
    missing = ["(no report)"]
    while missing and time.monotonic() < end:
        shutil.rmtree(probe, ignore_errors=True)
        rc, stdout, _ = recover("--keep", "--where", "-q", "-o", probe, out)
        where = os.path.join(probe, "where.txt")
        text = stdout + (open(where).read() if os.path.exists(where) else "")
        missing = where_names_deadlock(text) if rc == 0 else ["(recover failed)"]
        if missing:
            time.sleep(0.1)
    # One more flush pass after both waits began (the process file grows by
    # its CLOCK frame): the archive then shows both threads still waiting.
    proc_log = os.path.join(out, ".log", "process")
    size = os.path.getsize(proc_log)
    end = time.monotonic() + DEADLINE
    while os.path.getsize(proc_log) == size and time.monotonic() < end:
        time.sleep(0.02)
    os.kill(p.pid, signal.SIGALRM)  # timeout's own timer: it sends SIGKILL now
    # timeout sends SIGKILL to its whole process group, itself included (a
    # shell would see 128+9).
    status = p.finish()
    if status not in (-signal.SIGKILL, 128 + signal.SIGKILL):
        fail("%s: timeout exited with %r, expected SIGKILL (-9 or 137)" % (tag, status))
    if missing:
        fail("%s: the where report never named %r" % (tag, missing))
        return
    end = time.monotonic() + DEADLINE  # the program, timeout's child, is reaped by init
    while os.path.exists("/proc/%d" % pid) and time.monotonic() < end:
        time.sleep(0.02)
    rc, stdout, err = recover("--where", out)
    expect_status(tag + ": omptrace-recover --where", rc, 0)
    where = os.path.join(out, "where.txt")
    text = stdout + (open(where).read() if os.path.exists(where) else "")
    missing = where_names_deadlock(text)
    if missing:
        fail("%s: the where report does not name %r:\n%s" % (tag, missing, text))
    t = check_deadlock_archive(tag, out, pid, True)
    waits_until_stop(tag, t)
    expect_no_log(tag, out)


def waits_until_stop(tag, t):
    """Each deadlocked thread's second lock wait lasts until its stop mark,
    the start of the last flush pass, which came after both waits began."""
    marks = stopped_marks(t)
    for l in t.locs:
        waits = [e for e in t.events[l] if type(e).__name__ in ("Enter", "Leave") and
                 e.region.name.startswith("lock wait @")]
        last = waits[-2:] if len(waits) >= 4 else []
        if not (len(last) == 2 and type(last[1]).__name__ == "Leave" and marks.get(l)
                and last[1].time == marks[l][0] and last[1].time > last[0].time):
            fail("%s: location %d: the last lock wait %r does not last until the stop mark %r"
                 % (tag, l, [(type(e).__name__, e.time) for e in last], marks.get(l)))


def t_snapshot():
    """SIGUSR2 on a deadlocked program: DIR/snapshot-<n>/ gets a readable
    archive and where.txt naming who holds which lock and who waits; the
    program keeps running (still deadlocked) and its log stays, so after a
    SIGKILL the whole run is still recovered."""
    tag = "snapshot"
    out = fresh(tag)
    p = Proc([prog("deadlock")], out)
    p.line("both hold their first lock")
    end = time.monotonic() + DEADLINE
    n, missing, snap = 0, ["(no snapshot)"], None
    while missing and time.monotonic() < end:
        n += 1
        snap = os.path.join(out, "snapshot-%d" % n)
        os.kill(p.pid, signal.SIGUSR2)
        where = os.path.join(snap, "where.txt")
        while time.monotonic() < end and not (
                os.path.exists(where) and snap in p.stderr()):
            if p.p.poll() is not None:
                fail("%s: the program ended after SIGUSR2 (status %r)" % (tag, p.p.returncode))
                return
            time.sleep(0.05)
        missing = where_names_deadlock(open(where).read()) if os.path.exists(where) \
            else ["%s (never written)" % where]
    if p.p.poll() is not None:
        fail("%s: the program ended after the snapshot" % tag)
    os.kill(p.pid, signal.SIGKILL)
    expect_status(tag, p.finish(), -signal.SIGKILL)
    if missing:
        fail("%s: %s never named %r" % (tag, snap, missing))
        return
    expect_stderr_lines(tag, p.stderr())
    for k in range(1, n + 1):
        if not os.path.isdir(os.path.join(out, "snapshot-%d" % k)):
            fail("%s: snapshot-%d missing (snapshots are numbered from 1)" % (tag, k))
    t = load(tag, snap, "deadlock", False, None, p.pid)
    expect_phases(tag, t, "deadlock", {"warmup": 1, "par": 1}, 2)
    t.expect_kind("ThreadAcquireLock", each=[1, 1])
    if not os.path.isdir(log_dir(out)):
        fail("%s: the snapshot consumed the record log" % tag)
        return
    rc, _, _ = recover(out)
    expect_status(tag + ": omptrace-recover", rc, 0)
    check_deadlock_archive(tag + " (recovered)", out, p.pid, True)


# ---- fork --------------------------------------------------------------------------


def siblings(out):
    return sorted(d for d in glob.glob(out + ".*") if os.path.isdir(d))


def forked(tag, out, args, after, extra=None):
    """Runs forker (its child exits 0 after its regions; the parent's sum is
    `after` at the end): (child pid, stderr, pid), or None after a failure."""
    status, stdout, err, pid = run_plain([prog("forker")] + args, out, extra=extra)
    expect_status(tag, status, 0)
    m = re.match(r"parent before 8\nchild (\d+) done 68\nparent after %d, child status 0\n$"
                 % after, stdout)
    if not m:
        fail("%s: stdout %r" % (tag, stdout))
        return None
    return int(m.group(1)), err, pid


def t_fork():
    """fork() without exec: parent and child both run parallel regions; each
    gets its own complete archive in its own directory (the child's names
    its pid and holds only what the child ran after the fork)."""
    tag = "fork"
    out = fresh(tag)
    ran = forked(tag, out, [], 1008)
    if not ran:
        return
    child, err, pid = ran
    expect_stderr_lines(tag, err)
    t = load(tag + " (parent)", out, "forker", True, False, pid)
    expect_phases(tag + " (parent)", t, "forker", {"before": 4, "after": 5, "child": 0}, 2)
    dirs = siblings(out)
    mine = [d for d in dirs if str(child) in os.path.basename(d)]
    if len(dirs) != 1 or len(mine) != 1:
        fail("%s: expected one directory for the child (pid %d) beside %s, found %r" % (
            tag, child, out, dirs))
        return
    if not any(mine[0] in l for l in err.splitlines()):
        fail("%s: no stderr line names the child's directory %s" % (tag, mine[0]))
    tc = load(tag + " (child)", mine[0], "forker", True, False, child)
    expect_phases(tag + " (child)", tc, "forker", {"child": 3, "childbar": 3, "before": 0,
                                                   "after": 0}, 2)


def samples_account(anchor):
    """{location: (expected, reached, taken)} of the archive's omptrace::samples."""
    acc = {}
    with otf2.reader.open(anchor) as tr:
        for p in tr.definitions.system_tree_node_properties:
            if p.name == "omptrace::samples":
                for line in str(p.value).splitlines():
                    if line.strip():
                        loc, *rest = (int(x) for x in line.split())
                        acc[loc] = tuple(rest)
    return acc


def t_fork_sampled():
    """fork() while sampling at 1 kHz: the child closes its copies of the
    parent's counters without a word to them, so the parent's master, which
    then spins 300 ms of CPU time, takes its samples (a child's disable had
    stopped them: 1 of 300), and the child, whose counter rings are not
    inherited, never unmaps an address its own threads use (it died of
    SIGSEGV at exit)."""
    tag = "fork-sampled"
    out = fresh(tag)
    ran = forked(tag, out, ["spin"], 1009, {"OMPTRACE_SAMPLING": "1kHz"})
    if not ran:
        return
    child, _err, pid = ran
    t = load(tag + " (parent)", out, "forker", True, False, pid)
    expect_phases(tag + " (parent)", t, "forker", {"before": 4, "after": 5, "child": 0}, 2)
    acc = samples_account(os.path.join(out, "traces.otf2"))
    if not acc:
        print("no samples account (sampling not built): skipped")
        sys.exit(77)
    expected, _reached, taken = acc.get(0, (0, 0, 0))
    if expected < 250:
        fail("%s: the master's samples expected %d, not the 300 of its spin" % (tag, expected))
    if taken < 0.9 * expected:
        fail("%s: the master took %d of %d samples expected" % (tag, taken, expected))
    mine = [d for d in siblings(out) if str(child) in os.path.basename(d)]
    if len(mine) != 1:
        fail("%s: no directory of the child %d beside %s" % (tag, child, out))
        return
    tc = load(tag + " (child)", mine[0], "forker", True, False, child)
    expect_phases(tag + " (child)", tc, "forker", {"child": 3, "childbar": 3, "before": 0,
                                                   "after": 0}, 2)


def t_fork_exec():
    """fork() then exec of an untraced program: the parent's archive is
    complete and the child leaves no directory behind."""
    tag = "fork-exec"
    out = fresh(tag)
    status, stdout, err, pid = run_plain([prog("forker"), "exec"], out)
    expect_status(tag, status, 0)
    if stdout != "parent before 8\nchild exec\nparent after 1008, child status 0\n":
        fail("%s: stdout %r" % (tag, stdout))
    expect_stderr_lines(tag, err)
    t = load(tag, out, "forker", True, False, pid)
    expect_phases(tag, t, "forker", {"before": 4, "after": 5, "child": 0}, 2)
    if siblings(out):
        fail("%s: directories left beside %s: %r" % (tag, out, siblings(out)))


# ---- full disks -------------------------------------------------------------------------


def mount_full(name, size):
    """A tmpfs of `size` at work/name, filled up. Returns (mount point,
    filler) or None when mounting is not allowed."""
    mnt = fresh(name)
    os.makedirs(mnt)
    filler, why = tmpdisk.mount_full(mnt, size)
    if not filler:
        print("SKIP: cannot mount a small tmpfs here: %s" % why)
        return None
    return mnt, filler


def t_disk_full():
    """The disk is full from start to end: the program runs to its normal
    end with its output intact; the tool says so in a few clear lines."""
    tag = "disk-full"
    m = mount_full(tag, "1m")
    if m is None:
        return SKIP
    mnt, _ = m
    try:
        cmd = [prog("victim"), "par1", "big", "par2"]
        status, stdout, err, _ = run_plain(cmd, os.path.join(mnt, "archive"),
                                           {"OMPTRACE_BUFFER_SIZE": "256K"}, tag=tag)
        ref = untraced(cmd)
        expect_status(tag, status, 0)
        if stdout != ref[1] or stdout != "done 48\n":
            fail("%s: stdout %r (untraced %r)" % (tag, stdout, ref[1]))
        expect_stderr_lines(tag, err, most=5)
        if not any("space" in l.lower() for l in err.splitlines()):
            fail("%s: no stderr line says the device is full: %r" % (tag, err))
    finally:
        subprocess.run(["umount", mnt])
    return 0


GAP_EFFECTS = (r"is not '<construct> @ <file>:<line>'|ThreadJoin without ThreadFork|"
               r"fork of \d+ threads, but the next team has members")


def t_disk_freed():
    """The disk is full during the first phase (many records, a 256K buffer:
    records must be dropped) and freed before the second: the program's
    output is intact, the second phase is complete in the archive, and
    every gap is marked by MeasurementOnOff OFF/ON with OFF carrying
    omptrace::lost_records, which sum to the count the tool reports."""
    tag = "disk-freed"
    m = mount_full(tag, "16m")
    if m is None:
        return SKIP
    mnt, filler = m
    try:
        out = os.path.join(mnt, "archive")
        p = Proc([prog("victim"), "big", "wait", "par2"], out, {"OMPTRACE_BUFFER_SIZE": "256K"},
                 tag=tag)
        p.line("reached 1")
        os.remove(filler)
        p.go()
        expect_status(tag, p.finish(), 0)
        if p.stdout != "reached 1\ndone 24\n":
            fail("%s: stdout %r" % (tag, p.stdout))
        err = p.stderr()
        expect_stderr_lines(tag, err)
        # The end-of-run total (the flusher's "resumed; N records were
        # lost" lines say it on the way).
        said = [int(x) for x in re.findall(
            r"(\d+) records were lost while the log could not be written", err)]
        if not said or 0 in said:
            fail("%s: no stderr line says how many records were lost: %r" % (tag, err))
        # Where records were dropped, what they held is missing: a master's
        # fork (the workers' regions then have no source address, its join
        # no fork) or a worker's part of a team.
        t = load(tag, out, "victim", False, False, p.pid, excuse=GAP_EFFECTS)
        expect_phases(tag, t, "victim", {"par2": PHASE, "bar2": PHASE}, THREADS)
        mk = archive.markers(source("victim"))
        bigs = sum(t.enter_count("parallel", mk["big"], l) for l in t.locs)
        if bigs >= BIG * THREADS:
            fail("%s: all %d big regions are in the archive: nothing was lost" % (tag, bigs))
        offs, ons, lost = collections.Counter(), collections.Counter(), []
        for l in t.locs:
            for e in t.events[l]:
                if type(e).__name__ != "MeasurementOnOff":
                    continue
                if e.measurement_mode == otf2.MeasurementMode.ON:
                    ons[l] += 1
                    continue
                offs[l] += 1
                values = {a.name: v for a, v in (e.attributes or {}).items()}
                if LOST_ATTR not in values:
                    fail("%s: an OFF on location %d has no %s" % (tag, l, LOST_ATTR))
                lost.append(values.get(LOST_ATTR, 0))
        if not offs or offs != ons:
            fail("%s: every gap needs one OFF and one ON: OFF %r, ON %r" % (
                tag, dict(offs), dict(ons)))
        if said and sum(lost) != sum(said):
            fail("%s: the OFF records count %d lost records (%r), stderr says %d" % (
                tag, sum(lost), lost, sum(said)))
    except Abort:
        pass
    finally:
        subprocess.run(["umount", mnt])
    return 0


# ---- scale ----------------------------------------------------------------------------


# roots.c: ROOTS pthreads loop over parallel regions of TEAM threads; main
# returns once each finished READY of them (WORK: the region body's
# iterations, about 25 ms). Teams of one: a worker waiting in a barrier when
# libomp tears down is libomp's own race, which fires without any tool too
# (tests/faults/progs/roots.c), so it stays out of the verdict.
ROOTS, READY, WORK, TEAM, ROOT_RUNS = 2, 5, 10000000, 1, 20
# A pthread's region cut by the exit: a worker's implicit task had not begun
# when recording stopped (t_exit_roots checks it is the last fork).
CUT_TEAM = r"location (\d+) event \d+ \(ThreadFork\): fork of %d threads, but the next team " \
    r"has members \[\1\]$" % TEAM


def t_exit_roots():
    """main returns while the program's own pthreads are still running
    parallel regions, ROOT_RUNS times: libomp 14 tears its tables down
    under them at exit, and the tool's finalize used to run after that
    (an assertion in kmp_runtime.cpp or SIGSEGV), so the longer the
    archive took, the likelier the abort; a test-only pause of 100 ms in
    the archive's writing stands for a large trace. Every
    run must exit 0 with an archive: the initial thread's one region, and
    on each pthread's location at least READY regions forked and joined
    (it recorded until the archive was begun; its open region closed at
    its last record), no omptrace::stopped marker."""
    if A.sanitized:  # 2 of 140 runs aborted under ASan, 0 of 100 without the tool
        print("skipped: in a sanitizer build the instrumented exit work of the libraries that "
              "follow libomp's teardown lengthens libomp's own race at exit")
        return SKIP
    tag = "exit-roots"
    args = [prog("roots"), str(ROOTS), str(READY), str(WORK), str(TEAM)]
    ref = untraced(args)
    if ref != (0, "ready 2\n"):
        fail("%s: untraced run: status and stdout %r" % (tag, ref))
        return
    m = archive.markers(source("roots"))
    aborted = []
    for run in range(ROOT_RUNS):
        rtag = "%s-%d" % (tag, run)
        out = fresh(rtag)
        status, stdout, err, pid = run_plain(args, out, {"OMPTRACE_TEST_FINALIZE_DELAY_MS": "100"},
                                             tag=rtag)
        if status != 0 or stdout != "ready 2\n":
            aborted.append(status)
            fail("%s: exit status %r, stdout %r" % (rtag, status, stdout))
            continue
        expect_stderr_lines(rtag, err)
        try:  # the cut region's team may lack the worker (checked below)
            t = load(rtag, out, "roots", False, False, pid, excuse=CUT_TEAM)
        except Abort:
            continue
        forks = {l: t.kind_count("ThreadFork", l) for l in t.locs}
        joins = {l: t.kind_count("ThreadJoin", l) for l in t.locs}
        forking = sorted(l for l in t.locs if forks[l])
        if len(forking) != 1 + ROOTS or forking[0] != 0:
            fail("%s: locations forking teams %r, expected 0 and %d more" % (rtag, forking, ROOTS))
            continue
        if (forks[0], joins[0], t.enter_count("parallel", m["first"], 0)) != (1, 1, 1):
            fail("%s: initial thread: %d forks, %d joins, %d Enter(parallel @first); expected 1" % (
                rtag, forks[0], joins[0], t.enter_count("parallel", m["first"], 0)))
        for l in forking[1:]:
            evs = t.events[l]
            at = [i for i, e in enumerate(evs) if type(e).__name__ == "ThreadFork"]
            for n, i in enumerate(at):
                team = next((x.thread_team for x in evs[i + 1:]
                             if type(x).__name__ == "ThreadTeamBegin"), None)
                size = len(team.group.members) if team is not None else 0
                if size != TEAM and (n + 1 < len(at) or size > TEAM or forks[l] == joins[l]):
                    fail("%s: location %d: fork %d of %d has a team of %d (%d, or fewer for "
                         "the last one when it was not joined)" % (rtag, l, n + 1, len(at), size,
                                                                   TEAM))
            enters = t.enter_count("parallel", m["loop"], l)
            cut = forks[l] - joins[l]
            if joins[l] < READY or cut not in (0, 1) or enters not in (forks[l], forks[l] - cut):
                fail("%s: location %d: %d forks, %d joins, %d Enter(parallel @loop); expected at "
                     "least %d joined, at most one open, one Enter per fork (but the open one)" % (
                         rtag, l, forks[l], joins[l], enters, READY))
        for d in glob.glob(out + "*"):
            shutil.rmtree(d, ignore_errors=True)
    print("%s: %d of %d runs ended other than with status 0: %r" % (
        tag, len(aborted), ROOT_RUNS, aborted))


def t_threads256():
    """256 threads under a 5 GiB address-space limit (the issue's case: the
    program alone needs about 3 GiB, mostly thread stacks, and used to abort
    under the tool): the program and the tool fit; the archive has 256
    locations with every region. Finalize's OTF2 chunks stay within 4 MiB:
    each location's few events wait until its writer's turn at the end
    (finalize/evt_stage.c), where one writer open per location took 256
    chunks of 256 KiB at once. The 256 local definition files are one file
    and 255 hard links to it (finalize/local_defs.c): a file's creation
    costs an inode, about 270 us on this VM's ext4."""
    tag = "threads256"
    if A.sanitized:
        print("SKIP: a sanitizer's shadow memory does not fit an address-space limit")
        return SKIP
    out = fresh(tag)
    limit = 5 << 30
    status, stdout, err, pid = run_plain([prog("many")], out, {"OMPTRACE_VERBOSE": "1"},
                                         as_limit=limit)
    chunks = re.findall(r"OTF2 chunks ([\d.]+) MiB at most", err)
    if len(chunks) != 1 or float(chunks[0]) > 4:
        fail("%s: OTF2 chunks at most %r MiB, expected one figure <= 4" % (tag, chunks))
    ref = untraced([prog("many")], as_limit=limit)
    expect_status(tag, status, 0)
    if stdout != "many 768\n" or ref != (0, stdout):
        fail("%s: stdout %r, untraced %r" % (tag, stdout, ref))
    expect_stderr_lines(tag, err)
    t = load(tag, out, "many", True, False, pid)
    expect_phases(tag, t, "many", {"par": 3, "bar": 3}, 256)
    inodes = {os.stat(os.path.join(out, "traces", "%d.def" % i)).st_ino for i in range(256)}
    links = os.stat(os.path.join(out, "traces", "0.def")).st_nlink
    if len(inodes) != 1 or links != 256:
        fail("%s: local definition files: %d inodes, %d links to 0.def; expected 1 and 256" % (
            tag, len(inodes), links))


CASES = {
    "sigterm": lambda: t_signal("sigterm"), "sigint": lambda: t_signal("sigint"),
    "sighup": lambda: t_signal("sighup"), "sigquit": lambda: t_signal("sigquit"),
    "sigterm_finalize": lambda: t_signal_in_finalize("sigterm"),
    "sigint_finalize": lambda: t_signal_in_finalize("sigint"),
    "sighup_finalize": lambda: t_signal_in_finalize("sighup"),
    "sigquit_finalize": lambda: t_signal_in_finalize("sigquit"),
    "sigterm_finalize_closed": lambda: t_signal_in_finalize("sigterm", closed=True),
    "sigterm_shell": t_sigterm_shell, "sigterm_in_region": t_sigterm_in_region, "sigterm_ignored": t_sigterm_ignored,
    "own_handler_early": lambda: t_own_handler("early"),
    "own_handler_late": lambda: t_own_handler("late"),
    "abort": lambda: t_crash("abort"), "segv": lambda: t_crash("segv"),
    "bus": lambda: t_crash("bus"), "fpe": lambda: t_crash("fpe"), "ill": lambda: t_crash("ill"),
    "exit": lambda: t_crash("exit"), "quick_exit": lambda: t_crash("quick_exit"),
    "underscore_exit": lambda: t_left_log("_exit"), "sigkill": lambda: t_left_log("kill"),
    "recover_twice": t_recover_twice, "torn_frame": t_torn_frame,
    "torn_shared": t_torn_shared,
    "deadlock_kill": t_deadlock_kill, "snapshot": t_snapshot,
    "fork": t_fork, "fork_exec": t_fork_exec, "fork_sampled": t_fork_sampled,
    "disk_full": t_disk_full,
    **{"own_segv_" + c: (lambda c=c: t_own_segv(c)) for c in OWN_SEGV},
    "own_segv_fork": t_own_segv_fork, "disk_freed": t_disk_freed, "threads256": t_threads256,
    "exit_roots": t_exit_roots,
}


disk_loss.register(CASES)  # full disks counted exactly (tests/faults/disk_loss.py)


def main():
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--bin", required=True, help="directory of the fault_* programs")
    ap.add_argument("--src", required=True, help="directory of their sources")
    ap.add_argument("--work", required=True)
    ap.add_argument("--recover", required=True, help="the omptrace-recover executable")
    ap.add_argument("--sanitized", action="store_true", help="a sanitizer build")
    ap.add_argument("case", choices=sorted(CASES))
    A = ap.parse_args()
    os.makedirs(A.work, exist_ok=True)
    try:
        if CASES[A.case]() == SKIP:
            return SKIP
    except Abort:
        pass
    for p in problems:
        print("FAIL: " + p)
    print("%s: %s" % (A.case, "FAILED (%d problems)" % len(problems) if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
