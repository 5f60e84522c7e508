#!/usr/bin/python3
"""Where an MPI job's start and end go (docs/performance.md, "MPI_Init and
finalize"): each rank's MPI_Init* and its clock sync share, each rank's
finalize from MPI_Finalize's entry to its archive written (the clock sync
in MPI_Finalize, PMPI_Finalize, the way out to the tool's finalize, the last
flush of the record log, loading and writing the archive), the same rank's
log through omptrace-recover -o (alone, and all ranks' at once as their
finalizes run: recover_all; and the CPU time of the rank's finalize from
its last flush against that of omptrace-recover alone), and
omptrace-merge's time against the ranks' event bytes.

    bench/mpi_phases.py --build DIR [--before DIR] [--reps N] [--np N]
                        [--threads N] [--sizes I,I,...] [--busy N] [--keep]
                        [--args "EDGE LOOPS PHASES"]

Runs bench/mpi_halo.c (ot_mpi_halo, LULESH-like: halo exchanges with the
face neighbours, an allreduce and many short parallel loops per iteration)
under the launcher of DIR (and of the --before build DIR, interleaved),
with OMPTRACE_VERBOSE=1 (each rank prints its phases with CLOCK_MONOTONIC
times), OMPTRACE_KEEP_LOG=1 (the log omptrace-recover reads again) and
OMPTRACE_MERGE=0 (the merge is timed on its own). Each repetition runs one
job per iteration count of --sizes (the first is the one whose phases are
printed) and variant. --busy N keeps N busy loops running meanwhile. Prints
medians over the repetitions of the median rank and of the slowest rank (in
MPI_Init for the init rows, in finalize for the others: its own phases, which
add up), in milliseconds; no verdicts."""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TAG = re.compile(r"^\[\d+,(\d+)\]<std(?:out|err)>:\s?(.*)$")
LINES = {
    "init": re.compile(r"mpi: rank \d+: MPI_Init\w* ([\d.]+) s, clock sync ([\d.]+) s;.*?"
                       r"(?:, tool start ([\d.]+) s)?$"),
    "fin": re.compile(r"mpi: rank \d+: MPI_Finalize ([\d.]+) s, clock sync ([\d.]+) s; "
                      r"entered at ([\d.]+) s, left at ([\d.]+) s"),
    "flush": re.compile(r"log: last flush from ([\d.]+) to ([\d.]+) s.*?"
                        r"(?:process CPU time ([\d.]+) s at its start)?$"),
    "written": re.compile(r"finalize: archive written at ([\d.]+) s.*?"
                          r"(?:process CPU time ([\d.]+) s)?$"),
    "events": re.compile(r"omptrace: wrote .*: \d+ threads, (\d+) events"),
}
# Per-rank phases, in ms, in the order printed.
PROGRAM_INIT = re.compile(r"mpi_halo: MPI_Init_thread median ([\d.]+) ms, slowest ([\d.]+) ms")
PROGRAM_FIN = re.compile(r"mpi_halo: rank \d+ MPI_Finalize ([\d.]+) ms")
# finalize = fin_sync + pmpi_finalize + to_tool + last_flush + load_write;
# tool_finalize leaves out PMPI_Finalize (MPI's own end, with its wait for
# every rank).
PHASES = ("init", "tool_start", "init_sync", "finalize", "fin_sync", "pmpi_finalize", "to_tool",
          "last_flush", "load_write", "tool_finalize", "recover", "finalize/recover",
          "tool/recover", "recover_all", "finalize/rec_all", "tool/rec_all", "tool_cpu",
          "recover_cpu", "cpu tool/recover")
INIT_PHASES = ("init", "tool_start", "init_sync")
RATIOS = ("finalize/recover", "tool/recover", "finalize/rec_all", "tool/rec_all",
          "cpu tool/recover")


def parse_ranks(text, np):
    """{rank: {name: tuple of floats}} from mpirun --tag-output text."""
    got = {}
    for line in text.splitlines():
        m = TAG.match(line)
        if not m:
            continue
        rank, body = int(m.group(1)), m.group(2)
        for name, rx in LINES.items():
            f = rx.search(body)
            if f:
                got.setdefault(rank, {})[name] = tuple(float(x or 0) for x in f.groups())
    missing = [r for r in range(np) if set(LINES) - set(got.get(r, {}))]
    if missing:
        sys.exit("mpi_phases: ranks %s printed not every verbose line" % missing)
    return got


def rank_phases(p, recover_s, recover_cpu):
    """The rank's phases in ms from its parsed lines and its recover wall
    and CPU time (s). tool_cpu: the process's CPU time from the last flush
    to the archive written."""
    ms = 1e3
    init, fin, flush, written = p["init"], p["fin"], p["flush"], p["written"][0]
    tool_cpu = p["written"][1] - flush[2]
    finalize = written - fin[2]
    tool = finalize - (fin[0] - fin[1])
    return {"init": init[0] * ms, "tool_start": init[2] * ms, "init_sync": init[1] * ms, "finalize": finalize * ms,
            "fin_sync": fin[1] * ms, "pmpi_finalize": (fin[0] - fin[1]) * ms,
            "to_tool": (flush[0] - fin[3]) * ms, "last_flush": (flush[1] - flush[0]) * ms,
            "load_write": (written - flush[1]) * ms, "recover": recover_s * ms,
            "tool_finalize": tool * ms,
            "finalize/recover": finalize / recover_s if recover_s else 0.0,
            "tool/recover": tool / recover_s if recover_s else 0.0,
            "tool_cpu": tool_cpu * ms, "recover_cpu": recover_cpu * ms,
            "cpu tool/recover": tool_cpu / recover_cpu if recover_cpu else 0.0}


def event_bytes(job):
    total = 0
    for r in os.listdir(job):
        d = os.path.join(job, r, "traces")
        if r.startswith("rank-") and os.path.isdir(d):
            total += sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d)
                         if f.endswith(".evt"))
    return total


def timed(cmd, env=None):
    t0 = time.monotonic()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    secs = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit("mpi_phases: %s failed (%d): %s" % (" ".join(cmd), p.returncode,
                                                    (p.stdout + p.stderr).strip()[-400:]))
    return secs, p.stdout + p.stderr


def merged_job(a, build, iters, out):
    """A job as users run it (the launcher's merge, no kept log): ms from the
    last rank's archive written to mpirun's exit (the launcher's wait for
    the ranks, the merge, the job's end)."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMP_NUM_THREADS=str(a.threads), OMPTRACE_VERBOSE="1", OMPTRACE_OUTPUT=out)
    env.pop("OMPTRACE_KEEP_LOG", None)
    env.pop("OMPTRACE_MERGE", None)
    edge, loops, phases = a.args.split()
    cmd = ["mpirun", "--oversubscribe", "--tag-output", "-np", str(a.np),
           os.path.join(build, "share", "omptrace"), os.path.join(a.build, "bench", "ot_mpi_halo"),
           edge, str(iters), loops, phases]
    _, text = timed(cmd, env)
    end = time.monotonic()
    if not os.path.exists(os.path.join(out, "traces.otf2")):
        sys.exit("mpi_phases: the launcher merged no %s/traces.otf2" % out)
    parsed = parse_ranks(text, a.np)
    return (end - max(parsed[r]["written"][0] for r in range(a.np))) * 1e3


def timed_cpu(cmd):
    """(wall s, CPU s: user + system) of a command that prints nothing."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd)
    _, status, use = os.wait4(p.pid, 0)
    secs = time.monotonic() - t0
    p.returncode = status  # reaped here
    if status != 0:
        sys.exit("mpi_phases: %s failed (status %d)" % (" ".join(cmd), status))
    return secs, use.ru_utime + use.ru_stime


def recover_all(recover, dest, out, np):
    """Each rank's omptrace-recover wall time in s when all ranks' run at once
    (as the ranks' finalizes run), into dest/recovered-R."""
    os.makedirs(dest)
    t0 = time.monotonic()
    procs = [subprocess.Popen([recover, "-q", "-o", os.path.join(dest, "recovered-%d" % r),
                               os.path.join(out, "rank-%d" % r)]) for r in range(np)]
    secs = [None] * np
    while None in secs:
        for r, p in enumerate(procs):
            if secs[r] is None and p.poll() is not None:
                if p.returncode != 0:
                    sys.exit("mpi_phases: omptrace-recover of rank %d failed" % r)
                secs[r] = time.monotonic() - t0
        time.sleep(0.0005)
    return secs


def job(a, build, iters, out):
    """One job: {"init_ms": (median, slowest) as the program saw MPI_Init, "job_ms": mpirun's
    wall time, and with a tool (build) "ranks": per-rank phases, "exit_ms": the last archive
    written to mpirun's exit, "merge_s", "bytes": event bytes, "events": per rank}."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMP_NUM_THREADS=str(a.threads), OMPTRACE_VERBOSE="1", OMPTRACE_KEEP_LOG="1",
               OMPTRACE_MERGE="0", OMPTRACE_OUTPUT=out)
    edge, loops, phases = a.args.split()
    tool = [os.path.join(build, "share", "omptrace")] if build else []
    cmd = ["mpirun", "--oversubscribe", "--tag-output", "-np", str(a.np)] + tool + [
        os.path.join(a.build, "bench", "ot_mpi_halo"), edge, str(iters), loops, phases]
    secs, text = timed(cmd, env)
    end = time.monotonic()
    m = PROGRAM_INIT.search(text)
    if not m:
        sys.exit("mpi_phases: ot_mpi_halo printed no MPI_Init_thread line")
    fin = [float(x) for x in PROGRAM_FIN.findall(text)]
    if len(fin) != a.np:
        sys.exit("mpi_phases: %d of %d ranks printed their MPI_Finalize time" % (len(fin), a.np))
    res = {"init_ms": (float(m.group(1)), float(m.group(2))), "job_ms": secs * 1e3,
           "fin_ms": (statistics.median(fin), max(fin))}
    if not build:
        return res
    parsed = parse_ranks(text, a.np)
    res["exit_ms"] = (end - max(parsed[r]["written"][0] for r in range(a.np))) * 1e3
    recover = os.path.join(build, "recorder", "omptrace-recover")
    ranks = []
    for r in range(a.np):
        secs, cpu = timed_cpu([recover, "-q", "-o", os.path.join(out, "recovered-%d" % r),
                               os.path.join(out, "rank-%d" % r)])
        ranks.append(rank_phases(parsed[r], secs, cpu))
    for r, secs in enumerate(recover_all(recover, os.path.join(out, "all"), out, a.np)):
        ranks[r]["recover_all"] = secs * 1e3
        ranks[r]["finalize/rec_all"] = ranks[r]["finalize"] / ranks[r]["recover_all"]
        ranks[r]["tool/rec_all"] = ranks[r]["tool_finalize"] / ranks[r]["recover_all"]
    merge_s, _ = timed([os.path.join(build, "recorder", "omptrace-merge"), "-q", "-n",
                        str(a.np), out])
    res.update(ranks=ranks, merge_s=merge_s, bytes=event_bytes(out),
               events=statistics.median(parsed[r]["events"][0] for r in range(a.np)))
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", required=True, help="CMake build directory")
    ap.add_argument("--before", help="another build directory, measured as variant 'before'")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--np", type=int, default=8)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--sizes", default="20,40,80",
                    help="iteration counts, one job each per repetition; the first one's phases "
                    "are printed")
    ap.add_argument("--args", default="8 200 3", help="ot_mpi_halo's EDGE LOOPS PHASES")
    ap.add_argument("--busy", type=int, default=0, help="busy loops (sh) running meanwhile")
    ap.add_argument("--keep", action="store_true",
                    help="keep every job's files until the end: on ext4 without a journal, "
                    "files deleted in the last 60 s slow down each file creation")
    a = ap.parse_args()
    variants = [("after", a.build), ("before", a.before)] if a.before else [("tool", a.build)]
    for name, b in variants:
        for f in ("share/omptrace", "bench/ot_mpi_halo", "recorder/omptrace-recover",
                  "recorder/omptrace-merge"):
            if not os.path.exists(os.path.join(b, f)):
                sys.exit("mpi_phases: %s is missing (cmake --build %s)" % (os.path.join(b, f), b))
    if len(a.args.split()) != 3:
        sys.exit("mpi_phases: --args takes EDGE LOOPS PHASES, not '%s'" % a.args)
    sizes = [int(s) for s in a.sizes.split(",")]
    busy = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(a.busy)]
    work = tempfile.mkdtemp(prefix="omptrace-mpi-phases-")
    runs = [("none", None)] + variants
    res = {(v, s): [] for v, _ in runs for s in sizes}
    try:
        for rep in range(a.reps):
            for s in sizes:
                for v, b in runs:
                    out = os.path.join(work, "%s-%d-%d" % (v, s, rep))
                    res[(v, s)].append(job(a, b, s, out))
                    if b and s == sizes[0]:
                        res[(v, s)][-1]["merged_exit_ms"] = merged_job(a, b, s, out + "-merged")
                    if not a.keep:
                        shutil.rmtree(out, ignore_errors=True)
                        shutil.rmtree(out + "-merged", ignore_errors=True)
        load = os.getloadavg()[0]
    finally:
        for p in busy:
            p.kill()
            p.wait()
        shutil.rmtree(work, ignore_errors=True)
    print("mpirun -np %d, %d threads, ot_mpi_halo %s, %d busy loops, %d interleaved reps, "
          "load average %.1f at the end; ms, medians over the reps" % (
              a.np, a.threads, a.args, a.busy, a.reps, load))
    first = sizes[0]
    print("phases at %d iterations (%s events per rank):" % (
        first, "/".join("%d" % statistics.median(j["events"] for j in res[(v, first)])
                        for v, _ in variants)))
    print("%-18s" % "phase" + "".join(" %14s %14s" % (v + " median", v + " slowest")
                                      for v, _ in runs))
    med = statistics.median
    rows = [("program's init", lambda j: j["init_ms"][0], lambda j: j["init_ms"][1], runs),
            ("program's fin.", lambda j: j["fin_ms"][0], lambda j: j["fin_ms"][1], runs),
            ("job (mpirun)", lambda j: j["job_ms"], lambda j: j["job_ms"], runs),
            ("archives->exit", lambda j: j["exit_ms"], lambda j: j["exit_ms"], variants),
            ("  with merge", lambda j: j["merged_exit_ms"], lambda j: j["merged_exit_ms"],
             variants)]
    for ph in PHASES:
        key = "init" if ph in INIT_PHASES else "finalize"
        rows.append((ph, lambda j, ph=ph: med(r[ph] for r in j["ranks"]),
                     lambda j, ph=ph, key=key: max(j["ranks"], key=lambda r: r[key])[ph],
                     variants))
    for label, mid, top, which in rows:
        cols = ""
        for v, _ in runs:
            if (v, _) not in which:
                cols += " %14s %14s" % ("-", "-")
                continue
            jobs = res[(v, first)]
            fmt = " %14.2f %14.2f" if label in RATIOS else " %14.1f %14.1f"
            cols += fmt % (med(mid(j) for j in jobs), med(top(j) for j in jobs))
        print("%-18s" % label + cols)
    print("merge (omptrace-merge -n %d):" % a.np)
    for s in sizes:
        for v, _ in variants:
            jobs = res[(v, s)]
            secs = statistics.median(j["merge_s"] for j in jobs)
            mb = statistics.median(j["bytes"] for j in jobs) / 1e6
            print("  %-6s %4d iterations: event files %7.1f MB, merge %7.1f ms (%.2f ms/MB), "
                  "range %.1f-%.1f ms" % (v, s, mb, secs * 1e3, secs * 1e3 / mb if mb else 0,
                                          min(j["merge_s"] for j in jobs) * 1e3,
                                          max(j["merge_s"] for j in jobs) * 1e3))


if __name__ == "__main__":
    main()
