#!/usr/bin/python3
"""The format checker (trace_rules.py) must reject files that break the
rules: each case below breaks one rule of a valid file and must raise.

usage: rules_selftest.py SPEEDSCOPE_SCHEMA WORKDIR"""
import copy
import json
import os
import sys

import trace_rules as T

SCHEMA, WORK = sys.argv[1:3]
M = [{"ph": "M", "pid": 1, "tid": 0, "name": "process_name", "args": {"name": "p"}},
     {"ph": "M", "pid": 1, "tid": 0, "name": "thread_name", "args": {"name": "t0"}},
     {"ph": "M", "pid": 1, "tid": 0, "name": "thread_sort_index", "args": {"sort_index": 0}}]
CHROME = {"traceEvents": M + [
    {"ph": "B", "pid": 1, "tid": 0, "ts": 1, "name": "a"},
    {"ph": "B", "pid": 1, "tid": 0, "ts": 2, "name": "b"},
    {"ph": "s", "pid": 1, "tid": 0, "ts": 2, "id": 7, "cat": "task", "name": "task"},
    {"ph": "C", "pid": 1, "tid": 0, "ts": 2, "name": "c", "args": {"value": 3}},
    {"ph": "E", "pid": 1, "tid": 0, "ts": 3},
    {"ph": "f", "pid": 1, "tid": 0, "ts": 3.5, "id": 7, "cat": "task", "name": "task", "bp": "e"},
    {"ph": "E", "pid": 1, "tid": 0, "ts": 4}]}
SPEEDSCOPE = {"$schema": T.SPEEDSCOPE_SCHEMA_URL, "shared": {"frames": [{"name": "a"},
                                                                     {"name": "b"}]},
              "profiles": [{"type": "evented", "name": "t0", "unit": "nanoseconds",
                            "startValue": 0, "endValue": 9, "events": [
                                {"type": "O", "frame": 0, "at": 0},
                                {"type": "O", "frame": 1, "at": 1},
                                {"type": "C", "frame": 1, "at": 2},
                                {"type": "C", "frame": 0, "at": 9}]},
                           {"type": "sampled", "name": "s", "unit": "none", "startValue": 0,
                            "endValue": 2, "samples": [[0], [0, 1]], "weights": [1, 1]}]}


def ev(doc, i):
    return doc["traceEvents"][len(M) + i]


def chrome_breaks():
    def drop_e(d):
        del d["traceEvents"][-1]

    def order(d):
        ev(d, 1)["ts"] = 0.5

    def nesting(d):
        ev(d, 4)["ts"] = 1.5  # b closes before it opened

    def flow(d):
        ev(d, 5)["id"] = 8

    def flow_outside(d):
        ev(d, 5)["ts"] = 5

    def counter(d):
        ev(d, 3)["args"]["value"] = "3"

    def meta(d):
        del d["traceEvents"][1]

    return [drop_e, order, nesting, flow, flow_outside, counter, meta]


def speedscope_breaks():
    def mismatch(d):
        d["profiles"][0]["events"][2]["frame"] = 0

    def unclosed(d):
        del d["profiles"][0]["events"][3]

    def frame(d):
        d["profiles"][1]["samples"][1][1] = 5

    def order(d):
        d["profiles"][0]["events"][1]["at"] = 3

    def schema(d):
        d["profiles"][0]["events"][0]["type"] = "X"

    def weights(d):
        d["profiles"][1]["weights"].pop()

    return [mismatch, unclosed, frame, order, schema, weights]


def run(base, breaks, check):
    path = os.path.join(WORK, "case.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(base, f)
    check(path)  # the unbroken file passes
    missed = []
    for brk in breaks:
        d = copy.deepcopy(base)
        brk(d)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(d, f)
        try:
            check(path)
            missed.append(brk.__name__)
        except T.RuleError:
            pass
    return missed


def main():
    os.makedirs(WORK, exist_ok=True)
    missed = run(CHROME, chrome_breaks(), T.check_chrome)
    missed += run(SPEEDSCOPE, speedscope_breaks(), lambda p: T.check_speedscope(p, SCHEMA))
    if missed:
        sys.exit("FAIL: broken files accepted: %s" % ", ".join(missed))
    print("ok")


if __name__ == "__main__":
    main()
