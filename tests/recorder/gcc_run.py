#!/usr/bin/python3
"""A gcc-built program traced as a user would: through the omptrace launcher,
which puts it on libomp's GOMP entry points (LD_PRELOAD of the libomp.so.5 in
LD_LIBRARY_PATH, here --libomp-dir, libomp N of the support matrix).

    gcc_run.py --launcher L --prog P --src S --out DIR --case C --libomp-dir D
        the launcher's line naming D/libomp.so.5, the program's exit status
        and stdout as on libgomp, and the archive checked as run_case.py does
        (generic invariants, otf2-print, the exact case of gcc_cases.py or
        cases.py); with --recover, also that omptrace-recover writes the same
        archive from the kept record log
    gcc_run.py --launcher L --prog P --out DIR --libgomp
        without any libomp (an ldconfig that knows none, no LD_LIBRARY_PATH):
        the launcher's one line saying that nothing is recorded, the program's
        exit status and stdout, no archive; and OMP_TOOL_LIBRARIES without the
        launcher: libgomp never loads the tool (no line, no archive)."""

import argparse
import os
import shutil
import stat
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import archive  # noqa: E402
import cases  # noqa: E402
import gcc_cases  # noqa: E402
import run_case  # noqa: E402

cases.CASES.update(gcc_cases.CASES)


def untraced(prog):
    env = dict(os.environ)
    for v in ("OMP_TOOL_LIBRARIES", "LD_PRELOAD", "LD_LIBRARY_PATH"):
        env.pop(v, None)
    status, out, _, _ = run_case.run([prog], env)
    return status, out


def stray_lines(err):
    return ["unexpected stderr line: %r" % l for l in err.splitlines()
            if not l.startswith("omptrace: ")]


def traced(a):
    """The launcher with libomp N on LD_LIBRARY_PATH."""
    problems = []
    _, extra, status, complete = cases.CASES[a.case]
    p_status, p_out = untraced(a.prog)
    env = dict(os.environ, LD_LIBRARY_PATH=a.libomp_dir, **extra)
    if a.recover:
        env.update(OMPTRACE_KEEP_LOG="1", OMPTRACE_VERBOSE="1")
    env.pop("LD_PRELOAD", None)
    env.pop("OMPTRACE_QUIET", None)
    shutil.rmtree(a.out, ignore_errors=True)
    t_status, out, err, pid = run_case.run([a.launcher, "-o", a.out, a.prog], env)
    sys.stdout.write("--- traced stderr ---\n" + err)
    want = "omptrace: %s uses libgomp: running it on %s" % (
        a.prog, os.path.join(a.libomp_dir, "libomp.so.5"))
    if want not in err.splitlines():
        problems.append("no launcher line %r" % want)
    for got, what in ((p_status, "on libgomp"), (t_status, "traced")):
        if got != status:
            problems.append("%s: exit status %d, expected %d" % (what, got, status))
    if out != p_out:
        problems.append("stdout differs: traced %r, on libgomp %r" % (out, p_out))
    problems += stray_lines(err)
    anchor = os.path.join(a.out, "traces.otf2")
    if not os.path.exists(anchor):
        return problems + ["no archive at %s" % anchor]
    try:
        t = run_case.check_archive(anchor, a.src, a.case, os.path.basename(a.prog), complete, pid)
        print(archive.summary(t))
        problems += t.failures
    except Exception as e:  # unreadable archive
        problems.append("reading %s failed: %s: %s" % (anchor, type(e).__name__, e))
    if a.recover:
        problems += run_case.same_as_recovered(a.recover, a.out, err)
    return problems


def on_libgomp(a):
    """No libomp to be found: the launcher says once that nothing is
    recorded; without the launcher libgomp says nothing at all."""
    problems = []
    p_status, p_out = untraced(a.prog)
    fake = tempfile.mkdtemp(prefix="omptrace-gcc-")
    try:
        ldconfig = os.path.join(fake, "ldconfig")  # knows no libomp.so.5
        with open(ldconfig, "w") as f:
            f.write("#!/bin/sh\nexit 0\n")
        os.chmod(ldconfig, stat.S_IRWXU)
        env = dict(os.environ, PATH=fake + os.pathsep + os.environ.get("PATH", ""))
        for v in ("LD_LIBRARY_PATH", "LD_PRELOAD", "OMPTRACE_QUIET"):
            env.pop(v, None)
        shutil.rmtree(a.out, ignore_errors=True)
        status, out, err, _ = run_case.run([a.launcher, "-o", a.out, a.prog], env)
    finally:
        shutil.rmtree(fake, ignore_errors=True)
    sys.stdout.write("--- launcher stderr ---\n" + err)
    want = ["omptrace: %s runs on libgomp, which has no tools interface: nothing will be recorded "
            "(no libomp.so.5 on LD_LIBRARY_PATH or in ldconfig's cache to run it on instead: "
            "apt-get install libomp5-14)" % a.prog]
    if err.splitlines() != want:
        problems.append("launcher stderr %r, expected %r" % (err.splitlines(), want))
    if (status, out) != (p_status, p_out):
        problems.append("launcher: exit %d, stdout %r; on libgomp: exit %d, stdout %r" %
                        (status, out, p_status, p_out))
    if os.path.exists(a.out):
        problems.append("%s exists: something was recorded" % a.out)
    # GCC 12's libgomp reads no OMP_TOOL_LIBRARIES: the tool is never loaded
    env = dict(os.environ, OMP_TOOL_LIBRARIES=a.lib, OMPTRACE_OUTPUT=a.out)
    for v in ("LD_LIBRARY_PATH", "LD_PRELOAD"):
        env.pop(v, None)
    status, out, err, _ = run_case.run([a.prog], env)
    if (status, out, err) != (p_status, p_out, ""):
        problems.append("OMP_TOOL_LIBRARIES on libgomp: exit %d, stdout %r, stderr %r" %
                        (status, out, err))
    if os.path.exists(a.out):
        problems.append("OMP_TOOL_LIBRARIES on libgomp wrote %s" % a.out)
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--launcher", required=True, help="the build's share/omptrace")
    ap.add_argument("--prog", required=True)
    ap.add_argument("--out", required=True, help="archive directory (replaced)")
    ap.add_argument("--src")
    ap.add_argument("--case")
    ap.add_argument("--libomp-dir", help="libomp N's lib directory (holds libomp.so.5)")
    ap.add_argument("--libgomp", action="store_true", help="the run without any libomp")
    ap.add_argument("--lib", help="libomptrace.so (--libgomp)")
    ap.add_argument("--recover", help="omptrace-recover: the same archive from the kept log")
    ap.add_argument("--runtime", type=int, default=14, help="libomp's LLVM version (cases.RUNTIME)")
    a = ap.parse_args()
    cases.RUNTIME = a.runtime
    if a.libgomp:
        if not a.lib:
            ap.error("--libgomp needs --lib")
        problems = on_libgomp(a)
        name = "libgomp"
    else:
        if not (a.src and a.case and a.libomp_dir):
            ap.error("--src, --case and --libomp-dir are needed")
        problems = traced(a)
        name = a.case
    for p in problems:
        print("FAIL: " + p)
    print("%s: %s" % (name, "FAILED (%d problems)" % len(problems) if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
