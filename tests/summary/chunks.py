#!/usr/bin/python3
"""Loop chunks of tests/summary/progs/chunks.c on 2 threads, exact from the
program's semantics, read back with the python3-otf2 bindings and from
omptrace-summary --format json, and from omptrace-convert --to chrome.

    chunks.py --lib LIB --prog PROG --summary SUMMARY --convert CONVERT --work DIR --construct C

C: dynamic (100 chunks of 10 tiling 0..999), guided (chunks tiling 0..999,
not growing), static10 (libomp reports each thread's first chunk only:
0+10 and 10+10), taskloop (10 chunks of 100, in tasks), distribute (2 of
500), throttled (50 instances of a dynamic,10 loop over 100 iterations with
OMPTRACE_THROTTLE=5,1s: each thread records the first 5, so the chunks of
those 5, each 0..90 five times, and none of the other 45), off (no
OMPTRACE_CHUNKS: none recorded), none (libomp 14 with
OMPTRACE_CHUNKS=on: one line, no chunks, the summary says so)."""
import argparse
import json
import os
import shutil
import subprocess
import sys

import otf2

N = 1000
fails = []


def expect(what, got, want):
    if got != want:
        fails.append("%s: got %r, want %r" % (what, got, want))


def run(o, construct, chunks, extra=None):
    out = os.path.join(o.work, "trace")
    shutil.rmtree(o.work, ignore_errors=True)
    os.makedirs(o.work)
    env = dict(os.environ, OMP_TOOL_LIBRARIES=o.lib, OMPTRACE_OUTPUT=out, OMPTRACE_QUIET="1")
    env.pop("OMPTRACE_CHUNKS", None)
    if chunks:
        env["OMPTRACE_CHUNKS"] = chunks
    env.update(extra or {})
    p = subprocess.run([o.prog, construct], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
    if p.returncode != 0:
        sys.exit("chunks: %s %s exited %d: %s" % (o.prog, construct, p.returncode, p.stderr))
    return out, p.stderr


def read_chunks(anchor):
    """Per location, in order: (kind, first, iterations, innermost open region)."""
    got = {}
    pending = {}
    stacks = {}
    with otf2.reader.open(os.path.join(anchor, "traces.otf2")) as r:
        for loc, ev in r.events:
            st = stacks.setdefault(loc._ref, [])
            name = type(ev).__name__
            if name == "Enter":
                st.append(ev.region.name)
            elif name == "Leave":
                if st and st[-1] == ev.region.name:
                    st.pop()
            elif name == "ParameterUnsignedInt":
                p = ev.parameter.name
                if not p.startswith("omp chunk("):
                    continue
                kind = p[len("omp chunk("):p.index(")")]
                if p.endswith(" first"):
                    pending[loc._ref] = ev.value
                else:
                    got.setdefault(loc._ref, []).append(
                        (kind, pending.pop(loc._ref), ev.value, st[-1] if st else None))
    return got


def tiles(chunks, size=None):
    """The chunks cover 0..N-1 once each (and all have `size` iterations)."""
    spans = sorted((c[1], c[2]) for c in chunks)
    at = 0
    for first, n in spans:
        if first != at or (size is not None and n != size):
            return False
        at += n
    return at == N


def summary(o, anchor):
    p = subprocess.run([o.summary, "--format", "json", "--top", "0", anchor],
                       stdout=subprocess.PIPE, universal_newlines=True, check=True)
    return json.loads(p.stdout).get("loops")


def main():
    ap = argparse.ArgumentParser()
    for a in ("--lib", "--prog", "--summary", "--convert", "--recover", "--work", "--construct"):
        ap.add_argument(a, required=True)
    o = ap.parse_args()
    c = o.construct
    if c == "none":
        out, err = run(o, "dynamic", "on", {"OMPTRACE_KEEP_LOG": "1"})
        lines = [l for l in err.splitlines() if "gives no loop chunks" in l]
        expect("lines saying the runtime gives no chunks", len(lines), 1)
        expect("chunks in the archive", sum(map(len, read_chunks(out).values())), 0)
        loops = summary(o, out)
        expect("summary loops status", loops and loops["status"],
               {"chunks": 0, "runtime_gives_chunks": "no"})
        # omptrace-recover, which has no OMPTRACE_CHUNKS of its own, says the same
        # from the log
        rec = os.path.join(o.work, "recovered")
        env = {k: v for k, v in os.environ.items() if not k.startswith("OMPTRACE_")}
        p = subprocess.run([o.recover, "-q", "-o", rec, out], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
        expect("omptrace-recover exit status", (p.returncode, p.stderr), (0, ""))
        loops = summary(o, rec)
        expect("recovered: summary loops status", loops and loops["status"],
               {"chunks": 0, "runtime_gives_chunks": "no"})
        _, err = run(o, "dynamic", "auto")
        expect("auto: lines on stderr", [l for l in err.splitlines() if "chunks" in l], [])
    elif c == "throttled":
        out, _ = run(o, "repeated", "on", {"OMPTRACE_THROTTLE": "5,1s"})
        allc = [x for v in read_chunks(out).values() for x in v]
        expect("chunks of the 5 recorded instances", sorted((x[1], x[2]) for x in allc),
               sorted((f, 10) for f in range(0, 100, 10) for _ in range(5)))
        expect("chunks outside their loop", [x for x in allc if not x[3].startswith("loop @")], [])
        loops = summary(o, out)
        expect("summary chunks", sum(r["chunks"] for r in loops["chunks"]) if loops else None, 50)
    elif c == "off":
        out, _ = run(o, "dynamic", None)
        expect("chunks without OMPTRACE_CHUNKS", sum(map(len, read_chunks(out).values())), 0)
        expect("summary loops section", summary(o, out), None)
    else:
        out, _ = run(o, c, "on")
        per_loc = read_chunks(out)
        allc = [x for v in per_loc.values() for x in v]
        kind = {"taskloop": "taskloop", "distribute": "distribute"}.get(c, "loop")
        expect("kinds", sorted(set(x[0] for x in allc)), [kind])
        inside = "task" if c == "taskloop" else ("distribute" if c == "distribute" else "loop")
        expect("chunks outside their %s" % inside,
               [x for x in allc if not (x[3] or "").startswith(inside + " @ chunks.c:")], [])
        if c == "dynamic":
            expect("chunks", len(allc), 100)
            expect("tiling by 10", tiles(allc, 10), True)
        elif c == "guided":
            expect("tiling", tiles(allc), True)
            sizes = [n for _, n in sorted((x[1], x[2]) for x in allc)]
            expect("sizes not growing", sizes, sorted(sizes, reverse=True))
        elif c == "static10":
            expect("first chunks", sorted((x[1], x[2]) for x in allc), [(0, 10), (10, 10)])
            expect("one per thread", sorted(len(v) for v in per_loc.values()), [1, 1])
        elif c == "taskloop":
            expect("chunks", len(allc), 10)
            expect("tiling by 100", tiles(allc, 100), True)
        elif c == "distribute":
            expect("chunks", len(allc), 2)
            expect("tiling by 500", tiles(allc, 500), True)
        loops = summary(o, out)
        expect("summary status", loops and loops["status"],
               {"chunks": len(allc), "runtime_gives_chunks": "yes"})
        rows = loops["chunks"] if loops else []
        expect("summary chunks", sum(r["chunks"] for r in rows), len(allc))
        expect("summary iterations", sum(r["iterations"] for r in rows),
               sum(x[2] for x in allc))
        by_thread = {}
        for loc, v in per_loc.items():
            by_thread[loc] = (len(v), sum(x[2] for x in v))
        expect("summary per thread",
               {r["thread"]: (r["chunks"], r["iterations"]) for r in rows if r["chunks"]},
               {k: v for k, v in by_thread.items() if v[0]})
        p = subprocess.run([o.convert, out, "--to", "chrome"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, universal_newlines=True, check=True)
        shown = [e for e in json.loads(p.stdout)["traceEvents"] if e.get("cat") == "chunk"]
        expect("convert: chunk events (thread, first, iterations)",
               sorted((e["tid"], e["args"]["first"], e["args"]["iterations"]) for e in shown),
               sorted((loc, x[1], x[2]) for loc, v in per_loc.items() for x in v))
        if c in ("dynamic", "guided", "static10"):
            expect("entries (both threads, once)", sorted(r["entries"] for r in rows), [1, 1])
            expect("a thread finished first", min(r["finish_after_first_ns"] for r in rows), 0)
    for f in fails:
        print("FAIL", f)
    print("%s: %d failures" % (c, len(fails)))
    return 1 if fails else 0


sys.exit(main())
