"""``fastmine solve -j N``: workers bounded in one place, and never outliving the run.

At most one worker a core and one a task (said on standard error when ``-j``
asked for more), an absurd ``-j`` is a usage error, and the workers die with
their parent, even one killed with SIGKILL.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fastmine.cli import main
from fastmine.solver import runs, workers
from fastmine.solver.runs import Config, run_configs

BEGINNER = Config("beginner", 9, 9, 10, "cell", (0, 0), "deterministic")


def test_plan_caps_at_the_cores_and_the_tasks(monkeypatch):
    monkeypatch.setattr(workers, "usable_cores", lambda: 4)
    p = workers.plan(64, configs=1, games=1)
    assert (p.workers, p.tasks) == (1, 1)
    assert "not 64" in p.note and "4 cores" in p.note and "1 task" in p.note
    p = workers.plan(64, configs=6, games=10_000)
    assert p.workers == 4 and p.note == "using 4 worker processes, not 64: this process may use 4 cores"
    assert workers.plan(None, 6, 10_000) == workers.Plan(4, 250, 240, None)   # no note: not asked
    assert workers.plan(3, 1, 1000, chunk=500).workers == 2                  # two tasks
    assert workers.plan(2, 1, 1000).note is None
    assert workers.plan(None).workers == 4 and workers.plan(9).workers == 4
    for bad in (0, -1, workers.MAX_JOBS + 1, 2**31, 2**63, 1048577):
        with pytest.raises(ValueError, match="1 to 4096"):
            workers.plan(bad, 1, 10)
    for bad in (1.5, "2", True):
        with pytest.raises(TypeError):
            workers.plan(bad, 1, 10)


def test_run_configs_never_starts_more_workers_than_cores_or_tasks(monkeypatch):
    """The library call is bounded by the same plan (no pool at all for one task)."""
    started = []

    class Pool:
        def __init__(self, max_workers, **kwargs):
            started.append(max_workers)
            raise RuntimeError("stop here")

    monkeypatch.setattr(runs, "ProcessPoolExecutor", Pool)
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    run = run_configs([BEGINNER], games=1, seed=1, jobs=64, progress=False)   # one task
    assert run.workers == 1 and started == []
    with pytest.raises(RuntimeError, match="stop here"):
        run_configs([BEGINNER], games=1000, seed=1, jobs=64, progress=False)
    assert started == [2]


@pytest.mark.parametrize("jobs", ["2147483648", "1048577", "4097", "99999999999999999999"])
def test_an_absurd_jobs_is_a_usage_error(jobs, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["solve", "-d", "beginner", "-n", "1", "-q", "-j", jobs])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "must be 1 to 4096" in err and "Traceback" not in err


def test_capping_is_said_on_stderr(capsys, monkeypatch):
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    assert main(["solve", "-d", "beginner", "-r", "cell", "-n", "1", "-q", "-j", "64"]) == 0
    out, err = capsys.readouterr()
    assert "fastmine solve: using 1 worker process, not 64" in err
    assert "on 1 worker(s)" in out


def _children(pid: int) -> set[int]:
    """Live processes whose parent is ``pid`` (Linux /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _start_solve(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen, set[int]]:
    """A long ``solve -j 2`` in its own process; returns it and its two workers."""
    env = dict(os.environ, FASTMINE_DATA_DIR=str(tmp_path))
    proc = subprocess.Popen(
        [sys.executable, "-m", "fastmine", "solve", "-j", "2", "-d", "expert", "-r", "cell",
         "-n", "200000", "-q", *extra], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 120
    kids: set[int] = set()
    while len(kids) < 2:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the workers did not start"
        time.sleep(0.2)
        kids = _children(proc.pid)
    time.sleep(1.0)                 # the workers are playing (initializer done)
    return proc, kids


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_workers_die_when_their_parent_is_killed(tmp_path):
    proc, kids = _start_solve(tmp_path)
    try:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 10
        while any(_alive(k) for k in kids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [k for k in kids if _alive(k)], "workers outlived their parent"
    finally:
        for k in kids:
            if _alive(k):
                os.kill(k, signal.SIGKILL)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_sigterm_stops_the_run_and_keeps_the_finished_games(tmp_path):
    proc, kids = _start_solve(tmp_path, "--json", "r.json")
    try:
        time.sleep(2.0)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 128 + signal.SIGTERM, err
        assert b"stopped by SIGTERM; keeping the games that finished" in err
        assert b"Traceback" not in err
        assert b"PARTIAL RESULTS" in out and (tmp_path / "r.json").exists()
        assert not [k for k in kids if _alive(k)]
    finally:
        if proc.poll() is None:
            proc.kill()
        for k in kids:
            if _alive(k):
                os.kill(k, signal.SIGKILL)
