"""A finished terminal game opens the records database once (each open checks the
whole file with quick_check)."""

from __future__ import annotations

import numpy as np
import pytest

from fastmine import GameState, records
from fastmine.cli.tui.session import GameOptions, Session


@pytest.fixture
def opens(monkeypatch):
    count = [0]
    real = records.RecordsStore._open

    def counting(self):
        count[0] += 1
        return real(self)

    monkeypatch.setattr(records.RecordsStore, "_open", counting)
    return count


def _play_to_the_end(s: Session, win: bool) -> str:
    s.reveal(4, 4)
    board = s.game.board
    cells = np.argwhere(board.mines if not win else ~board.mines)
    summary = None
    for r, c in cells:
        if s.game.state.is_over:
            break
        summary = s.reveal(int(r), int(c)) or summary
    return summary


def test_a_best_time_win_opens_the_records_once(tmp_path, opens):
    s = Session(GameOptions(seed=11), data_dir=tmp_path)
    assert _play_to_the_end(s, win=True)
    assert s.game.state is GameState.WON and s.outcome.best
    # the terminal's order: best time known, the name's default, then the record
    assert s.last_name() == ""
    assert s.finish_record("Ann") == "Best time saved for Ann"
    assert opens[0] == 1
    # the next win: the name to offer comes from the same open, and it is recorded
    s.new_game()
    assert _play_to_the_end(s, win=True)
    assert s.last_name() == "Ann"
    s.finish_record(None)
    assert opens[0] == 2
    with records.RecordsStore(data_dir=tmp_path) as db:
        assert db.count() == 2 and db.games()[0].name in ("Ann", None)


def test_a_loss_opens_the_records_once(tmp_path, opens):
    s = Session(GameOptions(seed=11), data_dir=tmp_path)
    _play_to_the_end(s, win=False)
    assert s.game.state is GameState.LOST and not s.outcome.best
    s.finish_record(None)
    s.finish_record(None)       # recorded once
    assert opens[0] == 1
    with records.RecordsStore(data_dir=tmp_path) as db:
        assert db.count() == 1


def test_unreadable_records_are_reported_when_the_game_is_recorded(tmp_path, opens):
    (tmp_path / records.RECORDS_FILE).write_bytes(b"not a database" * 100)
    s = Session(GameOptions(seed=11), data_dir=tmp_path)
    _play_to_the_end(s, win=True)
    assert not s.outcome.best
    assert s.last_name() == ""
    assert "Records not saved" in s.finish_record(None)
