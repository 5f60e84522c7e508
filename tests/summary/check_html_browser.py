#!/usr/bin/python3
"""The HTML report in a real browser (headless chromium): the plots are in
the rendered DOM, the page logs no error, and a screenshot shows the plots'
colours. Skips (77) only when chromium cannot start.

usage: check_html_browser.py SUMMARY GENERATOR WORKDIR"""
import os
import shutil
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "browser"))
import headless  # noqa: E402

SUMMARY, GEN, WORK = sys.argv[1:4]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def gen(scenario, *args):
    d = os.path.join(WORK, scenario + "".join("-" + str(a) for a in args))
    shutil.rmtree(d, ignore_errors=True)
    subprocess.run([GEN, scenario, d] + [str(a) for a in args], check=True)
    return d


def report(name, *args):
    out = os.path.join(WORK, name + ".html")
    subprocess.run([SUMMARY, "--format", "html", "-o", out] + list(args), check=True,
                   timeout=120)
    return out


def png_pixels(path):
    """RGB(A) pixels of an 8-bit non-interlaced PNG, as a set of (r, g, b)."""
    data = open(path, "rb").read()
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, _, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                raise SystemExit("unexpected PNG format %d/%d" % (depth, ctype))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride = zlib.decompress(idat), w * bpp
    prev, colours = bytearray(stride), set()
    for y in range(len(raw) // (stride + 1)):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        colours.update(bytes(line[i:i + 3]) for i in range(0, stride, bpp))
        prev = line
    return colours


def check_page(path, want_dom, want_colours):
    dom, errors = headless.dom(path, wait_ms=2000)
    check(not errors, "%s: console errors %r" % (path, errors))
    for text, n in want_dom:
        check(dom.count(text) == n, "%s: %d x %r in the DOM, want %d" % (path, dom.count(text),
                                                                       text, n))
    png = path[:-5] + ".png"
    errors = headless.screenshot(path, png, size=(1000, 1500), wait_ms=2000)
    check(not errors, "%s: screenshot console errors %r" % (path, errors))
    colours = png_pixels(png)
    check(os.path.getsize(png) > 10000 and len(colours) > 20,
          "%s: screenshot %d bytes, %d colours" % (png, os.path.getsize(png), len(colours)))
    for hexc in want_colours:
        check(bytes.fromhex(hexc) in colours, "%s: no #%s pixel (plot not drawn)" % (png, hexc))


def main():
    ok, why = headless.available()
    if not ok:
        print("SKIP: " + why)
        sys.exit(77)
    os.makedirs(WORK, exist_ok=True)
    # work green, barrier red, serial blue, idle grey: thread bars and strips
    check_page(report("imbalance", gen("imbalance")),
               [('<g class="bar"', 2), ('<g class="strip"', 2), ('<g class="region"', 2),
                ('<svg class="chart"', 3)], ["3a9d4f", "d9534f", "4a7fd0", "c8c8c8"])
    runs = [gen("degrade", n) for n in (4, 1, 2)]
    check_page(report("compare", "--compare", *runs),
               [('<figure class="cmp"', 3), ('class="pt"', 18), ('class="degr"', 2)],
               ["4a7fd0", "dd0000"])
    if failures:
        sys.exit("%d failure(s)" % len(failures))
    print("ok")


main()
