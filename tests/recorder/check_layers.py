#!/usr/bin/env python3
"""Shape of recorder/ (README "Layout", docs/recording.md "Threads, signals
and shared data"): each folder includes only its own headers and those of
the folders below it; the sampler's re-entry flag is touched only through
its guard; every function tagged signal-safe is named in the docs.

Usage: check_layers.py SOURCE_ROOT. Prints one line per problem, exit 1."""
import pathlib
import re
import sys

LAYERS = ["core", "buffer", "services", "log", "events", "finalize", "faults"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/', re.M)
TAG = "signal-safe:"
# The function a tag comment belongs to: the first definition after it.
DEF = re.compile(r"^[A-Za-z_][\w \*]*?\b(\w+)\s*\([^;{]*\)\s*\{", re.M)


def main(root):
    rec = root / "recorder"
    problems = []
    files = sorted(p for p in rec.rglob("*") if p.suffix in (".c", ".h"))
    if not files:
        return [f"no sources under {rec}"]
    for f in files:
        rel = f.relative_to(rec)
        text = f.read_text()
        if len(rel.parts) > 1:
            own = rel.parts[0]
            rank = LAYERS.index(own) if own in LAYERS else None
            for m in INCLUDE.finditer(text):
                dep = m.group(1)
                if rank is not None and dep in LAYERS and LAYERS.index(dep) > rank:
                    problems.append(f"{rel}: {own}/ includes {dep}/ (a folder above it)")
        if rel != pathlib.Path("services/sampler_guard.h") and re.search(r"->busy\b", text):
            problems.append(f"{rel}: st->busy outside ot_safe_enter/ot_safe_exit")
    tagged = set()
    for f in files:
        text = f.read_text()
        for i in (m.start() for m in re.finditer(re.escape(TAG), text)):
            d = DEF.search(text, i)
            if d:
                tagged.add((d.group(1), f.relative_to(rec)))
    docs = (root / "docs" / "recording.md").read_text()
    for name, where in sorted(tagged):
        if f"`{name}`" not in docs:
            problems.append(f"{where}: {name} is tagged {TAG} but not listed in docs/recording.md")
    if not tagged:
        problems.append(f"no function tagged {TAG}")
    print(f"check_layers: {len(files)} files, {len(tagged)} signal-safe functions, "
          f"{len(problems)} problems")
    return problems


if __name__ == "__main__":
    out = main(pathlib.Path(sys.argv[1]))
    for line in out:
        print("check_layers:", line)
    sys.exit(1 if out else 0)
