"""fastmine solve: reproducible runs, JSON, plot, CLI and the Dask backend."""

from __future__ import annotations

import io
import json
import sys

import pytest

from fastmine.cli import main
from fastmine.solver.runs import Config, game_seeds, games_bar, run_configs, wilson

BEGINNER = Config("beginner", 9, 9, 10, "opening", (2, 2), "deterministic")
EXPERT = Config("expert", 16, 30, 99, "cell", (0, 0), "random")


def outcome(run):
    return [(r.config, r.games, r.won, r.lost, r.stuck) for r in run.results]


def test_same_seed_same_results_any_chunking():
    a = run_configs([BEGINNER, EXPERT], games=30, seed=7, jobs=1, chunk=30, progress=False)
    b = run_configs([EXPERT, BEGINNER], games=30, seed=7, jobs=1, chunk=4, progress=False)
    assert sorted(outcome(a), key=str) == sorted(outcome(b), key=str)
    assert a.results[0].games == 30


def test_process_pool_matches_in_process():
    a = run_configs([BEGINNER], games=24, seed=3, jobs=1, progress=False)
    b = run_configs([BEGINNER], games=24, seed=3, jobs=2, chunk=5, progress=False)
    assert outcome(a) == outcome(b)


def test_first_game_plays_the_same_games_as_a_longer_run():
    full = run_configs([BEGINNER, EXPERT], games=30, seed=4, jobs=1, progress=False)
    part = run_configs([BEGINNER, EXPERT], games=12, seed=4, jobs=2, chunk=5, first=18,
                       progress=False)
    assert part.first == 18
    for rf, rp in zip(full.results, part.results, strict=True):
        assert rp.games == 12
        assert rp.outcomes.tolist() == rf.outcomes[18:].tolist()
        assert rp.won == int((rf.outcomes[18:] == 1).sum())


@pytest.mark.parametrize("first", [-1, 1.5, True, "3"])
def test_first_game_must_be_a_non_negative_integer(first):
    with pytest.raises(ValueError, match="first game"):
        run_configs([BEGINNER], games=2, jobs=1, first=first, progress=False)


def test_cli_first_game(tmp_path, capsys):
    out = tmp_path / "r.json"
    args = ["solve", "-n", "6", "-d", "beginner", "-r", "cell", "-s", "random", "-j", "1", "-q"]
    assert main(args + ["--first-game", "4", "--json", str(out)]) == 0
    assert "games 4-9" in capsys.readouterr().out
    doc = json.loads(out.read_text())
    assert doc["first_game"] == 4
    expect = run_configs([Config("beginner", 9, 9, 10, "cell", (0, 0), "random")], games=10,
                         jobs=1, progress=False).results[0]
    assert doc["results"][0]["won"] == int((expect.outcomes[4:] == 1).sum())


def test_lookahead_off_is_its_own_configuration_and_the_rest_keep_their_games(tmp_path):
    import zlib

    on = Config("expert", 16, 30, 99, "cell", (0, 0))
    # the key (so every game's seed) is what it was before the lookahead existed
    assert on.key == zlib.crc32(b"16x30/99/cell/(0, 0)/best/True")
    off = Config("expert", 16, 30, 99, "cell", (0, 0), lookahead=False)
    assert off.key != on.key
    out = tmp_path / "r.json"
    assert main(["solve", "-n", "3", "-d", "beginner", "-r", "cell", "-j", "1", "-q",
                 "--no-lookahead", "--json", str(out)]) == 0
    [r] = json.loads(out.read_text())["results"]
    assert r["lookahead"] is False and r["endgame"] is True and r["games"] == 3


def test_seeds_differ_per_game_and_config():
    assert game_seeds(0, BEGINNER.key, 0) != game_seeds(0, BEGINNER.key, 1)
    assert game_seeds(0, BEGINNER.key, 0) != game_seeds(0, EXPERT.key, 0)
    assert game_seeds(0, BEGINNER.key, 0) == game_seeds(0, BEGINNER.key, 0)


def test_progress_bar_only_on_a_terminal(tmp_path):
    """Into a pipe (a log file, CI), ``fastmine solve`` draws no progress bar: tqdm's
    \r frames would make one endless line of it."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    import fastmine

    env = {**os.environ, "PYTHONPATH": str(Path(fastmine.__file__).resolve().parents[1]),
           "FASTMINE_DATA_DIR": str(tmp_path)}
    r = subprocess.run([sys.executable, "-m", "fastmine", "solve", "-n", "20", "-d", "beginner",
                        "-r", "cell", "-j", "1"], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "\r" not in r.stdout + r.stderr and "game/s" not in r.stderr
    assert "beginner" in r.stdout


def test_wilson():
    lo, hi = wilson(0, 10)
    assert lo == 0 and 0.25 < hi < 0.35
    lo, hi = wilson(10, 10)
    assert hi == pytest.approx(1) and 0.65 < lo < 0.75
    assert wilson(0, 0) == (0.0, 1.0)


def test_cli_json_and_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="--plot needs the plot extra")
    out = tmp_path / "r.json"
    png = tmp_path / "r.png"
    code = main(["solve", "-n", "12", "-d", "beginner", "5x5/3", "-r", "cell", "-p", "corner",
                 "centre", "-s", "deterministic", "-j", "1", "-q", "--seed", "5", "--json", str(out),
                 "--plot", str(png)])
    assert code == 0
    doc = json.loads(out.read_text())
    assert doc["format"] == "fastmine-solve" and doc["seed"] == 5
    assert len(doc["results"]) == 4
    r = doc["results"][0]
    assert r["games"] == 12 and r["won"] + r["lost"] + r["stuck"] == 12
    assert r["ci95"][0] <= r["win_rate"] <= r["ci95"][1]
    assert png.stat().st_size > 1000
    text = capsys.readouterr().out
    assert "95% interval" in text and "games/s" in text
    # Same seed, same numbers.
    main(["solve", "-n", "12", "-d", "beginner", "5x5/3", "-r", "cell", "-p", "corner",
          "centre", "-s", "deterministic", "-j", "1", "-q", "--seed", "5", "--json", str(out)])
    again = json.loads(out.read_text())
    assert [x["won"] for x in again["results"]] == [x["won"] for x in doc["results"]]


def test_cli_help(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["solve", "--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    for opt in ("--games", "--difficulty", "--rule", "--position", "--strategy", "--seed",
                "--jobs", "--scheduler", "--json", "--plot", "--no-endgame", "--first-game",
                "--no-lookahead"):
        assert opt in text


@pytest.mark.parametrize("argv", [
    ["-d", "giant"], ["-d", "3x3/9"], ["-p", "middle"], ["-n", "0"], ["-r", "sometimes"],
    ["-s", "greedy"], ["--first-game", "-1"], ["--first-game", "x"],
])
def test_cli_rejects_bad_options(argv):
    with pytest.raises(SystemExit) as exc:
        main(["solve", *argv])
    assert exc.value.code == 2


def test_cli_position_off_the_board(capsys):
    assert main(["solve", "-d", "beginner", "-p", "12,12", "-q"]) == 2
    assert "outside" in capsys.readouterr().err


def test_dask_local_cluster():
    distributed = pytest.importorskip("dask.distributed")
    # No dashboard, and no fixed port 8787 (dashboard_address=None still takes it).
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address="127.0.0.1:0",
                                  scheduler_kwargs={"dashboard": False}) as cluster, \
            distributed.Client(cluster) as client:
        a = run_configs([BEGINNER], games=20, seed=9, chunk=6, client=client, progress=False)
    b = run_configs([BEGINNER], games=20, seed=9, jobs=1, progress=False)
    assert outcome(a) == outcome(b)
    assert a.results[0].outcomes.tolist() == b.results[0].outcomes.tolist()


def test_cli_output_into_a_closed_pipe_is_quiet():
    """``fastmine solve | head -1``: no BrokenPipeError traceback."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    import fastmine

    src = str(Path(fastmine.__file__).resolve().parents[1])
    proc = subprocess.Popen(
        [sys.executable, "-m", "fastmine", "solve", "-n", "300", "-d", "beginner", "toy",
         "-r", "cell", "opening", "-j", "1", "-q"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": src})
    proc.stdout.readline()          # read one line, then hang up like `head -1`
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) in (0, 141)
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_named_positions():
    """``default`` is where the solver would open; ``3-3`` means (3, 3) literally
    (so runs recorded with it stay comparable), (2, 2) on boards under 16."""
    from fastmine.cli.solve import resolve_position

    assert resolve_position("default", 16, 16, "opening", 40) == (2, 2)
    assert resolve_position("default", 16, 30, "opening", 99) == (3, 3)
    assert resolve_position("3-3", 16, 16, "opening", 40) == (3, 3)
    assert resolve_position("3-3", 9, 9, "opening", 10) == (2, 2)
    assert resolve_position("default", 16, 30, "cell", 99) == (0, 0)
    assert resolve_position("centre", 16, 30, "cell", 99) == (8, 15)
    with pytest.raises(ValueError, match="outside a 9x9 board"):
        resolve_position((9, 0), 9, 9, "cell", 10)


def test_a_failing_task_on_the_process_pool_keeps_the_finished_chunks():
    """One failed chunk stops the run; every chunk that finished is counted (RunFailed)."""
    from dask_tasks import failing_chunk

    from fastmine.solver.runs import RunFailed

    with pytest.raises(RunFailed, match="a broken chunk") as err:
        run_configs([BEGINNER], games=100, seed=4, chunk=10, jobs=2, progress=False,
                    task=failing_chunk)
    run = err.value.run
    assert run.partial
    [r] = run.results
    ref = run_configs([BEGINNER], games=40, seed=4, jobs=1, progress=False).results[0]
    # Chunks from game 40 on fail, so what finished is exactly games 0-39.
    assert r.games == 40 and r.outcomes[:40].tolist() == ref.outcomes.tolist()
    assert (r.outcomes[40:] == -1).all()


def test_a_run_too_big_is_refused_before_anything_is_allocated():
    from fastmine.solver.runs import MAX_GAMES

    with pytest.raises(ValueError, match="MAX_GAMES"):
        run_configs([BEGINNER, BEGINNER], games=MAX_GAMES // 2 + 1, jobs=1, progress=False)


def test_dask_tests_leave_port_8787_alone():
    """The local cluster serves nothing on Dask's default dashboard port (a warning in CI)."""
    import socket
    import warnings

    distributed = pytest.importorskip("dask.distributed")
    from fastmine.solver.cluster import connect

    with socket.socket() as busy:
        try:
            busy.bind(("127.0.0.1", 8787))
        except OSError:
            pytest.skip("port 8787 is taken by something else here")
        busy.listen()
        with warnings.catch_warnings():
            warnings.simplefilter("error")      # "Port 8787 is already in use" is a UserWarning
            client, cluster = connect("local", jobs=1, timeout=60)
            try:
                assert len(client.scheduler_info()["workers"]) == 1
            finally:
                client.close()
                cluster.close()
    assert distributed is not None


class _ResultLeftWithItsWorker:
    """A Dask future whose chunk finished on a worker that then left: Dask
    says it is done, but its result can no longer be fetched (Dask would
    compute it again on a worker that never comes)."""

    def add_done_callback(self, fn):
        fn(self)

    def done(self):
        return True

    def result(self, timeout=None):
        if timeout is None:
            raise AssertionError("result() without a timeout waits forever here")
        raise TimeoutError


class _ClusterWithNoWorkerLeft:
    def submit(self, *args, **kwargs):
        return _ResultLeftWithItsWorker()

    def scheduler_info(self):
        return {"workers": {}}

    def cancel(self, futures):
        pass


def test_a_result_lost_with_its_worker_stops_the_run_after_wait():
    """The run waited forever for a finished chunk whose worker left before its
    result was fetched (seen as a hang of the suite): now that chunk is looked
    at again until --wait passes with no worker, and the run stops."""
    from fastmine.solver.runs import _on_dask

    recorded = []
    why = _on_dask(_ClusterWithNoWorkerLeft(), [BEGINNER], iter([(0, 0, 10), (0, 10, 10)]),
                   seed=1, task=None, record=lambda *a: recorded.append(a), workers=1, wait=0.3)
    assert why == "every Dask worker left and none joined within 0.3 s (--wait)"
    assert recorded == []


class _Stream(io.StringIO):
    """Standard error that says whether it is a terminal."""

    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize("show, tty, drawn", [
    (None, True, True), (None, False, False),      # None: on a terminal only
    (True, False, True), (False, True, False),     # True: always; False: never
])
def test_the_games_bar_is_drawn_when_asked(show, tty, drawn, monkeypatch):
    stream = _Stream(tty)
    monkeypatch.setattr(sys, "stderr", stream)
    with games_bar(12, show, "best beginner") as bar:
        bar.update(12)
    out = stream.getvalue()
    assert (("best beginner" in out and "/12 " in out and "game/s" in out) if drawn
            else out == "")


def test_the_baselines_draw_the_same_bar(monkeypatch):
    pytest.importorskip("gymnasium")
    from fastmine.env.baselines import play_random

    stream = _Stream(False)
    monkeypatch.setattr(sys, "stderr", stream)
    play_random("beginner", 4, num_envs=4, progress=True)
    assert "random beginner" in stream.getvalue() and "/4 " in stream.getvalue()
    stream.seek(0)
    stream.truncate()
    play_random("beginner", 4, num_envs=4, progress=None)     # not a terminal: no bar
    assert stream.getvalue() == ""
