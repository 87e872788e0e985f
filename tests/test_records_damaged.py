"""A records database with one damaged page: one line, never a traceback.

The check at opening (``PRAGMA quick_check``) does not read every page: a
damaged index page made ``fastmine records`` die with
``sqlite3.DatabaseError`` in the middle of its table, and a damaged schema
with ``UnicodeDecodeError``; quick_check's own report ran over several lines.
Every read now says it in one line (:class:`fastmine.records.RecordsError`,
the app's ``PlayerDataError``), the file stays byte for byte as it was, and the
commands that can still read what they need go on.
"""

from __future__ import annotations

import contextlib
import io
import random
from pathlib import Path

import numpy as np
import pytest

import fastmine
from fastmine import cli
from fastmine.records import RecordsError, RecordsStore

PAGE = 4096


@pytest.fixture(scope="module")
def records_bytes(tmp_path_factory) -> bytes:
    """A records database of 60 games with their replays (13 pages)."""
    data = tmp_path_factory.mktemp("records")
    with RecordsStore(data_dir=data) as store:
        for seed in range(60):
            game = fastmine.Game(9, 9, 10, seed=seed)
            game.reveal(4, 4)
            while not game.state.is_over:
                r, c = (int(v) for v in np.argwhere(game.view == fastmine.HIDDEN)[0])
                game.reveal(r, c)
            store.record_game(game, name="Ann" * 30)
    return (data / "records.sqlite3").read_bytes()


def _damaged(src: bytes, page: int, how: str, rng: random.Random) -> bytes:
    b = bytearray(src)
    lo, hi = page * PAGE + (100 if page == 0 else 0), (page + 1) * PAGE
    if how == "zero":
        b[lo:hi] = bytes(hi - lo)
    elif how == "random":
        b[lo:hi] = bytes(rng.randrange(256) for _ in range(hi - lo))
    else:                              # another page's bytes: well-formed, in the wrong place
        other = (page + 3) % (len(src) // PAGE) or 1
        b[lo:hi] = src[other * PAGE + (lo - page * PAGE):(other + 1) * PAGE]
    return bytes(b)


COMMANDS = [["records"], ["records", "--json", "out.json"], ["replay", "--list"],
            ["replay", "1", "--plain"]]


def _run(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = cli.main(argv)
    return status, err.getvalue()


def test_every_damaged_page_is_one_line_and_the_file_is_kept(records_bytes, tmp_path,
                                                             monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    rng = random.Random(5)
    for page in range(len(records_bytes) // PAGE):
        for how in ("zero", "random", "swap"):
            bad = _damaged(records_bytes, page, how, rng)
            (data / "records.sqlite3").write_bytes(bad)
            for argv in COMMANDS:
                status, err = _run([*argv[:1], "--data-dir", str(data), *argv[1:]])
                assert status in (0, 1, 2), (page, how, argv, err)
                lines = [ln for ln in err.splitlines() if ln.strip()]
                assert len(lines) <= 1 or "note:" in lines[0], (page, how, argv, err)
                assert "Traceback" not in err
            assert (data / "records.sqlite3").read_bytes() == bad, (page, how)
            assert sorted(p.name for p in data.iterdir()) == ["records.sqlite3"]


def test_a_schema_with_damaged_text_is_one_line(records_bytes, tmp_path):
    b = bytearray(records_bytes)
    b[b.find(b"CREATE TABLE", 100, PAGE) + 2] = 0xFF        # not UTF-8 any more
    (tmp_path / "records.sqlite3").write_bytes(b)
    for argv in COMMANDS[:3]:
        status, err = _run([*argv[:1], "--data-dir", str(tmp_path), *argv[1:]])
        assert status in (1, 2) and err.count("\n") == 1 and "is corrupt" in err, err
    with pytest.raises(RecordsError, match="corrupt"):
        RecordsStore(data_dir=tmp_path)
    assert (tmp_path / "records.sqlite3").read_bytes() == bytes(b)


def _read_failing_database(records_bytes: bytes, folder: Path) -> bool:
    """Write a damage that opens but fails on reading; False if none is found."""
    rng = random.Random(5)
    for page in range(1, len(records_bytes) // PAGE):
        bad = _damaged(records_bytes, page, "swap", rng)
        (folder / "records.sqlite3").write_bytes(bad)
        try:
            with RecordsStore(data_dir=folder, create=False) as store:
                store.summary()
        except RecordsError as exc:
            if "cannot read" in str(exc) or "malformed" in str(exc):
                try:
                    RecordsStore(data_dir=folder, create=False).close()
                    return True
                except RecordsError:
                    continue
    return False


def test_the_apps_statistics_get_one_line_too(records_bytes, tmp_path):
    from fastmine.app.playerdata import PlayerData, PlayerDataError

    if not _read_failing_database(records_bytes, tmp_path):
        pytest.skip("no page damage here passes the check at opening")
    before = (tmp_path / "records.sqlite3").read_bytes()
    store = PlayerData(str(tmp_path))
    with pytest.raises(PlayerDataError) as info:
        for board in ["beginner", *store.board_labels()]:
            store.stats(board)
            store.best_times(board)
    assert "\n" not in str(info.value) and "corrupt" in str(info.value)
    assert (tmp_path / "records.sqlite3").read_bytes() == before
