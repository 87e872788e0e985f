"""8x8 with 10 mines is the classic Beginner (Arbiter's, Vienna's, Metasweeper's):
named in the records, their Progress and the replays, and kept apart from
fastmine's 9x9 Beginner and from the custom sizes."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import fastmine
from fastmine import DIFFICULTIES, difficulty_name
from fastmine.app.playerdata import board_key
from fastmine.difficulty import CLASSIC_BEGINNER, NAMED_BOARDS
from fastmine.records import GameRecord, RecordsStore, board_label
from fastmine.replay import Replay

# the fastmine under test (installed, or the source tree), for child processes
SRC = Path(fastmine.__file__).resolve().parents[1]


def test_named_but_not_a_menu_preset() -> None:
    assert tuple(CLASSIC_BEGINNER) == (8, 8, 10)
    assert difficulty_name(8, 8, 10) == "classic beginner"
    assert difficulty_name(9, 9, 10) == "beginner"
    assert "classic beginner" not in DIFFICULTIES          # the menus are unchanged
    assert list(NAMED_BOARDS) == [*DIFFICULTIES, "classic beginner"]
    assert board_label(8, 8, 10) == "classic beginner"
    assert board_label(8, 8, 11) == "custom 8x8/11"
    assert difficulty_name(8, 8, 9) == "custom"


def _won_8x8() -> fastmine.Game:
    g = fastmine.Game(8, 8, 10, seed=4)
    while not g.state.is_over:
        fastmine.solver.step(g)
    return g


def test_records_keep_the_two_beginners_and_custom_apart(tmp_path: Path) -> None:
    with RecordsStore(data_dir=tmp_path) as s:
        s.add(GameRecord.make(9, 9, 10, won=True, time=10.0))
        classic = s.add(GameRecord.make(8, 8, 10, won=True, time=5.0))
        assert classic.difficulty == "classic beginner" and classic.board_label == "classic beginner"
        # A game stored before 8x8/10 had a name was filed as custom: it counts as
        # the classic Beginner now, not as custom.
        old = s.add(replace(GameRecord.make(8, 8, 10, won=True, time=4.0), difficulty="custom"))
        s.add(GameRecord.make(12, 20, 40, won=False, time=3.0))
        assert [r.id for r in s.games("classic beginner")] == [classic.id, old.id]
        assert [r.time for r in s.games("beginner")] == [10.0]
        assert [(r.rows, r.cols) for r in s.games("custom")] == [(12, 20)]
        assert s.best_time("classic beginner").time == 4.0
        assert s.statistics("classic beginner").played == 2
        assert s.boards() == [(9, 9, 10), (8, 8, 10), (12, 20, 40)]
        assert [label for label, _st, _best in s.summary()] == [
            "beginner", "classic beginner", "custom 12x20/40"]
        with pytest.raises(ValueError, match="classic beginner"):
            s.games("classic")                              # the message names it
        if fastmine.solver is not None:
            g = _won_8x8()
            rec = s.record_game(g)
            assert rec.difficulty == "classic beginner"
            assert s.replay(rec.id) == Replay.from_game(g)


def test_the_app_progress_picker_names_it() -> None:
    # The app's records and Progress pickers list the boards with games by these
    # labels and read them back through board_key.
    assert board_key("classic beginner") == "classic beginner"
    assert board_key("beginner") == "beginner"
    assert board_key("custom 8x8/11") == (8, 8, 11)


def _records_cli(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(SRC), FASTMINE_DATA_DIR=str(data))
    return subprocess.run([sys.executable, "-m", "fastmine", "records", *args],
                          capture_output=True, text=True, env=env, timeout=120)


def test_records_command_takes_the_name(tmp_path: Path) -> None:
    with RecordsStore(data_dir=tmp_path) as s:
        s.add(GameRecord.make(8, 8, 10, won=True, time=5.5, name="Ann"))
        s.add(GameRecord.make(9, 9, 10, won=True, time=9.5, name="Bob"))
    for name in ("classic-beginner", "classic beginner", "Classic_Beginner", "8x8/10"):
        res = _records_cli(tmp_path, "-d", name)
        assert res.returncode == 0, res.stderr
        assert "Ann" in res.stdout and "Bob" not in res.stdout
    res = _records_cli(tmp_path)
    assert "classic beginner" in res.stdout
    res = _records_cli(tmp_path, "-d", "classic-beginnr")
    assert res.returncode != 0 and "classic-beginner" in res.stderr
