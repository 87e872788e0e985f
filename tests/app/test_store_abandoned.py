"""The app's store keeps abandoned games in the records database: the old
``abandoned.json`` counts are imported once and the file renamed aside (kept);
an unreadable one is left untouched, with a warning in the log."""

from __future__ import annotations

import logging
import os

import pytest

from fastmine import Game
from fastmine.app.store import Store
from fastmine.records import RecordsStore


def started(rows=9, cols=9, mines=10) -> Game:
    g = Game(rows, cols, mines, seed=3)
    g.reveal(rows // 2, cols // 2)
    return g


def test_old_counts_are_imported_once_and_the_file_kept_aside(tmp_path):
    old = tmp_path / "abandoned.json"
    text = '{\n "beginner": 2,\n "custom 12x20/40": 1\n}'
    old.write_text(text)
    store = Store(str(tmp_path))
    assert store.stats("beginner").abandoned == 2
    assert store.abandoned((12, 20, 40)) == 1
    assert not old.exists()
    (kept,) = tmp_path.glob("abandoned.json.imported*")
    assert kept.read_text() == text                         # never deleted
    store.count_abandoned(started())
    again = Store(str(tmp_path))                            # the next start
    assert again.stats("beginner").abandoned == 3
    # A file put back (say, a crash between the import and the rename) counts once.
    old.write_text(text)
    assert Store(str(tmp_path)).stats("beginner").abandoned == 3
    with RecordsStore(data_dir=tmp_path) as db:
        assert len(db.abandoned_games()) == 4 and db.count() == 0


@pytest.mark.parametrize("text", ["{not json", '["beginner", 2]', '{"beginner": "two"}',
                                  '{"nowhere": 1}', '{"beginner": -1}'])
def test_an_unreadable_file_is_left_untouched_with_a_warning(tmp_path, caplog, text):
    old = tmp_path / "abandoned.json"
    old.write_text(text)
    store = Store(str(tmp_path))
    with caplog.at_level(logging.WARNING):
        assert store.stats("beginner").abandoned == 0
    assert any("abandoned.json" in r.getMessage() and r.levelno == logging.WARNING
               for r in caplog.records)
    store.count_abandoned(started())                        # counting goes on in the records
    assert store.abandoned("beginner") == 1
    assert old.read_text() == text
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("abandoned")) == \
        ["abandoned.json"]


def test_a_fifo_in_place_of_the_file_is_not_waited_on(tmp_path, caplog):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "abandoned.json")
    with caplog.at_level(logging.WARNING):
        assert Store(str(tmp_path)).stats("beginner").abandoned == 0
    assert any("FIFO" in r.getMessage() for r in caplog.records)
    assert (tmp_path / "abandoned.json").exists()


def test_a_game_with_no_reveal_is_not_counted(tmp_path):
    store = Store(str(tmp_path))
    store.count_abandoned(Game(9, 9, 10, seed=1))
    assert store.abandoned("beginner") == 0
    store.count_abandoned(started(16, 16, 40))
    assert store.abandoned("intermediate") == 1 and store.abandoned("beginner") == 0
    assert "intermediate" in store.board_labels()
