"""The command line that bench/e2e.py and bench/exit_phases.py share: a
build directory whose ot_scale and libomptrace.so are run, repetitions,
threads, an optional --before library and the ot_scale programs."""
import argparse
import os
import sys


def parse(doc, me, reps):
    """Parses the command line; exits with one line naming a missing file.
    Returns (args, ot_scale path, libomptrace.so path)."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--build", required=True, help="CMake build directory")
    ap.add_argument("--reps", type=int, default=reps)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--before", help="another libomptrace.so, measured as variant 'before'")
    ap.add_argument("--runtime", action="append", default=[], metavar="NAME=LIBDIR",
                    help="also run on the libomp.so.5 in LIBDIR (LD_LIBRARY_PATH, which goes "
                    "before ot_scale's runpath): variants 'no tool NAME' and 'omptrace NAME' "
                    "(repeatable)")
    ap.add_argument("--program", action="append",
                    help="arguments of ot_scale (repeatable), e.g. \"fib 26\"")
    ap.add_argument("--keep", action="store_true",
                    help="keep every run's files until the end: on ext4 without a journal, "
                    "files deleted in the last 60 s slow down each file creation")
    a = ap.parse_args()
    scale = os.path.join(a.build, "bench", "ot_scale")
    lib = os.path.join(a.build, "recorder", "libomptrace.so")
    for f in (scale, lib):
        if not os.path.exists(f):
            sys.exit("%s: %s is missing (cmake --build %s)" % (me, f, a.build))
    if a.before and not os.path.exists(a.before):
        sys.exit("%s: %s is missing" % (me, a.before))
    for r in a.runtime:
        name, _, libdir = r.partition("=")
        if not name or not os.path.exists(os.path.join(libdir, "libomp.so.5")):
            sys.exit("%s: --runtime takes NAME=LIBDIR with LIBDIR/libomp.so.5, not '%s'" % (me, r))
    return a, scale, lib
