#!/usr/bin/python3
"""Runs one test program under omptrace and checks its archive: the
program's exit status and stdout must be those of an untraced run, the
archive must satisfy every generic invariant (invariants.check_generic), agree
with otf2-print, and match the program's exact expectations (cases.py).
With --recover, the run keeps its record log (OMPTRACE_KEEP_LOG=1) and its
finalize must have taken the scan from the flusher (finalize/scan_feed.h):
omptrace-recover, which scans the log itself, must then write the same
archive from that log (otf2-print -A identical)."""

import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402
import archive  # noqa: E402
import invariants  # noqa: E402
import otf2_print  # noqa: E402


def run(cmd, env):
    """(exit status, stdout, stderr, pid)."""
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True)
    out, err = p.communicate(timeout=300)
    return p.returncode, out, err, p.pid


def traced_env(lib, out, extra):
    env = dict(os.environ)
    env.update(extra)
    env["OMP_TOOL_LIBRARIES"] = lib
    env["OMPTRACE_OUTPUT"] = out
    return env


def check_archive(anchor, source, case, program, complete, pid):
    t = archive.Trace(anchor)
    invariants.check_generic(t, source=source, program=program, complete=complete, pid=pid)
    otf2_print.check_with_otf2_print(t)
    check, _, _, _ = cases.CASES[case]
    check(t, archive.markers(source))
    return t


def printed(anchor):
    """otf2-print -A; a sampled frame in the vDSO has its name only in the
    recording process (no file on disk)."""
    return [re.sub(r'"(__vdso_\w+|\[unknown\])"', '"<vdso>"', l)
            for l in otf2_print.print_all(anchor)]


def same_as_recovered(recover, out, err):
    """The in-process archive, made with the scan the flusher fed and from
    thread logs read without their CRCs, against omptrace-recover's from the
    kept log (every CRC checked)."""
    problems = []
    if "omptrace: scan: the records as the flusher wrote them" not in err:
        problems.append("finalize did not take the scan from the flusher: %r" %
                        re.findall(r"omptrace: scan: .*", err))
    # Finalize reads the logs it wrote itself without their CRCs (finalize/run.c).
    m = re.search(r"omptrace: log: (\d+) of (\d+) thread log files are as this process wrote them", err)
    if not m or m.group(1) != m.group(2):
        problems.append("finalize did not read every thread log file as written: %r" %
                        (m.group(0) if m else None))
    again = out + ".recovered"
    shutil.rmtree(again, ignore_errors=True)
    r = subprocess.run([recover, "--keep", "-q", "-o", again, out], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True, timeout=300)
    if r.returncode != 0:
        return problems + ["omptrace-recover of the kept log: exit %d: %s" %
                           (r.returncode, r.stdout)]
    a = printed(os.path.join(out, "traces.otf2"))
    b = printed(os.path.join(again, "traces.otf2"))
    if a != b:
        diff = [(i, x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y][:3]
        problems.append("the archive differs from omptrace-recover's (%d and %d lines; first "
                        "differences %r)" % (len(a), len(b), diff))
    else:
        print("same archive as omptrace-recover of the kept log (%d lines)" % len(a))
    return problems


def loads_libomp_from(prog, libdir, extra):
    """The matrix's programs find their libomp by their rpath (ldd says
    where the loader takes it from)."""
    r = subprocess.run(["ldd", prog], env=dict(os.environ, **extra), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True, timeout=60)
    m = re.search(r"libomp\.so\.5 => (\S+)", r.stdout)
    got = os.path.dirname(m.group(1)) if m else None
    if got is None or os.path.realpath(got) != os.path.realpath(libdir):
        return ["the program loads libomp.so.5 from %r, not from %s" % (got, libdir)]
    print("libomp.so.5 from %s" % got)
    return []


def built_by_clang(prog, version):
    """The matrix's programs come from clang-N (DWARF's producer)."""
    r = subprocess.run(["readelf", "--debug-dump=info", prog], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, universal_newlines=True, timeout=60)
    got = sorted(set(re.findall(r"DW_AT_producer.*?clang version (\d+)\.", r.stdout)))
    if got != [str(version)]:
        return ["the program was built by clang %r, not clang %d" % (got, version)]
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--prog", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--out", required=True, help="archive directory (replaced)")
    ap.add_argument("--case", required=True)
    ap.add_argument("--ld-library-path", default=None)
    ap.add_argument("--recover", default=None, help="omptrace-recover: check the scan fed in-run")
    ap.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                    help="extra environment for the traced run")
    ap.add_argument("--runtime", type=int, default=14,
                    help="LLVM version of the libomp the program runs on (cases.RUNTIME)")
    ap.add_argument("--libomp-dir", default=None,
                    help="the program must load libomp.so.5 from this directory")
    ap.add_argument("--clang", type=int, default=None,
                    help="with --libomp-dir: the clang version that built the program "
                    "(default: --runtime)")
    args = ap.parse_args()
    cases.RUNTIME = args.runtime

    _, extra, status, complete = cases.CASES[args.case]
    extra = dict(extra)
    if args.ld_library_path:
        extra["LD_LIBRARY_PATH"] = args.ld_library_path
    traced_extra = dict(extra, **dict(kv.split("=", 1) for kv in args.env))
    if args.recover:
        traced_extra.update(OMPTRACE_KEEP_LOG="1", OMPTRACE_VERBOSE="1")
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)

    plain_env = dict(os.environ, OMP_TOOL="disabled", **extra)
    p_status, p_out, _, _ = run([args.prog], plain_env)
    status_, out, err, pid = run([args.prog], traced_env(args.lib, args.out, traced_extra))
    sys.stdout.write("--- traced stderr ---\n" + err)

    problems = []
    if args.libomp_dir:
        problems += loads_libomp_from(args.prog, args.libomp_dir, extra)
        problems += built_by_clang(args.prog, args.clang or args.runtime)
    if p_status != status:
        problems.append("untraced run exited with %d, expected %d" % (p_status, status))
    if status_ != status:
        problems.append("traced run exited with %d, expected %d" % (status_, status))
    if out != p_out:
        problems.append("stdout differs: traced %r, untraced %r" % (out, p_out))
    for line in err.splitlines():
        if not line.startswith("omptrace: "):
            problems.append("unexpected stderr line: %r" % line)
    anchor = os.path.join(args.out, "traces.otf2")
    if not os.path.exists(anchor):
        problems.append("no archive at %s" % anchor)
    else:
        try:
            t = check_archive(anchor, args.src, args.case, os.path.basename(args.prog), complete,
                              pid)
            print(archive.summary(t))
            problems += t.failures
        except Exception as e:  # unreadable archive
            problems.append("reading %s failed: %s: %s" % (anchor, type(e).__name__, e))
        if args.recover:
            problems += same_as_recovered(args.recover, args.out, err)
    for p in problems:
        print("FAIL: " + p)
    print("%s: %s" % (args.case, "FAILED (%d problems)" % len(problems) if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
