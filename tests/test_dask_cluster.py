"""``fastmine solve --scheduler``: a real Dask scheduler and worker processes on loopback.

The scheduler and each worker are their own processes (``dask scheduler``,
``dask worker --no-nanny``), listening on 127.0.0.1 only, with every dashboard
off.  Checked: the same results as in one process, no workers (a timeout with
a message, not a wait forever), a worker without fastmine or with another
version (refused before anything is submitted), a failing task (the finished
chunks are kept), a worker that dies (the live count is reported), a warm
cluster (said in the output).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("dask.distributed", reason="needs the dist extra")

from dask_tasks import dying_chunk, dying_everywhere_chunk, failing_chunk  # noqa: E402

import fastmine  # noqa: E402
from fastmine.cli import main  # noqa: E402
from fastmine.solver.runs import Config, RunFailed, run_configs  # noqa: E402

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX process handling")

SRC = Path(fastmine.__file__).resolve().parents[1]
DASK = shutil.which("dask", path=str(Path(sys.executable).parent)) or shutil.which("dask")
# Workers import fastmine from where the tests do, and dask_tasks from tests/.
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(Path(__file__).parent)]),
       "PYTHONWARNINGS": "ignore"}
PARENT_DEATH = Path(__file__).with_name("parent_death.py")
BEGINNER = Config("beginner", 9, 9, 10, "cell", (0, 0), "deterministic")

if DASK is None:
    pytest.skip("no 'dask' command", allow_module_level=True)


class Cluster:
    """A scheduler and workers in their own processes; stopped by :meth:`close`."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.procs: list[subprocess.Popen] = []
        info = tmp / "scheduler.json"
        self._start([DASK, "scheduler", "--host", "127.0.0.1", "--port", "0",
                     "--no-dashboard", "--dashboard-address", "127.0.0.1:0", "--no-show",
                     "--scheduler-file", str(info)], "scheduler")
        deadline = time.monotonic() + 60
        while not info.exists() or not info.read_text().strip():
            if time.monotonic() > deadline:
                raise RuntimeError("the scheduler did not start")
            time.sleep(0.1)
        time.sleep(0.1)
        self.address = json.loads(info.read_text())["address"]

    def _start(self, argv: list[str], name: str, env: dict | None = None) -> subprocess.Popen:
        log = open(self.tmp / f"{name}-{len(self.procs)}.log", "wb")    # noqa: SIM115
        # Through the wrapper: the kernel kills them if these tests are killed
        # (even by kill -9), before close() could.
        argv = [sys.executable, str(PARENT_DEATH), str(os.getpid()), *argv]
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                env={**ENV, **(env or {})}, start_new_session=True)
        self.procs.append(proc)
        return proc

    def add_workers(self, n: int, preload: Path | None = None, env: dict | None = None,
                    wait: bool = True) -> None:
        """Start ``n`` single-threaded workers (no nanny: a dead one stays dead)."""
        with distributed.Client(self.address, timeout="30s") as client:
            have = len(client.scheduler_info()["workers"])
            for _ in range(n):
                argv = [DASK, "worker", self.address, "--no-nanny", "--nthreads", "1",
                        "--host", "127.0.0.1", "--no-dashboard", "--dashboard-address",
                        "127.0.0.1:0", "--death-timeout", "60"]
                if preload is not None:
                    argv += ["--preload", str(preload)]
                self._start(argv, "worker", env)
            if wait:
                client.wait_for_workers(have + n, timeout=60)

    def close(self) -> None:
        # Nothing of theirs is worth a graceful goodbye: stop them at once.
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
        for proc in self.procs:
            proc.wait(timeout=30)


@pytest.fixture
def cluster(tmp_path):
    c = Cluster(tmp_path)
    try:
        yield c
    finally:
        c.close()


def _running(pid: int) -> bool:
    """The process is there and not a zombie (one waiting to be reaped is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


_KILLED_RUN = """
import json, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from test_dask_cluster import Cluster
cluster = Cluster(Path(sys.argv[1]))
cluster.add_workers(1)
print(json.dumps([p.pid for p in cluster.procs]), flush=True)
time.sleep(600)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_the_cluster_dies_with_the_tests_even_by_kill_9(tmp_path):
    """The fixture's scheduler and worker die within seconds of the process that
    started them being killed with SIGKILL (no close(), no finalizer runs)."""
    run = subprocess.Popen([sys.executable, "-c", _KILLED_RUN, str(tmp_path),
                            str(Path(__file__).parent)], stdout=subprocess.PIPE, text=True,
                           env=ENV)
    pids: list[int] = []
    try:
        assert run.stdout is not None
        pids = json.loads(run.stdout.readline())
        assert len(pids) == 2 and all(_running(pid) for pid in pids)
        run.kill()
        run.wait(timeout=30)
        deadline = time.monotonic() + 10
        while any(_running(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [pid for pid in pids if _running(pid)] == [], "left running after kill -9"
    finally:
        run.kill()
        run.wait(timeout=30)
        for pid in pids:        # only ours: still a dask process
            with contextlib.suppress(OSError):
                if _running(pid) and b"dask" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    os.kill(pid, signal.SIGKILL)


def outcomes(run) -> list:
    return [r.outcomes.tolist() for r in run.results]


def test_two_workers_play_the_same_games_and_the_cli_reports_them(cluster, capsys, tmp_path):
    cluster.add_workers(2)
    out = tmp_path / "r.json"
    code = main(["solve", "--scheduler", cluster.address, "-d", "beginner", "-r", "cell",
                 "-s", "deterministic", "-n", "60", "--chunk", "7", "-q", "--seed", "3",
                 "--json", str(out), "--wait", "30"])
    assert code == 0
    text = capsys.readouterr().out
    assert "on 2 worker(s)" in text and "PARTIAL" not in text
    doc = json.loads(out.read_text())
    assert doc["workers"] == 2 and doc["partial"] is False
    local = run_configs([BEGINNER], games=60, seed=3, jobs=1, progress=False)
    assert doc["results"][0]["won"] == local.results[0].won
    with distributed.Client(cluster.address) as client:
        remote = run_configs([BEGINNER], games=60, seed=3, chunk=7, client=client,
                             progress=False)
    assert outcomes(remote) == outcomes(local)
    # The workers have played now: a second run says its speed figures may mislead.
    code = main(["solve", "--scheduler", cluster.address, "-d", "beginner", "-r", "cell",
                 "-s", "deterministic", "-n", "10", "-q", "--wait", "30"])
    assert code == 0
    assert "warm cluster" in capsys.readouterr().out


def test_no_workers_is_a_clear_error_after_the_timeout(cluster, capsys):
    code = main(["solve", "--scheduler", cluster.address, "-d", "beginner", "-n", "10", "-q",
                 "--wait", "1.5"])
    assert code == 3                # a runtime condition, not a usage error (2)
    err = capsys.readouterr().err
    assert "no worker joined" in err and "dask worker" in err


def test_an_unreachable_scheduler_is_a_clear_error(capsys):
    code = main(["solve", "--scheduler", "tcp://127.0.0.1:9", "-d", "beginner", "-n", "10",
                 "-q", "--wait", "1.5"])
    assert code == 3
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err


@pytest.mark.parametrize("address, words", [
    ("nonsense://x", "unknown address scheme 'nonsense'"),
    ("tcp://host:abc", "invalid literal"),
    ("tcp://:8786", "no host"),
    ("tcp://host:0", "port 0 is not 1 to 65535"),
    ("host", "missing port number"),
])
def test_a_scheduler_address_dask_cannot_have_is_a_usage_error(address, words, capsys):
    code = main(["solve", "--scheduler", address, "-d", "beginner", "-n", "10", "-q"])
    assert code == 2
    err = capsys.readouterr().err
    assert words in err and "not a Dask scheduler address" in err and "Traceback" not in err


def test_workers_without_fastmine_or_with_another_version_are_named(cluster, tmp_path, capsys):
    no_fastmine = tmp_path / "no_fastmine.py"
    no_fastmine.write_text(
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'fastmine' or name.startswith('fastmine.'):\n"
        "            raise ImportError(f'No module named {name!r} (not installed here)')\n"
        "sys.meta_path.insert(0, Block())\n")
    other = tmp_path / "other_version.py"
    other.write_text("import fastmine\nfastmine.__version__ = '0.0.1'\n")
    cluster.add_workers(1)
    cluster.add_workers(1, preload=no_fastmine)
    cluster.add_workers(1, preload=other)
    code = main(["solve", "--scheduler", cluster.address, "-d", "beginner", "-n", "10", "-q",
                 "--wait", "30"])
    assert code == 3
    err = capsys.readouterr().err
    assert "2 of 3 Dask workers cannot play" in err
    assert "cannot import fastmine" in err and "has fastmine 0.0.1" in err
    assert "Traceback" not in err


def test_a_failing_task_keeps_the_finished_chunks(cluster):
    cluster.add_workers(2)
    with distributed.Client(cluster.address) as client, pytest.raises(RunFailed) as err:
        run_configs([BEGINNER], games=100, seed=4, chunk=10, client=client, progress=False,
                    task=failing_chunk)
    assert "a broken chunk" in str(err.value)
    run = err.value.run
    assert run.partial
    [r] = run.results
    local = run_configs([BEGINNER], games=40, seed=4, jobs=1, progress=False)
    assert r.games == 40 and r.outcomes[:40].tolist() == local.results[0].outcomes.tolist()
    assert (r.outcomes[40:] == -1).all()


def test_a_worker_that_dies_is_not_counted(cluster, tmp_path):
    cluster.add_workers(2, env={"FASTMINE_TEST_MARKER": str(tmp_path)})
    with distributed.Client(cluster.address) as client:
        run = run_configs([BEGINNER], games=60, seed=5, chunk=10, client=client,
                          progress=False, task=dying_chunk)
    assert (tmp_path / "died").exists()
    assert run.workers_at_start == 2 and run.workers == 1
    assert any("1 of 2 Dask workers left" in n for n in run.notes)
    local = run_configs([BEGINNER], games=60, seed=5, jobs=1, progress=False)
    assert outcomes(run) == outcomes(local)      # the lost chunk was played again


def test_a_run_whose_workers_all_leave_stops_after_wait_with_the_finished_chunks(cluster):
    """It used to wait forever: --wait covered only the start."""
    cluster.add_workers(2)
    with distributed.Client(cluster.address) as client, pytest.raises(RunFailed) as err:
        run_configs([BEGINNER], games=100, seed=6, chunk=10, client=client, progress=False,
                    task=dying_everywhere_chunk, wait=2.0)
    assert "every Dask worker left and none joined within 2 s" in str(err.value)
    run = err.value.run
    [r] = run.results
    assert run.partial and run.workers == 0 and 0 < r.games < 100
    assert (r.outcomes[30:] == -1).all()
    local = run_configs([BEGINNER], games=30, seed=6, jobs=1, progress=False)
    played = r.outcomes[:30] != -1
    assert r.outcomes[:30][played].tolist() == local.results[0].outcomes[played].tolist()


def test_the_command_reports_the_partial_run_when_every_worker_left(cluster, tmp_path, capsys):
    import threading

    cluster.add_workers(1)
    worker = cluster.procs[-1]
    out = tmp_path / "r.json"
    killer = threading.Timer(6.0, worker.kill)
    killer.start()
    try:
        code = main(["solve", "--scheduler", cluster.address, "-d", "expert", "-r", "cell",
                     "-s", "deterministic", "-n", "2000000", "--chunk", "50", "-q",
                     "--wait", "2", "--json", str(out)])
    finally:
        killer.cancel()
    assert code == 1
    captured = capsys.readouterr()
    assert "every Dask worker left and none joined within 2 s" in captured.err
    assert "keeping the games that finished" in captured.err
    assert "PARTIAL RESULTS" in captured.out
    doc = json.loads(out.read_text())
    assert doc["partial"] is True and 0 < doc["results"][0]["games"] < 2_000_000
