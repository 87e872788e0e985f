"""The command line under Ctrl-C, odd standard input and requests it cannot serve.

Each case runs ``python -m fastmine`` in a subprocess (a signal, a closed
stdin and an exit status are only real there), with bounded timeouts.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from sigint_default import SIGINT_DEFAULT  # the children get Ctrl-C whatever their parent

import fastmine

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals and file descriptors")

SRC = Path(fastmine.__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(SRC), "MPLBACKEND": "Agg"}
SIGINT_STATUS = (130, -signal.SIGINT)   # 130, or killed by the signal (shells show 130 too)



def fastmine_cmd(*args: str, data_dir=None, **kw) -> subprocess.CompletedProcess:
    env = dict(ENV)
    if data_dir is not None:
        env["FASTMINE_DATA_DIR"] = str(data_dir)
    kw.setdefault("timeout", 60)
    return subprocess.run([sys.executable, "-m", "fastmine", *args], capture_output=True,
                          text=True, env=env, **kw)


@pytest.fixture
def procs():
    """Processes a test started; whatever is left of them is killed afterwards."""
    started: list[subprocess.Popen] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        if proc.pid in _TERMINALS:
            os.close(_TERMINALS.pop(proc.pid))


_TERMINALS: dict[int, int] = {}      # pid -> the pty (master side) a run's stderr is


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, 1 << 16)
    except BlockingIOError:
        return b""
    except OSError:             # EIO: the run has ended and closed its side
        return b""


def start_solve(procs: list, tmp_path: Path, *extra: str) -> subprocess.Popen:
    """A long ``fastmine solve -j 2``, running once it has finished some games.

    Its standard error is a terminal (a pty), as when a player runs it: the
    progress bar, drawn only on a terminal, says when games have finished.
    """
    import fcntl  # POSIX only, as this file (see pytestmark)
    import pty
    import termios

    master, slave = pty.openpty()
    # 24 x 80: a terminal of no size (a pty's own) gets no bar from tqdm
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    try:
        proc = subprocess.Popen(
            [*SIGINT_DEFAULT, sys.executable, "-m", "fastmine", "solve", "-j", "2", "-d",
             "beginner", "-r", "cell", "-n", "2000000", "--chunk", "20",
             "--json", str(tmp_path / "r.json"), "--outcomes", str(tmp_path / "r.npz"), *extra],
            stdout=subprocess.PIPE, stderr=slave, env=ENV, start_new_session=True)
    finally:
        os.close(slave)
    procs.append(proc)
    _TERMINALS[proc.pid] = master
    os.set_blocking(master, False)
    seen = b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        seen += _read(master)
        counts = [int(n) for n in re.findall(rb"\| *(\d+)/\d+ \[", seen)]
        if counts and max(counts) > 0:
            return proc
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    proc.kill()
    pytest.fail(f"the run did not start: {seen[-500:]!r}")


def finish(proc: subprocess.Popen, timeout: float = 60) -> tuple[str, str]:
    """Wait for a run of :func:`start_solve`: its standard output and the rest of
    its standard error (the terminal's)."""
    out, _ = proc.communicate(timeout=timeout)
    master = _TERMINALS.pop(proc.pid)
    err = b""
    while chunk := _read(master):
        err += chunk
    os.close(master)
    return out.decode(), err.decode(errors="replace")


def ctrl_c(proc: subprocess.Popen) -> None:
    # A terminal's Ctrl-C reaches the whole foreground process group.
    os.killpg(proc.pid, signal.SIGINT)


def test_ctrl_c_stops_promptly_and_keeps_the_finished_games(procs, tmp_path):
    proc = start_solve(procs, tmp_path)
    ctrl_c(proc)
    out, err = finish(proc)    # the old code played all 2,000,000 games
    assert proc.returncode in SIGINT_STATUS, err
    assert "Traceback" not in err
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["partial"] is True and "interrupted" in doc["stopped"]
    [r] = doc["results"]
    assert 0 < r["games"] < 2_000_000 and doc["games_requested"] == 2_000_000
    assert r["won"] + r["lost"] + r["stuck"] == r["games"]
    assert "PARTIAL" in out
    with np.load(tmp_path / "r.npz") as f:
        meta = json.loads(str(f["meta"]))
        played = f["c0"]
    assert meta["partial"] is True
    assert int((played >= 0).sum()) == r["games"]
    # The worker processes are gone with the parent.
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)


def test_a_second_ctrl_c_never_hangs(procs, tmp_path):
    proc = start_solve(procs, tmp_path)
    ctrl_c(proc)
    time.sleep(0.05)
    ctrl_c(proc)
    finish(proc)
    assert proc.returncode in SIGINT_STATUS


def _ignoring_sigint() -> None:     # the parent a background job of a script has
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def test_the_children_start_with_sigint_at_its_default_whatever_their_parent():
    code = "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    ignored = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             timeout=60, preexec_fn=_ignoring_sigint)
    assert ignored.stdout == "False\n"      # what the Ctrl-C tests met there
    child = subprocess.run([*SIGINT_DEFAULT, sys.executable, "-c", code], capture_output=True,
                           text=True, timeout=60, preexec_fn=_ignoring_sigint)
    assert child.stdout == "True\n", child.stderr


def test_the_ctrl_c_tests_pass_under_a_parent_that_ignores_sigint(tmp_path):
    # As `pytest ... &` in a script runs them (each took its full 60 s and failed).
    r = subprocess.run(
        ["bash", "-c", '"$@" & wait $!', "bash", sys.executable, "-m", "pytest", "-q",
         "-p", "no:cacheprovider", "--basetemp", str(tmp_path / "t"), __file__,
         "-k", "test_a_second_ctrl_c_never_hangs or test_ctrl_c_stops_promptly"],
        capture_output=True, text=True, env=ENV, timeout=300, cwd=Path(__file__).parent)
    assert r.returncode == 0 and "2 passed" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]


def test_the_finished_games_match_an_uninterrupted_run(procs, tmp_path):
    """The games kept after Ctrl-C are the same games, with the same outcomes."""
    proc = start_solve(procs, tmp_path)
    ctrl_c(proc)
    finish(proc)
    with np.load(tmp_path / "r.npz") as f:
        part = f["c0"]
    done = np.flatnonzero(part >= 0)
    import argparse

    from fastmine.cli.solve import build_configs, configure
    from fastmine.solver.runs import play_chunk

    parser = argparse.ArgumentParser()
    configure(parser)
    [config] = build_configs(parser.parse_args(["-d", "beginner", "-r", "cell"]))
    for i in done[:40].tolist():
        *_, outcomes = play_chunk(config, i, 1, 0)
        assert outcomes[0] == part[i]


# ---------------------------------------------------------------- checked up front

def test_play_refuses_a_board_that_cannot_fit(tmp_path):
    r = fastmine_cmd("play", "--plain", "--rows", "50000", "--cols", "40000", input="q\n",
                     data_dir=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "at most" in r.stderr


def test_play_refuses_an_impossible_no_guess_game(tmp_path):
    r = fastmine_cmd("play", "--plain", "--rows", "2", "--cols", "10", "--mines", "1",
                     "--rule", "no_guess", input="q\n", data_dir=tmp_path, timeout=8)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr


def test_solve_refuses_too_many_games_before_allocating():
    r = fastmine_cmd("solve", "-n", "100000000000", "-d", "beginner", "-q", timeout=20)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "MAX_GAMES" in r.stderr


def test_solve_refuses_a_board_too_big():
    r = fastmine_cmd("solve", "-d", "50000x40000/100", "-q", timeout=20)
    assert r.returncode == 2 and "too big" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("option, path, words", [
    ("--json", "/nonexistent-folder/r.json", "does not exist"),
    ("--outcomes", "/nonexistent-folder/r.npz", "does not exist"),
    ("--json", ".", "folder"),
])
def test_solve_checks_output_paths_before_the_run(option, path, words):
    r = fastmine_cmd("solve", "-d", "expert", "-n", "100000", "-j", "1", "-q", option, path,
                     timeout=30)
    assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr
    assert "win rate" not in r.stdout       # nothing was played


def test_plot_without_matplotlib_says_which_extra_before_the_run():
    code = ("import sys; sys.modules['matplotlib'] = None\n"
            "from fastmine.cli import main\n"
            "sys.exit(main(['solve', '-d', 'expert', '-n', '100000', '-j', '1', '-q', "
            "'--plot', 'x.png']))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV,
                       timeout=30)
    assert r.returncode == 2 and "[plot]'" in r.stderr and "Traceback" not in r.stderr


def test_plot_to_an_unknown_format_is_refused_before_the_run(tmp_path):
    pytest.importorskip("matplotlib", reason="--plot needs the plot extra")
    r = fastmine_cmd("solve", "-d", "expert", "-n", "100000", "-j", "1", "-q",
                     "--plot", str(tmp_path / "wr.xyz"), timeout=30)
    assert r.returncode == 2 and "xyz" in r.stderr and "Traceback" not in r.stderr


def test_scheduler_without_dask_says_which_extra():
    code = ("import sys; sys.modules['dask'] = None; sys.modules['dask.distributed'] = None\n"
            "from fastmine.cli import main\n"
            "sys.exit(main(['solve', '-d', 'beginner', '-n', '10', '-q', '--scheduler', "
            "'local']))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV,
                       timeout=30)
    assert r.returncode == 2 and "[dist]'" in r.stderr and "Traceback" not in r.stderr


# ---------------------------------------------------------------- standard input

def test_a_line_of_separators_is_a_bad_command_not_a_crash(tmp_path):
    r = fastmine_cmd("play", "--plain", "--seed", "7", input=",\n , ,\nq\n", data_dir=tmp_path)
    assert r.returncode == 3 and "Traceback" not in r.stderr
    assert "no command" in r.stderr


def test_closed_stdin_is_no_input(tmp_path):
    env = {**ENV, "FASTMINE_DATA_DIR": str(tmp_path)}
    r = subprocess.run(["sh", "-c", f'exec "{sys.executable}" -m fastmine play --plain <&-'],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 3 and "Traceback" not in r.stderr, r.stderr
    r = subprocess.run(["sh", "-c", f'exec "{sys.executable}" -m fastmine play <&-'],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr


def test_the_curses_game_without_curses_says_what_to_install(monkeypatch, capsys, tmp_path):
    from fastmine.cli import main

    class Tty:
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Tty())
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setitem(sys.modules, "curses", None)      # as on Windows without windows-curses
    assert main(["play", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "windows-curses" in err and "--plain" in err
