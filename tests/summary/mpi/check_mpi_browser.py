#!/usr/bin/python3
"""The HTML report of an MPI job in headless chromium: the rank bars and the
message matrix are in the rendered DOM (4 ranks, 4 pairs with messages, as
gen_mpi.c's job sends) and the page logs no error. Skips (77) only when
chromium cannot start.

usage: check_mpi_browser.py SUMMARY GEN_MPI WORKDIR"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "browser"))
import headless  # noqa: E402

SUMMARY, GEN_MPI, WORK = sys.argv[1:4]
ok, why = headless.available()
if not ok:
    print("SKIP: " + why)
    sys.exit(77)
os.makedirs(WORK, exist_ok=True)
job, page = os.path.join(WORK, "job"), os.path.join(WORK, "job.html")
shutil.rmtree(job, ignore_errors=True)
subprocess.run([GEN_MPI, job, "job"], check=True)
subprocess.run([SUMMARY, "--format", "html", "-o", page, job], check=True, timeout=120)
dom, errors = headless.dom(page, wait_ms=2000)
failures = []
if errors:
    failures.append("console errors %r" % errors)
# MPI time in the 4 ranks' bars and in the bars of the 4 threads that call MPI
for text, n in [('<g class="bar" data-rank=', 4), ('<rect class="st-mpi" data-ns=', 8),
                ('<table class="matrix"', 1), ('class="mcell"', 4), ('id="plot-ranks"', 1)]:
    if dom.count(text) != n:
        failures.append("%d x %r in the DOM, want %d" % (dom.count(text), text, n))
for f in failures:
    print("FAIL:", f)
print("browser: %s" % ("%d failures" % len(failures) if failures else "ok"))
sys.exit(1 if failures else 0)
