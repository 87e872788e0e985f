"""``fastmine replay --import`` of many files in one run, and without a terminal:
every video recorded, a bad file one line, exit 0 when all came in; the lines
it prints from a file have their control characters escaped."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import fastmine
from fastmine import cli
from fastmine.records import RecordsStore
from tests.videos.video_files import DATA

SRC = Path(fastmine.__file__).resolve().parents[1]
GOOD = ["arbiter_beg.avf", "vienna1_beg.rmv", "clone_097.mvf", "meta_v3_beg.evf"]


def _players(data: Path) -> list[str | None]:
    with RecordsStore(data / "records.sqlite3", create=False) as store:
        return [g.name for g in store.games()]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in a child process whose standard input and output are not a terminal."""
    env = dict(os.environ, PYTHONPATH=str(SRC))
    return subprocess.run([sys.executable, "-m", "fastmine", "replay", *args],
                          capture_output=True, text=True, env=env, timeout=300,
                          stdin=subprocess.DEVNULL)


def test_many_files_are_recorded_in_one_run_without_a_terminal(tmp_path: Path) -> None:
    """Old code: argparse refused a second FILE (exit 2)."""
    res = _cli("--import", *(str(DATA / n) for n in GOOD), "--data-dir", str(tmp_path))
    assert res.returncode == 0, res.stderr
    assert res.stdout == ""
    assert res.stderr.count("recorded as game") == 4
    assert res.stderr.splitlines()[-1] == "4 of 4 files recorded"
    assert _players(tmp_path) == ["Tommy", "tkolar", "Yang Shanghai", "王嘉宁"]


def test_one_video_without_a_terminal_is_recorded_and_the_exit_status_is_0(
        tmp_path: Path) -> None:
    """Old code: recorded, then 'the full-screen player needs a terminal', exit 2."""
    res = _cli("--import", str(DATA / "arbiter_beg.avf"), "--data-dir", str(tmp_path))
    assert res.returncode == 0, res.stderr
    assert "recorded as game 1" in res.stderr and "not played" in res.stderr
    assert _players(tmp_path) == ["Tommy"]


def test_a_folder_and_a_bad_file_among_good_ones(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "videos"
    (folder / "old").mkdir(parents=True)
    shutil.copy(DATA / "arbiter_beg.avf", folder / "a.avf")
    shutil.copy(DATA / "vienna1_beg.rmv", folder / "old" / "b.rmv")
    (folder / "old" / "cut.evf").write_bytes((DATA / "meta_v3_beg.evf").read_bytes()[:100])
    data = tmp_path / "data"
    code = cli.main(["replay", "--import", str(folder), str(DATA / "clone_097.mvf"),
                     "--data-dir", str(data)])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert [x for x in err.splitlines() if x.startswith("fastmine replay: ")] == [
        x for x in err.splitlines() if "cut.evf" in x]
    assert err.splitlines()[-1] == "3 of 4 files recorded"
    assert _players(data) == ["Tommy", "tkolar", "Yang Shanghai"]


def test_timeline_prints_each_imported_game(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["replay", "--import", str(DATA / GOOD[0]), str(DATA / GOOD[1]),
                     "--data-dir", str(tmp_path), "--timeline", "--speed", "0", "--no-coach"])
    out, err = capsys.readouterr()
    assert code == 0, err
    ends = [x for x in out.splitlines() if x.startswith("won at ")]
    assert ends == ["won at 5.410 s", "won at 0.515 s"]


def test_verdicts_take_one_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["replay", "--import", str(DATA / GOOD[0]), str(DATA / GOOD[1]),
                     "--data-dir", str(tmp_path), "--verdicts", "-"])
    assert code == 2 and "one file" in capsys.readouterr().err
    assert not (tmp_path / "records.sqlite3").exists()


def test_what_the_import_prints_from_a_file_is_escaped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Old code: the name's escape sequence reached the terminal as it was."""
    avf = (DATA / "arbiter_beg.avf").read_bytes()
    hostile = tmp_path / "t\x1b]0;title\x07.avf"
    hostile.write_bytes(avf.replace(b"\rTommy\r", b"\r\x1b[2JT\r"))
    for extra in ([], [str(DATA / "vienna1_beg.rmv")]):
        code = cli.main(["replay", "--import", str(hostile), *extra, "--data-dir",
                         str(tmp_path / "data"), "--timeline", "--speed", "0", "--no-coach"])
        out, err = capsys.readouterr()
        assert code == 0, err
        assert "\x1b" not in out + err and "\x07" not in out + err
        assert "player \\x1b[2JT" in err


def test_verdicts_have_a_time_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``--verdicts`` spends at most FILE_BUDGET seconds, as analyze does: with none
    left, the moves past it are marked not analysed (old code: no budget at all)."""
    import json

    from fastmine.replay import verdicts

    monkeypatch.setattr(verdicts, "FILE_BUDGET", 0.0)
    video = str(DATA / "arbiter_exp_lost.avf")
    for args in (["--import", video], ["1"]):
        code = cli.main(["replay", *args, "--data-dir", str(tmp_path), "--verdicts", "-"])
        out, err = capsys.readouterr()
        assert code == 0, err
        moves = json.loads(out)["moves"]
        skipped = sum(m["category"] == "not_analysed" for m in moves)
        assert skipped > 0
        assert f"{skipped} of {len(moves)} moves are marked not analysed" in err
    monkeypatch.undo()
    from fastmine.cli.analyze import COACH_BUDGET

    assert verdicts.FILE_BUDGET == COACH_BUDGET        # the same budget as analyze's
