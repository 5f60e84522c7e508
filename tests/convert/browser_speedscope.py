#!/usr/bin/python3
"""Converted files in a real browser: headless chromium loads the offline
speedscope app (npm package, dist/release) served from 127.0.0.1 with
#profileURL=<converted file>&view=sandwich. speedscope lists every profile's
name in its profile selector and builds its sandwich table (function names
of the shown profile) in the DOM; so finding the archive's thread names and
region names there proves the app parsed the file and rebuilt the threads
and regions from it. A truncated file must not pass the same check (the
check can fail). A screenshot of each view is saved next to the files.
Skips (exit 77) only where chromium cannot start or the app is missing.

usage: browser_speedscope.py CONVERT GEN_ARCHIVE SPEEDSCOPE_RELEASE_DIR WORKDIR"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "browser"))
import headless  # noqa: E402

CONVERT, GEN, APP, WORK = sys.argv[1:5]
failures = []
THREADS = ["OpenMP thread 0", "OpenMP thread 1", "OpenMP thread 2"]
# thread 0's regions in the "locks" archive of tests/summary/gen_archive.c
REGIONS = ["parallel @ b.c:5", "critical @ b.c:7", "critical sblock @ b.c:7",
           "omp_set_lock @ b.c:20", "implicit barrier @ b.c:5"]


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def text_of(dom):
    t = re.sub(r"<[^>]+>", " ", dom)
    return re.sub(r"\s+", " ", t.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))


def shown(base, name, view="sandwich"):
    url = "%sapp/index.html#profileURL=%s%s&view=%s" % (base, base, name, view)
    dom, errors = headless.dom(url, wait_ms=8000)
    return text_of(dom), errors


def missing(text):
    return [n for n in THREADS + REGIONS if n not in text]


def main():
    ok, why = headless.available()
    if not ok:
        print("skipped: %s" % why)
        sys.exit(77)
    if not os.path.exists(os.path.join(APP, "index.html")):
        print("skipped: speedscope app not found at %s (npm install -g speedscope)" % APP)
        sys.exit(77)
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    shutil.copytree(APP, os.path.join(WORK, "app"))
    arch = os.path.join(WORK, "locks-archive")
    subprocess.run([GEN, "locks", arch], check=True, timeout=60)
    for fmt in ("chrome", "speedscope"):
        subprocess.run([CONVERT, arch, "--to", fmt, "-o", os.path.join(WORK, fmt + ".json")],
                       check=True, timeout=120, stderr=subprocess.DEVNULL)
    other = os.path.join(WORK, "nowait-archive")
    subprocess.run([GEN, "nowait", other], check=True, timeout=60)
    subprocess.run([CONVERT, other, "--to", "speedscope", "-o", os.path.join(WORK, "other.json")],
                   check=True, timeout=120, stderr=subprocess.DEVNULL)
    with headless.serve(WORK) as base:
        for fmt in ("chrome", "speedscope"):
            text, errors = shown(base, fmt + ".json")
            check(not missing(text), "%s: missing from speedscope's page: %r"
                  % (fmt, missing(text)))
            check(not errors, "%s: console errors %r" % (fmt, errors))
            png = os.path.join(WORK, fmt + ".png")
            headless.screenshot("%sapp/index.html#profileURL=%s%s.json" % (base, base, fmt), png,
                                (1200, 700), wait_ms=8000)
            with open(png, "rb") as f:
                check(f.read(8) == b"\x89PNG\r\n\x1a\n", "%s: no PNG screenshot" % fmt)
        text, _ = shown(base, "other.json")
        check("OpenMP thread 0" in text and len(missing(text)) == len(REGIONS) + 1,
              "another archive's file passed the check: %r" % text[-300:])
    if failures:
        sys.exit(1)
    print("ok: thread and region names shown for both formats; screenshots in %s" % WORK)


if __name__ == "__main__":
    main()
