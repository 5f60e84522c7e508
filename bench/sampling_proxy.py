#!/usr/bin/env python3
"""Sampling cost on the LULESH-shaped proxy (bench/lulesh_proxy.c), whole
process (archive writing included): no tool / tracing / tracing + 1 kHz /
tracing + 10 kHz, for one or two libraries (--before), interleaved (the
order rotated every round). Prints medians of the wall times, their ratio
to tracing alone with the same library, and the archive's event and sample
counts (from the exit line).

  sampling_proxy.py --lib build/recorder/libomptrace.so \
      --app build/bench/ot_lulesh_proxy [--before OLD/libomptrace.so] \
      [--threads 2] [--rounds 5] [-- APP ARGS]
"""
import argparse, os, re, statistics, subprocess, sys, tempfile, time


def run(app, args, env_extra, threads):
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(threads)
    env.update(env_extra)
    t0 = time.monotonic()
    p = subprocess.run([app] + args, env=env, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"sampling_proxy: {app} failed ({p.returncode}): {p.stderr.strip()[-300:]}")
    m = re.search(r"wrote .*?(\d+) events", p.stderr)
    s = re.search(r"wrote .*?(\d+) samples", p.stderr)
    ev = int(m.group(1)) if m else 0
    sm = int(s.group(1)) if s else 0
    return wall, ev, sm


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--before")
    ap.add_argument("--app", required=True)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--rates", default="1kHz,10kHz")
    ap.add_argument("rest", nargs="*")
    a = ap.parse_args()
    out = tempfile.mkdtemp(prefix="ot_smp_proxy.")
    libs = [("after", a.lib)] + ([("before", a.before)] if a.before else [])
    cfgs = [("no tool", None, None)]
    for tag, lib in libs:
        cfgs.append((f"{tag} tracing", lib, "0"))
        for r in a.rates.split(","):
            cfgs.append((f"{tag} +{r}", lib, r))
    res = {c[0]: [] for c in cfgs}
    for rnd in range(a.rounds):
        order = cfgs[rnd % len(cfgs):] + cfgs[:rnd % len(cfgs)]
        for name, lib, rate in order:
            env = {}
            if lib:
                env = {"OMP_TOOL_LIBRARIES": lib, "OMPTRACE_SAMPLING": rate,
                       "OMPTRACE_OUTPUT": os.path.join(out, f"r{rnd}_{len(res[name])}_{name.replace(' ', '_')}")}
            res[name].append(run(a.app, a.rest, env, a.threads))
    print(f"{a.threads} threads, {a.rounds} interleaved rounds, app args {' '.join(a.rest)}")
    base = {}
    for name, lib, rate in cfgs:
        w = statistics.median(x[0] for x in res[name])
        if rate == "0":
            base[name.split()[0]] = w
    for name, lib, rate in cfgs:
        w = statistics.median(x[0] for x in res[name])
        ev = statistics.median(x[1] for x in res[name])
        sm = statistics.median(x[2] for x in res[name])
        ratio = f"{w / base[name.split()[0]]:.3f}x tracing" if lib else ""
        print(f"{name:20s} median {w:7.3f} s  {ratio:16s} events {ev:>10.0f}  samples {sm:>8.0f}")
    subprocess.run(["rm", "-rf", out])


if __name__ == "__main__":
    main()
