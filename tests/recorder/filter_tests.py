#!/usr/bin/python3
"""Filter files (OMPTRACE_FILTER, docs/control.md) on progs/filtered.c: each
rule kind leaves exactly the Enter counts the program's semantics give for
what it keeps and none of what it excludes, the timeline stays balanced
(invariants.check_generic) and what an excluded construct contains nests in
its parent; a bad or missing file is one stderr line and an unfiltered run;
once its keys are decided, an excluded construct's records never reach the
log (decided).

usage: filter_tests.py --lib L --prog P --src DIR --work DIR [--launcher SH] CASE"""

import argparse
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import archive  # noqa: E402
import invariants  # noqa: E402
import otf2_print  # noqa: E402

ROUNDS, THREADS = 6, 2


def baseline(m, lib):
    """(construct, line) -> Enter count per location, from the program:
    ROUNDS rounds on each of the two threads, then helper() and lib_step()."""
    r = [ROUNDS] * THREADS
    one = [1] * THREADS
    return {
        ("parallel", m["parallel"]): one,
        ("implicit barrier", m["parallel"]): one,
        # a wait that spans its barrier is the barrier (docs/otf2-mapping.md)
        ("barrier", m["barrier"]): r, ("barrier wait", m["barrier"]): [],
        ("loop", m["loop"]): r, ("implicit barrier", m["loop"]): r,
        ("critical", m["critical"]): r, ("critical wait", m["critical"]): r,
        ("critical sblock", m["critical"]): r,
        ("flush", m["flush"]): r,
        ("omp_set_lock", m["lock"]): r, ("lock wait", m["lock"]): r,
        ("single", m["single"]): r, ("implicit barrier", m["single"]): r,
        ("single sblock", m["single"]): [ROUNDS],
        ("barrier", m["helper_barrier"]): one, ("masked", m["helper_masked"]): [1],
        ("barrier", lib["lib_barrier"]): one,
    }


def gone(exp, *keys):
    for k in keys:
        exp[k] = []


def case_files(m, lib):
    """Case -> (filter file text, expected counts, lock acquisitions)."""
    cases = {}
    e = baseline(m, lib)
    gone(e, ("barrier", m["barrier"]), ("barrier wait", m["barrier"]))
    cases["region"] = ("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE barrier\\ @\\ filtered.c:%d\n"
                       "SCOREP_REGION_NAMES_END\n" % m["barrier"], e, 24)
    e = baseline(m, lib)
    gone(e, ("critical", m["critical"]), ("critical wait", m["critical"]),
         ("critical sblock", m["critical"]))
    cases["construct"] = ("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE critical\n"
                          "SCOREP_REGION_NAMES_END\n", e, 12)
    e = baseline(m, lib)
    gone(e, ("omp_set_lock", m["lock"]), ("lock wait", m["lock"]), ("flush", m["flush"]))
    cases["lock"] = ("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE omp_set_lock flush\n"
                     "SCOREP_REGION_NAMES_END\n", e, 12)
    e = {k: (v if k[0] in ("parallel", "loop", "single", "single sblock") else [])
         for k, v in baseline(m, lib).items()}
    cases["include"] = ("# everything but loops and singles\n"
                        "SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE *   # all of it\n"
                        "  INCLUDE loop\n          single*\n"
                        "SCOREP_REGION_NAMES_END\n", e, 0)
    e = baseline(m, lib)
    gone(e, ("barrier", m["helper_barrier"]), ("barrier wait", m["helper_barrier"]),
         ("masked", m["helper_masked"]))
    cases["function"] = ("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE MANGLED helper\n"
                         "SCOREP_REGION_NAMES_END\n", e, 24)
    keep = (("parallel", m["parallel"]), ("barrier", m["helper_barrier"]),
            ("masked", m["helper_masked"]), ("barrier", lib["lib_barrier"]))
    e = {k: (v if k in keep else []) for k, v in baseline(m, lib).items()}
    cases["body"] = ("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE main\nSCOREP_REGION_NAMES_END\n", e, 0)
    e = baseline(m, lib)
    gone(e, ("barrier", lib["lib_barrier"]))
    cases["file"] = ("SCOREP_FILE_NAMES_BEGIN\n  EXCLUDE */filtered_*.c\n"
                     "SCOREP_FILE_NAMES_END\n", e, 24)
    cases["bad_syntax"] = ("SCOREP_REGION_NAMES_BEGIN\n\n  flush\nSCOREP_REGION_NAMES_END\n",
                           baseline(m, lib), 24)
    cases["missing"] = (None, baseline(m, lib), 24)
    # paths that are not a regular file of at most 16 MiB: one line, an unfiltered run
    for c in ("dev_zero", "fifo", "directory", "too_large"):
        cases[c] = (None, baseline(m, lib), 24)
    e = baseline(m, lib)
    gone(e, ("barrier", m["barrier"]), ("barrier wait", m["barrier"]), ("loop", m["loop"]),
         ("critical", m["critical"]), ("critical wait", m["critical"]),
         ("critical sblock", m["critical"]))
    e[("barrier", m["decided_barrier"])] = [1] * THREADS
    cases["decided"] = ("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE barrier\\ @\\ filtered.c:%d critical loop\n"
                        "SCOREP_REGION_NAMES_END\n" % m["barrier"], e, 12)
    cases["launcher"] = cases["construct"]
    cases["summary"] = cases["construct"]
    cases["recover"] = cases["construct"]
    return cases


def parent_of_flushes(t, line):
    """Construct names of the regions open around each flush Enter."""
    parents = set()
    for loc in t.locs:
        stack = []
        for e in t.events[loc]:
            k = type(e).__name__
            if k == "Enter":
                m = archive.REGION_NAME.match(e.region.name)
                if m and m.group("construct") == "flush" and int(m.group("line")) == line:
                    parents.add(archive.construct_of(stack[-1].region) if stack else None)
                stack.append(e)
            elif k == "Leave" and stack:
                stack.pop()
    return parents


def check_summary(a, anchor, m):
    """omptrace-summary lists the rules and the regions left out (text and
    JSON, the JSON valid against the schema)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "summary"))
    import schema_check  # noqa: E402
    problems = []
    txt = subprocess.run([a.summary, anchor], stdout=subprocess.PIPE, universal_newlines=True)
    js = subprocess.run([a.summary, "--format", "json", anchor], stdout=subprocess.PIPE,
                        universal_newlines=True)
    if txt.returncode or js.returncode:
        return ["omptrace-summary failed (%d, %d)" % (txt.returncode, js.returncode)]
    for want in ("Filter file rules (OMPTRACE_FILTER)", "  EXCLUDE critical\n",
                 "Constructs left out by the filter", "  critical @ filtered.c:%d\n"
                 % m["critical"], "no idle time, no runtime overhead"):
        if want not in txt.stdout:
            problems.append("summary text lacks %r" % want)
    doc = json.loads(js.stdout)
    got = (doc["overview"].get("filter"), doc["overview"].get("filtered"))
    want = ([{"rule": "EXCLUDE critical"}], [{"region": "critical @ filtered.c:%d" % m["critical"]}])
    if got != want:
        problems.append("summary JSON filter, filtered: expected %r, got %r" % (want, got))
    with open(a.schema) as f:
        problems += ["schema: %s" % e for e in schema_check.validate(doc, json.load(f))]
    return problems


def replayed(prog, env):
    """Records the replay read from the log (OMPTRACE_VERBOSE's count)."""
    p = subprocess.run([prog, "decided"], env=dict(env, OMPTRACE_VERBOSE="1"),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                       timeout=300)
    for line in p.stderr.splitlines():
        if line.startswith("omptrace: replay: "):
            return int(line.split()[2])
    return None


def dropped_while_recording(a, env, out):
    """decided: from the second round on, every key is decided, so the
    handlers drop the excluded constructs' records while recording (the
    filter's fast path): per round and thread a barrier's 4 records (region
    and wait, begin and end), a critical section's 3 (acquire, acquired,
    released) and a loop's 2; the first round's reach the log, finalize
    drops them. Periodic flushes are off: a pass of theirs inside the
    first round would decide the keys earlier."""
    env = dict(env, OMPTRACE_FLUSH_INTERVAL="off")
    rounds = ROUNDS - 1
    want = rounds * THREADS * (4 + 3 + 2)
    plain = dict(env, OMPTRACE_OUTPUT=out + "-plain")
    del plain["OMPTRACE_FILTER"]
    unfiltered, filtered = replayed(a.prog, plain), replayed(a.prog, dict(env, OMPTRACE_OUTPUT=out + "-v"))
    shutil.rmtree(out + "-plain", ignore_errors=True)
    shutil.rmtree(out + "-v", ignore_errors=True)
    print("records: %s unfiltered, %s filtered" % (unfiltered, filtered))
    if unfiltered is None or filtered is None or unfiltered - filtered != want:
        return ["records dropped while recording: %s - %s, expected %d" % (unfiltered, filtered, want)]
    return []


def main():
    ap = argparse.ArgumentParser()
    for a in ("--lib", "--prog", "--src", "--work"):
        ap.add_argument(a, required=True)
    ap.add_argument("--launcher", help="share/omptrace, for the launcher case")
    ap.add_argument("--summary", help="omptrace-summary, for the summary case")
    ap.add_argument("--schema", help="docs/summary-schema.json, for the summary case")
    ap.add_argument("--recover", help="omptrace-recover, for the recover case")
    ap.add_argument("case")
    a = ap.parse_args()
    src = os.path.join(a.src, "filtered.c")
    m = archive.markers(src)
    lib = archive.markers(os.path.join(a.src, "filtered_lib.c"))
    text, expected, acquisitions = case_files(m, lib)[a.case]
    out = os.path.join(a.work, a.case)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(a.work, exist_ok=True)
    path = os.path.join(a.work, a.case + ".filter")
    not_regular = {"dev_zero": "not a regular file", "fifo": "not a regular file",
                   "directory": "not a regular file",
                   "too_large": "larger than 16 MiB (%d bytes)" % (16 * 2**20 + 1)}
    if a.case == "dev_zero":
        path = "/dev/zero"
    elif a.case in not_regular:
        if os.path.lexists(path):
            if os.path.isdir(path) and not os.path.islink(path):
                os.rmdir(path)
            else:
                os.unlink(path)
        if a.case == "fifo":  # nobody writes to it: opening must not wait for a writer
            os.mkfifo(path)
        elif a.case == "directory":
            os.mkdir(path)
        else:  # sparse, one byte over the bound
            with open(path, "w") as f:
                f.truncate(16 * 2**20 + 1)
    elif text is None:
        path = os.path.join(a.work, "no-such-dir", "missing.filter")
    else:
        with open(path, "w") as f:
            f.write(text)
    env = dict(os.environ, OMP_TOOL_LIBRARIES=a.lib, OMPTRACE_OUTPUT=out, OMPTRACE_QUIET="1",
               OMPTRACE_FILTER=path)
    cmd = [a.prog]
    if a.case == "launcher":  # --filter FILE instead of the variable
        del env["OMPTRACE_FILTER"]
        env["OMPTRACE_LIBRARY"] = a.lib
        cmd = [a.launcher, "--filter", path, a.prog]
    if a.case == "recover":  # killed after a flush: omptrace-recover applies the same rules
        cmd.append("kill")
    if a.case == "decided":
        cmd.append("decided")
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=300)
    sys.stdout.write(p.stderr)
    problems = []
    want_rc = -9 if a.case == "recover" else 0
    if p.returncode != want_rc or not p.stdout.startswith("total "):
        problems.append("program: status %d, stdout %r" % (p.returncode, p.stdout))
    if a.case == "recover":
        r = subprocess.run([a.recover, out], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=300)
        sys.stdout.write(r.stdout)
        if r.returncode != 0:
            problems.append("omptrace-recover: status %d" % r.returncode)
    lines = p.stderr.splitlines()
    want = {"bad_syntax": ["omptrace: OMPTRACE_FILTER: %s:3: pattern 'flush' before EXCLUDE or "
                           "INCLUDE; tracing goes on unfiltered" % path],
            "missing": ["omptrace: OMPTRACE_FILTER: %s: No such file or directory; tracing "
                        "goes on unfiltered" % path]}.get(a.case, [])
    if a.case in not_regular:
        want = ["omptrace: OMPTRACE_FILTER: %s: %s; tracing goes on unfiltered"
                % (path, not_regular[a.case])]
    if lines != want:
        problems.append("stderr: expected %r, got %r" % (want, lines))
    t = archive.Trace(os.path.join(out, "traces.otf2"))
    print(archive.summary(t))
    # source=None: the regions of filtered_lib.c are not in filtered.c
    invariants.check_generic(t, source=None, program=os.path.basename(a.prog),
                             complete=a.case != "recover")
    otf2_print.check_with_otf2_print(t)
    for (construct, line), each in sorted(expected.items()):
        if construct in ("masked", "single sblock"):
            t.expect_enters(construct, line, total=sum(each))
        else:
            t.expect_enters(construct, line, each=each)
    t.expect_kind("ThreadAcquireLock", total=acquisitions)
    t.expect_kind("ThreadReleaseLock", total=acquisitions)
    if a.case in ("construct", "launcher"):
        t.expect("regions around a flush of an excluded critical",
                 parent_of_flushes(t, m["flush"]), {"parallel"})
    if a.case in ("summary", "recover"):
        problems += check_summary(a, os.path.join(out, "traces.otf2"), m)
    if a.case == "decided":
        problems += dropped_while_recording(a, env, out)
    problems += t.failures
    for msg in problems:
        print("FAIL:", msg)
    print("%s: %s" % (a.case, "FAILED (%d problems)" % len(problems) if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
