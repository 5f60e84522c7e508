#!/usr/bin/python3
"""The writer thread of finalize (recorder/finalize/evt_queue.c): the same
record log recovered with OMPTRACE_WRITER_THREAD=on (the events go through
the thread) and =off (the replay writes them itself) must give the same
archive, and an OTF2 error on the thread must stop the replay and fail the
archive with the usual line.

- cases: every replay case of replay_cases.py, both ways: `otf2-print -A`
  identical (but the random trace identifier), the same exit status;
- big: a synthetic log of two threads and 400 000 records (tasks, locks,
  barriers, dependences, lost records every few thousand: attribute lists
  cross the thread), hundreds of hand-offs: identical, and the verbose
  line says which way the events went;
- disk_full: a log whose archive does not fit a 1 MiB tmpfs: OTF2's first
  flush fails on the writer thread; recover exits 1 with one line naming the
  archive and the device, keeps the log, and the replay stopped early (the
  error reached it at a hand-off, not only at the end).

usage: writer_thread.py RECOVER WORKDIR cases|big|disk_full"""
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "unit"))
sys.path.insert(0, os.path.join(HERE, "..", "recorder"))
import replay_cases as C  # noqa: E402
from replay_tests import write_log  # noqa: E402
import tmpdisk  # noqa: E402
import otf2_print  # noqa: E402

SKIP = 77
PROBLEMS = []
THREADED = "finalize: events written by a second thread"
DIRECT = "finalize: events written by the replaying thread (OMPTRACE_WRITER_THREAD=off)"


def fail(msg):
    PROBLEMS.append(msg)


def recover(rcv, log_dir, out, mode):
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, OMPTRACE_WRITER_THREAD=mode)
    return subprocess.run([rcv, "--keep", "-v", "-o", out, log_dir], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=600)


def printed(out):
    # These logs have no CLOCK_REALTIME: the archive's date is taken at
    # each recovery.
    return [re.sub(r", Date: .*", "", l)
            for l in otf2_print.print_all(os.path.join(out, "traces.otf2"))]


def both_ways(rcv, log_dir, work, name, threaded_line):
    """Recovers log_dir on and off; the archives must print the same."""
    runs = {}
    for mode in ("on", "off"):
        out = os.path.join(work, "%s-%s" % (name, mode))
        p = recover(rcv, log_dir, out, mode)
        runs[mode] = (p, out)
        want = threaded_line if mode == "on" else DIRECT
        if "Sanitizer" in p.stderr:
            fail("%s, %s: sanitizer report: %s" % (name, mode, p.stderr))
        if want not in p.stderr:
            fail("%s, %s: no line %r in %r" % (name, mode, want, p.stderr))
    on, off = runs["on"], runs["off"]
    if on[0].returncode != off[0].returncode:
        fail("%s: exit %d with the thread, %d without" %
             (name, on[0].returncode, off[0].returncode))
    elif on[0].returncode == 0:
        a, b = printed(on[1]), printed(off[1])
        if a != b:
            diff = [(i, x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y][:3]
            fail("%s: otf2-print differs (%d and %d lines; first differences %r)" %
                 (name, len(a), len(b), diff))
        return len(a)
    return 0


def t_cases(rcv, work):
    n = 0
    for group, cases in C.GROUPS.items():
        for name, case in cases.items():
            d = os.path.join(work, "log", group + "." + name)
            shutil.rmtree(d, ignore_errors=True)
            write_log(d, case)
            # Tiny logs: "on" still uses the thread (auto would not).
            both_ways(rcv, d, work, group + "." + name, THREADED)
            n += 1
    print("writer thread: %d replay cases compared" % n)


def big_records(loc, iters, lost_every=0):
    """One location's records: a 2-thread region whose iterations create and
    run a task with a dependence, take a lock and a critical section and
    meet at a barrier; every lost_every iterations a LOST record."""
    pid = C.par(0, 1)
    ttype = C.INITIAL_T if loc == 0 else C.WORKER_T
    t = 1000 + loc
    recs = [(t, "THREAD_BEGIN", ttype, 0, 0, 0)]
    if loc == 0:
        recs += [(t + 1, "IMPLICIT_BEGIN", C.T_INITIAL, 1, 0, 0),
                 (t + 2, "PARALLEL_BEGIN", C.PROGRAM, 2, C.CP, pid)]
    recs.append((t + 3, "IMPLICIT_BEGIN", C.T_IMPLICIT, 2, pid, loc))
    t += 10
    implicit = C.task(loc, 0)
    for k in range(1, iters + 1):
        tid = C.task(loc, k)
        if lost_every and k % lost_every == 0:
            recs.append((t + 5, "LOST", 0, 7, t + 1, t + 4))
            t += 10
        recs += [C.create(t, tid), (t, "DEPENDENCE", 3, 0, 0x1000 + k, tid),
                 C.sched(t + 2, C.SWITCH, implicit, tid),
                 (t + 3, "MUTEX_ACQUIRE", C.M_LOCK, 0, C.LOCK, C.CP2),
                 (t + 4, "MUTEX_ACQUIRED", C.M_LOCK, 0, C.LOCK, C.CP2),
                 (t + 5, "MUTEX_RELEASED", C.M_LOCK, 0, C.LOCK, C.CP2),
                 C.sched(t + 6, C.COMPLETE, tid, implicit),
                 (t + 7, "MUTEX_ACQUIRE", C.M_CRITICAL, 0, C.LOCK + 8, C.CP),
                 (t + 8, "MUTEX_ACQUIRED", C.M_CRITICAL, 0, C.LOCK + 8, C.CP),
                 (t + 9, "MUTEX_RELEASED", C.M_CRITICAL, 0, C.LOCK + 8, C.CP),
                 (t + 10, "SYNC_BEGIN", C.BARRIER_EXPL, 0, C.CP, pid),
                 (t + 10, "SYNC_WAIT_BEGIN", C.BARRIER_EXPL, 0, C.CP, pid),
                 (t + 11 + loc, "SYNC_WAIT_END", C.BARRIER_EXPL, 0, C.CP, pid),
                 (t + 13, "SYNC_END", C.BARRIER_EXPL, 0, C.CP, pid)]
        t += 20
    recs.append((t, "IMPLICIT_END", C.T_IMPLICIT, 2, pid, loc))
    if loc == 0:
        recs += [(t + 2, "PARALLEL_END", C.PROGRAM, 0, C.CP, pid),
                 (t + 3, "IMPLICIT_END", C.T_INITIAL, 1, 0, 0)]
    recs.append((t + 4, "THREAD_END", 0, 0, 0, 0))
    return ttype, recs


def write_big_log(d, locs):
    """locs: {loc: (thread type, records)}; RECORDS frames of 65 536
    records, as the flusher writes chunks."""
    shutil.rmtree(d, ignore_errors=True)
    write_log(d, {"locs": locs}, program=b"/replay/big", pid=4243, tid_base=6000, per_frame=65536)


def t_big(rcv, work):
    d = os.path.join(work, "log", "big")
    write_big_log(d, {loc: big_records(loc, 14000, 3000) for loc in (0, 1)})
    lines = both_ways(rcv, d, work, "big", THREADED)
    # 2 x 14 000 iterations of 26 events at least: many batches.
    if lines < 2 * 14000 * 26:
        fail("big: only %d lines printed" % lines)
    print("big: %d lines of otf2-print compared" % lines)


def t_disk_full(rcv, work):
    """OTF2 keeps 2 MiB per location in memory: 700 000 iterations of a
    masked region (1.4 M events) make it flush during the replay."""
    d = os.path.join(work, "log", "disk_full")
    body = []
    for k in range(700000):
        body += [(2000 + 4 * k, "MASKED_BEGIN", 0, 0, C.CP2, 0),
                 (2002 + 4 * k, "MASKED_END", 0, 0, C.CP2, 0)]
    t1 = 2000 + 4 * 700000 + 10
    recs = ([(100, "THREAD_BEGIN", C.INITIAL_T, 0, 0, 0),
             (101, "IMPLICIT_BEGIN", C.T_INITIAL, 1, 0, 0)] + C.region(body, 1000, t1) +
            [(t1 + 5, "IMPLICIT_END", C.T_INITIAL, 1, 0, 0), (t1 + 6, "THREAD_END", 0, 0, 0, 0)])
    write_big_log(d, {0: (C.INITIAL_T, recs)})
    mnt = os.path.join(work, "full")
    shutil.rmtree(mnt, ignore_errors=True)
    os.makedirs(mnt)
    filler, why = tmpdisk.mount_full(mnt, "1m")
    if not filler:
        print("SKIP: cannot mount a small tmpfs here: %s" % why)
        return SKIP
    try:
        os.remove(filler)  # the archive's directories fit, its first flush does not
        out = os.path.join(mnt, "archive")
        p = recover(rcv, d, out, "on")
        sys.stdout.write(p.stderr)
        if p.returncode != 1:
            fail("disk_full: exit status %d, expected 1" % p.returncode)
        if THREADED not in p.stderr:
            fail("disk_full: the events were not written by the thread: %r" % p.stderr)
        errors = [l for l in p.stderr.splitlines()
                  if not re.match(r"omptrace: (finalize|replay|symbols|writer thread): ", l)]
        if len(errors) != 1 or not re.match(
                r"omptrace: cannot write archive %s: .*No space left on device" %
                re.escape(out), errors[0]):
            fail("disk_full: expected one line 'cannot write archive %s: ... No space left on "
                 "device', got %r" % (out, errors))
        m = re.search(r"replay: stopped by an OTF2 error after (\d+) of (\d+) records", p.stderr)
        if not m or int(m.group(1)) >= int(m.group(2)):
            fail("disk_full: the replay did not stop early at the writer's error: %r" % p.stderr)
        if not os.path.isdir(os.path.join(d, ".log")):
            fail("disk_full: the log is gone")
    finally:
        subprocess.run(["umount", mnt])
    return 0


def main(rcv, work, case):
    os.makedirs(work, exist_ok=True)
    rc = {"cases": t_cases, "big": t_big, "disk_full": t_disk_full}[case](rcv, work)
    for p in PROBLEMS:
        print("FAIL", p)
    if rc == SKIP and not PROBLEMS:
        return SKIP
    print("writer thread %s: %s" % (case, "FAILED" if PROBLEMS else "ok"))
    return 1 if PROBLEMS else 0


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[3] not in ("cases", "big", "disk_full"):
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
