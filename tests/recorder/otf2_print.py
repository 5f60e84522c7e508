"""Cross-check with otf2-print, which reads the archive with OTF2's own C
reader: its per-location counts of every record kind must equal ours."""

import collections
import re
import subprocess


def print_all(anchor):
    """otf2-print -A of the archive, line by line, without the trace
    identifier (random for every archive written): for comparing archives."""
    p = subprocess.run(["otf2-print", "-A", anchor], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    return [l for l in p.stdout.splitlines() if not l.startswith("Trace identifier")]


def otf2_print_counts(anchor):
    """Event counts per (record name, location) from otf2-print, which reads
    the archive with OTF2's own C reader."""
    p = subprocess.run(["otf2-print", anchor], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        raise RuntimeError("otf2-print failed (%d): %s" % (p.returncode, p.stderr.strip()))
    counts = collections.Counter()
    started = False
    for line in p.stdout.splitlines():
        if line.startswith("-----"):
            started = True
            continue
        if not started:
            continue
        f = line.split()
        if len(f) >= 3 and f[0].isupper() and f[1].isdigit():
            counts[(f[0], int(f[1]))] += 1
    return counts, p.stderr


# otf2-print's names where they differ from the record class names.
PRINT_NAMES = {"ParameterUnsignedInt": "PARAMETER_UINT64", "ParameterInt": "PARAMETER_INT64"}


def upper_snake(name):
    if name in PRINT_NAMES:
        return PRINT_NAMES[name]
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).upper()


def check_with_otf2_print(t):
    try:
        counts, err = otf2_print_counts(t.anchor)
    except RuntimeError as e:
        t.fail(str(e))
        return
    if err.strip():
        t.fail("otf2-print warnings: %s" % err.strip().splitlines()[0])
    mine = collections.Counter()
    for l in t.locs:
        for e in t.events[l]:
            mine[(upper_snake(type(e).__name__), l)] += 1
    if mine != counts:
        diff = sorted(set(mine) | set(counts))
        detail = ["%s@%d: python %d, otf2-print %d" % (k[0], k[1], mine[k], counts[k])
                  for k in diff if mine[k] != counts[k]]
        t.fail("otf2-print counts differ: " + "; ".join(detail[:10]))
