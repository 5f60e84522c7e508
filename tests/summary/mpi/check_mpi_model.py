#!/usr/bin/python3
"""omptrace-summary's MPI figures against a model built independently with
python3-otf2 from the same archive: ranks from the location groups, world
ranks of comm members through the groups, MPI time from the Enter/Leave of
MPI regions, messages matched per channel in order, late senders, late
receivers, and waits at collectives (docs/summary.md, "MPI jobs").

usage: check_mpi_model.py SUMMARY GEN_MPI WORKDIR"""
import collections
import json
import os
import shutil
import subprocess
import sys

import otf2
from otf2.enums import Paradigm

SUMMARY, GEN_MPI, WORK = sys.argv[1:4]
failures = []


def eq(got, want, what):
    if got != want:
        failures.append(what)
        print("FAIL: %s: got %r, want %r" % (what, got, want))


class Model:
    def __init__(self, anchor):
        self.mpi = collections.Counter()  # rank -> ticks in outermost MPI calls
        self.pairs, self.bytes = collections.Counter(), collections.Counter()
        self.sends, self.recvs = collections.defaultdict(list), collections.defaultdict(list)
        self.colls = collections.defaultdict(list)  # (comm, rank) -> [(begin, end)]
        stack, coll_begin, posted = collections.defaultdict(list), {}, {}
        with otf2.reader.open(anchor) as r:
            d = r.definitions
            self.rank = {loc._ref: int(loc.group.name.split()[1]) for loc in d.locations}
            world = {c.name: [self.rank[x._ref] for x in c.group.members] for c in d.comms
                     if c.group.paradigm == Paradigm.MPI}
            for loc, ev in r.events:
                kind, me, s = type(ev).__name__, self.rank[loc._ref], stack[loc._ref]
                mpi = [x for x in s if x["region"].paradigm == Paradigm.MPI]
                call = mpi[-1] if mpi else None  # the innermost open MPI call
                if kind == "Enter":
                    s.append({"region": ev.region, "begin": ev.time, "sends": []})
                elif kind == "Leave":
                    f = s.pop()
                    if f["region"].paradigm == Paradigm.MPI and len(mpi) == 1:
                        self.mpi[me] += ev.time - f["begin"]
                    for rec in f["sends"]:
                        rec["end"] = ev.time
                elif kind in ("MpiSend", "MpiIsend"):
                    rec = {"begin": call["begin"], "sync": kind == "MpiSend"}
                    call["sends"].append(rec)
                    c = ev.communicator.name
                    self.sends[(c, me, world[c][ev.receiver], ev.msg_tag)].append(rec)
                elif kind in ("MpiRecv", "MpiIrecv"):
                    c = ev.communicator.name
                    post = posted.pop((loc._ref, ev.request_id)) if kind == "MpiIrecv" \
                        else call["begin"]
                    self.recvs[(c, world[c][ev.sender], me, ev.msg_tag)].append(
                        {"begin": call["begin"], "post": post, "bytes": ev.msg_length})
                elif kind == "MpiIrecvRequest":
                    posted[(loc._ref, ev.request_id)] = ev.time
                elif kind == "MpiCollectiveBegin":
                    coll_begin[loc._ref] = ev.time
                elif kind == "MpiCollectiveEnd":
                    self.colls[(ev.communicator.name, me)].append(
                        (coll_begin.pop(loc._ref), ev.time))

    def match(self):
        """The n-th send of a channel with its n-th receive; collectives by count."""
        self.late_sender = self.late_receiver = self.coll_wait = 0
        for key, sends in self.sends.items():
            for snd, rcv in zip(sends, self.recvs[key]):
                self.pairs[key[1:3]] += 1
                self.bytes[key[1:3]] += rcv["bytes"]
                if rcv["begin"] < snd["begin"]:
                    self.late_sender += snd["begin"] - rcv["begin"]
                if snd["sync"] and snd["begin"] < rcv["post"] < snd["end"]:
                    self.late_receiver += rcv["post"] - snd["begin"]
        ops = collections.defaultdict(list)
        for (comm, _), parts in self.colls.items():
            for k, part in enumerate(parts):
                ops[(comm, k)].append(part)
        for parts in ops.values():
            last = max(b for b, _ in parts)
            self.coll_wait += sum(min(last, e) - b for b, e in parts)


os.makedirs(WORK, exist_ok=True)
d = os.path.join(WORK, "job")
shutil.rmtree(d, ignore_errors=True)
subprocess.run([GEN_MPI, d, "job"], check=True)
m = Model(os.path.join(d, "traces.otf2"))
m.match()
eq((sum(m.pairs.values()), m.late_sender > 0, m.late_receiver > 0, m.coll_wait > 0),
   (4, True, True, True), "the model sees the job's messages and waits")
p = subprocess.run([SUMMARY, "--format", "json", "--threads", "--top", "0", d],
                   capture_output=True, text=True, timeout=120)
eq(p.returncode, 0, "summary exit: " + p.stderr)
j = json.loads(p.stdout)["mpi"]
eq({r["rank"]: r["mpi_ns"] for r in j["ranks"]}, dict(m.mpi), "MPI time per rank")
eq({(x["sender"], x["receiver"]): (x["messages"], x["bytes"]) for x in j["matrix"]},
   {k: (n, m.bytes[k]) for k, n in m.pairs.items()}, "messages per pair")
eq(j["messages"]["late_sender_ns"], m.late_sender, "late sender")
eq(j["messages"]["late_receiver_ns"], m.late_receiver, "late receiver")
eq(j["messages"]["collective_wait_ns"], m.coll_wait, "wait at collectives")
print("model: %s" % ("%d failures" % len(failures) if failures else "ok"))
sys.exit(1 if failures else 0)
