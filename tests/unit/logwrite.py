"""A second, independent writer of the durable record log
(recorder/log/format.h): frames with zlib's crc32 and codec.c's record
encoding. Shared by unit.logdump (tests/unit/logdump_check.py) and the
replay tests (tests/replay/), which feed synthetic logs to omptrace-recover."""
import os
import re
import struct
import zlib

MAGIC, VERSION = 0x474C544F, 1
META, CLOCK, THREAD, RECORDS, LOST = 1, 2, 16, 17, 19
M64 = (1 << 64) - 1
HERE = os.path.dirname(os.path.abspath(__file__))


def rec_types(record_h=os.path.join(HERE, "..", "..", "recorder", "buffer", "record.h")):
    """Record type name -> number, read from OT_REC_TYPES (OT_NONE is 0)."""
    with open(record_h) as f:
        text = f.read()
    body = text[text.index("#define OT_REC_TYPES(X)"):text.index("// clang-format on")]
    names = re.findall(r"^\s*X\((\w+),", body, re.M)
    return {n: i + 1 for i, n in enumerate(names)}


def frame(ftype, seq, payload):
    hdr = struct.pack("<IBBHIIII", MAGIC, ftype, VERSION, 0, len(payload), seq, 0, 0)
    crc = zlib.crc32(payload, zlib.crc32(hdr))
    return struct.pack("<IBBHIIII", MAGIC, ftype, VERSION, 0, len(payload), seq, crc, 0) + payload


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def zz(d):
    d &= M64
    return ((d << 1) & M64) ^ (M64 if d >> 63 else 0)


def encode(recs):
    """recs: (ts, type, kind, a, b, c, values). Uses only the plainest
    choices of the format: b and c as deltas to the same field of the
    previous record of the type (modes 1 and 0)."""
    prev, vals, ts, out = {}, [0] * 64, 0, bytearray()
    for r_ts, t, kind, a, b, c, values in recs:
        pk, pa, pn, pb, pc = prev.get(t, (0, 0, 0, 0, 0))
        flags = (kind != pk) | (a != pa) << 1 | (len(values) != pn) << 2 | (b != pb) << 3
        out.append(t | (0x40 if flags else 0) | (0x80 if c == pc else 0))
        if flags:
            out.append(flags)
        out += varint(zz(r_ts - ts))
        if kind != pk:
            out.append(kind)
        if a != pa:
            out += varint(a)
        if len(values) != pn:
            out += varint(len(values))
        if b != pb:
            out += varint(zz(b - pb))
        if c != pc:
            out += varint(zz(c - pc))
        for i, v in enumerate(values):
            out += varint(zz(v - vals[i]))
            vals[i] = v
        prev[t], ts = (kind, a, len(values), b, c), r_ts
    return struct.pack("<II", len(recs), len(out)) + bytes(out)
