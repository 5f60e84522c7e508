"""Offload in the archive (docs/otf2-mapping.md, "Offload"), read back with
python3-otf2: exact counts of target, data op, kernel and device regions
per thread, the bytes and devices of the data ops, their nesting in
their target construct, and one accelerator location per device with its
kernels and transfers.

replay MODE: offload_replay.c's callback sequences through the tool's
handlers (MODE emi, or old: the 5.0 callbacks a runtime refusing the _emi
ones gets). real: progs/offload.c offloaded to libomp 19's host plugin.
nopath: the same without libomp.so on the library path: libomptarget
connects no tool, the tool says so in one line and records the host side.
launcher: the same through the omptrace launcher, which puts libomp's
directory on the library path itself (one line): recorded as real.
accepted: progs/hello.c on libomp N (--runtime N): the offload callbacks the
runtime accepts and refuses, as OMPTRACE_VERBOSE=1 lists them."""

import argparse
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "recorder"))
from archive import Trace, construct_of  # noqa: E402

CONSTRUCTS = ("target", "target enter data", "target exit data", "target update")
INSIDE = ("target alloc", "target transfer to device", "target transfer from device",
          "target delete", "target kernel")


def regions(t, loc):
    """(construct, {parameter: value}, enclosing constructs) per Enter."""
    out, stack = [], []
    for e in t.events[loc]:
        k = type(e).__name__
        if k == "Enter":
            stack.append(construct_of(e.region))
            out.append([stack[-1], {}, list(stack[:-1])])
        elif k == "Leave" and stack:
            stack.pop()
        elif k.startswith("Parameter") and out:
            out[-1][1][e.parameter.name] = e.value
    return out


def tally(t, loc):
    count, nbytes, devices, outside = {}, {}, {}, 0
    for name, params, outer in regions(t, loc):
        count[name] = count.get(name, 0) + 1
        if "bytes" in params:
            nbytes[name] = nbytes.get(name, 0) + params["bytes"]
        if "device" in params:
            devices.setdefault(name, set()).add(params["device"])
        if name in INSIDE and not any(o in CONSTRUCTS for o in outer):
            outside += 1
    return count, nbytes, devices, outside


def split(t):
    """CPU thread locations, and device name -> accelerator location."""
    threads = [l._ref for l in t.locations if str(l.type).endswith("CPU_THREAD")]
    devices = {l.name: l._ref for l in t.locations
               if str(l.group.location_group_type).endswith("ACCELERATOR")}
    return threads, devices


def busy(t, loc):
    """Construct -> count of the intervals on an accelerator location."""
    got = {}
    for name, _params, outer in regions(t, loc):
        t.expect("nesting on a device", outer, [])
        got[name] = got.get(name, 0) + 1
    return got


def check_replay(t, mode):
    threads, devices = split(t)
    t.expect("locations", (len(threads), sorted(devices)), (2, ["OpenMP device 0", "OpenMP device 1"]))
    main, second = threads
    # the threads' transfers and kernels, one after another on their device
    t.expect("device 0", busy(t, devices["OpenMP device 0"]), {
        "target transfer to device": 4, "target kernel": 3, "target transfer from device": 4})
    t.expect("device 1", busy(t, devices["OpenMP device 1"]), {
        "target transfer to device": 2, "target kernel": 2, "target transfer from device": 2})
    c, b, d, outside = tally(t, main)
    t.expect("regions on thread 0", {k: v for k, v in c.items()}, {
        "device initialize": 2, "device load": 1, "device finalize": 2,
        "target": 3, "target enter data": 1, "target update": 1, "target exit data": 1,
        "target alloc": 7, "target transfer to device": 4, "target transfer from device": 4,
        "target delete": 7, "target kernel": 3})
    t.expect("bytes on thread 0", {k: v for k, v in b.items() if v}, {
        "device load": 19104, "target alloc": 3 * 12000 + 800,
        "target transfer to device": 3 * 8000 + 800,
        "target transfer from device": 3 * 4000 + 800})
    t.expect("devices of thread 0's data ops", d.get("target transfer to device"), {0})
    t.expect("data ops and kernels outside a construct, thread 0", outside, 0)
    c, b, d, outside = tally(t, second)
    t.expect("regions on thread 1", c, {
        "target": 2, "target alloc": 4, "target transfer to device": 2,
        "target transfer from device": 2, "target delete": 4, "target kernel": 2})
    t.expect("bytes on thread 1", b.get("target transfer from device"), 2 * 4000)
    t.expect("devices of thread 1", (d.get("target"), d.get("target delete")), ({1}, {1}))
    t.expect("data ops and kernels outside a construct, thread 1", outside, 0)
    teams = [p.get("requested teams") for n, p, _ in regions(t, second) if n == "target kernel"]
    t.expect("requested teams", teams, [4, 4])
    if mode == "emi":  # the _emi pairs give the data ops a duration
        spans = t.spans(main, "target transfer to device")
        t.expect("transfers with a duration", all(b > a for a, b in spans), True)


def check_real(t):
    """progs/offload.c on libomp 19: 2 target regions of 2 maps each, an
    enter data, an update and an exit data of one array, 2 target nowait of
    one tofrom map each (8000 bytes every map)."""
    threads, devices = split(t)
    t.expect("accelerator locations", sorted(devices), ["OpenMP device 0"])
    t.expect("device 0", busy(t, devices.get("OpenMP device 0", -1)) if devices else None, {
        "target transfer to device": 5, "target kernel": 4, "target transfer from device": 5})
    c, b, d, outside = {}, {}, {}, 0
    for loc in threads:
        lc, lb, ld, lo = tally(t, loc)
        for k, v in lc.items():
            c[k] = c.get(k, 0) + v
        for k, v in lb.items():
            b[k] = b.get(k, 0) + v
        outside += lo
    got = {k: v for k, v in c.items() if k.startswith("target")}
    t.expect("target regions", got, {
        "target": 4, "target enter data": 1, "target update": 1, "target exit data": 1,
        "target alloc": 7, "target transfer to device": 5, "target transfer from device": 5,
        "target delete": 7, "target kernel": 4})
    t.expect("bytes to device", b.get("target transfer to device"), 5 * 8000)
    t.expect("bytes from device", b.get("target transfer from device"), 5 * 8000)
    # the nowait ones on other threads than the initial one (hidden helpers)
    helpers = sum(tally(t, loc)[0].get("target", 0) for loc in threads[1:])
    t.expect("target regions off the initial thread", helpers, 2)
    t.expect("data ops and kernels outside a construct", outside, 0)
    t.expect("devices loaded", c.get("device load"), 1)


def check_accepted(stderr, runtime):
    """libomp 19 accepts the _emi forms (the 5.0 ones are then not asked
    for) and the device callbacks but device_unload; 14-16 refuse all."""
    if runtime >= 19:
        want = ("target_emi target_data_op_emi target_submit_emi device_initialize "
                "device_finalize device_load; refused: device_unload")
    else:
        want = ("none; refused: target_emi target target_data_op_emi target_data_op "
                "target_submit_emi target_submit device_initialize device_finalize device_load "
                "device_unload")
    want = "omptrace: offload callbacks accepted: " + want
    got = [l for l in stderr.splitlines() if l.startswith("omptrace: offload")]
    if got != [want]:
        print("FAIL: libomp %d: expected %r, got %r" % (runtime, [want], got))
        return 1
    print("ok: libomp %d: %s" % (runtime, want))
    return 0


def check_summary(t, summary, out):
    """omptrace-summary counts the threads with events and the device apart:
    the device's location is no thread (it had shown as an idle one)."""
    r = subprocess.run([summary, "--format", "json", out], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
    t.expect("omptrace-summary exit status", r.returncode, 0)
    if r.returncode:
        return
    run = json.loads(r.stdout)["overview"]["run"]
    threads = [l for l in split(t)[0] if t.events[l]]
    t.expect("summary's threads and devices", (run.get("threads"), run.get("devices")),
             (len(threads), 1))
    names = [row.get("name") for row in json.loads(r.stdout).get("threads", {}).get("threads", [])]
    t.expect("device rows in 'Time per thread'", [n for n in names if "device" in (n or "")], [])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--prog", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--mode", required=True,
                    choices=("emi", "old", "real", "nopath", "launcher", "accepted"))
    ap.add_argument("--launcher", default="")
    ap.add_argument("--summary", default="")
    ap.add_argument("--runtime", type=int, default=0)
    ap.add_argument("--libomp-dir", default="")
    a = ap.parse_args()
    shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    env = dict(os.environ, OMPTRACE_OUTPUT=a.out, OMPTRACE_QUIET="1")
    if a.mode == "accepted":
        env.update(OMP_TOOL_LIBRARIES=a.lib, OMPTRACE_VERBOSE="1")
        cmd = [a.prog]
    elif a.mode in ("real", "nopath"):
        # libomptarget 19 finds libomp by dlopen("libomp.so"): on the search
        # path, or it connects no tool (docs/recording.md, "Offload")
        env.pop("LD_LIBRARY_PATH", None)
        env.update(OMP_TOOL_LIBRARIES=a.lib)
        if a.mode == "real":
            env.update(LD_LIBRARY_PATH=a.libomp_dir)
        cmd = [a.prog]
    elif a.mode == "launcher":
        # the launcher puts libomp's directory on the path itself
        env.pop("LD_LIBRARY_PATH", None)
        env.pop("OMP_TOOL_LIBRARIES", None)
        env.pop("OMPTRACE_QUIET")
        cmd = [a.launcher, a.prog]
    else:
        cmd = [a.prog, a.lib, a.mode]
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=120)
    if r.returncode != 0:
        print("FAIL: %s exited %d: %s" % (cmd[0], r.returncode, r.stderr))
        return 1
    if a.mode == "accepted":
        return check_accepted(r.stderr, a.runtime)
    t = Trace(os.path.join(a.out, "traces.otf2"))
    warning = ("omptrace: offload is not recorded: libomptarget finds the OpenMP runtime as "
               "libomp.so, which is not on the library path; run with LD_LIBRARY_PATH=%s"
               % a.libomp_dir)
    lines = [l for l in r.stderr.splitlines() if l.startswith("omptrace: offload")]
    t.expect("offload lines on stderr", lines, [warning] if a.mode == "nopath" else [])
    if a.mode == "launcher":
        said = ("omptrace: %s offloads: %s added to LD_LIBRARY_PATH, where libomptarget finds "
                "libomp.so to connect the tool" % (a.prog, a.libomp_dir))
        t.expect("the launcher's line", [l for l in r.stderr.splitlines() if "offloads:" in l],
                 [said])
    if a.mode == "nopath":
        names = sorted({e.region.name for l in t.locs for e in t.events[l]
                        if type(e).__name__ == "Enter" and "target" in e.region.name})
        t.expect("target regions", names, [])
        t.expect("accelerator locations", split(t)[1], {})
        teams = sum(1 for e in t.events[t.locs[0]]
                    if type(e).__name__ == "Enter" and e.region.name.startswith("teams"))
        t.expect("the kernels' teams regions on thread 0", teams, 2)
    elif a.mode in ("real", "launcher"):
        check_real(t)
        if a.summary:
            check_summary(t, a.summary, a.out)
    else:
        check_replay(t, a.mode)
    for f in t.failures:
        print("FAIL:", f)
    if not t.failures:
        print("ok: offload %s" % a.mode)
    return 1 if t.failures else 0


if __name__ == "__main__":
    sys.exit(main())
