#!/usr/bin/python3
"""omptrace-summary on the MPI job archives of gen_mpi.c: the "mpi" section's
exact figures (see the times in gen_mpi.c) in JSON against the schema, the
same figures in text and CSV, the HTML page's rank bars and message matrix,
--compare with MPI and single-process archives, single-process reports
without MPI sections, and one warning line for bad archives.

usage: check_mpi_summary.py SUMMARY GEN_MPI GEN_ARCHIVE SCHEMA WORKDIR GROUP
GROUP: json | formats | compare | single | bad"""
import csv
import io
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from schema_check import validate  # noqa: E402

SUMMARY, GEN_MPI, GEN_ARCHIVE, SCHEMA_PATH, WORK, GROUP = sys.argv[1:7]
SCHEMA = json.load(open(SCHEMA_PATH))
US = 1000
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def eq(got, want, what):
    ok = abs(got - want) <= 1e-9 * max(1.0, abs(want)) if isinstance(want, float) else got == want
    check(ok, "%s: got %r, want %r" % (what, got, want))


def mpi_archive(kind):
    d = os.path.join(WORK, kind)
    shutil.rmtree(d, ignore_errors=True)
    subprocess.run([GEN_MPI, d, kind], check=True)
    return d


def omp_archive(scenario):
    d = os.path.join(WORK, "omp-" + scenario)
    shutil.rmtree(d, ignore_errors=True)
    subprocess.run([GEN_ARCHIVE, scenario, d], check=True)
    return d


def run(*args):
    return subprocess.run([SUMMARY] + list(args), capture_output=True, text=True, timeout=120)


def summary_json(path, *opts, stderr=""):
    p = run("--format", "json", *opts, path)
    check(p.returncode == 0, "%s: exit %d: %s" % (path, p.returncode, p.stderr))
    eq(p.stderr, stderr, "%s: stderr" % path)
    doc = json.loads(p.stdout)
    for e in validate(doc, SCHEMA):
        check(False, "%s: schema: %s" % (path, e))
    return doc


# Per rank (gen_mpi.c): threads, wall, MPI (outermost MPI calls), work, wait.
RANKS = [(0, 2, 240, 47, 140, 60), (1, 2, 255, 78, 150, 50),
         (2, 2, 240, 24, 160, 40), (3, 2, 255, 53, 170, 30)]
WAITS = [("collective_wait", "MPI_Allreduce @ job.c:30", 60, 3),
         ("late_sender", "MPI_Send @ job.c:20", 20, 1),
         ("late_receiver", "MPI_Send @ job.c:20", 20, 1),
         ("late_sender", "MPI_Isend @ job.c:24", 5, 1),
         ("collective_wait", "MPI_Barrier @ job.c:40", 5, 1)]


def check_job(m):
    eq([(r["rank"], r["threads"], r["wall_ns"] // US, r["mpi_ns"] // US, r["work_ns"] // US,
         r["wait_ns"] // US) for r in m["ranks"]], RANKS, "ranks")
    eq([r["node"] for r in m["ranks"]], ["node0", "node0", "node1", "node1"], "nodes of the ranks")
    i = m["imbalance"]
    eq((i["ranks"], i["busy_max_ns"], i["busy_mean_ns"], i["mpi_max_ns"], i["mpi_mean_ns"]),
       (4, 170 * US, 155 * US, 78 * US, 50500), "imbalance")
    eq(i["busy_imbalance"], 170 / 155, "busy imbalance")
    eq(i["mpi_imbalance"], 78 / 50.5, "MPI imbalance")
    eq(m["messages"], {"messages": 4, "bytes": 10800, "late_sender_ns": 25 * US,
                       "late_receiver_ns": 20 * US, "collective_wait_ns": 65 * US,
                       "unmatched": 0}, "messages")
    eq([(p["sender"], p["receiver"], p["messages"], p["bytes"]) for p in m["pairs"]],
       [(3, 1, 1, 8000), (2, 3, 1, 1600), (0, 1, 1, 800), (1, 0, 1, 400)], "pairs by bytes")
    eq([(c["comm"], c["size"], c["messages"], c["bytes"], c["collectives"]) for c in m["comms"]],
       [("MPI_COMM_WORLD", 4, 3, 2800, 1), ("MPI_COMM_SELF", 1, 0, 0, 0),
        ("MPI_COMM_WORLD.split 1", 2, 1, 8000, 1)], "comms")
    eq([(c["operation"], c["count"], c["bytes"], c["time_ns"]) for c in m["collectives"]],
       [("barrier", 1, 0, 15 * US), ("allreduce", 1, 64, 100 * US)], "collectives")
    eq([(w["kind"], w["site"], w["time_ns"] // US, w["count"]) for w in m["waits"]], WAITS,
       "waits")


def test_json():
    doc = summary_json(mpi_archive("job"))
    check_job(doc["mpi"])
    texts = [f["text"] for f in doc["findings"]["findings"]]
    check(any(t.startswith("Receives wait 25 us for late senders") and
              "20 us at MPI_Send @ job.c:20" in t for t in texts), "late sender finding")
    check(any(t.startswith("Ranks wait 65 us in collectives") and
              "60 us at MPI_Allreduce @ job.c:30" in t for t in texts), "collective finding")
    check(any("1.54x the mean" in t for t in texts), "MPI imbalance finding")
    # The job's time (gen_mpi.c): parallel 0..100; MPI calls, their union over
    # ranks, 110..140, 150..176, 200..240 and 245..255 (106); serial the rest
    # of 0..255 (49). Per rank r thread 0 works 100, is in MPI RANKS[r][3],
    # serial the rest of its wall time RANKS[r][2] (0 to its last event) and
    # idle after it; thread 1 is in the parallel region only.
    run = doc["overview"]["run"]
    eq((run["serial_ns"], run["mpi_ns"], run["parallel_ns"], run["measured_ns"]),
       (49 * US, 106 * US, 100 * US, 255 * US), "job: serial, MPI only, parallel, measured")
    eq([(t["work_ns"] + t["wait_ns"], t["mpi_ns"], t["serial_ns"], t["idle_ns"])
        for t in doc["threads"]["threads"]],
       [x for r in RANKS for x in ((100 * US, r[3] * US, (r[2] - 100 - r[3]) * US,
                                    (255 - r[2]) * US), (100 * US, 0, 0, 155 * US))],
       "job: time per thread")
    check(any(t.startswith("19% of the run (49 us) is serial: no thread is inside a parallel "
                           "region or an MPI call, so 2 threads per rank") for t in texts),
          "serial finding of serial time only: %r" % texts)
    check(any(t.startswith("42% of the run (106 us) is MPI time") for t in texts),
          "MPI time finding")
    # An MPI call inside a parallel region (nested: MPI_Comm_size 20..30 on
    # thread 0 of each rank) is MPI time, not OMP Work; the job's time stays.
    nested = summary_json(mpi_archive("nested"))
    eq([(t["work_ns"], t["mpi_ns"]) for t in nested["threads"]["threads"][::2]],
       [(90 * US, (r[3] + 10) * US) for r in RANKS], "nested: thread 0 work and MPI")
    eq([(r["mpi_ns"] // US, r["work_ns"] // US) for r in nested["mpi"]["ranks"]],
       [(r[3] + 10, r[4] - 10) for r in RANKS], "nested: ranks' MPI and work")
    # Busy time leaves the MPI call out: per rank r thread 0 is busy 90, thread
    # 1 40 + 10r: gain 90 - (130 + 10r) / 2 = 25 - 5r (job: 100, 30 - 5r).
    eq([(g["region"], g["busy_ns"] // US, g["gain_ns"] // US) for g in nested["regions"]["regions"]],
       [("parallel @ job.c:10", 580, 70)], "nested: the parallel region's busy time and gain")
    eq([(g["region"], g["busy_ns"] // US, g["gain_ns"] // US) for g in doc["regions"]["regions"]],
       [("parallel @ job.c:10", 620, 90)], "job: the parallel region's busy time and gain")
    eq({k: nested["overview"]["run"][k] for k in ("serial_ns", "mpi_ns", "parallel_ns")},
       {k: run[k] for k in ("serial_ns", "mpi_ns", "parallel_ns")}, "nested: the job's time")
    names = [t["name"] for t in doc["threads"]["threads"]]
    eq(names[:2], ["rank 0, OpenMP thread 0", "rank 0, OpenMP thread 1"], "thread names")
    # --top 2 keeps the two busiest pairs and the two biggest waits
    doc = summary_json(mpi_archive("job"), "--top", "2")
    eq([(p["sender"], p["receiver"]) for p in doc["mpi"]["pairs"]], [(3, 1), (2, 3)], "top pairs")
    eq(len(doc["mpi"]["waits"]), 2, "top waits")
    # rooted collectives: the others wait for a bcast's root, a reduce's root for the last
    doc = summary_json(mpi_archive("reorder"), "--top", "0")
    eq(doc["mpi"]["messages"]["collective_wait_ns"], 74 * US, "reorder: wait at collectives")
    eq([(w["site"], w["time_ns"] // US, w["count"]) for w in doc["mpi"]["waits"]
        if w["site"].startswith(("MPI_Bcast", "MPI_Reduce"))],
       [("MPI_Reduce @ job.c:51", 5, 1), ("MPI_Bcast @ job.c:50", 4, 2)], "rooted waits")
    eq([(c["operation"], c["count"], c["bytes"], c["time_ns"] // US)
        for c in doc["mpi"]["collectives"]],
       [("barrier", 1, 0, 15), ("bcast", 1, 384, 15 + 13 + 12 + 4),
        ("allreduce", 1, 64, 100), ("reduce", 1, 64, 10 + 8 + 5 + 9)], "reorder: collectives")
    check("matrix" not in doc["mpi"], "matrix only with --threads")
    doc = summary_json(mpi_archive("job"), "--threads", "--top", "1")
    eq([(p["sender"], p["receiver"], p["bytes"]) for p in doc["mpi"]["matrix"]],
       [(0, 1, 800), (1, 0, 400), (2, 3, 1600), (3, 1, 8000)], "matrix: all pairs in rank order")


def test_formats():
    d = mpi_archive("job")
    txt = run(d).stdout
    for line in ["Time per rank", "     1 node0       2 255 us 78 us   150 us    50 us",
                 "  MPI, max/mean       1.54", "  Late sender          25 us",
                 "  late_receiver   MPI_Send @ job.c:20      20 us     1",
                 "  MPI_COMM_WORLD.split 1     2        1  8000           1"]:
        check(line in txt, "text lacks %r:\n%s" % (line, txt))
    out = run("--format", "csv", d).stdout
    blocks = {b.split("\n", 1)[0]: b.split("\n", 1)[1] for b in out.strip().split("\n\n")}
    ranks = list(csv.DictReader(io.StringIO(blocks["# mpi.ranks"])))
    eq([(int(r["rank"]), int(r["mpi_ns"])) for r in ranks],
       [(r[0], r[3] * US) for r in RANKS], "csv ranks")
    waits = list(csv.DictReader(io.StringIO(blocks["# mpi.waits"])))
    eq([(w["kind"], w["site"], int(w["time_ns"]) // US) for w in waits],
       [w[:3] for w in WAITS], "csv waits")
    page = run("--format", "html", d).stdout
    for r in RANKS:  # one bar per rank, with its MPI time in its title
        check('data-rank="%d"' % r[0] in page, "html: no bar of rank %d" % r[0])
    check('<table class="matrix"' in page, "html: no message matrix")
    eq(page.count('class="mcell"'), 4, "html: matrix cells with messages")
    check("<h2>MPI</h2>" in page, "html: MPI section heading")


def test_compare():
    a, b = mpi_archive("job"), os.path.join(WORK, "job-copy")
    shutil.rmtree(b, ignore_errors=True)
    shutil.copytree(a, b)
    p = run("--format", "json", "--compare", a, b)
    check(p.returncode == 0, "compare MPI jobs: exit %d: %s" % (p.returncode, p.stderr))
    j = json.loads(p.stdout)
    for e in validate(j, SCHEMA):
        check(False, "compare schema: " + e)
    eq([r["threads"] for r in j["compare"]["runs"]], [8, 8], "compare: threads of MPI jobs")
    check("mpi" not in j, "compare: no mpi section")
    # a single process and an MPI job of another program: one clear line
    p = run("--compare", omp_archive("imbalance"), a)
    eq(p.returncode, 1, "compare single and MPI: exit")
    check(p.stderr.startswith("omptrace-summary: the runs do not match: ") and
          p.stderr.count("\n") == 1, "compare single and MPI: one line: %r" % p.stderr)


def test_single():
    for scenario in ("imbalance", "locks", "tasks"):
        d = omp_archive(scenario)
        doc = summary_json(d)
        check("mpi" not in doc, "%s: mpi section in a single-process report" % scenario)
        txt = run(d).stdout
        check("Time per rank" not in txt and "rank 0," not in txt,
              "%s: MPI text in a single-process report" % scenario)


def test_bad():
    d = mpi_archive("nosend")
    doc = summary_json(d, stderr="omptrace-summary: warning: %s/traces.otf2: 1 receive(s) from "
                       "rank 1 to rank 0 (tag 5 on MPI_COMM_WORLD) have no matching send (1 MPI "
                       "record left unmatched)\n" % d)
    eq((doc["mpi"]["messages"]["messages"], doc["mpi"]["messages"]["unmatched"]), (3, 1),
       "nosend: messages, unmatched")
    eq(doc["mpi"]["ranks"][1]["mpi_ns"], 76 * US, "nosend: rank 1 MPI time without its send")
    d = mpi_archive("badcomm")
    doc = summary_json(d, stderr="omptrace-summary: warning: %s/traces.otf2: communicator "
                       "MPI_COMM_WORLD.split 1 refers to group 40, which is not defined (4 MPI "
                       "records left unmatched)\n" % d)
    eq([(c["comm"], c["size"], c["messages"]) for c in doc["mpi"]["comms"]],
       [("MPI_COMM_WORLD", 4, 3), ("MPI_COMM_SELF", 1, 0), ("MPI_COMM_WORLD.split 1", 0, 0)],
       "badcomm: comms")
    eq([c["operation"] for c in doc["mpi"]["collectives"]], ["allreduce"], "badcomm: collectives")
    # a job without OpenMP: the MPI figures, no OpenMP time
    doc = summary_json(mpi_archive("mpionly"))
    eq([(r["rank"], r["threads"], r["mpi_ns"] // US, r["work_ns"]) for r in doc["mpi"]["ranks"]],
       [(r[0], 1, r[3], 0) for r in RANKS], "mpionly: ranks")
    eq(doc["mpi"]["messages"]["messages"], 4, "mpionly: messages")


os.makedirs(WORK, exist_ok=True)
{"json": test_json, "formats": test_formats, "compare": test_compare, "single": test_single,
 "bad": test_bad}[GROUP]()
print("%s: %s" % (GROUP, "%d failures" % len(failures) if failures else "ok"))
sys.exit(1 if failures else 0)
