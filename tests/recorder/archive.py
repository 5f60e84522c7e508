"""Independent reader for omptrace archives: loads an OTF2 archive with the
python3-otf2 bindings into per-location event lists and answers count
queries and exact expectations for the per-program cases (cases.py)."""

import collections
import re
import subprocess

import otf2
from otf2.enums import RegionRole

REGION_NAME = re.compile(r"^(?P<construct>.+) @ (?P<file>.+):(?P<line>\d+)$")
MARKER = re.compile(r"/\*\s*@(\w+)\s*\*/")
TASK_ROLES = (RegionRole.TASK, RegionRole.TASK_UNTIED)
SKIP_ADJACENT = ("Metric",)  # records that may sit between paired records


def next_event(evs, i):
    """The first event after evs[i] that is not a Metric (or None)."""
    for e in evs[i + 1:]:
        if type(e).__name__ not in SKIP_ADJACENT:
            return e
    return None


def prev_event(evs, i):
    """The last event before evs[i] that is not a Metric (or None)."""
    for e in reversed(evs[:i]):
        if type(e).__name__ not in SKIP_ADJACENT:
            return e
    return None


def construct_of(region):
    m = REGION_NAME.match(region.name)
    return m.group("construct") if m else region.name


def markers(source):
    """Marker name -> line number, from `/* @name */` comments in source."""
    found = {}
    with open(source) as f:
        for number, text in enumerate(f, 1):
            for m in MARKER.finditer(text):
                if m.group(1) in found:
                    raise ValueError("marker @%s appears twice in %s" % (m.group(1), source))
                found[m.group(1)] = number
    return found


class Trace:
    """All definitions and per-location event lists of one archive."""

    def __init__(self, anchor):
        self.anchor = anchor
        self.failures = []
        with otf2.reader.open(anchor) as reader:
            d = reader.definitions
            self.clock = d.clock_properties
            self.locations = sorted(d.locations, key=lambda l: l._ref)
            self.regions = list(d.regions)
            self.comms = list(d.comms)
            self.groups = list(d.groups)
            self.location_groups = list(d.location_groups)
            self.system_tree = list(d.system_tree_nodes)
            self.paradigms = list(d.paradigms)
            self.events = {l._ref: [] for l in self.locations}
            for loc, ev in reader.events:
                self.events[loc._ref].append(ev)
        self.locs = [l._ref for l in self.locations]

    # ---- reporting -------------------------------------------------------
    def fail(self, msg):
        self.failures.append(msg)

    def expect(self, what, got, want):
        if got != want:
            self.fail("%s: expected %r, got %r" % (what, want, got))

    # ---- queries -----------------------------------------------------------
    def throttled(self):
        """(region name, location) -> throttled instances, from the
        omptrace::throttled property as otf2-print -G shows it."""
        text = subprocess.run(["otf2-print", "-G", self.anchor], stdout=subprocess.PIPE,
                              universal_newlines=True).stdout
        m = re.search(r'^SYSTEM_TREE_NODE_PROPERTY.*Name: "omptrace::throttled" <\d+>, '
                      r'Type: STRING, Value: "([^"]*)"', text, re.M | re.S)
        names = {r._ref: r.name for r in self.regions}
        got = {}
        for line in (m.group(1) if m else "").splitlines():
            region, loc, count, _ns = (int(x) for x in line.split())
            got[(names.get(region), loc)] = got.get((names.get(region), loc), 0) + count
        return got

    def kind_count(self, kind, loc):
        return sum(1 for e in self.events[loc] if type(e).__name__ == kind)

    def enter_count(self, construct, line, loc):
        n = 0
        for e in self.events[loc]:
            if type(e).__name__ == "Enter":
                m = REGION_NAME.match(e.region.name)
                if m and m.group("construct") == construct and (
                        line is None or int(m.group("line")) == line):
                    n += 1
        return n

    def per_loc(self, fn):
        """Counts per location, in location order."""
        return [fn(l) for l in self.locs]

    @staticmethod
    def multiset(counts):
        return sorted((c for c in counts if c), reverse=True)

    def spans(self, loc, construct, line=None):
        """(enter time, leave time) of every instance of a region on loc."""
        out, stack = [], []
        for e in self.events[loc]:
            k = type(e).__name__
            if k == "Enter":
                stack.append(e)
            elif k == "Leave" and stack:
                enter = stack.pop()
                m = REGION_NAME.match(enter.region.name)
                if m and m.group("construct") == construct and (
                        line is None or int(m.group("line")) == line):
                    out.append((enter.time, e.time))
        return out

    # ---- expectations (exact) --------------------------------------------------
    def expect_enters(self, construct, line, each=None, loc0=None, total=None, tag=""):
        """each: per-location Enter counts as a multiset of the non-zero
        counts (which worker is which location is not fixed); loc0: count on
        the initial thread; total: sum over all locations."""
        counts = self.per_loc(lambda l: self.enter_count(construct, line, l))
        what = "Enter(%s @ line %s)%s" % (construct, line, tag)
        if each is not None:
            self.expect(what + " per location", self.multiset(counts),
                        sorted((c for c in each if c), reverse=True))
        if loc0 is not None:
            self.expect(what + " on location 0", counts[0] if counts else 0, loc0)
        if total is not None:
            self.expect(what + " total", sum(counts), total)

    def expect_kind(self, kind, each=None, loc0=None, total=None):
        counts = self.per_loc(lambda l: self.kind_count(kind, l))
        if each is not None:
            self.expect(kind + " per location", self.multiset(counts),
                        sorted((c for c in each if c), reverse=True))
        if loc0 is not None:
            self.expect(kind + " on location 0", counts[0] if counts else 0, loc0)
        if total is not None:
            self.expect(kind + " total", sum(counts), total)

    def team_sizes(self, line):
        """Sizes of the teams entered at the parallel region of `line`, one
        entry per ThreadTeamBegin on the region's master (member 0)."""
        sizes = []
        for l in self.locs:
            evs = self.events[l]
            for i, e in enumerate(evs):
                if type(e).__name__ != "ThreadTeamBegin":
                    continue
                nxt = next_event(evs, i)
                if nxt is None or type(nxt).__name__ != "Enter":
                    continue
                m = REGION_NAME.match(nxt.region.name)
                if not m or m.group("construct") != "parallel" or int(m.group("line")) != line:
                    continue
                members = e.thread_team.group.members
                if members and members[0]._ref == l:
                    sizes.append(len(members))
        return sorted(sizes)

    def team_comm(self, line):
        """The distinct team Comms entered at the parallel region of `line`."""
        comms = set()
        for l in self.locs:
            evs = self.events[l]
            for i, e in enumerate(evs):
                if type(e).__name__ == "ThreadTeamBegin":
                    nxt = next_event(evs, i)
                    if nxt is not None and type(nxt).__name__ == "Enter":
                        m = REGION_NAME.match(nxt.region.name)
                        if m and m.group("construct") == "parallel" and \
                                int(m.group("line")) == line:
                            comms.add(e.thread_team)
        return comms

    def signature(self):
        """Per-location counts of (record kind, region name), as a sorted list
        (independent of which worker got which location)."""
        sig = []
        for l in self.locs:
            c = collections.Counter()
            for e in self.events[l]:
                k = type(e).__name__
                c[(k, e.region.name if k in ("Enter", "Leave") else "")] += 1
            sig.append(sorted(c.items()))
        return sorted(sig)

    def kinds(self):
        c = collections.Counter()
        for l in self.locs:
            for e in self.events[l]:
                c[type(e).__name__] += 1
        return c


def summary(t):
    """A short human-readable digest, printed by the test drivers."""
    lines = ["%d locations, %d events, kinds %s" % (
        len(t.locs), sum(len(v) for v in t.events.values()), dict(sorted(t.kinds().items())))]
    for l in t.locs:
        c = collections.Counter(construct_of(e.region) + ":" + e.region.name.rsplit(":", 1)[-1]
                                for e in t.events[l] if type(e).__name__ == "Enter")
        lines.append("  loc %d: %s" % (l, ", ".join("%s x%d" % kv for kv in sorted(c.items()))))
    return "\n".join(lines)
