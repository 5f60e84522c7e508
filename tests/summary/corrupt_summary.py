#!/usr/bin/python3
"""Truncates, flips bytes in, zeroes and deletes the files of real archives
(written by the test generator) many times; omptrace-summary must always end
with exit status 0 or 1 and never by a signal or a sanitizer report. With
status 1 it prints exactly one line to stderr, or one per damaged location.

usage: corrupt_summary.py SUMMARY GENERATOR WORKDIR [ROUNDS]"""
import os
import random
import shutil
import subprocess
import sys

SUMMARY, GEN, WORK = sys.argv[1:4]
ROUNDS = int(sys.argv[4]) if len(sys.argv) > 4 else 200
rng = random.Random(20261121)
# Under AddressSanitizer: a report exits with 86; huge allocations (a corrupt
# count) fail instead of being attempted; libotf2's own leaks on a failed open
# are suppressed.
SUPP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lsan.supp")
env = dict(os.environ,
           ASAN_OPTIONS="exitcode=86:allocator_may_return_null=1:max_allocation_size_mb=512",
           LSAN_OPTIONS="print_suppressions=0:suppressions=" + SUPP,
           UBSAN_OPTIONS="exitcode=86:halt_on_error=1:print_stacktrace=1")

os.makedirs(WORK, exist_ok=True)
sources = []
for scenario, args in [("imbalance", []), ("locks", []), ("tasks", []), ("counters", []),
                       ("samples", []), ("scorep", []), ("big", ["3000"])]:
    d = os.path.join(WORK, "src-" + scenario)
    shutil.rmtree(d, ignore_errors=True)
    subprocess.run([GEN, scenario, d] + args, check=True)
    sources.append(d)


def files(d):
    out = []
    for root, _, names in os.walk(d):
        out += [os.path.join(root, n) for n in names]
    return sorted(out)


def mutate(d):
    f = rng.choice(files(d))
    data = bytearray(open(f, "rb").read())
    op = rng.choice(["truncate", "flip", "flip", "zero", "delete", "garbage"])
    if op == "delete":
        os.remove(f)
        return "%s %s" % (op, f)
    if op == "truncate":
        data = data[:rng.randrange(len(data) + 1)]
    elif op == "flip" and data:
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif op == "zero" and data:
        a = rng.randrange(len(data))
        b = min(len(data), a + rng.randint(1, 64))
        data[a:b] = bytes(b - a)
    elif op == "garbage":
        pos = rng.randrange(len(data) + 1)
        data[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 32)))
    open(f, "wb").write(bytes(data))
    return "%s %s" % (op, f)


bad = 0
counts = {0: 0, 1: 0}
for i in range(ROUNDS):
    src = rng.choice(sources)
    d = os.path.join(WORK, "case")
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(src, d)
    what = [mutate(d) for _ in range(rng.randint(1, 3))]
    fmt = rng.choice(["text", "json", "csv"])
    p = subprocess.run([SUMMARY, "--format", fmt, "--threads", d], capture_output=True,
                       text=True, errors="replace", env=env, timeout=60)
    err = [x for x in p.stderr.strip().splitlines()
           if "AddressSanitizer failed to allocate" not in x]
    ok = p.returncode in (0, 1) and not any("Sanitizer" in x or "runtime error" in x for x in err)
    if ok and p.returncode == 1:
        # one line, or one per damaged location ("location I (NAME): G of W events read")
        ok = len(err) >= 1 and all(x.startswith("omptrace-summary: ") for x in err) and (
            len(err) == 1 or all(" events read: the archive is damaged" in x for x in err))
    if not ok:
        bad += 1
        print("FAIL round %d (%s): exit %d after %s\n%s" % (i, os.path.basename(src),
                                                          p.returncode, what, p.stderr[-3000:]))
        keep = os.path.join(WORK, "fail-%d" % i)
        shutil.rmtree(keep, ignore_errors=True)
        shutil.copytree(d, keep)
    else:
        counts[p.returncode] += 1
print("%d rounds: %d accepted, %d rejected with one message, %d failures"
      % (ROUNDS, counts[0], counts[1], bad))
sys.exit(1 if bad else 0)
