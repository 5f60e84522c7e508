"""A small full disk for the full-disk tests (tests/recorder/env_tests.py,
tests/faults/faults.py): a tmpfs mounted at a directory and filled up with
one file, which the test removes or shrinks to free space again."""
import errno
import os
import subprocess


def mount_full(mnt, size, block=65536):
    """Mounts a tmpfs of `size` (mount's syntax: "4m") at the existing
    directory mnt and fills it with mnt/filler in writes of `block` bytes.
    Returns (filler path, None), or (None, mount's message) when mounting is
    not allowed here. The caller unmounts."""
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", mnt],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if p.returncode != 0:
        return None, p.stdout.strip()
    filler = os.path.join(mnt, "filler")
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while True:
            os.write(fd, bytes(block))
    except OSError as e:
        if e.errno != errno.ENOSPC:
            raise
    finally:
        os.close(fd)
    return filler, None
