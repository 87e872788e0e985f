"""``fastmine replay --import`` of the four video formats: what it says, what it
records (player, software, date, the replay), and bad files refused in one line
with the records untouched; a schema-4 records file migrated to schema 5."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import numpy as np
import pytest

from fastmine import cli
from fastmine.records import SCHEMA_VERSION, GameRecord, RecordsError, RecordsStore
from fastmine.records.gamerecord import clean_name
from fastmine.replay import Replay
from fastmine.replay.fromvideo import import_video
from fastmine.videos import play_video, read_video
from fastmine.videos.model import MAX_FILE_BYTES
from fastmine.videos.rebuild import rebuild
from tests.videos.video_files import DATA, EXPECTED

READABLE = sorted(n for n in EXPECTED if "invalid" not in n)
WORDS = {"avf": "an Arbiter video", "rmv": "a Vienna video",
         "mvf": "a Minesweeper Clone video", "evf": "a Metasweeper video"}


def _import(tmp_path, capsys, path):
    code = cli.main(["replay", "--import", str(path), "--data-dir", str(tmp_path),
                     "--timeline", "--speed", "0", "--no-coach"])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", READABLE)
def test_every_format_is_imported_recorded_and_played(tmp_path, capsys, name):
    video = read_video(DATA / name)
    play = play_video(video)
    game = rebuild(video, play)
    code, out, err = _import(tmp_path, capsys, DATA / name)
    assert code == 0
    first = err.splitlines()[0]
    assert first.startswith(f"read {WORDS[video.format]} (.{video.format}, {video.software}")
    assert video.software_version in first
    if video.player:
        assert f"player {video.player}" in first
    # played back: one line a move and the game's end
    assert out.rstrip().splitlines()[-1] == f"{game.state.value} at {game.elapsed:.3f} s"
    with RecordsStore(tmp_path / "records.sqlite3", create=False) as store:
        if not game.state.is_over:
            assert store.games() == [] and "unfinished" in err
            return
        (record,) = store.games()
        replay = store.replay(record.id)
    assert record.name == clean_name(video.player or None)
    assert record.software == f"{video.software} {video.software_version}"
    assert record.date == (video.date.isoformat() if video.date else record.date)
    assert record.won == (game.state.value == "won")
    assert record.time == pytest.approx(play.time_ms / 1000)
    assert (record.rows, record.cols, record.mines) == (video.rows, video.cols, video.mines)
    assert replay is not None
    assert np.array_equal(replay.mines, video.mine_layout)
    assert replay.play().view.tolist() == game.view.tolist()
    assert f"recorded as game {record.id}" in err


def test_import_names_the_format_and_the_classic_beginner():
    data = (DATA / "arbiter_beg_gbk_name.avf").read_bytes()
    line = import_video(data, "game.avf").describe()
    assert line == ("read an Arbiter video (.avf, Minesweeper Arbiter 0.52.3), player 王嘉宁, "
                    "2025-02-01, classic beginner 8x8/10, won in 9.20 s")


def _bad_files(tmp_path):
    good = (DATA / "meta_v3_exp.evf").read_bytes()
    avf = (DATA / "arbiter_exp_lost.avf").read_bytes()
    files = {
        "truncated.evf": good[: len(good) // 3],
        "truncated.avf": avf[:200],
        "empty.rmv": b"",
        "wrong.avf": b"this is a text file, not a video\n" * 10,
        "random.mvf": bytes(np.random.default_rng(1).integers(0, 256, 5000, dtype=np.uint8)),
        "half.fmreplay": b'{"format": "fastmine-replay", "version": 2, "rows": ',
    }
    paths = {}
    for name, data in files.items():
        p = tmp_path / name
        p.write_bytes(data)
        paths[name] = p
    huge = tmp_path / "huge.evf"          # sparse: larger than any video, never read
    with open(huge, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 64 * 2**20 + 1)
    paths["huge.evf"] = huge
    return paths


def test_bad_files_are_one_line_and_leave_the_records_untouched(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    code, _, _ = _import(data, capsys, DATA / "vienna1_beg.rmv")
    assert code == 0
    db = data / "records.sqlite3"
    before = db.read_bytes()
    for name, path in _bad_files(tmp_path).items():
        code, out, err = _import(data, capsys, path)
        assert code == 1, name           # a file that is not a game: 1, as analyze says
        assert err.count("\n") == 1 and err.startswith("fastmine replay: "), (name, err)
        assert "Traceback" not in err and out == ""
        assert db.read_bytes() == before, name
    missing = tmp_path / "nope.avf"
    code, _, err = _import(data, capsys, missing)
    assert code == 1 and "no such file" in err and err.count("\n") == 1
    code, _, err = _import(data, capsys, tmp_path)      # a folder: its videos, each bad
    assert code == 1 and err.splitlines()[-1] == "0 of 7 files recorded"
    assert err.count("fastmine replay: ") == 7 and "Traceback" not in err
    with RecordsStore(db, create=False) as store:
        assert len(store.games()) == 1


def test_a_bad_file_makes_no_records_database(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    bad = tmp_path / "bad.avf"
    bad.write_bytes(b"\x00" * 100)
    code, _, err = _import(data, capsys, bad)
    assert code == 1 and err.count("\n") == 1
    assert list(data.iterdir()) == []


def test_an_old_fmreplay_still_plays_and_is_not_recorded(tmp_path, capsys):
    from tests.records_fixtures import finished_game

    path = Replay.from_game(finished_game()).save(tmp_path / "old.fmreplay")
    data = tmp_path / "data"
    data.mkdir()
    code, out, err = _import(data, capsys, path)
    assert code == 0 and err == "" and out.strip()
    assert list(data.iterdir()) == []


# ---------------------------------------------------------------- schema 5

SCHEMA_4_ABANDONED = """
CREATE TABLE abandoned (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    date TEXT,
    difficulty TEXT NOT NULL,
    rows INTEGER NOT NULL CHECK (rows > 0),
    cols INTEGER NOT NULL CHECK (cols > 0),
    mines INTEGER NOT NULL CHECK (mines > 0),
    rule TEXT,
    time REAL CHECK (time >= 0),
    revealed REAL CHECK (revealed >= 0 AND revealed <= 1),
    assisted INTEGER NOT NULL DEFAULT 0 CHECK (assisted IN (0, 1)),
    after_game INTEGER
);
CREATE INDEX abandoned_by_board ON abandoned (rows, cols, mines);
"""


def _schema_4_file(path):
    from tests.records_fixtures import OLD_GAME, old_database

    old_database(path, 3, [OLD_GAME + (3, 2, 1)])
    con = sqlite3.connect(path)
    con.executescript(SCHEMA_4_ABANDONED)
    con.execute("PRAGMA user_version=4")
    con.commit()
    con.close()


def test_a_schema_4_database_migrates_to_5_and_keeps_its_games(tmp_path):
    path = tmp_path / "records.sqlite3"
    _schema_4_file(path)
    with RecordsStore(path) as store:
        assert store.schema_version == SCHEMA_VERSION == 5
        (old,) = store.games()
        assert (old.name, old.time, old.software, old.left_clicks) == ("Old", 12.5, None, 3)
        made = GameRecord.make(8, 8, 10, won=True, time=3.5, bbbv=10, clicks=12, name="Tommy")
        new = store.add(replace(made, software="Viennasweeper 3.0C"))
    with RecordsStore(path, create=False) as store:
        assert [g.software for g in store.games()] == [None, "Viennasweeper 3.0C"]
        assert store.games()[1].id == new.id
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 5
    con.close()


def test_software_must_be_clean_text(tmp_path):
    rec = replace(GameRecord.make(9, 9, 10, won=True, time=3.0), software="Arbiter\n0.52")
    with RecordsStore(tmp_path / "r.sqlite3") as store, pytest.raises(RecordsError,
                                                                       match="software"):
        store.add(rec)
