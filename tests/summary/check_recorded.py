#!/usr/bin/python3
"""omptrace-summary on archives recorded by libomptrace.so from small
OpenMP programs (tests/summary/progs). Counts that follow from the program
are exact; times come from wall-clock spins and sleeps, which only get longer
on a loaded machine, so time bounds are lower bounds. Orders and ratios
between times (who waits longer, what gets slower) are enforced by the
programs (handshakes between threads, durations set from the previous run),
never left to the machine's speed.

usage: check_recorded.py SUMMARY LIBOMPTRACE PROGDIR SRCDIR WORKDIR CASE"""
import json
import os
import shutil
import subprocess
import sys

SUMMARY, LIB, PROGDIR, SRCDIR, WORK, CASE = sys.argv[1:7]
MS = 1000000
# Lower bounds from the program's spins allow 5% for the difference between
# omp_get_wtime() and the recorder's clock calibration.
LOW = 0.95
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def near(got, want, tol, what):
    check(abs(got - want) <= tol, "%s: got %.3f ms, want %.3f ms +- %.3f ms"
          % (what, got / MS, want / MS, tol / MS))


def line_of(prog, text):
    for n, line in enumerate(open(os.path.join(SRCDIR, prog + ".c")), 1):
        if text in line:
            return n
    raise SystemExit("%s not in %s.c" % (text, prog))


def record(prog, threads=None, tag="", args=()):
    out = os.path.join(WORK, prog + tag)
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, OMP_TOOL_LIBRARIES=LIB, OMPTRACE_OUTPUT=out, OMPTRACE_QUIET="1")
    if threads:  # more threads than cores: waiting threads must not take the cores
        env["OMP_NUM_THREADS"] = str(threads)
        env["OMP_WAIT_POLICY"] = "passive"
    subprocess.run([os.path.join(PROGDIR, "summary_prog_" + prog)] + list(args), env=env,
                   check=True, timeout=120)
    return out


def summary(*args):
    p = subprocess.run([SUMMARY, "--format", "json", "--top", "0"] + list(args),
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
    return json.loads(p.stdout)


def case_imbalance():
    # Program: thread 0 spins 40 ms, thread 1 10 ms in one loop instance.
    # Spins only get longer on a loaded machine, so bounds are one-sided;
    # the order and ratio hold by construction (progs/imbalance.c): thread 1
    # enters the loop after thread 0 and reaches the barrier first, thread 0
    # works >= 4x as long (3x here: clock calibration). Gain and imbalance
    # must agree with the busy times the report gives.
    j = summary(record("imbalance"), "--threads")
    line = line_of("imbalance", "#pragma omp for")
    name = "loop @ imbalance.c:%d" % line
    reg = {r["region"]: r for r in j["regions"]["regions"]}
    lp = reg.get(name)
    check(lp is not None, "loop row missing: %r" % list(reg))
    if not lp:
        return
    check(lp["instances"] == 1, "loop instances %r" % lp["instances"])
    busy = {r["thread"]: r["busy_ns"] for r in j["regions"]["threads"] if r["region"] == name}
    b0, b1 = busy.get(0, 0), busy.get(1, 0)
    check(b0 >= LOW * 40 * MS, "thread 0 busy %.3f ms, want >= 40" % (b0 / MS))
    check(b1 >= LOW * 10 * MS, "thread 1 busy %.3f ms, want >= 10" % (b1 / MS))
    check(b0 >= 3 * b1, "thread 0 busy %.3f ms, want >= 3 x thread 1's %.3f ms"
          % (b0 / MS, b1 / MS))
    near(lp["gain_ns"], (max(b0, b1) - (b0 + b1) // 2), 1000, "gain = max - mean busy")
    near(lp["imbalance"] * max(b0, b1), lp["gain_ns"], 1000, "imbalance = gain / max busy")
    check(lp["imbalance"] >= 1 / 3, "imbalance %r, want >= 1/3 (busy 3:1)" % lp["imbalance"])
    bw = lp["barrier_wait_per_thread_ns"]
    check(bw[1] > bw[0], "thread 1 should wait longer at the barrier: %r" % bw)
    # The finding's threshold is 1% of the run; the gain is about 1/3 of the
    # run unless the process stalled for seconds outside the loop.
    texts = " ".join(f["text"] for f in j["findings"]["findings"])
    if lp["gain_ns"] >= 0.01 * j["overview"]["run"]["wall_ns"]:
        check("imbalance.c:" in texts and "imbalanced" in texts, "findings: " + texts)


def case_locks():
    # Program: 2 x 5 lock holds of 2 ms, 2 x 4 critical sections of 1 ms;
    # thread 0 keeps the lock until thread 1 calls omp_set_lock (contended).
    j = summary(record("locks"))
    set_line = line_of("locks", "omp_set_lock(&lock)")
    crit_line = line_of("locks", "#pragma omp critical")
    locks = {x["name"]: x for x in j["locks"]["locks"]}
    lk = locks.get("omp_set_lock @ locks.c:%d" % set_line)
    check(lk is not None, "lock row missing: %r" % list(locks))
    if lk:
        check(lk["acquisitions"] == 10, "lock acquisitions %r" % lk["acquisitions"])
        check(lk["held_ns"] >= LOW * 20 * MS, "lock held %.3f ms, want >= 20" % (lk["held_ns"] / MS))
        check(lk["contended"] >= 1, "lock never contended")
        check(lk["unblamed_wait_ns"] <= lk["wait_ns"], "unblamed wait > wait")
        blame = [b for b in j["locks"]["blame"] if b["lock"] == lk["lock"]]
        check(blame and blame[0]["holder"] == "omp_set_lock @ locks.c:%d" % set_line,
              "lock blame %r" % blame)
        check(sum(b["wait_ns"] for b in blame) == lk["wait_ns"] - lk["unblamed_wait_ns"],
              "blame adds up to the contended wait")
    cr = [x for x in j["locks"]["locks"] if x["name"] == "critical @ locks.c:%d" % crit_line]
    check(len(cr) == 1 and cr[0]["acquisitions"] == 8, "critical row %r" % cr)
    if cr:
        check(cr[0]["held_ns"] >= LOW * 8 * MS, "critical held %.3f ms" % (cr[0]["held_ns"] / MS))
    th = j["threads"]["threads"]
    check(sum(t["lock_ns"] for t in th) > 0, "no lock wait in the thread table")


def case_tiny_tasks():
    j = summary(record("tiny_tasks"))
    s = j["tasks"]["summary"]
    check(s["count"] == 400 and s["created"] == 400, "tasks %r/%r" % (s["count"], s["created"]))
    # Each task is about 1 us of arithmetic; no bound on its time (that is the
    # machine's speed), but the figures must agree with each other, and the
    # finding follows its documented threshold (median < 10 us) either way.
    check(s["min_ns"] <= s["median_ns"] <= s["p99_ns"] <= s["max_ns"],
          "min <= median <= p99 <= max: %r" % s)
    check(s["median_ns"] <= 2 * s["mean_ns"] + 1, "median above 2 x mean: %r" % s)
    check(abs(s["mean_ns"] * 400 - s["total_ns"]) <= 400, "mean x count != total: %r" % s)
    hist = j["tasks"]["histogram"]
    check(sum(h["count"] for h in hist) == 400, "histogram total")
    below = sum(h["count"] for h in hist if h["lower_ns"] <= s["median_ns"])
    above = sum(h["count"] for h in hist if h["lower_ns"] > s["median_ns"])
    check(below >= 200 and above <= 200, "median %r ns outside the histogram's middle: %r"
          % (s["median_ns"], hist))
    texts = " ".join(f["text"] for f in j["findings"]["findings"])
    check(("fine-grained" in texts) == (s["median_ns"] < 10000),
          "median %r ns, findings: %s" % (s["median_ns"], texts))


def case_serial():
    # Program: 30 ms serial between parallel regions.
    j = summary(record("serial"))
    o = j["overview"]["run"]
    check(o["serial_ns"] >= LOW * 30 * MS, "serial %.3f ms, want >= 30" % (o["serial_ns"] / MS))
    par = sum(r["total_ns"] for r in j["regions"]["regions"] if r["kind"] == "parallel")
    check(o["serial_ns"] + par <= o["wall_ns"], "serial + parallel regions > wall time")
    near(o["serial_share"] * o["wall_ns"], o["serial_ns"], 1000, "serial share x wall")
    t0 = j["threads"]["threads"][0]
    check(t0["serial_ns"] >= LOW * 30 * MS, "thread 0 serial %.3f ms" % (t0["serial_ns"] / MS))
    check(j["threads"]["threads"][1]["serial_ns"] == 0, "a worker has serial time")
    # The finding's threshold is 10% of the run; the program makes the serial
    # part >= 3/4 of the run up to the last region (progs/serial.c).
    texts = " ".join(f["text"] for f in j["findings"]["findings"])
    if o["serial_ns"] >= 0.1 * o["wall_ns"]:
        check("serial" in texts, "findings: " + texts)


def slowest(j, name):
    """A region's time in a run as --compare takes it: its slowest thread's."""
    return max([r["time_ns"] for r in j["regions"]["threads"] if r["region"] == name] or [0])


def case_compare():
    # Program (progs/degrade.c): a loop region of 120/60/30 ms and a critical
    # one of 50/100/200 ms at 1/2/4 threads. Each run's durations are set from
    # the previous run's recorded times, so that the critical region takes
    # at least twice as long as in the previous run by construction (lower
    # bounds only: sleeps only get longer); the loop nominally halves.
    # Slowdowns under 10% count as noise (--tolerance 10). The verdicts are
    # checked against the rule applied to the times the runs recorded, so a
    # loaded machine cannot change them.
    crit_par = line_of("degrade", "#pragma omp critical") - 2
    crit = "parallel @ degrade.c:%d" % crit_par
    loop = "loop @ degrade.c:%d" % line_of("degrade", "#pragma omp for")
    runs, times, holds = [], [], []
    iter_ms, hold_ms = 15.0, 50.0
    for n in (1, 2, 4):
        if times:
            prev = times[-1]
            iter_ms = prev[loop] / MS * n / 16  # 8 iterations: half the previous run
            hold_ms = prev[crit] / MS * 2 / n  # n holds: twice the previous run
        runs.append(record("degrade", n, "-%d" % n, [str(iter_ms), str(hold_ms)]))
        holds.append(hold_ms)
        one = summary(runs[-1], "--threads")
        times.append({name: slowest(one, name) for name in (loop, crit)})
    print("loop ms %s, critical ms %s" % ([round(t[loop] / MS, 1) for t in times],
                                          [round(t[crit] / MS, 1) for t in times]))
    p = subprocess.run([SUMMARY, "--format", "json", "--tolerance", "10", "--compare"] + runs,
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, "compare exit %d: %s" % (p.returncode, p.stderr))
    j = json.loads(p.stdout)
    check([r["threads"] for r in j["compare"]["runs"]] == [1, 2, 4], "runs")
    regs = {r["region"]: r for r in j["compare"]["regions"]}
    for name in (loop, crit):
        check(name in regs, "%s missing: %r" % (name, list(regs)))
    if failures:
        return
    for n, hold, t in zip((1, 2, 4), holds, times):  # n serialized holds
        check(t[crit] >= LOW * n * hold * MS, "critical region %.3f ms at %d threads, want >= "
              "%.3f" % (t[crit] / MS, n, n * hold))
    for name in (loop, crit):
        check(regs[name]["time_ns"] == [t[name] for t in times],
              "%s: compare times %r, the runs' own %r" % (name, regs[name]["time_ns"],
                                                          [t[name] for t in times]))
    # the rule (docs/summary.md): slower than some run with fewer threads by > 10%
    strength = {}
    for name, r in regs.items():
        t = r["time_ns"]
        ranks = [r["threads"][i] for i in range(len(t))
                 if any(t[i] > t[k] * 1.1 for k in range(i) if t[k] > 0 and t[i] > 0)]
        check(r["degradation_ranks"] == ranks, "%s: ranks %r, want %r (times %r)"
              % (name, r["degradation_ranks"], ranks, t))
        check(r["min_degradation_rank"] == (ranks[0] if ranks else None),
              "%s: min rank %r" % (name, r["min_degradation_rank"]))
        strength[name] = max([t[r["threads"].index(m)] for m in ranks] or [0])
    # by construction: 2 x slower at 2 threads, 2 x again at 4
    check(regs[crit]["degradation_ranks"] == [2, 4], "ranks %r" % regs[crit]["degradation_ranks"])
    check(regs[crit]["min_degradation_rank"] == 2, "min rank %r" %
          regs[crit]["min_degradation_rank"])
    order = sorted(strength, key=lambda k: (-strength[k], k))
    check([r["region"] for r in j["compare"]["regions"]] == order,
          "regions in order %r, want by strength %r" %
          ([r["region"] for r in j["compare"]["regions"]], order))
    # nominally the loop halves and is not flagged; the rule above decides
    if regs[loop]["degradation_ranks"]:
        print("note: the loop was slower on this loaded machine: %r" % regs[loop]["time_ns"])


def case_full_disk():
    """The record log fills a small tmpfs: records are dropped and the archive
    has measurement gaps (a filler file is removed after the loops, so that
    the archive itself can be written). The summary must exclude the gaps
    from every figure: categories of every thread add up to the measured
    time, and the gap is not charged to fork/join."""
    mnt = os.path.join(WORK, "full-disk-mnt")
    os.makedirs(mnt, exist_ok=True)
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", mnt],
                       capture_output=True, text=True)
    if p.returncode != 0:
        print("SKIP: cannot mount a small tmpfs here: %s" % p.stderr.strip())
        sys.exit(77)
    try:
        filler = os.path.join(mnt, "filler")
        with open(filler, "wb") as f:
            f.write(bytes((16 << 20) - (100 << 10)))  # 100 kB left for the record log
        out = os.path.join(mnt, "archive")
        env = dict(os.environ, OMP_TOOL_LIBRARIES=LIB, OMPTRACE_OUTPUT=out,
                   OMPTRACE_BUFFER_SIZE="64K", FULL_DISK_WAIT=filler)
        rec = subprocess.Popen([os.path.join(PROGDIR, "summary_prog_full_disk")], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # The record log keeps what it cannot write and drops only when the
        # buffers are full: the disk stays full until the loops are done.
        check(rec.stdout.readline() == "loops done\n", "no 'loops done' line")
        os.remove(filler)
        _, err = rec.communicate(timeout=120)
        sys.stdout.write(err)
        check(any("cannot write" in l and "/.log/" in l for l in err.splitlines()),
              "no line says the record log could not be written: %r" % err)
        check(rec.returncode == 0, "traced program exit %r" % rec.returncode)
        j = summary(out)
    finally:
        subprocess.run(["umount", mnt])
    o = j["overview"]["run"]
    print("overview: %r" % o)
    check(o["gaps"] >= 1 and o["lost_ns"] > 0, "no gap reported: %r" % o)
    check(o["measured_ns"] + o["lost_ns"] == o["wall_ns"], "measured + lost != wall: %r" % o)
    check(o["serial_ns"] + o["parallel_ns"] == o["measured_ns"], "serial + parallel: %r" % o)
    gaps = j["overview"].get("gaps", [])
    check(len(gaps) == o["gaps"], "gap rows %d, overview says %d" % (len(gaps), o["gaps"]))
    for g in gaps:
        check(g["end_ns"] - g["start_ns"] == g["duration_ns"] and g["duration_ns"] <= o["lost_ns"],
              "gap %r" % g)
    cats = ("work_ns", "wait_ns", "fork_join_ns", "task_create_ns", "runtime_ns", "serial_ns",
            "idle_ns")
    for t in j["threads"]["threads"]:
        check(sum(t[k] for k in cats) == o["measured_ns"] and t["lost_ns"] == o["lost_ns"],
              "thread %d: categories %d + lost %d, measured %d + lost %d"
              % (t["thread"], sum(t[k] for k in cats), t["lost_ns"], o["measured_ns"],
                 o["lost_ns"]))
    t0 = j["threads"]["threads"][0]
    if o["lost_ns"] >= 50 * MS:  # the gap is not charged to fork/join
        check(t0["fork_join_ns"] < o["lost_ns"] / 2, "fork/join %.3f ms, lost %.3f ms"
              % (t0["fork_join_ns"] / MS, o["lost_ns"] / MS))
    texts = [f["text"] for f in j["findings"]["findings"]]
    check(texts and texts[0].startswith("Records are missing in %d measurement gap" % o["gaps"]),
          "findings: %r" % texts)


os.makedirs(WORK, exist_ok=True)
globals()["case_" + CASE]()
print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
