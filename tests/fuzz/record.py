"""Records tests/fuzz/progs/regions.c with libomptrace.so, and reads a
location's event count back with otf2-print (independent of the converters)."""
import os
import re
import shutil
import subprocess


def record(lib, prog, out):
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, OMP_TOOL_LIBRARIES=lib, OMPTRACE_OUTPUT=out, OMPTRACE_QUIET="1",
               OMP_NUM_THREADS="2")
    subprocess.run([prog], env=env, check=True, timeout=120)
    return out


def defined_events(archive):
    """{location id: (name, number of events)} from the definitions."""
    p = subprocess.run(["otf2-print", "-G", os.path.join(archive, "traces.otf2")],
                       capture_output=True, text=True, check=True)
    return {int(m.group(1)): (m.group(2), int(m.group(3))) for m in re.finditer(
        r'^LOCATION +(\d+) +Name: "([^"]*)".*# Events: (\d+)', p.stdout, re.M)}


def events_read(archive, loc):
    """Events otf2-print reads from one location (up to an error)."""
    p = subprocess.run(["otf2-print", "-L", str(loc), os.path.join(archive, "traces.otf2")],
                       capture_output=True, text=True, errors="replace", timeout=60)
    return len(re.findall(r"^[A-Z_]+ +\d+ +\d+ ", p.stdout, re.M))
