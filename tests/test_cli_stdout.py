"""Standard output closed or on a full disk: one line on standard error, a
non-zero status, no traceback -- for every command (handled once, in the entry
point: :mod:`fastmine.cli.stdio`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import fastmine
from fastmine.records import RecordsStore

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX file descriptors")

SRC = Path(fastmine.__file__).resolve().parents[1]

COMMANDS = [
    (["records"], ""),
    (["records", "--json"], ""),
    (["records", "--difficulty", "beginner"], ""),
    (["replay", "1", "--verdicts", "-"], ""),
    (["replay", "--list"], ""),
    (["replay", "1", "--plain"], ""),
    (["replay", "1", "--timeline"], ""),
    (["solve", "-d", "beginner", "-n", "3", "-j", "1", "-q"], ""),
    (["play", "--plain", "-d", "beginner", "--seed", "3", "--no-records"], "r 5 5\nq\n"),
    (["--help"], ""),
    (["--version"], ""),
    (["records", "--help"], ""),
    (["bench", "--help"], ""),
]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("data")
    game = fastmine.Game(9, 9, 10, seed=3)
    game.reveal(4, 4)
    while not game.state.is_over:
        game.reveal(*(int(v) for v in np.argwhere(game.view == fastmine.HIDDEN)[0]))
    with RecordsStore(data_dir=folder) as store:
        store.record_game(game, name="Ann")
    return folder


def _run(argv: list[str], stdin: str, data: Path, stdout: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(SRC), "FASTMINE_DATA_DIR": str(data)}
    if stdout == "closed":
        out, pre = subprocess.DEVNULL, (lambda: os.close(1))
    else:
        out, pre = open("/dev/full", "wb"), None    # noqa: SIM115 (closed below)
    try:
        return subprocess.run([sys.executable, "-m", "fastmine", *argv], input=stdin.encode(),
                              stdout=out, stderr=subprocess.PIPE, env=env, cwd=data,
                              preexec_fn=pre, timeout=120)
    finally:
        if out is not subprocess.DEVNULL:
            out.close()


@pytest.mark.parametrize("argv, stdin", COMMANDS, ids=[" ".join(a) for a, _ in COMMANDS])
@pytest.mark.parametrize("stdout", ["closed", "full"])
def test_an_unwritable_stdout_is_one_line_and_a_failure(argv, stdin, stdout, data):
    if stdout == "full" and not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    proc = _run(argv, stdin, data, stdout)
    err = proc.stderr.decode(errors="replace")
    assert proc.returncode not in (0, None), err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    lines = [line for line in err.splitlines() if "standard output" in line]
    assert len(lines) == 1, err
    want = "it is closed" if stdout == "closed" else "No space left on device"
    assert "cannot write to standard output: " + want in lines[0]


def test_a_closed_standard_descriptor_is_never_given_to_a_file(tmp_path):
    """With fd 1 closed, the next file opened (the records database ...) would get
    it, and a stray write to standard output would land in it."""
    code = ("import os, sys; from fastmine.cli.stdio import open_standard_descriptors; "
            "closed = open_standard_descriptors(); "
            "fd = os.open(sys.argv[1], os.O_CREAT | os.O_WRONLY); "
            "print(sorted(closed), fd, file=sys.stderr)")
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path / "f")], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          preexec_fn=lambda: (os.close(0), os.close(1)), timeout=60)
    assert proc.stderr.decode().split() == ["[0,", "1]", "3"], proc.stderr


def test_a_command_that_writes_nothing_to_stdout_is_fine_with_it_closed(data, tmp_path):
    proc = _run(["records", "--json", str(tmp_path / "out.json")], "", data, "closed")
    assert proc.returncode == 0, proc.stderr
    assert b"games written" in proc.stderr and (tmp_path / "out.json").exists()
