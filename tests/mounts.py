"""Small disks and places that even root cannot write, for the tests of the files
fastmine keeps (full disks, read-only records and saves).

Root writes through permission bits, so the read-only places are a tmpfs
remounted read-only, a read-only bind mount and the immutable attribute
(chattr +i).  Each needs root and its command: a test that cannot have one is
skipped, with the reason.
Imported by tests here and in tests/app (tests/ is on ``sys.path`` through
its conftest.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def run_as_root(*argv: str) -> None:
    """Run a command that needs root, or skip the test saying why it cannot run."""
    if os.name != "posix" or os.geteuid() != 0:
        pytest.skip(f"{argv[0]} as used here needs root")
    if shutil.which(argv[0]) is None:
        pytest.skip(f"no {argv[0]} command")
    r = subprocess.run(list(argv), capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        pytest.skip(f"cannot {' '.join(argv)} here: {r.stderr.strip()}")


def unmount(mnt: Path) -> None:
    """Unmount ``mnt`` (lazily: a file still open there does not stop it)."""
    subprocess.run(["umount", "-l", str(mnt)], capture_output=True, timeout=30)


@contextmanager
def tmpfs(mnt: Path, size: str) -> Iterator[Path]:
    """A fresh tmpfs of at most ``size`` mounted on the new folder ``mnt``."""
    mnt.mkdir()
    run_as_root("mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mnt))
    try:
        yield mnt
    finally:
        unmount(mnt)


def remount_ro(mnt: Path) -> None:
    """Make the mount at ``mnt`` read-only."""
    run_as_root("mount", "-o", "remount,ro", str(mnt))
