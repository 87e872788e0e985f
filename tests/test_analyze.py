"""``fastmine analyze``: every real video and a fastmine replay, one line each and
the JSON document; bad files, bad --json paths and the progress bar."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import fastmine
from fastmine.cli import main
from fastmine.coach import Category, analyze
from fastmine.records import RecordsStore
from fastmine.replay import Replay
from fastmine.videos import play_video, read_video
from fastmine.videos.rebuild import rebuild, video_stats

sys.path.insert(0, str(Path(__file__).parent / "videos"))
from video_files import BAD, PLAYED, path  # noqa: E402

# the fastmine under test (installed, or the source tree), for child processes
SRC = Path(fastmine.__file__).resolve().parents[1]
REQUIRED = {"file", "format", "software", "player", "rows", "cols", "mines", "level", "outcome",
            "time", "bbbv", "bbbv_solved", "bbbv_per_second", "left", "right", "double", "ioe",
            "rqp", "stnb", "corr", "thrp", "openings", "islands", "forced_guess",
            "avoidable_risk", "worse_guess"}
VIDEOS = sorted(PLAYED)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["analyze", *args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def replay_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    g = fastmine.Game(9, 9, 10, seed=8)
    g.reveal(4, 4)
    while not g.state.is_over:
        fastmine.solver.step(g)
    out = tmp_path_factory.mktemp("replays") / "game.fmreplay"
    Replay.from_game(g).save(out)
    return out


def test_every_video_and_a_replay_one_line_each_and_json(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, replay_file: Path) -> None:
    files = [str(path(n)) for n in VIDEOS] + [str(replay_file)]
    status, out, err = _run(capsys, *files, "--json", str(tmp_path / "a.json"))
    assert status == 0, err
    lines = out.splitlines()
    assert len(lines) == len(files)
    assert all(line.startswith(f + ": ") and "; coach: " in line for line, f in zip(lines, files, strict=True))
    doc = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    assert (doc["format"], doc["version"], doc["errors"]) == ("fastmine-analysis", 1, [])
    games = doc["games"]
    assert [g["file"] for g in games] == files
    for g in games:
        assert set(g) >= REQUIRED
        assert g["outcome"] in ("won", "lost", "unfinished")
        assert (g["stnb"] is None) == (g["level"] == "custom")
    assert "1 games" not in err and f"{len(files)} games written" in err


@pytest.mark.parametrize("name", VIDEOS)
def test_json_holds_the_videos_metrics_and_the_coachs_counts(
        capsys: pytest.CaptureFixture[str], name: str) -> None:
    status, out, _ = _run(capsys, str(path(name)), "--json", "-")
    assert status == 0
    (g,) = json.loads(out)["games"]                 # stdout holds the document alone
    v = read_video(path(name))
    p = play_video(v)
    s = video_stats(v, p)
    game = rebuild(v, p)
    assert (g["format"], g["software"], g["player"]) == (v.format, v.software, v.player)
    assert (g["rows"], g["cols"], g["mines"], g["outcome"]) == (v.rows, v.cols, v.mines, p.outcome)
    assert (g["time"], g["bbbv"], g["bbbv_solved"]) == (s.time, s.bbbv, s.bbbv_solved)
    assert (g["left"], g["right"], g["double"]) == (p.left, p.right, p.double)
    for key, attr in (("bbbv_per_second", "bbbv_per_second"), ("ioe", "ioe"), ("rqp", "rqp"),
                      ("corr", "correctness"), ("thrp", "throughput"), ("stnb", "stnb"),
                      ("path", "path")):
        assert g[key] == getattr(s, attr), key
    verdicts = analyze(game.board, game.moves, rule=game.rule,
                       question_marks=game.question_marks)
    for cat in (Category.FORCED_GUESS, Category.AVOIDABLE_RISK, Category.WORSE_GUESS):
        assert g[cat.value] == sum(x.category is cat for x in verdicts)


def test_the_issues_lost_game_reads_what_it_solved(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, str(path("arbiter_exp_lost.avf")))
    assert status == 0
    assert "lost in 65.620 s; 3BV 11/180, 3BV/s 0.168, IOE 0.043" in out


def test_a_replay_reads_like_its_game(capsys: pytest.CaptureFixture[str],
                                      replay_file: Path) -> None:
    status, out, _ = _run(capsys, str(replay_file), "--json", "-")
    (g,) = json.loads(out)["games"]
    r = Replay.load(replay_file)
    s = r.play().stats()
    assert (g["format"], g["software"], g["player"], g["board"]) == (
        "fmreplay", "fastmine", None, "beginner")
    assert (g["level"], g["stnb"], g["outcome"]) == ("custom", None, r.state.value)
    assert (g["bbbv"], g["bbbv_solved"], g["time"]) == (s.bbbv, s.bbbv_solved, s.time)


# ------------------------------------------------------------------ bad files

def _bad_files(tmp_path: Path) -> dict[str, str]:
    """name -> what the error line says about it."""
    good = path("arbiter_beg.avf").read_bytes()
    (tmp_path / "cut.avf").write_bytes(good[:200])
    (tmp_path / "empty.rmv").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("hello")
    (tmp_path / "broken.fmreplay").write_text('{"format": "fastmine-replay", "version": 1')
    (tmp_path / "newer.fmreplay").write_text(json.dumps({"format": "fastmine-replay",
                                                         "version": 99}))
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "pipe.evf")
    with open(tmp_path / "huge.avf", "wb") as f:         # sparse: no disk used
        f.truncate(70 * 2**20)
    return {"cut.avf": "cut.avf", "empty.rmv": "empty.rmv", "notes.txt": "not a video",
            "broken.fmreplay": "broken.fmreplay", "newer.fmreplay": "newer",
            "folder": "folder", "pipe.evf": "pipe.evf", "huge.avf": "too big",
            "missing.avf": "No such file", **{n: m for n, m in BAD.items()}}


def test_bad_files_are_one_line_each_and_the_rest_is_analysed(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = _bad_files(tmp_path)
    names = [str(path(n)) if n in BAD else str(tmp_path / n) for n in bad]
    good = str(path("arbiter_beg.avf"))
    status, out, err = _run(capsys, names[0], good, *names[1:], good, "--json",
                            str(tmp_path / "out.json"))
    assert status == 1
    assert len(out.splitlines()) == 2 and all(x.startswith(good) for x in out.splitlines())
    lines = [x for x in err.splitlines() if x.startswith("fastmine analyze: ")]
    assert len(lines) == len(bad)
    for line, name, words in zip(lines, names, bad.values(), strict=True):
        assert name in line and words.lower() in line.lower(), line
    doc = json.loads((tmp_path / "out.json").read_text())
    assert len(doc["games"]) == 2 and [e["file"] for e in doc["errors"]] == names
    assert "Traceback" not in err


def test_bad_json_paths_are_refused_before_any_work(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    video = tmp_path / "game.avf"
    video.write_bytes(path("arbiter_beg.avf").read_bytes())
    data = tmp_path / "data"
    with RecordsStore(data_dir=data):
        pass
    cases = {
        str(video): "one of the files to analyse",
        str(tmp_path): "is a folder",
        str(tmp_path / "no" / "such" / "x.json"): "does not exist",
    }
    for target, words in cases.items():
        status, out, err = _run(capsys, str(video), "--json", target)
        assert status == 2 and words in err and out == "", (target, err)
    assert video.read_bytes() == path("arbiter_beg.avf").read_bytes()
    env_data = os.environ.get("FASTMINE_DATA_DIR")
    os.environ["FASTMINE_DATA_DIR"] = str(data)
    try:
        status, out, err = _run(capsys, str(video), "--json", str(data / "records.sqlite3"))
    finally:
        if env_data is None:
            del os.environ["FASTMINE_DATA_DIR"]
        else:
            os.environ["FASTMINE_DATA_DIR"] = env_data
    assert status == 2 and "records" in err


def test_no_file_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["analyze"])
    assert exc.value.code == 2
    assert "FILE" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["analyze", str(path("arbiter_beg.avf")), "--json"])     # --json needs a path


def test_no_progress_bar_when_not_on_a_terminal(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(SRC))
    files = [str(path(n)) for n in VIDEOS[:4]]
    res = subprocess.run([sys.executable, "-m", "fastmine", "analyze", *files],
                         capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0 and res.stderr == ""
    assert len(res.stdout.splitlines()) == 4


@pytest.mark.parametrize("name", VIDEOS)
def test_a_videos_analysis_agrees_with_its_rebuilt_game(name: str) -> None:
    """analyze_file judges the video's clicks without replaying them in a Game
    first; its outcome, board and coach counts are the rebuilt game's, and the
    game itself is still there when asked for."""
    from fastmine.cli.analyze import analyze_file

    video = read_video(path(name))
    game = rebuild(video, play_video(video))
    a = analyze_file(str(path(name)))
    verdicts = analyze(game.board, game.moves, rule=game.rule, question_marks=game.question_marks)
    assert a.coach == {c: n for c, n in Counter(v.category for v in verdicts).items()}
    assert a.outcome == {"won": "won", "lost": "lost"}.get(game.state.value, "unfinished")
    assert a.board == game.board
    assert a.game.state is game.state and a.game.elapsed == game.elapsed
    assert (a.game.view == game.view).all()
    assert analyze_file(str(path(name)), coach=False).game.moves.tolist() == game.moves.tolist()
