#!/usr/bin/python3
"""The flusher's scheduling (recorder/log/flusher.c) on progs/flush_policy.c
(5 regions of 2 threads, each with one loop):
  policy      the thread omptrace-flush at SCHED_IDLE and omptrace-guard at
              SCHED_OTHER (sched_getscheduler on their tids), one of each;
              the archive holds the 5 regions and loops of each thread
  nocap       without CAP_SYS_NICE and with RLIMIT_NICE 0 (as most users run):
              the flusher stays at SCHED_OTHER, with one verbose line
  nointerval  OMPTRACE_FLUSH_INTERVAL=off: the flusher at SCHED_IDLE, no guard
  bound       OMPTRACE_TEST_FLUSH_BUSY=1 (the flusher makes no periodic pass,
              as when it is starved), OMPTRACE_FLUSH_INTERVAL=50ms: the guard
              writes them, so the log of the waiting program comes to hold
              every region (omptrace-recover probes), and after SIGKILL the
              recovered archive has exactly the 5 regions and loops of each
              thread
  kick        OMPTRACE_TEST_FLUSH_BUSY=2 (nor does it take up kicks),
              OMPTRACE_FLUSH_INTERVAL=off (no guard), OMPTRACE_BUFFER_SIZE=256K,
              20 000 regions: the threads waiting for a chunk write the log
              themselves, so the run ends, with at least one such pass, no
              record lost, and 20 000 regions and loops of each thread

usage: flush_policy.py --lib L --prog P --src FILE --recover R --work DIR CASE"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import archive  # noqa: E402

A = None
FAILED = []
REGIONS = 5
PROBE_LIMIT_S = 240  # a hung program fails the test instead of hanging it


def fail(msg):
    FAILED.append(msg)


def expect(what, got, want):
    if got != want:
        fail("%s: expected %r, got %r" % (what, want, got))


def env(extra):
    e = {k: v for k, v in os.environ.items() if not k.startswith("OMPTRACE_")}
    e.update(OMP_TOOL_LIBRARIES=A.lib, OMPTRACE_OUTPUT=os.path.join(A.work, "trace"),
             OMP_NUM_THREADS="2", OMP_WAIT_POLICY="passive")
    e.update(extra)
    return e


def regions(anchor):
    t = archive.Trace(anchor)
    m = archive.markers(A.src)
    return [t.multiset(t.per_loc(lambda l, c=c: t.enter_count(c, m[k], l)))
            for c, k in (("parallel", "par"), ("loop", "for"))]


def run_policy(extra, want, mode="policy", n=REGIONS, prefix=()):
    p = subprocess.run(list(prefix) + [A.prog, mode], env=env(extra), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=250)
    expect("exit status (stderr: %s)" % p.stderr.strip(), p.returncode, 0)
    got = sorted(tuple(l.split()[1:3]) for l in p.stdout.splitlines() if l.startswith("thread "))
    expect("the tool's threads and their policies (SCHED_OTHER 0, SCHED_IDLE 5)", got,
           sorted(want))
    anchor = os.path.join(A.work, "trace", "traces.otf2")
    expect("regions and loops per thread", regions(anchor), [[n] * 2, [n] * 2])
    return p


def case_bound():
    d = os.path.join(A.work, "trace")
    p = subprocess.Popen([A.prog, "wait"], env=env({"OMPTRACE_TEST_FLUSH_BUSY": "1",
                                                    "OMPTRACE_FLUSH_INTERVAL": "50ms"}),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    try:
        expect("first line", p.stdout.readline().split()[:2], ["ready", str(REGIONS)])
        start, n, seen = time.monotonic(), 0, False
        while not seen and time.monotonic() - start < PROBE_LIMIT_S:
            n += 1
            out = os.path.join(A.work, "probe%d" % n)
            r = subprocess.run([A.recover, "-q", "-o", out, d], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True, timeout=250)
            try:
                seen = r.returncode == 0 and regions(os.path.join(out, "traces.otf2"))[0] == \
                    [REGIONS] * 2
            except Exception:  # not there yet
                seen = False
            shutil.rmtree(out, ignore_errors=True)
            if not seen:
                time.sleep(0.05)
        if not seen:
            fail("the log never held the %d regions of each thread (no pass by the guard?)"
                 % REGIONS)
            return
    finally:
        p.send_signal(signal.SIGKILL)
        p.communicate(timeout=60)
    out = os.path.join(A.work, "recovered")
    r = subprocess.run([A.recover, "-q", "-o", out, d], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=250)
    expect("omptrace-recover status (%s)" % r.stderr.strip(), r.returncode, 0)
    expect("recovered regions and loops per thread", regions(os.path.join(out, "traces.otf2")),
           [[REGIONS] * 2, [REGIONS] * 2])


def case_kick():
    p = run_policy({"OMPTRACE_TEST_FLUSH_BUSY": "2", "OMPTRACE_FLUSH_INTERVAL": "off",
                    "OMPTRACE_BUFFER_SIZE": "256K", "OMPTRACE_VERBOSE": "1"},
                   [("omptrace-flush", "policy=5")], "many", 4000 * REGIONS)
    m = re.findall(r"^omptrace: log: (\d+) passes written by recording threads", p.stderr, re.M)
    expect("lines counting the recording threads' passes", len(m), 1)
    if m and int(m[0]) < 1:
        fail("no pass written by a recording thread (%s)" % m[0])
    if "lost" in p.stderr:
        fail("records lost: %s" % [l for l in p.stderr.splitlines() if "lost" in l])


def main():
    global A
    ap = argparse.ArgumentParser()
    for a in ("--lib", "--prog", "--src", "--recover", "--work"):
        ap.add_argument(a, required=True)
    ap.add_argument("case", choices=("policy", "nocap", "nointerval", "bound", "kick"))
    A = ap.parse_args()
    shutil.rmtree(A.work, ignore_errors=True)
    os.makedirs(A.work)
    flush, guard = ("omptrace-flush", "policy=5"), ("omptrace-guard", "policy=0")
    if A.case == "policy":
        run_policy({}, [flush, guard])
    elif A.case == "nocap":
        if os.geteuid() != 0 or not shutil.which("setpriv") or not shutil.which("prlimit"):
            print("skipped: needs root, setpriv and prlimit to drop CAP_SYS_NICE")
            sys.exit(77)
        # neither CAP_SYS_NICE nor RLIMIT_NICE >= 20: the guard could not
        # lift a starved flusher, so it stays at the program's priority
        p = run_policy({"OMPTRACE_VERBOSE": "1"}, [("omptrace-flush", "policy=0"), guard],
                       prefix=("prlimit", "--nice=0:0", "setpriv", "--inh-caps=-sys_nice",
                               "--bounding-set=-sys_nice"))
        expect("the verbose line", len(re.findall(r"^omptrace: log: the flusher stays at normal "
                                                  r"priority \(no CAP_SYS_NICE", p.stderr, re.M)), 1)
    elif A.case == "nointerval":
        run_policy({"OMPTRACE_FLUSH_INTERVAL": "off"}, [flush])
    elif A.case == "bound":
        case_bound()
    else:
        case_kick()
    for f in FAILED:
        print("FAIL: " + f)
    print("%s: %s" % (A.case, "FAILED" if FAILED else "ok"))
    sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()
