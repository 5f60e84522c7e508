#!/usr/bin/python3
"""Runs ot_epcc kernels under four variants -- no tool, a tool registering no
callback, the no-op OMPT tool and omptrace -- interleaved (one process per
kernel and variant, variant order rotated every repetition) and prints, per
kernel, the time per instance, the overhead against no tool, omptrace's
recording cost per OMPT event above the no-op tool, trace bytes per event and
finalize time per million events; then the one-thread figures of ot_hotpath
and the targets. Medians over repetitions throughout: the machine is shared.

With --before LIB (an older libomptrace.so) and/or --variant NAME:K=V,...
(omptrace with extra environment) it compares libraries instead: variants
no tool, before, omptrace and the named ones, interleaved the same way, and
prints per construct the median of the paired ratios to no tool and the
spread of the runs (each process's median block: min, max, IQR, max/min).

Events per instance are counted, not assumed: each kernel runs once under
the counting build of the no-op tool, which reports every OMPT callback.
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

VARIANTS = ("none", "ompt_on", "noop", "omptrace")


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def parse_kv(line):
    return dict(f.split("=", 1) for f in line.split() if "=" in f)


def busy_fraction(seconds=2.0):
    """Share of all CPUs used by anything over a short window (/proc/stat)."""
    def sample():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return sum(v), v[3] + v[4]  # total, idle + iowait
    try:
        t0, i0 = sample()
        time.sleep(seconds)
        t1, i1 = sample()
        return 1.0 - (i1 - i0) / max(1, t1 - t0)
    except OSError:
        return None


def machine():
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": model,
        "cpus": os.cpu_count(),
        "kernel": platform.release(),
        "load": " ".join("%.2f" % x for x in os.getloadavg()),
    }


class Runner:
    def __init__(self, args):
        self.args = args
        b = args.build
        self.epcc = os.path.join(b, "bench", "ot_epcc")
        self.noop = os.path.join(b, "bench", "libot_noop_tool.so")
        self.count = os.path.join(b, "bench", "libot_count_tool.so")
        self.hotpath = os.path.join(b, "bench", "ot_hotpath")
        self.omptrace = os.path.join(b, "recorder", "libomptrace.so")
        for p in (self.epcc, self.noop, self.count):
            if not os.path.exists(p):
                sys.exit("epcc_run: %s missing (build the bench targets first)" % p)
        self.variants = list(VARIANTS)
        self.extra = {}  # variant -> (library, extra environment)
        if args.before:
            if not os.path.exists(args.before):
                sys.exit("epcc_run: --before %s: no such file" % args.before)
            self.extra["before"] = (os.path.abspath(args.before), {})
        for spec in args.variant:
            name, _, kvs = spec.partition(":")
            if not name or name in VARIANTS or name in self.extra or "=" in name:
                sys.exit("epcc_run: --variant %s: want NAME:K=V[,K=V] with a new NAME" % spec)
            env = dict(kv.split("=", 1) for kv in kvs.split(",") if "=" in kv)
            self.extra[name] = (self.omptrace, env)
        if self.extra:
            self.variants = ["none", "omptrace"] + list(self.extra)
        if args.no_omptrace or not os.path.exists(self.omptrace):
            if not args.no_omptrace:
                print("note: %s not built: measuring no tool vs no-op tool only" % self.omptrace)
            self.variants.remove("omptrace")
        self.base_env = {k: v for k, v in os.environ.items()
                         if not k.startswith(("OMPTRACE_", "OMP_", "KMP_"))}
        self.base_env["OMP_NUM_THREADS"] = "2"
        os.makedirs(args.out, exist_ok=True)

    def omptrace_env(self, env, archive):
        env["OMPTRACE_QUIET"] = "1"
        env["OMPTRACE_OUTPUT"] = archive
        for kv in self.args.ot_env:
            k, _, v = kv.partition("=")
            env[k] = v

    def cmd(self, construct):
        return [self.epcc, "--blocks", str(self.args.blocks), "--scale", str(self.args.scale),
                construct]

    def run(self, construct, variant, archive=None, count_file=None):
        env = dict(self.base_env)
        if variant == "noop":
            env["OMP_TOOL_LIBRARIES"] = self.noop
        elif variant == "ompt_on":
            env["OMP_TOOL_LIBRARIES"] = self.noop
            env["OT_NOOP_REGISTER"] = "none"
        elif variant == "count":
            env["OMP_TOOL_LIBRARIES"] = self.count
            env["OT_COUNT_OUT"] = count_file
        elif variant == "omptrace":
            env["OMP_TOOL_LIBRARIES"] = self.omptrace
            self.omptrace_env(env, archive)
        elif variant in self.extra:
            env["OMP_TOOL_LIBRARIES"] = self.extra[variant][0]
            self.omptrace_env(env, archive)
            env.update(self.extra[variant][1])
        t_start = time.monotonic_ns()
        p = subprocess.run(self.cmd(construct), env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=300)
        t_exit = time.monotonic_ns()  # CLOCK_MONOTONIC, as the program's end_ns
        if p.returncode != 0 or "median_ns=" not in p.stdout:
            tail = (p.stderr or "").strip().splitlines()[-3:]
            print("  %s/%s failed (exit %d): %s" % (construct, variant, p.returncode,
                                                    " | ".join(tail)))
            return None
        r = parse_kv(p.stdout.strip().splitlines()[-1])
        return {
            "ns": float(r["min_ns" if self.args.stat == "best" else "median_ns"]),
            "best_ns": float(r["min_ns"]),
            "median_ns": float(r["median_ns"]),
            "instances": int(r["instances"]),
            "after_main_ms": (t_exit - int(r["end_ns"])) / 1e6,
            "wall_ms": (t_exit - t_start) / 1e6,
        }

    def run_hotpath(self, variant, archive=None):
        env = dict(self.base_env)
        lib = self.noop
        if variant == "omptrace":
            lib = self.omptrace
            self.omptrace_env(env, archive)
        iters = "5000" if self.args.quick else "10000"
        p = subprocess.run([self.hotpath, lib, "--iters", iters], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=300)
        if p.returncode != 0:
            print("  ot_hotpath/%s failed (exit %d): %s" % (variant, p.returncode,
                                                         p.stderr.strip()[-200:]))
            return None
        out = {}
        for line in p.stdout.splitlines():
            kv = parse_kv(line)
            if "sequence" in kv:
                out[kv["sequence"]] = (float(kv["best_ns_per_event"]),
                                       float(kv["median_ns_per_event"]))
            elif "finalize_ns_per_event" in kv:
                out["finalize"] = float(kv["finalize_ns_per_event"])
        return out

    def count_events(self, construct):
        path = os.path.join(self.args.out, "count-%s.txt" % construct)
        r = self.run(construct, "count", count_file=path)
        if not r:
            return None
        with open(path) as f:
            counts = dict(l.strip().split("=", 1) for l in f if "=" in l)
        total = int(counts.pop("total"))
        return {"total": total, "per_instance": total / r["instances"],
                "callbacks": {k.replace("ompt_callback_", ""): int(v) for k, v in counts.items()}}


def archive_bytes(path):
    """Size of the archive's files; hidden entries (spill files) excluded."""
    size = 0
    for root, dirs, files in os.walk(path):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        size += sum(os.path.getsize(os.path.join(root, f)) for f in files if not f.startswith("."))
    return size


def archive_stats(path):
    """Bytes on disk and OTF2 events (sum of the locations' event counts)."""
    size = archive_bytes(path)
    events = None
    try:
        import otf2  # python3-otf2, reads definitions only here
        with otf2.reader.open(os.path.join(path, "traces.otf2")) as tr:
            events = sum(loc.number_of_events for loc in tr.definitions.locations)
    except Exception as e:  # report without the OTF2 count rather than fail
        print("  note: OTF2 event count unavailable (%s)" % e)
    return size, events


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True, help="CMake build directory")
    ap.add_argument("--quick", action="store_true", help="3 repetitions of smaller runs")
    ap.add_argument("--reps", type=int, help="repetitions (default 5, quick 3)")
    ap.add_argument("--constructs", help="comma-separated subset (see ot_epcc --list)")
    ap.add_argument("--out", default="/tmp/omptrace-bench-%d" % os.getpid(),
                    help="archives and result files (archives are deleted unless --keep)")
    ap.add_argument("--keep", action="store_true", help="keep the omptrace archives")
    ap.add_argument("--no-omptrace", action="store_true", help="no tool vs no-op tool only")
    ap.add_argument("--ot-env", action="append", default=[], metavar="K=V",
                    help="extra environment for the omptrace runs (repeatable)")
    ap.add_argument("--stat", choices=("median", "best"), default="median",
                    help="per-process figure for the main table: median block (default) or "
                    "best block (steadier on a busy machine, but blind to omptrace's background "
                    "work such as spilling)")
    ap.add_argument("--blocks", type=int,
                    help="timed blocks per process (default 15, quick 9): more for longer runs")
    ap.add_argument("--before", metavar="LIB",
                    help="an older libomptrace.so: compare it, omptrace and no tool per construct")
    ap.add_argument("--variant", action="append", default=[], metavar="NAME:K=V[,K=V]",
                    help="omptrace with extra environment, compared as --before (repeatable)")
    ap.add_argument("--wait-idle", type=float, default=0, metavar="SECONDS",
                    help="first wait up to SECONDS for the CPUs to be at least 90%% idle")
    args = ap.parse_args()
    args.reps = args.reps or (3 if args.quick else 5)
    args.blocks = args.blocks or (9 if args.quick else 15)
    args.scale = 0.5 if args.quick else 1.0

    R = Runner(args)
    listing = subprocess.run([R.epcc, "--list"], stdout=subprocess.PIPE, text=True, check=True)
    constructs = [l.split()[0] for l in listing.stdout.splitlines() if l.strip()]
    if args.constructs:
        wanted = args.constructs.split(",")
        unknown = [c for c in wanted if c not in constructs]
        if unknown:
            sys.exit("epcc_run: unknown construct(s) %s" % ",".join(unknown))
        constructs = wanted

    deadline = time.monotonic() + args.wait_idle
    busy = busy_fraction()
    while busy is not None and busy > 0.1 and time.monotonic() < deadline:
        busy = busy_fraction(5.0)
    m = machine()
    m["busy_before"] = busy
    print("machine: %s, %s CPUs, Linux %s, load %s, CPUs %s busy before the run"
          % (m["cpu"], m["cpus"], m["kernel"], m["load"], fmt(busy and busy * 100, "%.0f%%")))
    print("variants: %s; %d repetitions, %d blocks per process, scale %.2f"
          % (", ".join(R.variants), args.reps, args.blocks, args.scale))
    t0 = time.monotonic()

    ev = {}
    for c in constructs:
        ev[c] = R.count_events(c) if not R.extra else None

    res = {c: {v: [] for v in R.variants} for c in constructs}  # per rep, None on failure
    arch = {c: [] for c in constructs}  # (bytes, otf2 events)
    for rep in range(args.reps):
        for c in constructs:
            k = rep % len(R.variants)
            for v in R.variants[k:] + R.variants[:k]:
                traced = v == "omptrace" or v in R.extra
                a = os.path.join(args.out, "%s-%s-%d" % (c, v, rep)) if traced else None
                r = R.run(c, v, archive=a)
                res[c][v].append(r)
                if a and r and os.path.isdir(a) and v == "omptrace" and not R.extra:
                    size, n = archive_stats(a) if rep == 0 else (archive_bytes(a), None)
                    arch[c].append((size, n))
                if a and not args.keep:
                    shutil.rmtree(a, ignore_errors=True)
        print("  repetition %d/%d done (%.0f s)" % (rep + 1, args.reps, time.monotonic() - t0))

    if R.extra:
        rows = compare(constructs, R.variants, res)
        with open(os.path.join(args.out, "results.json"), "w") as f:
            json.dump({"machine": m, "args": vars(args), "rows": rows, "runs": res}, f, indent=1)
        print("wall time %.0f s; load average at the end %.2f; raw results in %s/results.json"
              % (time.monotonic() - t0, os.getloadavg()[0], args.out))
        return
    rows = report(constructs, R.variants, res, ev, arch, args.stat)
    hot = None
    if "omptrace" in R.variants and os.path.exists(R.hotpath):
        hot = {"noop": [], "omptrace": []}
        for rep in range(args.reps):
            for v in (("noop", "omptrace") if rep % 2 == 0 else ("omptrace", "noop")):
                a = os.path.join(args.out, "hotpath-%d" % rep)
                hot[v].append(R.run_hotpath(v, a))
                shutil.rmtree(a, ignore_errors=True)
        report_hotpath(hot)
    if "omptrace" in R.variants:
        targets(rows, hot)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"machine": m, "args": vars(args), "rows": rows, "events": ev, "hotpath": hot},
                  f, indent=1)
    print("wall time %.0f s; load average at the end %.2f; raw results in %s/results.json"
          % (time.monotonic() - t0, os.getloadavg()[0], args.out))
    if busy is not None and busy > 0.1:
        print("warning: %.0f%% of the CPUs were busy before the run: other processes compete "
              "with the 2 benchmark threads; check the noise column, prefer the one-thread and "
              "instruction figures (bench/epcc_callgrind.sh), or rerun with --wait-idle 300"
              % (busy * 100))




def paired(res, c, v, fn):
    """Median over repetitions of fn(run of v, run of noop, run of none)."""
    out = []
    for i, r in enumerate(res[c][v]):
        none = res[c]["none"][i]
        noop = res[c]["noop"][i] if "noop" in res[c] else None
        if r and none and noop:
            out.append(fn(r, noop, none))
    return median(out)


def fmt(x, spec):
    return "-" if x is None else spec % x


def report(constructs, variants, res, ev, arch, stat):
    has_ot = "omptrace" in variants
    print()
    print("time per construct instance (median over processes of each process's %s block), "
          "overhead vs no tool (median of paired ratios)" % stat)
    hdr = "%-12s %7s %9s %6s %8s %9s %7s" % ("construct", "ev/inst", "none ns", "noise",
                                             "ompt_on%", "noop ns", "noop %")
    if has_ot:
        hdr += " %9s %7s %9s %6s %6s %9s" % ("ompt ns", "ompt %", "rec ns/ev", "B/ev", "B/oev",
                                             "fin ms/M")
    print(hdr)
    rows = []
    for c in constructs:
        e = ev[c]["per_instance"] if ev[c] else None
        t = {v: median([r["ns"] for r in res[c][v] if r]) for v in variants}
        nones = [r["ns"] for r in res[c]["none"] if r]
        noise = (median([abs(x - t["none"]) for x in nones]) / t["none"] * 100
                 if nones and t["none"] else None)
        row = {"construct": c, "events_per_instance": e, "ns": t, "noise_pct": noise,
               "overhead_pct": {v: paired(res, c, v, lambda r, _, n: (r["ns"] / n["ns"] - 1) * 100)
                                for v in variants if v != "none"}}
        line = "%-12s %7s %9s %5s%% %7s%% %9s %6s%%" % (
            c, fmt(e, "%.2f"), fmt(t["none"], "%.1f"), fmt(noise, "%.1f"),
            fmt(row["overhead_pct"]["ompt_on"], "%+.1f"), fmt(t["noop"], "%.1f"),
            fmt(row["overhead_pct"]["noop"], "%+.1f"))
        if has_ot:
            rec = paired(res, c, "omptrace", lambda r, o, _: (r["ns"] - o["ns"]) / e) if e else None
            total = ev[c]["total"] if ev[c] else None
            sizes = [s for s, _ in arch[c]]
            oev = next((n for _, n in arch[c] if n), None)
            bpe = median(sizes) / total if sizes and total else None
            bpo = median(sizes) / oev if sizes and oev else None
            fin = paired(res, c, "omptrace",
                         lambda r, o, _: (r["after_main_ms"] - o["after_main_ms"]) / (total / 1e6)
                         ) if total else None
            row.update({"record_ns_per_event": rec, "bytes_per_event": bpe,
                        "bytes_per_otf2_event": bpo, "otf2_events": oev, "ompt_events": total,
                        "finalize_ms_per_mevent": fin})
            line += " %9s %6s%% %9s %6s %6s %9s" % (
                fmt(t["omptrace"], "%.1f"), fmt(row["overhead_pct"]["omptrace"], "%+.1f"),
                fmt(rec, "%.2f"), fmt(bpe, "%.2f"), fmt(bpo, "%.2f"), fmt(fin, "%.0f"))
        print(line)
        rows.append(row)
    other = "best" if stat == "median" else "median"
    key = other + "_ns"
    print()
    print("the same with each process's %s block: overhead vs no tool, recording cost" % other)
    print("%-12s %8s %8s %9s" % ("construct", "noop %", "ompt %", "rec ns/ev"))
    for row in rows:
        c, e = row["construct"], row["events_per_instance"]
        ov = {v: paired(res, c, v, lambda r, _, n: (r[key] / n[key] - 1) * 100)
              for v in variants if v in ("noop", "omptrace")}
        rec = (paired(res, c, "omptrace", lambda r, o, _: (r[key] - o[key]) / e)
               if has_ot and e else None)
        row["other_stat"] = {"stat": other, "overhead_pct": ov, "record_ns_per_event": rec}
        print("%-12s %7s%% %7s%% %9s" % (c, fmt(ov.get("noop"), "%+.1f"),
                                         fmt(ov.get("omptrace"), "%+.1f"), fmt(rec, "%.2f")))
    print()
    print("ev/inst: OMPT callbacks per instance (counted); noise: median absolute deviation of "
          "the no-tool runs;\nompt_on: a tool that registers no callback; noop: empty callbacks "
          "for every event omptrace records")
    if has_ot:
        print("rec ns/ev: (omptrace - no-op) / ev/inst; B/ev: archive bytes per OMPT event; "
              "B/oev: per OTF2 event;\nfin ms/M: time after main() above the no-op tool, "
              "per million OMPT events")
    return rows


def quartiles(xs):
    xs = sorted(xs)
    if len(xs) < 2:
        return xs[0], xs[0]
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return q[0], q[2]


def compare(constructs, variants, res):
    """Per construct and variant: median time, median of the paired ratios to
    no tool, and the spread of the processes (min, max, IQR, max/min)."""
    print()
    print("per construct: time per instance (each process's median block), median over "
          "processes;\nratio: median of the paired ratios to no tool (same repetition); "
          "spread of the processes: min-max, IQR and max/min;\nwall: median of the paired "
          "ratios of the whole process's wall time; exit ms: median time after main()")
    print("%-12s %-10s %9s %7s %19s %19s %7s %7s %7s" % (
        "construct", "variant", "us", "ratio", "min-max us", "IQR us", "max/min", "wall", "exit ms"))
    rows = []
    for c in constructs:
        for v in variants:
            xs = [r["ns"] / 1e3 for r in res[c][v] if r]
            if not xs:
                print("%-12s %-10s %9s" % (c, v, "-"))
                continue
            ratios = [r["ns"] / n["ns"] for r, n in zip(res[c][v], res[c]["none"]) if r and n]
            q1, q3 = quartiles(xs)
            walls = [r["wall_ms"] / n["wall_ms"] for r, n in zip(res[c][v], res[c]["none"])
                     if r and n]
            after = median([r["after_main_ms"] for r in res[c][v] if r])
            row = {"construct": c, "variant": v, "us": median(xs),
                   "ratio": median(ratios) if v != "none" else 1.0,
                   "min_us": min(xs), "max_us": max(xs), "q1_us": q1, "q3_us": q3,
                   "max_over_min": max(xs) / min(xs), "runs_us": xs,
                   "wall_ratio": median(walls) if v != "none" else 1.0, "after_main_ms": after}
            print("%-12s %-10s %9.3f %7.2f %9.3f-%-9.3f %9.3f-%-9.3f %7.2f %7.2f %7.1f" % (
                c, v, row["us"], row["ratio"], row["min_us"], row["max_us"], q1, q3,
                row["max_over_min"], row["wall_ratio"], after))
            rows.append(row)
    return rows


def report_hotpath(hot):
    runs = {v: [r for r in hot[v] if r] for v in hot}
    if not runs["noop"] or not runs["omptrace"]:
        return
    print()
    print("one thread, callbacks called directly (ot_hotpath): ns per event, median over "
          "processes of the best / median block")
    print("%-10s %9s %9s %11s %10s" % ("sequence", "noop", "omptrace", "(median)", "rec ns/ev"))
    for seq in [k for k in runs["omptrace"][0] if k != "finalize"]:
        noop = median([r[seq][0] for r in runs["noop"]])
        ot = median([r[seq][0] for r in runs["omptrace"]])
        otm = median([r[seq][1] for r in runs["omptrace"]])
        print("%-10s %9.2f %9.2f %11.2f %10.2f" % (seq, noop, ot, otm, ot - noop))
    print("(median: a block's time includes waiting for the flusher when recording outruns "
          "it)")
    hot["rec_ns_per_event"] = {
        seq: median([r[seq][0] for r in runs["omptrace"]]) - median([r[seq][0] for r in runs["noop"]])
        for seq in runs["omptrace"][0] if seq != "finalize"}
    fin = median([r["finalize"] for r in runs["omptrace"] if "finalize" in r])
    print("finalize (one location, spill files read back, OTF2 written): %s ns per event"
          % fmt(fin, "%.0f"))


def targets(rows, hot):
    by = {r["construct"]: r for r in rows}
    print()
    print("targets:")
    rec = hot.get("rec_ns_per_event") if hot else None
    if rec:
        worst = max(rec, key=rec.get)
        print("  recording <= 10 ns/event above no-op, one thread : worst %.1f (%s)  %s"
              % (rec[worst], worst, "ok" if rec[worst] <= 10 else "MISSED"))
    p = by.get("parallel_1us")
    if p and p["overhead_pct"].get("omptrace") is not None:
        o = p["overhead_pct"]["omptrace"]
        print("  ~1 us 2-thread parallel region <= +5%% vs none : %+.1f%% (no-op tool alone %+.1f%%)  %s"
              % (o, p["overhead_pct"]["noop"], "ok" if o <= 5 else "MISSED"))
    dense = [r for r in rows if r.get("record_ns_per_event") is not None and r["construct"] != "work"]
    if dense:
        worst = max(dense, key=lambda r: r["record_ns_per_event"])
        med = median([r["record_ns_per_event"] for r in dense])
        print("  recording <= 10 ns/event above no-op, kernels : median %.1f, worst %.1f (%s)  %s"
              % (med, worst["record_ns_per_event"], worst["construct"],
                 "ok" if worst["record_ns_per_event"] <= 10 else "MISSED"))
    b = [r for r in rows if r.get("bytes_per_event") is not None]
    if b:
        worst = max(b, key=lambda r: r["bytes_per_event"])
        print("  trace <= 12 bytes per OMPT event            : worst %.1f (%s)  %s"
              % (worst["bytes_per_event"], worst["construct"],
                 "ok" if worst["bytes_per_event"] <= 12 else "MISSED"))
    b = [r for r in rows if r.get("bytes_per_otf2_event") is not None]
    if b:
        worst = max(b, key=lambda r: r["bytes_per_otf2_event"])
        print("  trace <= 12 bytes per OTF2 event            : worst %.1f (%s)  %s"
              % (worst["bytes_per_otf2_event"], worst["construct"],
                 "ok" if worst["bytes_per_otf2_event"] <= 12 else "MISSED"))


if __name__ == "__main__":
    main()
