#!/usr/bin/env python3
"""unit.logdump: ot_logdump on record logs written here by an independent
writer of the format (recorder/log/format.h, codec.c's record encoding,
zlib's crc32), so the C reader and decoder are checked against a second
implementation of the format, not against themselves.

Usage: logdump_check.py OT_LOGDUMP. Prints one line per failed check and a
closing line; exit 1 on any failure."""
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from logwrite import META, CLOCK, THREAD, RECORDS, LOST, M64, frame, encode  # noqa: E402

PARALLEL_BEGIN, PARALLEL_END, IMPLICIT_BEGIN, FLUSH = 3, 4, 5, 27
failed = []


def check(what, ok):
    if not ok:
        failed.append(what)
        print("FAIL", what)


CP = 0x55D4C3A21A40
REC0 = [
    (0x3A5F00001000, PARALLEL_BEGIN, 1, 4, CP, 1, []),
    (0x3A5F00001400, IMPLICIT_BEGIN, 2, 4, 1, 0, []),
    (0x3A5F00001300, PARALLEL_END, 1, 0, CP, 1, []),  # clock went back: negative delta
    (0x3A5F00002000, PARALLEL_BEGIN, 1, 4, CP - 0x40, 2, []),
    (M64, FLUSH, 0, 0, M64, 0, [5, 3, M64]),
]
WANT0 = [
    f"PARALLEL_BEGIN ts={REC0[0][0]} kind=0x1 a=4 b=0x55d4c3a21a40 c=0x1",
    f"IMPLICIT_BEGIN ts={REC0[1][0]} kind=0x2 a=4 b=0x1 c=0x0",
    f"PARALLEL_END ts={REC0[2][0]} kind=0x1 b=0x55d4c3a21a40 c=0x1",
    f"PARALLEL_BEGIN ts={REC0[3][0]} kind=0x1 a=4 b=0x55d4c3a21a00 c=0x2",
    "FLUSH ts=18446744073709551615 b=0xffffffffffffffff values=5,3,18446744073709551615",
]


def write_log(d, torn):
    os.makedirs(d)
    with open(os.path.join(d, "process"), "wb") as f:
        f.write(frame(META, 0, b"program=/bin/x y\nargs=a=b c\n"))
        f.write(frame(CLOCK, 1, struct.pack("<QQ", 1000, 2000)))
    with open(os.path.join(d, "0.log"), "wb") as f:
        f.write(frame(THREAD, 0, struct.pack("<IiiI", 0, 1, 4242, 3)))
        f.write(frame(RECORDS, 1, encode(REC0[:2])))
        f.write(frame(LOST, 2, struct.pack("<QQQ", 7, 11, 13)))
        f.write(frame(RECORDS, 3, encode(REC0[2:])))
    if torn:
        with open(os.path.join(d, "12.log"), "wb") as f:
            f.write(frame(THREAD, 0, struct.pack("<IiiI", 12, 2, 4243, 0)))
            whole = frame(RECORDS, 1, encode(REC0[:1]))
            f.write(whole[:-3])


def run(*args):
    p = subprocess.run(list(args), capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def main(dump):
    with tempfile.TemporaryDirectory() as tmp:
        clean, torn = os.path.join(tmp, "clean"), os.path.join(tmp, "torn")
        write_log(clean, False)
        write_log(torn, True)

        rc, out, err = run(dump, "-r", clean)
        check(f"clean log: exit 0 (got {rc}: {err.strip()})", rc == 0 and err == "")
        recs = [l.strip() for l in out.splitlines() if l.startswith("    ") and "ts=" in l]
        check(f"records decoded exactly: {recs}", recs == WANT0)
        check("META text shown", "    args=a=b c" in out.splitlines())
        check("THREAD frame", "  @0 THREAD seq=0 length=16 loc=0 type=1 tid=4242 nval=3" in out)
        check("LOST frame", " LOST seq=2 length=24 count=7 first_ts=11 last_ts=13" in out)
        check("file totals", "  4 frames, 5 records in " in out)
        check("process file first", out.startswith("process:\n"))

        rc, out, err = run(dump, torn)
        check(f"torn log: exit 1 (got {rc})", rc == 1)
        check("no records without -r", "PARALLEL_BEGIN" not in out)
        size12 = os.path.getsize(os.path.join(torn, "12.log"))
        at = 24 + 16
        check(f"torn reason names file, offset and 'torn': {err.strip()}",
              f"12.log: damaged at byte {at}: torn: 3 payload bytes missing" in err)
        check("torn file's good frame listed", "  @0 THREAD seq=0 length=16 loc=12" in out)
        check("file order: 0.log before 12.log", out.index("0.log:") < out.index("12.log:"))
        check("torn file size", size12 > at)

        rc, out, err = run(dump)
        check(f"no argument: exit 2 (got {rc})", rc == 2 and "usage" in err)
        rc, out, err = run(dump, os.path.join(tmp, "missing"))
        check(f"missing dir: exit 1 with one line (got {rc})",
              rc == 1 and err.count("\n") == 1 and "cannot open" in err)
    print(f"logdump_check: {len(failed)} failed" if failed else "logdump_check: all passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
