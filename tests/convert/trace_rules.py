"""Independent checks of omptrace-convert's output against the formats'
rules, written from the format descriptions, not from the converter:

Chrome trace-event format ("Trace Event Format", the JSON Object Format):
traceEvents with ph/pid/tid/ts; B/E balanced and properly nested per
thread track (an E closes the innermost open B), X durations >= 0,
timestamps non-decreasing per track in file order (B, E, X, C), every flow
start (s) matched by exactly one finish (f) with the same id and cat and a
later or equal ts, both inside a slice of their track, counters (C) with
numeric args, process_name / thread_name / thread_sort_index metadata for
every track used, samples referring to stackFrames whose parents exist.

speedscope's file format (file-format-schema.json of the installed app,
validated here with the subset of JSON Schema it uses, plus what the schema
cannot say): evented
profiles' events ordered by "at", every close matching the innermost open
frame, all frames closed, frame indices inside shared.frames; sampled
profiles with one weight per sample and valid frame indices.

Each function returns a digest of what it saw for exact expectations."""
import bisect
import collections
import json
import math

SPEEDSCOPE_SCHEMA_URL = "https://www.speedscope.app/file-format-schema.json"


class RuleError(AssertionError):
    pass


def need(cond, what):
    if not cond:
        raise RuleError(what)


def _num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _track_slices(ev, digest):
    """B/E nesting and ordering per track; returns (begin, end) intervals per track."""
    stacks = collections.defaultdict(list)
    last = {}
    spans = collections.defaultdict(list)
    for i, e in enumerate(ev):
        ph = e["ph"]
        if ph not in "BEXC":
            continue
        key = (e["pid"], e["tid"]) if ph != "C" else (e["pid"], "C", e["name"])
        need(_num(e.get("ts")) and e["ts"] >= 0, "event %d: bad ts %r" % (i, e.get("ts")))
        need(e["ts"] >= last.get(key, 0), "event %d (%s): ts %s before %s on track %r"
             % (i, ph, e["ts"], last.get(key), key))
        last[key] = e["ts"]
        tk = (e["pid"], e["tid"])
        if ph == "B":
            need(isinstance(e.get("name"), str) and e["name"], "event %d: B without name" % i)
            stacks[tk].append(e)
        elif ph == "E":
            need(stacks[tk], "event %d: E without open B on %r" % (i, tk))
            b = stacks[tk].pop()
            need(e["ts"] >= b["ts"], "event %d: E before its B" % i)
            spans[tk].append((b["ts"], e["ts"]))
            digest["slices"][tk[1]].append((b["name"], b["ts"], e["ts"], b.get("args", {}),
                                            e.get("args", {})))
        elif ph == "X":
            need(_num(e.get("dur")) and e["dur"] >= 0, "event %d: X dur %r" % (i, e.get("dur")))
            need(not stacks[tk], "event %d: X overlaps open slices on %r" % (i, tk))
            # nothing on the track inside it; the sum rounded to the ns the
            # microsecond values carry (4237.7 + 0.035 is not exact in binary)
            last[key] = round(e["ts"] + e["dur"], 3)
            spans[tk].append((e["ts"], e["ts"] + e["dur"]))
            digest["x"][tk[1]].append((e["name"], e["ts"], e["dur"]))
        else:
            args = e.get("args")
            need(isinstance(args, dict) and args and all(_num(v) for v in args.values()),
                 "event %d: counter args not numeric: %r" % (i, args))
            digest["counters"][e["name"]].append((e["ts"], args))
    for tk, st in stacks.items():
        need(not st, "track %r: %d slices never closed" % (tk, len(st)))
    return spans


class _Cover:
    """Is a time inside some interval of a track? Intervals sorted by begin
    with the running maximum of their ends: one bisection per query."""

    def __init__(self, spans):
        self.t = {}
        for tk, iv in spans.items():
            iv = sorted(iv)
            ends, m = [], -1
            for _, e in iv:
                m = max(m, e)
                ends.append(m)
            self.t[tk] = ([b for b, _ in iv], ends)

    def inside(self, tk, ts):
        begins, ends = self.t.get(tk, ([], []))
        k = bisect.bisect_right(begins, ts)
        return k > 0 and ends[k - 1] >= ts


def _flows(ev, spans, digest):
    cover = _Cover(spans)
    starts, ends = {}, {}
    for i, e in enumerate(ev):
        if e["ph"] not in "sf":
            continue
        d = starts if e["ph"] == "s" else ends
        need("id" in e and _num(e.get("ts")), "event %d: flow without id or ts" % i)
        need((e["id"], e.get("cat")) not in d, "event %d: flow id %r used twice" % (i, e["id"]))
        d[(e["id"], e.get("cat"))] = e
        if e["ph"] == "f":
            need(e.get("bp") == "e", "event %d: flow finish not bound to its enclosing slice" % i)
    need(set(starts) == set(ends), "unmatched flows: %d starts without finish, %d finishes "
         "without start" % (len(set(starts) - set(ends)), len(set(ends) - set(starts))))
    for k, s in starts.items():
        f = ends[k]
        need(f["ts"] >= s["ts"], "flow %r finishes before it starts" % (k,))
        for p in (s, f):
            need(cover.inside((p["pid"], p["tid"]), p["ts"]),
                 "flow %r: %s at %s is in no slice of its track" % (k, p["ph"], p["ts"]))
        digest["flows"].append((k[1], s["tid"], s["ts"], f["tid"], f["ts"]))


def _metadata(ev, digest):
    names, sort, procs = {}, set(), set()
    for e in ev:
        if e["ph"] != "M":
            continue
        if e["name"] == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
        elif e["name"] == "thread_sort_index":
            need(isinstance(e["args"].get("sort_index"), int), "sort_index not an integer")
            sort.add((e["pid"], e["tid"]))
        elif e["name"] == "process_name":
            procs.add(e["pid"])
    for e in ev:
        if e["ph"] in "BEXsf":
            tk = (e["pid"], e["tid"])
            need(tk in names and tk in sort, "track %r has no thread_name/sort_index" % (tk,))
            need(e["pid"] in procs, "process %r has no process_name" % e["pid"])
    digest["threads"] = {tid: n for (_, tid), n in names.items()}


def _samples(doc, digest):
    frames = doc.get("stackFrames", {})
    for k, f in frames.items():
        need(isinstance(f.get("name"), str), "stack frame %s without name" % k)
        need("parent" not in f or f["parent"] in frames, "stack frame %s: unknown parent" % k)
    for s in doc.get("samples", []):
        need(str(s.get("sf")) in frames, "sample with unknown sf %r" % s.get("sf"))
        need(_num(s.get("ts")) and "tid" in s, "sample without ts/tid")
        path, f = [], str(s["sf"])
        while f is not None:
            need(len(path) < 10000, "stack frame cycle at %s" % f)
            path.append(frames[f]["name"])
            f = frames[f].get("parent")
        digest["samples"].append((s["tid"], s["ts"], list(reversed(path))))


def check_chrome(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    need(isinstance(doc, dict) and isinstance(doc.get("traceEvents"), list), "no traceEvents")
    ev = doc["traceEvents"]
    for i, e in enumerate(ev):
        need(e.get("ph") in ("B", "E", "X", "C", "M", "s", "f"),
             "event %d: ph %r" % (i, e.get("ph")))
        need(isinstance(e.get("pid"), int) and isinstance(e.get("tid"), int),
             "event %d: pid/tid not integers" % i)
    digest = {"slices": collections.defaultdict(list), "x": collections.defaultdict(list),
              "counters": collections.defaultdict(list), "flows": [], "samples": [],
              "events": sum(1 for e in ev if e["ph"] != "M") + len(doc.get("samples", []))}
    spans = _track_slices(ev, digest)
    _flows(ev, spans, digest)
    _metadata(ev, digest)
    _samples(doc, digest)
    return digest


def _evented(p, nframes, digest):
    stack, last = [], p["startValue"]
    for i, e in enumerate(p["events"]):
        need(0 <= e["frame"] < nframes, "%s: event %d frame %r out of range"
             % (p["name"], i, e["frame"]))
        need(e["at"] >= last, "%s: event %d at %s before %s" % (p["name"], i, e["at"], last))
        need(e["at"] <= p["endValue"], "%s: event %d after endValue" % (p["name"], i))
        last = e["at"]
        if e["type"] == "O":
            stack.append((e["frame"], e["at"]))
        else:
            need(stack and stack[-1][0] == e["frame"], "%s: event %d closes frame %r, open: %r"
                 % (p["name"], i, e["frame"], stack[-1:]))
            f, at = stack.pop()
            digest["opened"][p["name"]].append((f, at, e["at"]))
    need(not stack, "%s: %d frames never closed" % (p["name"], len(stack)))


_TYPES = {"object": dict, "array": list, "string": str, "number": (int, float),
          "integer": int, "boolean": bool}


def _schema_errors(v, sch, root, where):
    """The subset of JSON Schema that speedscope's schema uses: $ref, anyOf,
    const, enum, type, required, properties, items. Returns a message or None."""
    if "$ref" in sch:
        sch = root["definitions"][sch["$ref"].split("/")[-1]]
    if "anyOf" in sch:
        errs = [_schema_errors(v, s, root, where) for s in sch["anyOf"]]
        return None if None in errs else "%s: matches none of anyOf (%s)" % (where, errs[0])
    t = sch.get("type")
    if t and (not isinstance(v, _TYPES[t]) or (t == "number" and isinstance(v, bool))):
        return "%s: %r is not of type %s" % (where, v, t)
    if "const" in sch and v != sch["const"]:
        return "%s: %r is not %r" % (where, v, sch["const"])
    if "enum" in sch and v not in sch["enum"]:
        return "%s: %r not in %r" % (where, v, sch["enum"])
    for k in sch.get("required", []):
        if k not in v:
            return "%s: required %r missing" % (where, k)
    for k, s in sch.get("properties", {}).items():
        if isinstance(v, dict) and k in v:
            e = _schema_errors(v[k], s, root, where + "." + k)
            if e:
                return e
    if "items" in sch and isinstance(v, list):
        for i, x in enumerate(v):
            e = _schema_errors(x, sch["items"], root, "%s[%d]" % (where, i))
            if e:
                return e
    return None


def check_speedscope(path, schema_path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    err = _schema_errors(doc, schema, schema, "file")
    need(err is None, "schema: %s" % err)
    need(doc["$schema"] == SPEEDSCOPE_SCHEMA_URL, "$schema %r" % doc["$schema"])
    frames = doc["shared"]["frames"]
    digest = {"frames": [f["name"] for f in frames], "opened": collections.defaultdict(list),
              "sampled": [], "profiles": [p["name"] for p in doc["profiles"]]}
    for p in doc["profiles"]:
        if p["type"] == "evented":
            _evented(p, len(frames), digest)
            continue
        need(len(p["samples"]) == len(p["weights"]), "%s: samples and weights differ" % p["name"])
        need(all(_num(w) and w >= 0 for w in p["weights"]), "%s: bad weight" % p["name"])
        need(p["endValue"] - p["startValue"] == sum(p["weights"]),
             "%s: endValue - startValue != sum of weights" % p["name"])
        for s in p["samples"]:
            need(all(0 <= f < len(frames) for f in s), "%s: frame index out of range" % p["name"])
            digest["sampled"].append([frames[f]["name"] for f in s])
    return digest
