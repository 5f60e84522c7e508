#!/usr/bin/python3
"""omptrace-summary --format html: the page's structure checked with
python's html.parser against what the archive holds (thread bars, timeline
strips, region rows, compare points and degradation markers, exact), no
reference to anything outside the page, escaped names, and -o/--output.

usage: check_html.py SUMMARY GENERATOR WORKDIR GROUP
GROUP: generated | compare | options"""
import json
import os
import shutil
import subprocess
import sys

from html_doc import bar_mismatches, external_refs, parse, state_at, strip_states

SUMMARY, GEN, WORK, GROUP = sys.argv[1:5]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def eq(got, want, what):
    check(got == want, "%s: got %r, want %r" % (what, got, want))


def gen(scenario, *args):
    d = os.path.join(WORK, scenario + "".join("-" + str(a) for a in args))
    shutil.rmtree(d, ignore_errors=True)
    subprocess.run([GEN, scenario, d] + [str(a) for a in args], check=True)
    return d


def run(*args):
    return subprocess.run([SUMMARY] + list(args), capture_output=True, text=True, timeout=120)


def page(*args):
    """The HTML report of args, written with -o; (root, raw text)."""
    out = os.path.join(WORK, "report-%d.html" % len(os.listdir(WORK)))
    p = run("--format", "html", "-o", out, *args)
    check(p.returncode == 0 and not p.stdout, "html %r: exit %d: %s" % (args, p.returncode,
                                                                        p.stderr))
    text = open(out, encoding="utf-8").read()
    root, errors = parse(text)
    check(not errors, "%r: nesting: %s" % (args, errors))
    check(text.startswith("<!DOCTYPE html>"), "doctype")
    eq(external_refs(text, root), [], "%r: external references" % (args,))
    eq(len(root.find("style")), 1, "one inline stylesheet")
    return root, text


def json_of(*args):
    p = run("--format", "json", "--threads", *args)
    check(p.returncode == 0, "json exit %d: %s" % (p.returncode, p.stderr))
    return json.loads(p.stdout)


def table_rows(root, section, table):
    return len(root.one("div", id="t-%s-%s" % (section, table)).one("tbody").find("tr"))


def check_page(root, j):
    """Counts that follow from the JSON report of the same archive."""
    eq(bar_mismatches(root, j["threads"]["threads"]), [], "thread bars")
    svg = root.one("figure", id="plot-timeline").one("svg", "chart")
    states = strip_states(svg)
    eq(sorted(states), [r["thread"] for r in j["threads"]["threads"]], "strip per thread")
    regs = root.one("figure", id="plot-regions").find("g", "region")
    eq(len(regs), min(len(j["regions"]["regions"]), 15), "region rows in the plot")
    for g in regs:
        n = sum(1 for r in j["regions"]["threads"] if r["region"] == g.attrs["data-region"])
        eq(int(g.attrs["data-threads"]), n, "threads of " + g.attrs["data-region"])
    eq(table_rows(root, "threads", "threads"), len(j["threads"]["threads"]), "thread table")
    eq(table_rows(root, "regions", "regions"), len(j["regions"]["regions"]), "region table")
    return svg, states


def test_generated():
    d = gen("imbalance")
    root, _ = page(d)
    j = json_of(d)
    svg, st = check_page(root, j)
    # known figures (check_summary.py): bars and the strip's bins
    eq([int(r.attrs["data-ns"]) for r in root.find("g", "bar")[1].find("rect")],
       [299000, 104000, 304000], "thread 1 bar: work, wait, idle")
    eq((svg.attrs["data-bins"], svg.attrs["data-bin-ns"]), ("256", str(707000 // 256 + 1)),
       "bins cover the clock range")
    # thread 1 is idle before its first and after its last event, as its bar says
    for t, want in ((50000, ["serial", "idle"]), (150000, ["work", "work"]),
                    (250000, ["work", "barrier"]), (350000, ["serial", "idle"]),
                    (550000, ["barrier", "work"]), (650000, ["serial", "idle"])):
        eq([state_at(svg, st[k], t) for k in (0, 1)], want, "states at %d ns" % t)
    eq([g.attrs["data-region"] for g in root.find("g", "region")],
       ["parallel @ a.c:10", "loop @ a.c:12"], "regions by total time")
    eq(table_rows(root, "regions", "threads"), 4, "per-thread region table")
    for no_range, bins, width in ((0, 256, 100000 // 256 + 1), (1, 196, 512)):
        markup(no_range, bins, width)


def markup(no_range, bins, width):
    """Names with markup come back as text; without a clock range the bin
    width doubles from 1 ns until the run fits in 256 bins."""
    d = gen("markup", no_range)
    root, text = page(d)
    j = json_of(d)
    svg, st = check_page(root, j)
    for raw in ("<script", "<b>", "<i>"):
        check(raw not in text, "%s unescaped" % raw)
    program = root.one("div", id="t-overview-run").find("td")[0].all_text()
    eq(program, "<script>alert('x')</script> & \"co\"", "program name")
    label = "parallel @ <b>&\"'.c:5"
    check(label in [g.attrs["data-region"] for g in root.find("g", "region")], "region label")
    check(any(td.all_text() == label for td in root.one("div", id="t-regions-regions").find("td")),
          "region label in the table")
    eq((int(svg.attrs["data-bins"]), int(svg.attrs["data-bin-ns"])), (bins, width),
       "markup %d: bins" % no_range)
    for t, want in ((5000, ["work"] * 3), (20000, ["work", "work", "barrier"]),
                    (45000, ["work", "barrier", "barrier"]), (80000, ["serial", "idle", "idle"])):
        eq([state_at(svg, st[k], t) for k in range(3)], want, "markup %d: %d ns" % (no_range, t))


def degr(fig):
    return [int(c.attrs["data-threads"]) for c in fig.find("circle", "degr")]


def points(fig, series):
    return [int(c.attrs["data-threads"]) for c in fig.find("circle", "pt", data_series=series)]


def test_compare():
    runs = [gen("degrade", n) for n in (4, 1, 2)]
    root, _ = page("--compare", *runs)
    figs = {f.attrs["data-region"]: f for f in root.find("figure", "cmp")}
    eq(sorted(figs), ["parallel @ g.c:10", "parallel @ g.c:20", "parallel @ g.c:30"], "plots")
    for name, f in figs.items():
        eq((points(f, "speedup"), points(f, "efficiency")), ([1, 2, 4], [1, 2, 4]),
           name + ": points")
    eq([degr(figs[n]) for n in sorted(figs)], [[], [2, 4], []], "degradation markers")
    check(not root.find("figure", id="plot-timeline"), "no timeline in a comparison")
    eq(table_rows(root, "compare", "regions"), 3, "compare table")
    # equal thread counts: the 2-thread run slower than 1 thread is marked once
    runs = [gen("degrade", 2, 25), gen("degrade", 2, 200), gen("degrade", 1)]
    root, _ = page("--compare", *runs)
    f = {f.attrs["data-region"]: f for f in root.find("figure", "cmp")}["parallel @ g.c:20"]
    eq((points(f, "speedup"), degr(f)), ([1, 2, 2], [2]), "equal counts: points, markers")


def test_options():
    d = gen("imbalance")
    out = os.path.join(WORK, "r.json")
    p = run("--format", "json", "-o", out, d)
    eq((p.returncode, p.stdout), (0, ""), "json to -o")
    eq(open(out).read(), run("--format", "json", d).stdout, "-o holds what stdout would")
    p = run("--output", out, d)
    eq(open(out).read(), run(d).stdout, "--output, text")
    for bad in (os.path.join(WORK, "no-such-dir", "r.html"), WORK):
        p = run("--format", "html", "-o", bad, d)
        check(p.returncode == 1 and p.stderr.count("\n") == 1 and "cannot write" in p.stderr
              and not p.stdout, "unwritable -o %s: %d %r" % (bad, p.returncode, p.stderr))
    p = run("--format", "html", os.path.join(WORK, "missing"))
    check(p.returncode == 1 and p.stderr.count("\n") == 1, "missing archive: %r" % p.stderr)
    p = run("--format", "pdf", d)
    check(p.returncode == 2 and "html" in p.stderr, "bad format: %r" % p.stderr)
    p = run("--format", "html", d)  # stdout works too
    check(p.returncode == 0 and p.stdout.rstrip().endswith("</html>"), "html on stdout")


os.makedirs(WORK, exist_ok=True)
{"generated": test_generated, "compare": test_compare, "options": test_options}[GROUP]()
if failures:
    sys.exit("%d failure(s)" % len(failures))
print("ok")
