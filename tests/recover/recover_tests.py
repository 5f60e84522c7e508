#!/usr/bin/python3
"""omptrace-recover on logs of real traced programs that never finish: the
program is killed with SIGKILL (or is still running) and the archive comes
from its record log alone. Archives are read with python3-otf2 and
cross-checked with otf2-print (tests/recorder/archive.py, otf2_print.py);
counts are exact from the program's semantics. One case (ended) reads a
log written here by tests/unit/logwrite.py instead.

No verdict depends on speed: before a kill, the test waits (bounded only by
the test's timeout) until a probe recovery with -o of the still running
program shows everything the program did before its "ready" line; the
program records nothing after that line, so the killed run's log holds
exactly that.

Usage: recover_tests.py --lib L --recover R --summary S --launcher O
                        --bin DIR --src DIR --work DIR CASE"""

import argparse
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "recorder"))
sys.path.insert(0, os.path.join(HERE, "..", "unit"))
import archive  # noqa: E402
import otf2  # noqa: E402
import invariants  # noqa: E402
import otf2_print  # noqa: E402
from logwrite import META, CLOCK, THREAD, RECORDS, frame, encode, rec_types  # noqa: E402

REGIONS = 5  # progs/regions.c
PROBE_LIMIT_S = 240  # a hung program fails the test instead of hanging it

A = None
problems = []


def fail(msg):
    problems.append(msg)


def eq(got, want, what):
    if got != want:
        fail("%s: expected %r, got %r" % (what, want, got))


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=300, **kw)


def traced(prog, args, out, extra=None):
    """Starts prog under omptrace writing to out; returns (process, first
    stdout line)."""
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, OMP_TOOL_LIBRARIES=A.lib, OMPTRACE_OUTPUT=out,
               OMPTRACE_FLUSH_INTERVAL="50ms", OMP_NUM_THREADS="2", OMP_WAIT_POLICY="passive")
    env.update(extra or {})
    p = subprocess.Popen([os.path.join(A.bin, prog)] + args, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, universal_newlines=True)
    return p, p.stdout.readline()


def kill(p):
    p.send_signal(signal.SIGKILL)
    _, err = p.communicate(timeout=60)
    return err


def probe_until(d, ok, where=False):
    """Recovers the live log of d into fresh -o directories until ok(outdir)
    holds; the run's log keeps growing meanwhile."""
    start = time.monotonic()
    n = 0
    while True:
        n += 1
        out = "%s-probe%d" % (d, n)
        shutil.rmtree(out, ignore_errors=True)
        cmd = [A.recover, "-q", "-o", out] + (["--where"] if where else []) + [d]
        r = run(cmd)
        good = r.returncode == 0 and ok(out)
        shutil.rmtree(out, ignore_errors=True)
        if good:
            return True
        if time.monotonic() - start > PROBE_LIMIT_S:
            fail("the log of %s never showed the expected state (last probe: %s)"
                 % (d, (r.stderr or r.stdout).strip()))
            return False
        time.sleep(0.05)


def parallel_enters(anchor, line):
    t = archive.Trace(anchor)
    return t.multiset(t.per_loc(lambda l: t.enter_count("parallel", line, l)))


def regions_flushed(out, n=REGIONS):
    try:
        return parallel_enters(os.path.join(out, "traces.otf2"), M["par"]) == [n, n]
    except Exception:  # a probe archive the reader rejects: not there yet
        return False


def killed_regions(d, extra=None):
    """The regions program, killed after its REGIONS regions are in the log."""
    p, line = traced("rcv_regions", [], d, extra)
    eq(line.split()[:2], ["ready", str(REGIONS)], "regions program's first line")
    probe_until(d, regions_flushed)
    kill(p)


def check_regions_archive(anchor):
    """Exact counts of what the program completed before its "ready" line."""
    t = archive.Trace(anchor)
    invariants.check_generic(t, complete=False)
    otf2_print.check_with_otf2_print(t)
    t.expect_enters("parallel", M["par"], each=[REGIONS, REGIONS], loc0=REGIONS)
    t.expect_enters("loop", M["for"], each=[REGIONS, REGIONS], loc0=REGIONS)
    t.expect_kind("ThreadFork", loc0=REGIONS, total=REGIONS)
    t.expect_kind("ThreadJoin", loc0=REGIONS, total=REGIONS)
    for f in t.failures:
        fail("%s: %s" % (anchor, f))
    return t


def recovered_line(d, early, n, lost=0, damaged=0):
    return "recovered %s: %d of %d threads ended early, %d records lost, %d thread log%s " \
        "ended in a damaged frame\n" % (d, early, n, lost, damaged, "" if damaged == 1 else "s")


def case_killed():
    """SIGKILL, then `omptrace recover DIR` (the launcher): the archive, the
    exit lines, the log removed; a second run has nothing to do."""
    d = os.path.join(A.work, "killed")
    killed_regions(d)
    r = run([A.launcher, "recover", d])
    eq(r.returncode, 0, "omptrace recover exit status (stderr %r)" % r.stderr)
    eq(r.stdout, recovered_line(d, 2, 2), "recover's report line")
    if not re.search(r"^omptrace: wrote %s/traces\.otf2: 2 threads, \d+ events" % re.escape(d),
                     r.stderr, re.M):
        fail("no exit line 'omptrace: wrote %s/traces.otf2: ...' in %r" % (d, r.stderr))
    eq(os.path.exists(os.path.join(d, ".log")), False, "record log removed")
    check_regions_archive(os.path.join(d, "traces.otf2"))
    r = run([A.recover, d])
    eq((r.returncode, r.stdout, r.stderr),
       (0, "nothing to recover: %s already holds an archive\n" % d, ""), "second recovery")


def case_cut():
    """--cut RAW (a snapshot's instant): the regions program prints the
    CLOCK_MONOTONIC time (the raw clock with OMPTRACE_CLOCK=monotonic) after
    REGIONS of its 2 x REGIONS regions; recovered with --cut there, the
    archive holds exactly the first REGIONS on both threads, names every
    region by its source line and passes otf2-print; without it, all of
    them. A value that is not a raw time is refused in one line."""
    d = os.path.join(A.work, "cut")
    p, line = traced("rcv_regions", ["cut"], d, {"OMPTRACE_CLOCK": "monotonic"})
    eq(line.split()[:1], ["cut"], "regions program's first line")
    cut = line.split()[1] if len(line.split()) == 2 else "1"
    eq(p.stdout.readline().split()[:2], ["ready", str(2 * REGIONS)], "its second line")
    probe_until(d, lambda out: regions_flushed(out, 2 * REGIONS))
    kill(p)
    out = d + "-cut"
    shutil.rmtree(out, ignore_errors=True)
    r = run([A.recover, "-q", "--cut", cut, "-o", out, d])
    eq((r.returncode, r.stderr), (0, ""), "recover --cut exit status and stderr")
    check_regions_archive(os.path.join(out, "traces.otf2"))
    shutil.rmtree(out, ignore_errors=True)
    r = run([A.recover, "-q", "-o", out, d])
    eq(r.returncode, 0, "recover without --cut exit status")
    eq(parallel_enters(os.path.join(out, "traces.otf2"), M["par"]), [2 * REGIONS, 2 * REGIONS],
       "parallel regions per thread without --cut")
    for bad in ("soon", "-5", "0", "12x"):
        r = run([A.recover, "--cut", bad, "-o", out + "-bad", d])
        eq((r.returncode, r.stdout, r.stderr),
           (2, "", "omptrace-recover: --cut takes a raw clock time (a positive integer), "
            "not '%s'\n" % bad), "recover --cut %s" % bad)


def case_sampled_clock():
    """A run sampled on the wall clock (OMPTRACE_SAMPLING_CLOCK=wall), killed:
    omptrace-recover, whose own environment says nothing about sampling,
    names the interrupt generator after the run's clock, from its log."""
    d = os.path.join(A.work, "sampled_clock")
    killed_regions(d, {"OMPTRACE_SAMPLING": "1kHz", "OMPTRACE_SAMPLING_CLOCK": "wall"})
    env = {k: v for k, v in os.environ.items() if not k.startswith("OMPTRACE_")}
    r = run([A.recover, "-q", d], env=env)
    eq((r.returncode, r.stderr), (0, ""), "recover exit status and stderr")
    with otf2.reader.open(os.path.join(d, "traces.otf2")) as tr:
        names = sorted(g.name for g in tr.definitions.interrupt_generators)
    if not names:
        print("no interrupt generator (sampling not built): skipped")
        sys.exit(77)
    eq(names, ["wall-clock timer"], "interrupt generators of the recovered archive")


def otf2_events(anchor):
    r = run(["otf2-print", anchor])
    if r.returncode != 0:
        fail("otf2-print %s: %s" % (anchor, r.stderr.strip()))
    return r.stdout


def case_ended():
    """Which threads ended early, on a log written here: location 0 ends in
    THREAD_END, 1 stops before it, 2 has THREAD_END after a RECORDS frame
    that passes its CRC but does not decode (its records stop there, so it
    ended early). Without --where recovery takes each thread's last record
    from finalize's scan pass; --where reads the log in a pass of its own:
    both report the same."""
    T = rec_types()
    d = os.path.join(A.work, "ended")
    for x in (d, d + "-where"):
        shutil.rmtree(x, ignore_errors=True)
    log = os.path.join(d, ".log")
    os.makedirs(log)
    with open(os.path.join(log, "process"), "wb") as f:
        f.write(frame(META, 0, b"version=1\nprogram=/ended\npid=4242\nhost=nohost\n"
                               b"clock=monotonic\n"))
        f.write(frame(CLOCK, 1, struct.pack("<QQ", 1000, 1000)))
    begin = (1000, T["THREAD_BEGIN"], 2, 0, 0, 0, [])
    end = (5000, T["THREAD_END"], 0, 0, 0, 0, [])
    bad = struct.pack("<II", 1, 3) + bytes([0x41, 0x00, 0x00])  # a flags byte of 0
    streams = {0: [encode([begin, end])], 1: [encode([begin])],
               2: [encode([begin]), bad, encode([end])]}
    for loc, payloads in streams.items():
        with open(os.path.join(log, "%d.log" % loc), "wb") as f:
            f.write(frame(THREAD, 0, struct.pack("<IiiI", loc, 2, 5000 + loc, 0)))
            for i, pl in enumerate(payloads):
                f.write(frame(RECORDS, 1 + i, pl))
    want = recovered_line(d, 2, 3)
    r = run([A.recover, "--keep", d])
    eq((r.returncode, r.stdout), (0, want), "recover: report line")
    r = run([A.recover, "--where", "-o", d + "-where", d])
    eq(r.returncode, 0, "recover --where (stderr %r)" % r.stderr)
    eq(r.stdout.endswith(want), True, "recover --where: same report line (%r)" % r.stdout)


def case_keep():
    """--keep twice gives the same archive; the log stays."""
    d = os.path.join(A.work, "keep")
    killed_regions(d)
    prints = []
    for i in range(2):
        r = run([A.recover, "--keep", "-q", d])
        eq((r.returncode, r.stdout, r.stderr), (0, "", ""), "recover --keep -q run %d" % (i + 1))
        eq(os.path.isdir(os.path.join(d, ".log")), True, "log kept after run %d" % (i + 1))
        check_regions_archive(os.path.join(d, "traces.otf2"))
        prints.append(otf2_events(os.path.join(d, "traces.otf2")))
    eq(prints[0] == prints[1], True, "both recoveries give the same events (otf2-print)")


def case_outdir():
    """-o OUTDIR: the archive and where.txt go there, DIR keeps its log and
    gets no archive; an OUTDIR that holds an archive is refused."""
    d = os.path.join(A.work, "outdir")
    out = d + "-out"
    killed_regions(d)
    shutil.rmtree(out, ignore_errors=True)
    r = run([A.recover, "-o", out, "--where", d])
    eq(r.returncode, 0, "recover -o exit status (stderr %r)" % r.stderr)
    check_regions_archive(os.path.join(out, "traces.otf2"))
    eq(os.path.isdir(os.path.join(d, ".log")), True, "log kept with -o")
    eq(os.path.exists(os.path.join(d, "traces.otf2")), False, "no archive in DIR with -o")
    with open(os.path.join(out, "where.txt")) as f:
        where = f.read()
    eq(r.stdout.startswith(where), True, "where.txt is the report printed")
    eq(where.count("\nthread "), 2, "where.txt: one entry per thread")
    r = run([A.recover, "-o", out, d])
    eq((r.returncode, r.stderr),
       (1, "omptrace-recover: %s already holds an archive; choose another -o directory\n"
        % os.path.realpath(out)), "-o onto an archive")


def frames(path):
    """(offset, type, length, loc) of every frame header in a log file."""
    out = []
    with open(path, "rb") as f:
        data = f.read()
    off = 0
    while off + 24 <= len(data):
        magic, typ, _, _, length, _, _, loc = struct.unpack_from("<IBBHIIII", data, off)
        if magic != 0x474c544f:
            break
        out.append((off, typ, length, loc))
        off += 24 + length
    return out


def damaged_copy(d, kind, name, start, length):
    """A copy of run directory d whose log file `name` is cut at the frame
    at `start` (payload `length` bytes), torn 3 bytes before that frame's
    end, or has a flipped byte in its payload (kind cut, torn, corrupt)."""
    v = "%s-%s" % (d, kind)
    shutil.rmtree(v, ignore_errors=True)
    shutil.copytree(d, v)
    path = os.path.join(v, ".log", name)
    if kind == "cut":
        os.truncate(path, start)
    elif kind == "torn":
        os.truncate(path, start + 24 + length - 3)
    else:
        with open(path, "r+b") as f:
            f.seek(start + 24 + length // 2)
            b = f.read(1)
            f.seek(start + 24 + length // 2)
            f.write(bytes([b[0] ^ 0x5a]))
    return v


def damaged_archive(v, check=None):
    """The archive recovered into v, read by python3-otf2 (with `check` on
    the trace) and otf2-print: its printed events."""
    anchor = os.path.join(v, "traces.otf2")
    t = archive.Trace(anchor)
    otf2_print.check_with_otf2_print(t)
    if check:
        check(t)
    for f in t.failures:
        fail("%s: %s" % (anchor, f))
    return otf2_events(anchor)


def same_as_cut(variants, what):
    """The torn and the corrupt copy give the archive of the copy cut
    before that frame."""
    for kind in ("torn", "corrupt"):
        eq(variants[kind] == variants["cut"], True,
           "the %s %s gives the archive of the %s cut before that frame" % (kind, what, what))


def master_whole(t):
    """The worker's records from the damaged frame on are gone (teams lose
    a member), the master's are all there."""
    t.expect_enters("parallel", M["par"], loc0=REGIONS)
    t.expect_kind("ThreadFork", loc0=REGIONS, total=REGIONS)


def case_damaged():
    """A torn last frame and a corrupt byte in the worker's log: each reads
    as the log cut at the start of that frame (only validated frames
    count)."""
    d = os.path.join(A.work, "damaged")
    killed_regions(d, {"OMPTRACE_LOG_SHARED": "0"})  # the worker's frames all in 1.log
    logdir = os.path.join(d, ".log")
    victim = "1.log"  # the worker: the regions keep their names from the master's forks
    recs = [fr for fr in frames(os.path.join(logdir, victim)) if fr[1] == 17]  # RECORDS
    if not recs:
        fail("%s has no RECORDS frame" % victim)
        return
    start, _, length, _ = recs[-1]
    variants = {}
    for kind in ("cut", "torn", "corrupt"):
        v = damaged_copy(d, kind, victim, start, length)
        r = run([A.recover, "--keep", v])
        eq(r.returncode, 0, "recover of the %s log (stderr %r)" % (kind, r.stderr))
        eq(r.stdout, recovered_line(v, 2, 2, damaged=0 if kind == "cut" else 1),
           "report line of the %s log" % kind)
        variants[kind] = damaged_archive(v, master_whole)
    same_as_cut(variants, "log")


def case_damaged_shared():
    """Each thread writes its first 600 bytes of frames to the shared file,
    then to a file of its own. A torn or corrupt RECORDS frame in the shared
    file, or the file cut there, leaves a gap in the stream of every thread
    with frames from there on: such a thread ends at that frame (its own
    file, which would follow the gap, is left out, one line each); a corrupt
    shared file also counts every thread without a file of its own as
    damaged, a torn one the thread of the torn frame. The three variants give
    the same archive."""
    d = os.path.join(A.work, "damaged-shared")
    killed_regions(d, {"OMPTRACE_LOG_SHARED": "600"})
    logdir = os.path.join(d, ".log")
    own = {int(n[:-4]) for n in os.listdir(logdir) if n.endswith(".log")}
    hdrs = frames(os.path.join(logdir, "shared"))
    recs = [h for h in hdrs if h[1] == 17]  # RECORDS
    if len(recs) < 2:
        fail("the shared file has %d RECORDS frames" % len(recs))
        return
    start, _, length, torn_loc = recs[len(recs) // 2]
    after = {h[3] for h in hdrs if h[0] >= start}
    left = sorted("%d.log" % l for l in after & own)
    if not left:
        fail("no thread with a file of its own has frames in the shared file after byte %d "
             "(files of their own: %r)" % (start, sorted(own)))
    shared_only = {h[3] for h in hdrs} - own
    variants = {}
    for kind in ("cut", "torn", "corrupt"):
        v = damaged_copy(d, kind, "shared", start, length)
        r = run([A.recover, "--keep", v])
        eq(r.returncode, 0, "recover of the %s shared file (stderr %r)" % (kind, r.stderr))
        # A torn end cuts off only the thread whose frame it is.
        damaged = len(left) + {"cut": 0, "torn": int(torn_loc in shared_only),
                               "corrupt": len(shared_only)}[kind]
        eq(r.stdout, recovered_line(v, 2, 2, damaged=damaged),
           "report line of the %s shared file" % kind)
        said = sorted(re.findall(r"^omptrace: \S+/(\d+\.log) continues frames of thread \d+ "
                                 r"that the damaged shared lost", r.stderr, re.M))
        eq(said, left, "own files left out (%s)" % kind)
        variants[kind] = damaged_archive(v)
    same_as_cut(variants, "shared file")


def case_summary():
    """omptrace-summary on a log-only directory says to recover first; on
    the recovered archive it says recording stopped early."""
    d = os.path.join(A.work, "summary")
    killed_regions(d)
    want = "omptrace-summary: %s holds the record log of a run that did not finish: run " \
        "`omptrace recover %s` first\n" % (d, d)
    for path in (d, os.path.join(d, "traces.otf2")):
        r = run([A.summary, path])
        eq((r.returncode, r.stdout, r.stderr), (1, "", want), "summary of %s" % path)
    r = run([A.recover, "-q", d])
    eq(r.returncode, 0, "recover (stderr %r)" % r.stderr)
    r = run([A.summary, "--format", "json", d])
    eq(r.returncode, 0, "summary of the recovered archive (stderr %r)" % r.stderr)
    o = json.loads(r.stdout)["overview"]["run"] if r.returncode == 0 else {}
    eq(o.get("stopped_threads"), 2, "JSON overview.run.stopped_threads")
    r = run([A.summary, d])
    eq(r.stdout.count("(recording stopped early: "), 1, "text: the note 'recording stopped "
       "early' once")


def case_stopped_time():
    """A run killed while its initial thread hangs in serial code (a lock it
    holds itself) after a parallel region whose worker's records end at the
    join: the worker's stop lasts from the join to the run's end. The
    summary counts it neither as a gap nor as time in gaps (it said 'Time in
    gaps 2.27 s' with 0 gaps), but as stopped_ns: the union of the stops'
    OFF .. end intervals as the archive holds them, and left out of the
    measured time."""
    d = os.path.join(A.work, "stopped-time")
    p, line = traced("rcv_deadlock", ["serial"], d)
    eq(line, "deadlock\n", "deadlock program's first line")

    def both_in_log(out):
        """The hang, and the worker's records too: a pass writes the
        threads' files one after the other, and a kill between the two
        would leave the worker out of the log."""
        if not deadlocked(out):
            return False
        t = archive.Trace(os.path.join(out, "traces.otf2"))
        return sum(1 for l in t.locs if t.events[l]) == 2
    probe_until(d, both_in_log, where=True)
    kill(p)
    r = run([A.recover, "-q", d])
    eq(r.returncode, 0, "recover (stderr %r)" % r.stderr)
    anchor = os.path.join(d, "traces.otf2")
    t = archive.Trace(anchor)
    res = t.clock.timer_resolution
    times = [e.time for l in t.locs for e in t.events[l]]
    first, end = min(times), max(times)
    offs = [e.time for l in t.locs for e in t.events[l]
            if type(e).__name__ == "MeasurementOnOff"
            and e.measurement_mode == otf2.MeasurementMode.OFF
            and any(a.name == "omptrace::stopped" for a in (e.attributes or {}))]
    eq(len(offs), 2, "stopped OFFs in the archive")
    if not offs:
        return
    want = (end - min(offs)) * 10**9 // res  # the union of [off, end]
    eq(want > 0, True, "the worker's stop lasts (OFF at %d, end %d)" % (min(offs), end))
    r = run([A.summary, "--format", "json", d])
    eq(r.returncode, 0, "summary (stderr %r)" % r.stderr)
    o = json.loads(r.stdout)["overview"]["run"] if r.returncode == 0 else {}
    eq([o.get(k) for k in ("gaps", "lost_records", "lost_ns", "stopped_threads", "paused_ns")],
       [0, 0, 0, 2, 0], "JSON overview: gaps, lost_records, lost_ns, stopped_threads, paused_ns")
    eq(abs(o.get("stopped_ns", -10) - want) <= 1, True,
       "JSON stopped_ns %r vs the archive's stops %d ns" % (o.get("stopped_ns"), want))
    wall = (end - first) * 10**9 // res
    eq(abs(o.get("measured_ns", -10) - (wall - want)) <= 2, True,
       "JSON measured_ns %r = wall %d - stopped %d" % (o.get("measured_ns"), wall, want))
    r = run([A.summary, d])
    lines = [x.split() for x in r.stdout.splitlines()]
    eq([x[-2:] for x in lines if x[:3] == ["Time", "in", "gaps"]], [["0", "ns"]],
       "text: Time in gaps")
    eq("Records are missing" in r.stdout, False, "text: no finding of missing records")
    eq(r.stdout.count("from a thread's last record to the end of the run is left out"), 1,
       "text: the stop's time explained once")
    eq(r.stdout.count("'none (recording stopped)': no gap, the thread's records end there"), 1,
       "text: the gaps table's note says a stop is no gap")


def where_of(text):
    """Location -> list of its indented lines, and the deadlock lines."""
    locs, cur, dead = {}, None, []
    for line in text.splitlines():
        m = re.match(r"thread (\d+) ", line)
        if m:
            cur = int(m.group(1))
            locs[cur] = [line]
        elif line.startswith("  ") and cur is not None:
            locs[cur].append(line.strip())
        elif line.startswith("deadlock:"):
            dead.append(line)
    return locs, dead


def deadlocked(out):
    try:
        with open(os.path.join(out, "where.txt")) as f:
            return "\ndeadlock:" in f.read()
    except OSError:
        return False


def case_where(mode):
    """--where on a deadlocked program killed by SIGKILL: both waits, the
    locks they wait for, their holders and where they took them."""
    d = os.path.join(A.work, "where-" + mode)
    p, line = traced("rcv_deadlock", [mode], d)
    eq(line, "deadlock\n", "deadlock program's first line")
    probe_until(d, deadlocked, where=True)
    kill(p)
    r = run([A.recover, "--where", d])
    eq(r.returncode, 0, "recover --where (stderr %r)" % r.stderr)
    with open(os.path.join(d, "where.txt")) as f:
        eq(r.stdout.startswith(f.read()), True, "where.txt is the report printed")
    locs, dead = where_of(r.stdout)
    eq(sorted(locs), [0, 1], "where: locations")
    src = os.path.basename(A.src_deadlock)

    def at(marker):
        return "%s:%d" % (src, M[marker])

    # the archive's construct names (core/constructs.c)
    if mode == "locks":  # thread 0 = OpenMP thread 0 holds a, wants b
        wants = {0: ("omp_set_lock", "want_b", 1, "hold_b"),
                 1: ("omp_set_lock", "want_a", 0, "hold_a")}
        holds = {0: ("omp_set_lock", "hold_a"), 1: ("omp_set_lock", "hold_b")}
    else:
        wants = {0: ("critical", "crit_want", 1, "crit_hold"),
                 1: ("omp_set_lock", "crit_want_a", 0, "crit_hold_a")}
        holds = {0: ("omp_set_lock", "crit_hold_a"), 1: ("critical", "crit_hold")}
    ids = {}
    for loc in (0, 1):
        lines = locs.get(loc, [""])
        kind, want, holder, acq = wants[loc]
        eq("still running" in lines[0], True, "thread %d still running: %r" % (loc, lines[0]))
        w = re.match(r"waiting for lock (0x[0-9a-f]+) \((\w+) @ (\S+)\) since [\d.]+ s, held by "
                     r"thread (\d+) \(acquired @ (\S+) at [\d.]+ s\)$", lines[1] if len(lines) > 1
                     else "")
        if not w:
            fail("thread %d: innermost entry is not a wait with its holder: %r" % (loc, lines))
            continue
        ids[loc] = w.group(1)
        eq(w.groups()[1:], (kind, at(want), str(holder), at(acq)), "thread %d's wait" % loc)
        eq(any(re.match(r"implicit task %d of 2 in parallel @ %s since" % (loc, at("dpar")), x)
               for x in lines), True, "thread %d: its implicit task of the parallel region" % loc)
        hk, hm = holds[loc]
        eq(sum(1 for x in lines if re.match(r"holds %s 0x[0-9a-f]+ \(acquired @ %s at"
                                            % (hk, at(hm)), x)), 1, "thread %d holds" % loc)
    if len(ids) == 2:
        eq(dead, ["deadlock: thread 0 waits for lock %s held by thread 1; thread 1 waits for "
                  "lock %s held by thread 0; none of them can go on" % (ids[0], ids[1])],
           "the deadlock line")


def case_errors():
    """One line and status 1 for bad directories, 2 for bad usage; a
    directory holding only an archive has nothing to recover (status 0)."""
    base = os.path.join(A.work, "errors")
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(os.path.join(base, "empty"))
    os.makedirs(os.path.join(base, "done"))
    open(os.path.join(base, "done", "traces.otf2"), "w").close()
    open(os.path.join(base, "file"), "w").close()
    R = "omptrace-recover: "
    cases = [
        ([os.path.join(base, "missing")], 1, "",
         R + "%s/missing: No such file or directory\n" % base),
        ([os.path.join(base, "file")], 1, "", R + "%s/file: not a directory\n" % base),
        ([os.path.join(base, "empty")], 1, "",
         R + "%s/empty: no record log here (expected %s/empty/.log)\n" % (base, base)),
        ([os.path.join(base, "done")], 0,
         "nothing to recover: %s/done already holds an archive\n" % base, ""),
        ([], 2, "", R + "no DIR given (see omptrace-recover --help)\n"),
        (["--bogus", base], 2, "", R + "unknown option --bogus (see omptrace-recover --help)\n"),
        (["-o"], 2, "", R + "-o needs a value (see omptrace-recover --help)\n"),
        ([base, base], 2, "", R + "one DIR at a time (omptrace recover takes several) (see "
         "omptrace-recover --help)\n"),
    ]
    for args, status, out, err in cases:
        r = run([A.recover] + args)
        eq((r.returncode, r.stdout, r.stderr), (status, out, err), "omptrace-recover %r" % args)
    r = run([A.launcher, "recover"])
    eq((r.returncode, r.stderr), (2, "omptrace: recover needs a directory (omptrace recover "
                                     "DIR...)\n"), "omptrace recover without DIR")
    r = run([A.launcher, "recover", os.path.join(base, "done"), os.path.join(base, "empty")])
    eq(r.returncode, 1, "omptrace recover DIR DIR: the worst status")
    eq(r.stdout, "nothing to recover: %s/done already holds an archive\n" % base,
       "omptrace recover DIR DIR: each directory in turn")


def case_snapshot():
    """`omptrace snapshot PID` on a running traced program prints the new
    snapshot directory, which holds an archive of everything so far and
    where.txt; the program runs on. Recovering its log in place is refused
    while it runs."""
    d = os.path.join(A.work, "snapshot")
    p, line = traced("rcv_regions", [], d)
    eq(line.split()[:2], ["ready", str(REGIONS)], "regions program's first line")
    r = run([A.launcher, "snapshot", "--wait", "200", str(p.pid)])
    eq((r.returncode, r.stdout), (0, os.path.join(d, "snapshot-1") + "\n"),
       "omptrace snapshot (stderr %r)" % r.stderr)
    snap = os.path.join(d, "snapshot-1")
    if r.returncode == 0:
        # The snapshot flushes the log first: every region is in it.
        check_regions_archive(os.path.join(snap, "traces.otf2"))
        # Serial code after the regions: thread 0 in its initial task only,
        # the parked worker still in the last region's end barrier (libomp
        # reports its end at the next fork).
        with open(os.path.join(snap, "where.txt")) as f:
            locs, dead = where_of(f.read())
        eq([x.split(" since ")[0] for x in locs.get(0, [""])[1:]], ["initial task"],
           "where.txt: thread 0")
        eq([x.split(" since ")[0] for x in locs.get(1, [""])[1:]],
           ["implicit barrier wait @ regions.c:%d" % M["par"],
            "implicit barrier @ regions.c:%d" % M["par"],
            "implicit task 1 of 2 in parallel @ regions.c:%d" % M["par"]], "where.txt: thread 1")
        eq(dead, [], "where.txt: no deadlock")
    eq(p.poll(), None, "the program runs on after its snapshot")
    r = run([A.recover, d])
    eq((r.returncode, r.stdout, r.stderr),
       (1, "", "omptrace-recover: %s: the program writing this log (pid %d) is still running; "
        "use -o OUTDIR or `omptrace snapshot %d`\n" % (d, p.pid, p.pid)),
       "in-place recovery of a running program's log")
    kill(p)
    r = run([A.launcher, "snapshot", "0x1"])
    eq((r.returncode, r.stderr), (2, "omptrace: snapshot: '0x1' is not a process id\n"),
       "omptrace snapshot with a bad pid")
    r = run([A.launcher, "snapshot", str(os.getpid())])
    eq((r.returncode, r.stderr), (1, "omptrace: snapshot: process %d is not traced by omptrace "
                                     "(no record log open)\n" % os.getpid()),
       "omptrace snapshot of an untraced process")


def events_per_loc(anchor):
    t = archive.Trace(anchor)
    otf2_print.check_with_otf2_print(t)
    for f in t.failures:
        fail("%s: %s" % (anchor, f))
    return {l: len(t.events[l]) for l in t.locs}, t


def recover_damage(v, line, status=3):
    """omptrace-recover --keep on v: the damage's line first on stderr,
    then the library's exit line; the given exit status."""
    r = run([A.recover, "--keep", v])
    eq(r.returncode, status, "recover of %s: exit status (stderr %r)" % (v, r.stderr))
    err = r.stderr.splitlines()
    eq(err[:1], [line], "recover of %s: the line naming the damage" % v)
    return r, err[1:]


def case_damaged_files():
    """A thread's own log file deleted, emptied or replaced by the same
    file of another run (OMPTRACE_LOG_SHARED=0: each thread's frames are all
    in its own file): one line names the file and what is left out, exit
    status 3, and the archive holds exactly the other thread's events (as
    many as the intact log's archive has on that location)."""
    d = os.path.join(A.work, "damaged-files")
    other = d + "-other"
    killed_regions(d, {"OMPTRACE_LOG_SHARED": "0"})
    killed_regions(other, {"OMPTRACE_LOG_SHARED": "0"})
    ref = d + "-ref"
    shutil.rmtree(ref, ignore_errors=True)
    r = run([A.recover, "-q", "-o", ref, d])
    eq(r.returncode, 0, "recover of the intact log (stderr %r)" % r.stderr)
    want, _ = events_per_loc(os.path.join(ref, "traces.otf2"))
    eq(sorted(want), [0, 1], "locations of the intact log's archive")
    eq(all(want.get(l, 0) > 0 for l in (0, 1)), True, "both threads have events (%r)" % want)
    for kind, what in (("deleted", "is missing"), ("emptied", "is empty"),
                       ("swapped", "is from another run")):
        v = "%s-%s" % (d, kind)
        shutil.rmtree(v, ignore_errors=True)
        shutil.copytree(d, v)
        path = os.path.join(v, ".log", "1.log")
        if kind == "deleted":
            os.unlink(path)
        elif kind == "emptied":
            os.truncate(path, 0)
        else:
            shutil.copyfile(os.path.join(other, ".log", "1.log"), path)
        r, rest = recover_damage(v, "omptrace: %s %s: thread 1 is left out" % (path, what))
        eq(len(rest), 1, "%s: one exit line after the damage's (%r)" % (kind, rest))
        eq(r.stdout, recovered_line(v, 1, 1), "%s: report line" % kind)
        got, t = events_per_loc(os.path.join(v, "traces.otf2"))
        eq(got.get(0), want.get(0), "%s: thread 0's events" % kind)
        eq(sum(got.values()), want.get(0), "%s: events of all locations" % kind)
        t.expect_enters("parallel", M["par"], loc0=REGIONS)
        for f in t.failures:
            fail("%s: %s" % (kind, f))


def case_empty_shared():
    """The shared file emptied, or replaced by another run's, where every
    thread wrote only there: one line names it and how many threads are left
    out, one says no archive was written (none of 0 threads, which readers
    refuse), exit status 3."""
    d = os.path.join(A.work, "empty-shared")
    other = d + "-other"
    killed_regions(d)
    killed_regions(other)
    logdir = os.path.join(d, ".log")
    eq(sorted(n for n in os.listdir(logdir) if n.endswith(".log")), [],
       "no thread has a file of its own")
    for kind, what in (("emptied", "is empty: the 2 threads that wrote only there are left out"),
                       ("swapped", "holds frames of another run: 2 threads there are left out")):
        v = "%s-%s" % (d, kind)
        shutil.rmtree(v, ignore_errors=True)
        shutil.copytree(d, v)
        path = os.path.join(v, ".log", "shared")
        if kind == "emptied":
            os.truncate(path, 0)
        else:
            shutil.copyfile(os.path.join(other, ".log", "shared"), path)
        r, rest = recover_damage(v, "omptrace: %s %s" % (path, what))
        eq(rest, ["omptrace-recover: %s: the log holds no thread (see above); no archive "
                  "written" % v], "%s: the line after it" % kind)
        eq(r.stdout, "", "%s: no report line" % kind)
        no_archive(v)


def no_archive(d):
    eq(sorted(n for n in os.listdir(d) if n.startswith("traces")), [], "no archive in %s" % d)
    eq(os.path.isdir(os.path.join(d, ".log")), True, "the log of %s is kept" % d)


def case_early(how):
    """A run ended before its first flush (SIGKILL, or _exit; flushing off,
    as before the first OMPTRACE_FLUSH_INTERVAL): recovery says that nothing
    was flushed yet and why, in one line, exit status 0 (nothing to
    recover), and writes no archive (of 0 threads, which readers refuse)."""
    d = os.path.join(A.work, "early-" + how)
    p, line = traced("rcv_regions", ["exit"] if how == "exit" else [], d,
                     {"OMPTRACE_FLUSH_INTERVAL": "off"})
    eq(line.split()[:2], ["ready", str(REGIONS)], "regions program's first line")
    if how == "kill":
        kill(p)
    else:
        p.communicate(timeout=60)
        eq(p.returncode, 0, "the program's _exit status")
    r = run([A.recover, d])
    eq((r.returncode, r.stdout, r.stderr),
       (0, "", "omptrace-recover: %s: no thread's records were flushed to the log yet: the "
        "program ended (SIGKILL, _exit, a crash the tool could not handle) before its first "
        "flush, 10 ms after it started (none with OMPTRACE_FLUSH_INTERVAL=off); no archive "
        "written\n"
        % d), "recover")
    no_archive(d)


def case_one_clock():
    """A log whose only passes wrote full chunks (flushing off, 20000
    regions in 256K buffers) has one clock calibration point: recovery takes the second
    from this host's TSC, with no warning that "the TSC did not advance",
    and the archive spans no more time than the run took up to its "ready"
    line (counting ticks as nanoseconds would stretch it by the TSC's GHz)."""
    d = os.path.join(A.work, "one-clock")
    t0 = time.monotonic()
    p, line = traced("rcv_regions", ["many"], d, {"OMPTRACE_FLUSH_INTERVAL": "off",
                                                   "OMPTRACE_BUFFER_SIZE": "256K"})
    wall_ns = (time.monotonic() - t0) * 1e9  # it records nothing after this line
    eq(line.split()[:2], ["ready", str(4000 * REGIONS)], "regions program's first line")

    def some(out):
        try:
            return parallel_enters(os.path.join(out, "traces.otf2"), M["par"]) != []
        except Exception:
            return False

    probe_until(d, some)
    kill(p)
    r = run([A.recover, "-q", d])
    eq((r.returncode, r.stderr), (0, ""), "recover")
    anchor = os.path.join(d, "traces.otf2")
    t = archive.Trace(anchor)
    otf2_print.check_with_otf2_print(t)
    times = [e.time for l in t.locs for e in t.events[l]]
    span = (max(times) - min(times)) * 1e9 / t.clock.timer_resolution if times else 0
    eq(span <= wall_ns, True, "archive spans %.0f ns of a %.0f ns run" % (span, wall_ns))
    for f in t.failures:
        fail("%s: %s" % (anchor, f))


CASES = {"killed": case_killed, "keep": case_keep, "outdir": case_outdir,
         "damaged": case_damaged, "damaged_shared": case_damaged_shared,
         "summary": case_summary,
         "where_locks": lambda: case_where("locks"),
         "where_critical": lambda: case_where("critical"),
         "errors": case_errors, "snapshot": case_snapshot, "ended": case_ended,
         "damaged_files": case_damaged_files, "empty_shared": case_empty_shared,
         "early_kill": lambda: case_early("kill"), "early_exit": lambda: case_early("exit"),
         "one_clock": case_one_clock, "stopped_time": case_stopped_time, "cut": case_cut,
         "sampled_clock": case_sampled_clock}


def main():
    global A, M
    ap = argparse.ArgumentParser()
    for opt in ("lib", "recover", "summary", "launcher", "bin", "src", "work"):
        ap.add_argument("--" + opt, required=True)
    ap.add_argument("case", choices=sorted(CASES))
    A = ap.parse_args()
    A.work = os.path.abspath(A.work)
    os.makedirs(A.work, exist_ok=True)
    A.src_deadlock = os.path.join(A.src, "deadlock.c")
    M = dict(archive.markers(os.path.join(A.src, "regions.c")))
    M.update(archive.markers(A.src_deadlock))
    CASES[A.case]()
    for p in problems:
        print("FAIL:", p)
    print("%s: %s" % (A.case, "ok" if not problems else "%d problems" % len(problems)))
    return 1 if problems else 0


M = {}
if __name__ == "__main__":
    sys.exit(main())
