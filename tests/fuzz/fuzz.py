#!/usr/bin/python3
"""Mutants of an archive recorded by the test, read by omptrace-summary
(text and json) and omptrace-convert (speedscope and chrome). Each run must
end by itself with status 0, or 1 and only lines starting with the tool's
name: a signal, a sanitizer report, any other status or a hang is a
failure. The mutants follow from the seed alone (flipped and set bytes,
record lengths pointing back, cut, zeroed, doubled or deleted files), so a
failing one is reproduced by its seed and number; the timeout only turns a
hang into a failure, it is no verdict on speed.

usage: fuzz.py SUMMARY CONVERT LIBOMPTRACE PROG WORKDIR [--count N] [--seed S]
  (by hand, for longer: --count 5000 --seed $RANDOM)"""
import argparse
import os
import random
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record  # noqa: E402

ap = argparse.ArgumentParser()
for a in ("summary", "convert", "lib", "prog", "work"):
    ap.add_argument(a)
ap.add_argument("--count", type=int, default=200)
ap.add_argument("--seed", type=int, default=26)
ap.add_argument("--timeout", type=float, default=60)
args = ap.parse_args()
SUPP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "summary", "lsan.supp")
ENV = dict(os.environ,
           ASAN_OPTIONS="exitcode=86:allocator_may_return_null=1:max_allocation_size_mb=512",
           LSAN_OPTIONS="print_suppressions=0:suppressions=" + SUPP,
           UBSAN_OPTIONS="exitcode=86:halt_on_error=1:print_stacktrace=1")

os.makedirs(args.work, exist_ok=True)
src = record.record(args.lib, args.prog, os.path.join(args.work, "src"))


def mutate(rng, d):
    """One deterministic damage to one file of d (mostly event files)."""
    tdir = os.path.join(d, "traces")
    evts = sorted(os.path.join(tdir, n) for n in os.listdir(tdir) if n.endswith(".evt"))
    others = [os.path.join(d, n) for n in ("traces.def", "traces.otf2")]
    files = [f for f in evts * 4 + others if os.path.exists(f)]
    if not files:
        return "nothing left"
    f = rng.choice(files)
    data = bytearray(open(f, "rb").read())
    op = rng.choice(["flip", "flip", "set", "back", "back", "cut", "zero", "double", "delete"])
    if op == "delete":
        os.remove(f)
        return "delete " + f
    pos = rng.randrange(len(data)) if data else 0
    if op == "flip":
        at = []
        for _ in range(rng.randint(1, 8)):
            at.append(rng.randrange(len(data)))
            data[at[-1]] ^= 1 << rng.randrange(8)
        pos = ",".join(map(str, at))
    elif op == "set":
        data[pos] = rng.randrange(256)
    elif op == "back":  # a long record length (0xff, then 8 bytes) that wraps around
        data[pos:pos + 9] = b"\xff" + struct.pack("<Q", (1 << 64) - rng.randint(1, 64))
    elif op == "cut":
        data = data[:pos]
    elif op == "zero":
        data[pos:pos + rng.randint(1, 64)] = bytes(min(64, len(data) - pos))
    elif op == "double":
        data = data + data
    open(f, "wb").write(bytes(data))
    return "%s %s at %s" % (op, os.path.relpath(f, d), pos)


RUNS = [("omptrace-summary", args.summary, []),
        ("omptrace-summary", args.summary, ["--format", "json"]),
        ("omptrace-convert", args.convert, ["--to", "speedscope"]),
        ("omptrace-convert", args.convert, ["--to", "chrome"])]
rng = random.Random(args.seed)
bad, status = 0, {0: 0, 1: 0}
case = os.path.join(args.work, "case")
for i in range(args.count):
    shutil.rmtree(case, ignore_errors=True)
    shutil.copytree(src, case)
    what = [mutate(rng, case) for _ in range(rng.randint(1, 2))]
    name, tool, extra = RUNS[i % len(RUNS)]
    out = ["-o", os.path.join(args.work, "out.json")] if name == "omptrace-convert" else []
    try:
        p = subprocess.run([tool] + extra + out + [case], capture_output=True, text=True,
                           errors="replace", env=ENV, timeout=args.timeout)
        # ASan's notice that it refused an allocation over max_allocation_size_mb
        # (the tool then gets NULL, as from a failing malloc) is not a finding.
        err = [x for x in p.stderr.strip().splitlines()
               if "WARNING: AddressSanitizer failed to allocate" not in x]
        if name == "omptrace-convert" and p.returncode == 0:  # its "wrote N events" line
            err = [x for x in err if not x.startswith("omptrace-convert: wrote ")]
        ok = p.returncode in (0, 1) and not any("Sanitizer" in x or "runtime error" in x
                                                  for x in err)
        if ok and p.returncode == 1:
            ok = err and all(x.startswith(name + ": ") for x in err)
        elif ok:
            ok = not err
        verdict = "exit %d\n%s" % (p.returncode, p.stderr[-2000:])
    except subprocess.TimeoutExpired:
        ok, verdict = False, "no end within %.0f s (a hang)" % args.timeout
    if ok:
        status[p.returncode] += 1
        continue
    bad += 1
    print("FAIL mutant %d (seed %d, %s %s) after %s: %s"
          % (i, args.seed, name, " ".join(extra), what, verdict))
    keep = os.path.join(args.work, "fail-%d" % i)
    shutil.rmtree(keep, ignore_errors=True)
    shutil.copytree(case, keep)
print("%d mutants (seed %d): %d read, %d refused with a message, %d failures"
      % (args.count, args.seed, status[0], status[1], bad))
sys.exit(1 if bad else 0)
