"""The app's store keeps abandoned games in the records database: the old
``abandoned.json`` counts are imported once and the file renamed aside (kept);
an unreadable one is renamed aside too (kept), with one warning in the log, so
it is reported once and never fails every start."""

from __future__ import annotations

import logging
import os

import pytest

from fastmine import Game
from fastmine.app.playerdata import PlayerData
from fastmine.records import RecordsStore


def started(rows=9, cols=9, mines=10) -> Game:
    g = Game(rows, cols, mines, seed=3)
    g.reveal(rows // 2, cols // 2)
    return g


def test_old_counts_are_imported_once_and_the_file_kept_aside(tmp_path):
    old = tmp_path / "abandoned.json"
    text = '{\n "beginner": 2,\n "custom 12x20/40": 1\n}'
    old.write_text(text)
    store = PlayerData(str(tmp_path))
    assert store.stats("beginner").abandoned == 2
    assert store.abandoned((12, 20, 40)) == 1
    assert not old.exists()
    (kept,) = tmp_path.glob("abandoned.json.imported*")
    assert kept.read_text() == text                         # never deleted
    store.count_abandoned(started())
    again = PlayerData(str(tmp_path))                            # the next start
    assert again.stats("beginner").abandoned == 3
    # A file put back (say, a crash between the import and the rename) counts once.
    old.write_text(text)
    assert PlayerData(str(tmp_path)).stats("beginner").abandoned == 3
    with RecordsStore(data_dir=tmp_path) as db:
        assert len(db.abandoned_games()) == 4 and db.count() == 0


BIG_LABEL = "custom 18446744073709551616x9/10"     # a board label past 64 bits


@pytest.mark.parametrize("text", [
    "{not json", '["beginner", 2]', '{"beginner": "two"}', '{"nowhere": 1}',
    '{"beginner": -1}', "[" * 100_000 + "]" * 100_000,
    # Each was an OverflowError at every start (the file stayed).
    f'{{"{BIG_LABEL}": 1}}', '{"custom 9x9/99999999999999999999": 1}',
    '{"custom 9x9/81": 1}', '{"custom 99999x99999/10": 1}',
    # 2,000,000 games from 520 bytes: over the total cap.
    "{" + ", ".join(f'"custom {r}x9/10": 100000' for r in range(10, 30)) + "}",
    '{"beginner": 10001}',
])
def test_an_unreadable_file_is_kept_aside_and_reported_once(tmp_path, caplog, text):
    old = tmp_path / "abandoned.json"
    old.write_text(text)
    store = PlayerData(str(tmp_path))
    with caplog.at_level(logging.WARNING):
        assert store.stats("beginner").abandoned == 0
    warned = [r for r in caplog.records
              if "abandoned.json" in r.getMessage() and r.levelno == logging.WARNING]
    assert len(warned) == 1 and "kept as abandoned.json.unreadable-" in warned[0].getMessage()
    store.count_abandoned(started())                        # counting goes on in the records
    assert store.abandoned("beginner") == 1
    assert not old.exists()
    (kept,) = tmp_path.glob("abandoned.json.unreadable-*")
    assert kept.read_text() == text                         # its bytes kept
    caplog.clear()
    with caplog.at_level(logging.WARNING):                  # the next start: nothing to say
        assert PlayerData(str(tmp_path)).stats("beginner").abandoned == 1
    assert not caplog.records
    with RecordsStore(data_dir=tmp_path) as db:
        assert len(db.abandoned_games()) == 1


def test_a_file_at_the_cap_is_imported_whole(tmp_path):
    from fastmine.records import MAX_IMPORTED_ABANDONED

    (tmp_path / "abandoned.json").write_text(
        f'{{"beginner": {MAX_IMPORTED_ABANDONED - 1}, "expert": 1}}')
    store = PlayerData(str(tmp_path))
    assert store.abandoned("beginner") == MAX_IMPORTED_ABANDONED - 1
    assert store.abandoned("expert") == 1
    assert list(tmp_path.glob("abandoned.json.imported-*"))


def test_a_file_the_app_may_not_read_stays_for_the_next_start(tmp_path, caplog):
    if os.geteuid() == 0:
        pytest.skip("root reads any file")
    old = tmp_path / "abandoned.json"
    old.write_text('{"beginner": 2}')
    old.chmod(0)
    try:
        with caplog.at_level(logging.WARNING):
            assert PlayerData(str(tmp_path)).stats("beginner").abandoned == 0
        assert any("left for the next start" in r.getMessage() for r in caplog.records)
        assert old.exists()
    finally:
        old.chmod(0o644)
    assert PlayerData(str(tmp_path)).stats("beginner").abandoned == 2


def test_a_fifo_in_place_of_the_file_is_not_waited_on(tmp_path, caplog):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "abandoned.json")
    with caplog.at_level(logging.WARNING):
        assert PlayerData(str(tmp_path)).stats("beginner").abandoned == 0
    assert any("FIFO" in r.getMessage() for r in caplog.records)
    assert not (tmp_path / "abandoned.json").exists()       # renamed aside, not read
    assert len(list(tmp_path.glob("abandoned.json.unreadable-*"))) == 1


def test_a_game_with_no_reveal_is_not_counted(tmp_path):
    store = PlayerData(str(tmp_path))
    store.count_abandoned(Game(9, 9, 10, seed=1))
    assert store.abandoned("beginner") == 0
    store.count_abandoned(started(16, 16, 40))
    assert store.abandoned("intermediate") == 1 and store.abandoned("beginner") == 0
    assert "intermediate" in store.board_labels()
