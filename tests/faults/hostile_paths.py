#!/usr/bin/python3
"""Hostile output paths (issue 26, item 8): another user (nobody) plants a
symbolic link where the tool or omptrace-recover writes, or owns the output
directory, or plants traces.otf2 -> victim there during the run. In every
case the victim (a root-only 0600 file, or an empty directory) is unchanged
(content and mtime), the tool says so in its one line, the program's exit
status and output are unchanged, and the archive is written to a safe place
(read back with python3-otf2) or refused as docs/recording.md says.

Programs wait for the driver on stdin ("reached K", then a line), so links
are planted between phases without sleeps. Needs root (to run as nobody)
and setpriv; skipped otherwise (status 77, one line).

usage: hostile_paths.py --lib L --bin DIR --recover EXE --launcher OMPTRACE --work DIR CASE"""

import argparse
import collections
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import otf2

SKIP = 77
DEADLINE = 120.0  # seconds: only a product that never gets there hits it
NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
A = None
problems = []


def fail(msg):
    problems.append(msg)


def as_nobody(*cmd):
    subprocess.run(NOBODY + list(cmd), check=True)


def sticky_dir(name):
    """A /tmp-like directory: root's, mode 1777."""
    path = os.path.join(A.work, name)
    shutil.rmtree(path, ignore_errors=True)
    os.mkdir(path)
    os.chmod(path, 0o1777)
    return path


def make_victims():
    """A root-only file with known content and an empty root directory."""
    vf = os.path.join(A.work, "victim")
    vd = os.path.join(A.work, "victim.d")
    if os.path.exists(vf):
        os.unlink(vf)
    shutil.rmtree(vd, ignore_errors=True)
    with open(vf, "w") as f:
        f.write("root's secret\n")
    os.chmod(vf, 0o600)
    os.mkdir(vd)
    os.utime(vf, (1000000000, 1000000000))
    os.utime(vd, (1000000000, 1000000000))
    return vf, vd


def check_victims(tag, vf, vd):
    st = os.stat(vf)
    if open(vf).read() != "root's secret\n" or st.st_mtime != 1000000000 or st.st_size != 14:
        fail("%s: the victim file was written (size %d, mtime %d)" % (tag, st.st_size,
                                                                       st.st_mtime))
    if os.listdir(vd) or os.stat(vd).st_mtime != 1000000000:
        fail("%s: the victim directory was written: %r" % (tag, os.listdir(vd)))


def env(out):
    e = {k: v for k, v in os.environ.items() if not k.startswith("OMPTRACE_")}
    e.update(OMP_TOOL_LIBRARIES=A.lib, OMPTRACE_OUTPUT=out, OMPTRACE_FLUSH_INTERVAL="50ms")
    # sanitizer builds: a fork child's leak report would change its status
    e["ASAN_OPTIONS"] = ":".join(x for x in (e.get("ASAN_OPTIONS"), "detect_leaks=0") if x)
    return e


class Run:
    """fault_victim par1 wait par2 (or another program) with pipes."""

    def __init__(self, cmd, out):
        self.err = open(os.path.join(A.work, "stderr.txt"), "w+")
        self.p = subprocess.Popen(cmd, env=env(out), cwd=A.work, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=self.err,
                                  universal_newlines=True)

    def line(self):
        return self.p.stdout.readline()

    def go(self):
        self.p.stdin.write("go\n")
        self.p.stdin.flush()

    def finish(self):
        out, _ = self.p.communicate(timeout=240)
        self.err.seek(0)
        return self.p.returncode, out, self.err.read()

    def stderr(self):
        self.err.seek(0)
        return self.err.read()


def victim_run(out, between=None, launcher=False):
    """The program's two phases, `between` called at its wait; its status,
    whole stdout and stderr. With launcher: `omptrace -o out prog`."""
    cmd = [os.path.join(A.bin, "fault_victim"), "par1", "wait", "par2"]
    if launcher:
        cmd = [A.launcher, "-o", out] + cmd
    r = Run(cmd, out)
    first = r.line()
    if between:
        between(r)
    r.go()
    status, rest, err = r.finish()
    return status, first + rest, err


def counts(anchor):
    """Enter events per (location, construct) and the total."""
    c, total = collections.Counter(), 0
    with otf2.reader.open(anchor) as tr:
        for loc, ev in tr.events:
            total += 1
            if isinstance(ev, otf2.events.Enter):
                c[(loc.name, ev.region.name.split(" @ ")[0])] += 1
    return c, total


def expect_archive(tag, d, per_thread, nthreads, total=None):
    anchor = os.path.join(d, "traces.otf2")
    if not os.path.isfile(anchor) or os.path.islink(anchor):
        fail("%s: no archive at %s (%r)" % (tag, anchor, sorted(os.listdir(d))))
        return
    c, n = counts(anchor)
    for t in range(nthreads):
        for what in ("parallel", "barrier"):
            got = c[("OpenMP thread %d" % t, what)]
            if got != per_thread:
                fail("%s: thread %d entered %s %d times, expected %d" % (tag, t, what, got,
                                                                         per_thread))
    if total is not None and n != total:
        fail("%s: %d events, expected %d" % (tag, n, total))


def expect_victim_output(tag, status, stdout):
    if status != 0 or stdout != "reached 1\ndone 48\n":
        fail("%s: program status %r, stdout %r (expected 0, 'reached 1/done 48')" % (
            tag, status, stdout))


def expect_line(tag, err, pattern):
    lines = [x for x in err.splitlines() if re.fullmatch(pattern, x)]
    if len(lines) != 1:
        fail("%s: expected one line matching %r in stderr:\n%s" % (tag, pattern, err))


# ---- cases -----------------------------------------------------------------


def link_at_output(tag, launcher):
    """OMPTRACE_OUTPUT (or the launcher's -o) is nobody's link, in a sticky
    directory, to a root directory: not followed; DIR.1 gets the archive."""
    vf, vd = make_victims()
    s = sticky_dir("sticky-" + tag)
    out = os.path.join(s, "out")
    as_nobody("ln", "-s", vd, out)
    status, stdout, err = victim_run(out, launcher=launcher)
    expect_victim_output(tag, status, stdout)
    expect_line(tag, err, r"omptrace: not safe to write in: %s is a symbolic link owned "
                r"by another user \(uid \d+\): not followed; writing to %s\.1 instead"
                % (re.escape(out), re.escape(out)))
    expect_archive(tag, out + ".1", 16, 3, 416)
    check_victims(tag, vf, vd)


def t_output_link():
    link_at_output("output_link", False)


def t_launcher_link():
    link_at_output("launcher_link", True)


def t_dot1_link():
    """DIR holds an archive and DIR.1 is nobody's link: DIR.2."""
    vf, vd = make_victims()
    s = sticky_dir("sticky-dot1")
    out = os.path.join(s, "out")
    os.mkdir(out)
    open(os.path.join(out, "traces.otf2"), "w").close()  # taken: an archive
    as_nobody("ln", "-s", vd, out + ".1")
    status, stdout, err = victim_run(out)
    expect_victim_output("dot1_link", status, stdout)
    expect_line("dot1_link", err, r"omptrace: not safe to write in: %s\.1 is a symbolic link "
                r"owned by another user \(uid \d+\): not followed; writing to %s\.2 instead"
                % (re.escape(out), re.escape(out)))
    expect_archive("dot1_link", out + ".2", 16, 3, 416)
    check_victims("dot1_link", vf, vd)


def t_fork_link():
    """DIR.fork-PID is nobody's link: the child records into DIR.fork-PID.1.
    Run in a PID namespace of its own, so every pid the child can get
    (2..400) is planted beforehand."""
    if subprocess.run(["unshare", "--pid", "--fork", "true"], stderr=subprocess.DEVNULL).returncode:
        print("skipped: cannot make a PID namespace here (unshare --pid)")
        return SKIP
    vf, vd = make_victims()
    s = sticky_dir("sticky-fork")
    out = os.path.join(s, "out")
    # what a forked child that exec'ed leaves (only .log/ with tiny files):
    # the parent's cleanup of such directories must not empty it through
    # a link
    held = os.path.join(A.work, "victim.fork")
    shutil.rmtree(held, ignore_errors=True)
    os.makedirs(os.path.join(held, ".log"))
    with open(os.path.join(held, ".log", "0.log"), "w") as f:
        f.write("root's\n")
    for pid in range(2, 401):
        os.symlink(held if pid % 2 else vd, "%s.fork-%d" % (out, pid))
    subprocess.run(["chown", "-h", "nobody:nogroup"] + glob.glob(out + ".fork-*"), check=True)
    p = subprocess.run(["unshare", "--pid", "--fork", os.path.join(A.bin, "fault_forker")],
                       env=env(out), cwd=A.work, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=240)
    m = re.search(r"^child (\d+) done \d+$", p.stdout, re.M)
    if p.returncode != 0 or not m:
        fail("fork_link: status %d, stdout %r, stderr %r" % (p.returncode, p.stdout, p.stderr))
        return
    child = "%s.fork-%s" % (out, m.group(1))
    expect_line("fork_link", p.stderr, r"omptrace: not safe to write in: %s is a symbolic link "
                r"owned by another user \(uid \d+\): not followed; writing to %s\.1 instead"
                % (re.escape(child), re.escape(child)))
    expect_archive("fork_link", child + ".1", 3, 2)
    if not os.path.islink(child):
        fail("fork_link: %s changed" % child)
    if os.listdir(held) != [".log"] or os.listdir(os.path.join(held, ".log")) != ["0.log"]:
        fail("fork_link: the parent's cleanup emptied %s through a link" % held)
    check_victims("fork_link", vf, vd)


def t_snapshot_link():
    """DIR (root's, sticky) gets nobody's link DIR/snapshot-1: the
    snapshot goes to DIR/snapshot-2."""
    vf, vd = make_victims()
    out = sticky_dir("sticky-snap")
    as_nobody("ln", "-s", vd, os.path.join(out, "snapshot-1"))
    snap = os.path.join(out, "snapshot-2")

    def snapshot(r):
        os.kill(r.p.pid, signal.SIGUSR2)
        end = time.monotonic() + DEADLINE
        while "snapshot 2 written" not in r.stderr() and time.monotonic() < end:
            time.sleep(0.05)  # polls for the line; only the deadline fails

    status, stdout, err = victim_run(out, snapshot)
    expect_victim_output("snapshot_link", status, stdout)
    expect_line("snapshot_link", err, r"omptrace: snapshot: %s/snapshot-1 is taken: writing to "
                r"snapshot-2 instead" % re.escape(out))
    expect_line("snapshot_link", err, r"omptrace: snapshot 2 written to %s .*" % re.escape(snap))
    expect_archive("snapshot_link", snap, 8, 3)
    expect_archive("snapshot_link (run)", out, 16, 3, 416)
    check_victims("snapshot_link", vf, vd)


def t_recover_link():
    """omptrace-recover -o OUT where OUT is nobody's link: refused, exit 1,
    one line; the log recovers elsewhere."""
    vf, vd = make_victims()
    s = sticky_dir("sticky-rec")
    run = os.path.join(A.work, "rec-run")
    shutil.rmtree(run, ignore_errors=True)
    e = env(run)
    e["OMPTRACE_KEEP_LOG"] = "1"
    subprocess.run([os.path.join(A.bin, "fault_victim"), "par1", "par2"], env=e, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = os.path.join(s, "rec")
    as_nobody("ln", "-s", vd, out)
    p = subprocess.run([A.recover, "-q", "-o", out, run], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    want = (r"omptrace-recover: -o %s: not safe to write in: %s is a symbolic link owned by "
            r"another user \(uid \d+\): not followed" % (re.escape(out), re.escape(out)))
    if p.returncode != 1 or not re.fullmatch(want + "\n", p.stderr) or p.stdout:
        fail("recover_link: status %d, stdout %r, stderr %r" % (p.returncode, p.stdout,
                                                                p.stderr))
    check_victims("recover_link", vf, vd)
    # in place, DIR given through nobody's link to root's run: refused
    # before the archive there is replaced
    anchor = os.path.join(run, "traces.otf2")
    before = (open(anchor, "rb").read(), os.stat(anchor).st_mtime_ns)
    link = os.path.join(s, "run")
    as_nobody("ln", "-s", run, link)
    p = subprocess.run([A.recover, "-q", link], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    want = (r"omptrace-recover: %s: not safe to write in: %s is a symbolic link owned by "
            r"another user \(uid \d+\): not followed" % (re.escape(link), re.escape(link)))
    if p.returncode != 1 or not re.fullmatch(want + "\n", p.stderr) or p.stdout:
        fail("recover_link (in place): status %d, stdout %r, stderr %r" % (
            p.returncode, p.stdout, p.stderr))
    if (open(anchor, "rb").read(), os.stat(anchor).st_mtime_ns) != before:
        fail("recover_link (in place): %s was replaced through the link" % anchor)
    p = subprocess.run([A.recover, "-q", "-o", out + "2", run], stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0 or p.stderr:
        fail("recover_link: a safe -o: status %d, %r" % (p.returncode, p.stderr))
    expect_archive("recover_link", out + "2", 16, 3, 416)


def t_planted_anchor():
    """nobody pre-creates the empty output directory and plants
    traces.otf2 -> victim during the run: the directory is refused at the
    start (another user's) and DIR.1 gets the archive."""
    vf, vd = make_victims()
    out = os.path.join(A.work, "theirs")
    shutil.rmtree(out, ignore_errors=True)
    for d in glob.glob(out + ".*"):
        shutil.rmtree(d, ignore_errors=True)
    os.mkdir(out)
    os.chmod(out, 0o755)
    os.chown(out, int(subprocess.check_output(["id", "-u", "nobody"])),
             int(subprocess.check_output(["id", "-g", "nobody"])))
    status, stdout, err = victim_run(
        out, lambda r: as_nobody("ln", "-s", vf, os.path.join(out, "traces.otf2")))
    expect_victim_output("planted_anchor", status, stdout)
    expect_line("planted_anchor", err, r"omptrace: not safe to write in: %s is owned by another "
                r"user \(uid \d+\); writing to %s\.1 instead" % (re.escape(out), re.escape(out)))
    expect_archive("planted_anchor", out + ".1", 16, 3, 416)
    check_victims("planted_anchor", vf, vd)


def t_parent_theirs():
    """OMPTRACE_OUTPUT=P/out where P is nobody's: nobody could move out
    away and put a link in its place, so no .N helps: one line, the program
    runs untraced, nothing is made in P."""
    vf, vd = make_victims()
    theirs = os.path.join(A.work, "theirs-parent")
    shutil.rmtree(theirs, ignore_errors=True)
    os.mkdir(theirs)
    subprocess.run(["chown", "nobody:nogroup", theirs], check=True)
    out = os.path.join(theirs, "out")
    status, stdout, err = victim_run(out)
    expect_victim_output("parent_theirs", status, stdout)
    want = (r"omptrace: cannot create or write the output directory %s: the directory above %s "
            r"is owned by another user \(uid \d+\); tracing is off" % (re.escape(out),
                                                                      re.escape(out)))
    if not re.fullmatch(want + "\n", err):
        fail("parent_theirs: stderr %r, expected one line %r" % (err, want))
    if os.listdir(theirs):
        fail("parent_theirs: %s holds %r" % (theirs, os.listdir(theirs)))
    check_victims("parent_theirs", vf, vd)


def t_world_writable():
    """An output directory of root's that every user may write in (0777,
    not sticky): nobody could plant names there, so DIR.1 is used."""
    vf, vd = make_victims()
    out = os.path.join(A.work, "open")
    os.mkdir(out)
    os.chmod(out, 0o777)
    status, stdout, err = victim_run(
        out, lambda r: as_nobody("ln", "-s", vf, os.path.join(out, "traces.otf2")))
    expect_victim_output("world_writable", status, stdout)
    expect_line("world_writable", err, r"omptrace: not safe to write in: %s is writable by every "
                r"user \(mode 0777, not sticky\); writing to %s\.1 instead"
                % (re.escape(out), re.escape(out)))
    expect_archive("world_writable", out + ".1", 16, 3, 416)
    check_victims("world_writable", vf, vd)


def t_sticky_anchor():
    """The output directory is root's and sticky (as /tmp): accepted, and
    nobody plants traces.otf2 -> victim during the run. The archive is
    written in a private directory and never moved over the link: one
    line names where the finished archive is left."""
    vf, vd = make_victims()
    out = sticky_dir("sticky-anchor")
    status, stdout, err = victim_run(
        out, lambda r: as_nobody("ln", "-s", vf, os.path.join(out, "traces.otf2")))
    expect_victim_output("sticky_anchor", status, stdout)
    expect_line("sticky_anchor", err, r"omptrace: cannot write archive %s: traces\.otf2 "
                r"appeared in it while the archive was written \(a symbolic link of uid \d+\): "
                r"not replaced; the finished archive is left in %s/\.traces\.[0-9a-f]{6}"
                % (re.escape(out), re.escape(out)))
    private = glob.glob(os.path.join(out, ".traces.*"))
    if len(private) != 1 or os.stat(private[0]).st_mode & 0o777 != 0o700:
        fail("sticky_anchor: private directories %r" % private)
        return
    expect_archive("sticky_anchor", private[0], 16, 3, 416)
    for name in ("traces", "traces.def"):
        if os.path.lexists(os.path.join(out, name)):
            fail("sticky_anchor: %s was moved into place beside the planted anchor" % name)
    check_victims("sticky_anchor", vf, vd)


def t_full_anchor():
    """Issue 26, item 1: an archive that cannot be written (a disk with room
    for its directories, not its event files) leaves nothing with the
    archive's names, no private directory, and one line saying how to
    recover; the log is untouched and recovers in full elsewhere."""
    run = os.path.join(A.work, "full-run")
    shutil.rmtree(run, ignore_errors=True)
    e = env(run)
    e["OMPTRACE_KEEP_LOG"] = "1"
    subprocess.run([os.path.join(A.bin, "fault_victim"), "par1", "big", "par2"], env=e,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    mnt = os.path.join(A.work, "small")
    os.mkdir(mnt)
    m = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if m.returncode != 0:
        print("skipped: cannot mount a tmpfs here: %s" % m.stdout.strip())
        return SKIP
    try:
        out = os.path.join(mnt, "archive")
        # an archive abandoned after an OTF2 error is left to the process's end
        # (finalize/out.c): libotf2's writers then count as leaks
        p = subprocess.run([A.recover, "-q", "-o", out, run], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True,
                           env=dict(os.environ, ASAN_OPTIONS=":".join(
                               x for x in (os.environ.get("ASAN_OPTIONS"), "detect_leaks=0")
                               if x)))
        want = (r"omptrace: cannot write archive %s: No space left on device .*; nothing of the "
                r"archive is left; the record log is kept: `omptrace recover` on its directory "
                r"writes the archive \(-o OUTDIR to write it elsewhere\)" % re.escape(out))
        if p.returncode != 1 or not re.fullmatch(want + "\n", p.stderr) or p.stdout:
            fail("full_anchor: status %d, stdout %r, stderr %r" % (p.returncode, p.stdout,
                                                                   p.stderr))
        if os.listdir(out):
            fail("full_anchor: %s holds %r after the failure" % (out, os.listdir(out)))
    finally:
        subprocess.run(["umount", mnt])
    p = subprocess.run([A.recover, "-q", "-o", run + "-copy", run], stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0 or p.stderr:
        fail("full_anchor: the log recovers elsewhere: status %d, %r" % (p.returncode, p.stderr))
    expect_archive("full_anchor", run + "-copy", 16 + 2000, 3)


def t_full_first():
    """Issue 26, item 1: a disk full from the first write. libotf2 closes
    files the file system took nothing of without an error; the empty
    anchor must not be moved into place as an archive."""
    mnt = os.path.join(A.work, "full")
    os.mkdir(mnt)
    m = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if m.returncode != 0:
        print("skipped: cannot mount a tmpfs here: %s" % m.stdout.strip())
        return SKIP
    try:
        with open(os.path.join(mnt, "filler"), "wb") as f:
            try:
                while True:
                    f.write(bytes(65536))
                    f.flush()
            except OSError:
                pass
        out = os.path.join(mnt, "archive")
        status, stdout, err = victim_run(out)
        expect_victim_output("full_first", status, stdout)
        left = sorted(os.listdir(out)) if os.path.isdir(out) else []
        if any(x != ".log" for x in left):
            fail("full_first: %s holds %r (an archive of nothing, or its private directory)"
                 % (out, left))
        if re.search(r"^omptrace: wrote ", err, re.M):
            fail("full_first: an archive was said to be written: %r" % err)
    finally:
        subprocess.run(["umount", mnt])


CASES = {"output_link": t_output_link, "launcher_link": t_launcher_link, "dot1_link": t_dot1_link, "fork_link": t_fork_link,
         "snapshot_link": t_snapshot_link, "recover_link": t_recover_link,
         "planted_anchor": t_planted_anchor, "sticky_anchor": t_sticky_anchor,
         "full_anchor": t_full_anchor, "parent_theirs": t_parent_theirs,
         "world_writable": t_world_writable, "full_first": t_full_first}


def main():
    global A
    ap = argparse.ArgumentParser()
    for o in ("--lib", "--bin", "--recover", "--work", "--launcher"):
        ap.add_argument(o, required=True)
    ap.add_argument("case", choices=sorted(CASES))
    A = ap.parse_args()
    if os.geteuid() != 0:
        print("skipped: hostile paths need root (to plant links as nobody)")
        return SKIP
    if not shutil.which("setpriv") or not shutil.which("unshare"):
        print("skipped: setpriv or unshare missing")
        return SKIP
    A.work = os.path.join(A.work, A.case)
    shutil.rmtree(A.work, ignore_errors=True)
    os.makedirs(A.work)
    os.chmod(A.work, 0o755)
    if CASES[A.case]() == SKIP:
        return SKIP
    for p in problems:
        print("FAIL " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
