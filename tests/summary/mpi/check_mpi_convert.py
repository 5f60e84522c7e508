#!/usr/bin/python3
"""omptrace-convert on the MPI job archives of gen_mpi.c: Chrome output
checked by tests/convert/trace_rules.py (balanced slices, flows inside
slices), one process per rank in rank order, a message arrow from each send
record to its receive's record inside the MPI calls, arrows cut with
--begin, speedscope profiles named with the rank, and a warning line for a
receive without its send.

usage: check_mpi_convert.py CONVERT GEN_MPI WORKDIR"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "convert"))
from trace_rules import check_chrome  # noqa: E402

CONVERT, GEN_MPI, WORK = sys.argv[1:4]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def eq(got, want, what):
    check(got == want, "%s: got %r, want %r" % (what, got, want))


def archive(kind):
    d = os.path.join(WORK, kind)
    shutil.rmtree(d, ignore_errors=True)
    subprocess.run([GEN_MPI, d, kind], check=True)
    return d


def convert(src, to, *opts):
    out = os.path.join(WORK, "%s-%s%s.json" % (os.path.basename(src), to, "".join(opts)))
    p = subprocess.run([CONVERT, src, "--to", to, "-o", out] + list(opts), capture_output=True,
                       text=True, timeout=120)
    check(p.returncode == 0, "%s: exit %d: %s" % (out, p.returncode, p.stderr))
    return out, p.stderr


def enclosing(events, pid, tid, ts):
    """Name of the innermost B..E slice on (pid, tid) around ts."""
    stack, found = [], None
    for e in events:
        if (e.get("pid"), e.get("tid")) != (pid, tid) or e["ph"] not in "BE":
            continue
        if e["ts"] > ts and found is None:
            found = stack[-1] if stack else None
        if e["ph"] == "B":
            stack.append(e["name"])
        else:
            if e["ts"] >= ts and found is None:
                found = stack[-1]
            stack.pop()
    return found


# (send tid, ts, receive tid, ts) in µs: tid = 2 * rank + thread
MESSAGES = [(0, 130.0, 2, 140.0), (2, 151.0, 0, 161.0), (4, 121.0, 6, 126.0),
            (6, 150.0, 2, 175.0)]
ENDS = {(4, 121.0): "MPI_Isend", (6, 126.0): "MPI_Wait", (0, 130.0): "MPI_Send",
        (2, 140.0): "MPI_Recv", (2, 151.0): "MPI_Send", (0, 161.0): "MPI_Recv",
        (6, 150.0): "MPI_Send", (2, 175.0): "MPI_Recv"}

os.makedirs(WORK, exist_ok=True)
job = archive("job")
out, _ = convert(job, "chrome")
digest = check_chrome(out)
eq(sorted(f[1:] for f in digest["flows"] if f[0] == "message"), MESSAGES, "message arrows")
ev = json.load(open(out))["traceEvents"]
procs = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
order = {e["pid"]: e["args"]["sort_index"] for e in ev
         if e["ph"] == "M" and e["name"] == "process_sort_index"}
eq(sorted(procs.values()), ["rank 0", "rank 1", "rank 2", "rank 3"], "one process per rank")
eq(sorted((order[p], n) for p, n in procs.items()),
   [(r, "rank %d" % r) for r in range(4)], "processes in rank order")
eq(digest["threads"][5], "rank 2, OpenMP thread 1", "thread names with their rank")
# MPI calls are cat "mpi" (gen_mpi.c: 10 point-to-point calls, 4 MPI_Allreduce and 2
# MPI_Barrier), OpenMP regions keep their kind
cats = sorted(set((e["name"].startswith("MPI_"), e["cat"]) for e in ev if e["ph"] == "B"))
eq(cats, [(False, "implicit barrier"), (False, "parallel"), (True, "mpi")], "slice categories")
eq(sum(e["ph"] == "B" and e["cat"] == "mpi" for e in ev), 16, "MPI slices")
pid_of = {e["tid"]: e["pid"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
for (tid, ts), name in sorted(ENDS.items()):
    eq(enclosing(ev, pid_of[tid], tid, ts), name, "arrow end at %s us on %d" % (ts, tid))
# --begin 135us: only the arrows whose send is kept
out, _ = convert(job, "chrome", "--begin", "135us")
eq(sorted(f[1:] for f in check_chrome(out)["flows"] if f[0] == "message"),
   [(2, 151.0, 0, 161.0), (6, 150.0, 2, 175.0)], "arrows after --begin")
out, _ = convert(job, "speedscope")
names = [p["name"] for p in json.load(open(out))["profiles"]]
eq(names[:3], ["rank 0, OpenMP thread 0", "rank 0, OpenMP thread 1", "rank 1, OpenMP thread 0"],
   "speedscope profiles named with the rank")
bad = archive("nosend")
out, err = convert(bad, "chrome")
eq(len([f for f in check_chrome(out)["flows"] if f[0] == "message"]), 3, "nosend: arrows")
eq(err.splitlines()[0], "omptrace-convert: warning: %s/traces.otf2: 1 receive(s) from rank 1 to "
   "rank 0 (tag 5 on MPI_COMM_WORLD) have no matching send (no arrow for them)" % bad,
   "nosend: warning")
print("convert: %s" % ("%d failures" % len(failures) if failures else "ok"))
sys.exit(1 if failures else 0)
