#!/usr/bin/python3
"""The exit line's hint for a spin-wait with a flush per spin (finalize/hints.h)
and the throttling it suggests, on progs/flush_spin.c (2 threads, SPINS
flushes each at one site):
  hint       2 x 60 000 flushes under a hint bound of 1 s per flush
             (OMPTRACE_TEST_HINT_NS): one hint line naming the site, the count
             and its rate; the archive holds every flush
             (otf2-print); omptrace-recover prints the same hint from the log
  fewer      2 x 49 999: one flush short of the hint's 100 000, no hint
  slow       2 x 50 000 spaced at least 25 us apart on each thread: fewer than
             100 000 a second, no hint
  throttled  OMPTRACE_THROTTLE=1000,10us on the hint's run: no hint, exactly
             1 000 flushes written and 59 000 counted per thread

usage: flush_hint.py --lib L --prog P --src FILE --recover R --work DIR CASE"""

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import archive  # noqa: E402
import invariants  # noqa: E402
import otf2_print  # noqa: E402

A = None
FAILED = []
HINT = (r"^omptrace: hint: (\d+) flushes at flush @ flush_spin\.c:%d, (\d+) a second; "
        r"OMPTRACE_THROTTLE=1000,10us traces the first 1000 per thread and counts the rest "
        r"\(docs/control\.md\)$")


def fail(msg):
    FAILED.append(msg)


def expect(what, got, want):
    if got != want:
        fail("%s: expected %r, got %r" % (what, want, got))


def line():
    return archive.markers(A.src)["spin"]


def run(args, throttle=None, keep_log=False, hint_ns=None):
    shutil.rmtree(A.work, ignore_errors=True)
    os.makedirs(A.work)
    out = os.path.join(A.work, "trace")
    env = {k: v for k, v in os.environ.items() if not k.startswith("OMPTRACE_")}
    env.update(OMP_TOOL_LIBRARIES=A.lib, OMPTRACE_OUTPUT=out)
    if throttle:
        env["OMPTRACE_THROTTLE"] = throttle
    if keep_log:
        env["OMPTRACE_KEEP_LOG"] = "1"
    if hint_ns:
        env["OMPTRACE_TEST_HINT_NS"] = str(hint_ns)
    p = subprocess.run([A.prog] + [str(a) for a in args], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=250)
    sys.stdout.write("--- %r %s (exit %d) ---\n%s%s" % (args, throttle, p.returncode, p.stdout,
                                                          p.stderr))
    expect("exit status", p.returncode, 0)
    expect("program output", p.stdout, "flushes %d\n" % (2 * args[0]))
    return out, p.stderr


def hints(text):
    """(count, rate) of each flush hint line naming the spin site."""
    return [(int(m.group(1)), int(m.group(2)))
            for m in re.finditer(HINT % line(), text, re.M)]


def flush_enters(anchor):
    """Enter(flush @ spin) per location, from otf2-print's text (fast on
    hundreds of thousands of events)."""
    region = 'Region: "flush @ flush_spin.c:%d"' % line()
    counts = {}
    p = subprocess.Popen(["otf2-print", anchor], stdout=subprocess.PIPE, universal_newlines=True)
    for l in p.stdout:
        if l.startswith("ENTER ") and region in l:
            loc = int(l.split()[1])
            counts[loc] = counts.get(loc, 0) + 1
    expect("otf2-print exit status", p.wait(), 0)
    return [counts.get(loc, 0) for loc in sorted(set(counts) | {0, 1})]


def t_hint():
    # A bound of 1 s per flush, which every spin meets however loaded the
    # machine (the default 10 us is a constant: the "slow" case's 25 us
    # sleeps are over it whatever the speed).
    out, err = run([60000], keep_log=True, hint_ns=10 ** 9)
    got = hints(err)
    expect("hint lines (count)", [c for c, _ in got], [120000])
    if got and not got[0][1] > 0:
        fail("hint's rate %d a second is not above 0" % got[0][1])
    expect("hint lines in all", err.count("omptrace: hint:"), 1)
    expect("flushes written per thread", flush_enters(os.path.join(out, "traces.otf2")),
           [60000, 60000])
    r = subprocess.run([A.recover, "-o", os.path.join(A.work, "recovered"), out],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                       timeout=250, env=dict(os.environ, OMPTRACE_TEST_HINT_NS=str(10 ** 9)))
    sys.stdout.write("--- omptrace-recover (exit %d) ---\n%s" % (r.returncode, r.stdout))
    expect("omptrace-recover exit status", r.returncode, 0)
    expect("omptrace-recover's hint (count)", [c for c, _ in hints(r.stdout)], [120000])


def t_none(args):
    _out, err = run(args)
    expect("hint lines", hints(err), [])
    if "hint:" in err:
        fail("a hint line: %r" % err)


def t_throttled():
    out, err = run([60000], throttle="1000,10us")
    if "hint:" in err:
        fail("a hint line when throttled")
    t = archive.Trace(os.path.join(out, "traces.otf2"))
    invariants.check_generic(t)
    otf2_print.check_with_otf2_print(t)
    for f in t.failures:
        fail(f)
    expect("flushes written per thread", t.per_loc(lambda l: t.enter_count("flush", line(), l)),
           [1000, 1000])
    name = "flush @ flush_spin.c:%d" % line()
    counts = t.throttled()
    expect("throttled flushes per thread", [counts.get((name, l), 0) for l in t.locs],
           [59000, 59000])
    expect("throttled constructs", sorted(counts), [(name, 0), (name, 1)])


def main():
    global A
    ap = argparse.ArgumentParser()
    for a in ("--lib", "--prog", "--src", "--recover", "--work"):
        ap.add_argument(a, required=True)
    ap.add_argument("case", choices=["hint", "fewer", "slow", "throttled"])
    A = ap.parse_args()
    if A.case == "hint":
        t_hint()
    elif A.case == "fewer":
        t_none([49999])
    elif A.case == "slow":
        t_none([50000, 25])
    else:
        t_throttled()
    for f in FAILED:
        print("FAIL: " + f)
    print("flush_hint.%s: %s" % (A.case, "FAILED" if FAILED else "ok"))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
