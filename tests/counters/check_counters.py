#!/usr/bin/python3
"""Independent check of counter values in an omptrace archive.

Reads the archive with the python3-otf2 reader and the test program's
source, whose comments state the expected increments:
  /* OWN <construct>: <expr of r> */  increments the thread of team rank r
                                      adds directly inside that region
  /* TASK: <comprehension> */         the multiset of task increments
  /* TOTAL: <n> */                    sum of all increments of all threads
For every region instance whose Enter and Leave carry counter values:
  delta(counter 0) == own + sum of children's deltas
(children without values are transparent: their own increments and
children count for the parent). Further per-counter relations
(--scaled) and the metric names (--names) are checked too.
Exit status 0 when everything holds; failures are listed on stdout."""
import argparse
import re
import sys
from collections import Counter, defaultdict

import otf2
from otf2.events import Enter, Leave, Metric, ThreadTeamBegin, ThreadTeamEnd


def parse_source(path):
    """Markers on a pragma line apply to it; on a comment line, to the next
    pragma line."""
    own, tasks, total = {}, Counter(), None
    pending = []
    for lineno, line in enumerate(open(path), 1):
        found = []
        m = re.search(r"/\* OWN ([a-z ]+): (.*?) \*/", line)
        if m:
            found.append(("own", m.group(1), m.group(2)))
        m = re.search(r"/\* TASK: (.*?) \*/", line)
        if m:
            found.append(("task", None, m.group(1)))
        if line.lstrip().startswith("#pragma"):
            for kind, construct, expr in pending + found:
                if kind == "own":
                    own[(lineno, construct)] = expr
                else:
                    tasks.update(eval("[" + expr + "]"))
            pending = []
        elif line.lstrip().startswith("/*"):
            pending += found
        m = re.search(r"/\* TOTAL: (\d+)", line)
        if m:
            total = int(m.group(1))
    return own, tasks, total


def construct_and_line(region):
    """'loop @ sde_regions.c:57' -> ('loop', 57)."""
    m = re.match(r"(.*?) @ .*:(\d+)$", region.name)
    if not m:
        return region.name, region.begin_line_number
    return m.group(1), int(m.group(2))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("archive")
    ap.add_argument("--source", required=True)
    ap.add_argument("--names", default="", help="comma list: expected metric names, in order")
    ap.add_argument("--scaled", default="", help="comma list: value_i / value_0 for each counter")
    ap.add_argument("--delta-scaled", action="store_true",
                    help="the --scaled relation holds for deltas only (DELTA SDE counters)")
    ap.add_argument("--strict", action="store_true",
                    help="every Enter/Leave is preceded by a Metric at the same time")
    ap.add_argument("--valued", default=None,
                    help="comma list of constructs whose Enter/Leave carry values (others not)")
    ap.add_argument("--bare-locations", default="",
                    help="comma list of location ids that must have no Metric events")
    ap.add_argument("--not-strict", action="store_true",
                    help="the metric class is SYNCHRONOUS (some Enter/Leave lack values)")
    ap.add_argument("--no-estimate", action="store_true",
                    help="no metric description marks its values as estimates")
    ap.add_argument("--no-metrics", action="store_true", help="the archive has no counters")
    args = ap.parse_args()

    own_expr, task_expect, total_expect = parse_source(args.source)
    errors = []

    def fail(msg):
        if len(errors) < 40:
            print("FAIL:", msg)
        errors.append(msg)

    with otf2.reader.open(args.archive) as trace:
        defs = trace.definitions
        names = [m.name for m in defs.metric_members]
        if args.no_metrics:
            if names or list(defs.metric_classes):
                fail("metrics defined although none should work: %s" % names)
        want = [n for n in args.names.split(",") if n]
        if want and names != want:
            fail("metric members %s, expected %s" % (names, want))
        for m in defs.metric_members:
            if args.no_estimate and "estimate" in m.description:
                fail("metric %s is described as an estimate: %s" % (m.name, m.description))
            if m.value_type != otf2.Type.UINT64 or m.metric_mode != otf2.MetricMode.ACCUMULATED_START:
                fail("metric %s: type %s mode %s" % (m.name, m.value_type, m.metric_mode))
        if args.strict:
            occ = [c.occurrence for c in defs.metric_classes]
            if occ != [otf2.MetricOccurrence.SYNCHRONOUS_STRICT]:
                fail("metric class occurrence %s, expected SYNCHRONOUS_STRICT" % occ)
        if args.not_strict:
            occ = [c.occurrence for c in defs.metric_classes]
            if occ != [otf2.MetricOccurrence.SYNCHRONOUS]:
                fail("metric class occurrence %s, expected SYNCHRONOUS" % occ)
        scaled = [int(x) for x in args.scaled.split(",") if x]

        per_loc = defaultdict(list)
        for loc, ev in trace.events:
            per_loc[loc].append(ev)

    valued = set(args.valued.split(",")) if args.valued is not None else None
    bare = {int(x) for x in args.bare_locations.split(",") if x}
    bare_seen = set()
    instances = 0
    task_seen = Counter()
    final_total = 0
    for loc, evs in per_loc.items():
        is_bare = loc._ref in bare
        if is_bare:
            bare_seen.add(loc._ref)
            if any(isinstance(ev, Metric) for ev in evs):
                fail("loc %s has Metric events but should have none" % loc.name)
            continue
        stack = []  # frames: [region, enter_values, inner_expected, rank]
        rank_stack = []
        last_metric = None  # (time, values)
        last_values = None
        prev = None
        for ev in evs:
            before, prev = prev, ev
            if isinstance(ev, Metric):
                if args.no_metrics:
                    fail("loc %s t=%d: Metric event in an archive without counters"
                         % (loc.name, ev.time))
                vals = list(ev.values)
                if scaled and not args.delta_scaled:
                    for i, s in enumerate(scaled):
                        if vals[i] != s * vals[0]:
                            fail("loc %s t=%d: value %d = %d, expected %d * %d"
                                 % (loc.name, ev.time, i, vals[i], s, vals[0]))
                if last_values is not None and any(a < b for a, b in zip(vals, last_values)):
                    fail("loc %s t=%d: counter values decrease" % (loc.name, ev.time))
                last_metric = (ev.time, vals)
                last_values = vals
                continue
            if isinstance(ev, ThreadTeamBegin):
                rank_stack.append(ev.thread_team.rank(loc))
                continue
            if isinstance(ev, ThreadTeamEnd):
                if rank_stack:
                    rank_stack.pop()
                continue
            if not isinstance(ev, (Enter, Leave)):
                continue
            vals = last_metric[1] if last_metric and last_metric[0] == ev.time else None
            if args.strict and not (isinstance(before, Metric) and before.time == ev.time):
                fail("loc %s t=%d: %s %s without a Metric right before it"
                     % (loc.name, ev.time, type(ev).__name__, ev.region.name))
            r = rank_stack[-1] if rank_stack else 0
            if valued is not None and (vals is not None) != (construct_and_line(ev.region)[0] in valued):
                fail("loc %s t=%d: %s %s %s counter values"
                     % (loc.name, ev.time, type(ev).__name__, ev.region.name,
                        "has" if vals is not None else "lacks"))
            if isinstance(ev, Enter):
                stack.append([ev.region, vals, 0, r])
                continue
            if not stack or stack[-1][0] != ev.region:
                fail("loc %s t=%d: unbalanced Leave %s" % (loc.name, ev.time, ev.region.name))
                continue
            region, enter_vals, inner, r = stack.pop()
            construct, line = construct_and_line(region)
            is_task = region.region_role in (otf2.RegionRole.TASK, otf2.RegionRole.TASK_UNTIED)
            expr = own_expr.get((line, construct)) or own_expr.get((line - 1, construct))
            own = eval(expr, {"r": r}) if expr else 0
            if enter_vals is not None and vals is not None:
                delta = vals[0] - enter_vals[0]
                instances += 1
                if scaled and args.delta_scaled:
                    for i, s in enumerate(scaled):
                        if vals[i] - enter_vals[i] != s * delta:
                            fail("loc %s %s: delta of counter %d is %d, expected %d * %d"
                                 % (loc.name, region.name, i, vals[i] - enter_vals[i], s, delta))
                if is_task:
                    task_seen[delta - inner] += 1
                elif delta != own + inner:
                    fail("loc %s rank %d %s [%d..]: delta %d, expected own %d + nested %d"
                         % (loc.name, r, region.name, ev.time, delta, own, inner))
                contribution = delta
            else:
                if is_task and not args.no_metrics:
                    fail("loc %s: task region %s without counter values" % (loc.name, region.name))
                contribution = own + inner
            if stack:
                stack[-1][2] += contribution
        if stack:
            fail("loc %s: %d regions left open" % (loc.name, len(stack)))
        if last_values is not None:
            final_total += last_values[0]

    if not args.no_metrics:
        if instances == 0:
            fail("no region instance with counter values")
        if bare != bare_seen:
            fail("locations %s not found" % sorted(bare - bare_seen))
        if bare and not task_seen <= task_expect:
            fail("task increments %s not among %s" % (sorted(task_seen.elements()),
                                                      sorted(task_expect.elements())))
        elif not bare and task_seen != task_expect:
            fail("task increments %s, expected %s" % (sorted(task_seen.elements()),
                                                        sorted(task_expect.elements())))
        if total_expect is not None and not bare and final_total != total_expect:
            fail("sum of the last values of all threads %d, expected %d"
                 % (final_total, total_expect))
    print("%d region instances checked, %d failures" % (instances, len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
