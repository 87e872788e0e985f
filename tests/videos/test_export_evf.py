"""``fastmine replay --export ID game.evf``: our games written as Metasweeper
videos that ms-toollib (the oracle, tests only) and fastmine's own reader read
back with the same board, 3BV, outcome, time and clicks."""

from __future__ import annotations

import numpy as np
import pytest

import fastmine
from fastmine import cli
from fastmine.records import RecordsStore
from fastmine.replay import Replay
from fastmine.replay.fromvideo import import_video
from fastmine.replay.toevf import to_evf
from fastmine.videos import play_video, read_video
from fastmine.videos.rebuild import rebuild
from tests.videos.video_files import DATA

ms = pytest.importorskip("ms_toollib")


def _game(seed, *, lose=False, chords=False, flags=False):
    now = [0.0]
    g = fastmine.Game(16, 16, 40, seed=seed, clock=lambda: now[0])
    g.reveal(8, 8)
    rng = np.random.default_rng(seed)
    while not g.state.is_over:
        now[0] += 0.25
        if lose and rng.random() < 0.2:
            r, c = np.argwhere(g.board.mines & (g.view == fastmine.HIDDEN))[0]
            g.reveal(int(r), int(c))
            break
        if flags and rng.random() < 0.3:
            hidden_mines = np.argwhere(g.board.mines & (g.view == fastmine.HIDDEN))
            if len(hidden_mines):
                g.toggle_mark(*map(int, hidden_mines[rng.integers(len(hidden_mines))]))
                continue
        if chords and rng.random() < 0.3:
            opened = np.argwhere((g.view >= 1) & (g.view <= 8))
            if len(opened):
                g.chord(*map(int, opened[rng.integers(len(opened))]))
                continue
        safe = np.argwhere((g.view == fastmine.HIDDEN) & ~g.board.mines)
        g.reveal(*map(int, safe[rng.integers(len(safe))]))
    return g


GAMES = {"won": dict(), "lost": dict(lose=True), "chords and flags": dict(chords=True, flags=True),
         "lost with flags": dict(lose=True, flags=True)}


def _check(tmp_path, replay, data):
    path = tmp_path / "game.evf"
    path.write_bytes(data)
    o = ms.EvfVideo(str(path))
    o.parse()
    o.analyse()
    o.current_time = 1e9
    game = replay.play()
    assert np.array_equal(np.asarray(o.board) == -1, replay.mines)
    assert o.bbbv == replay.board.bbbv()
    assert o.rtime_ms == round(replay.time * 1000)
    assert bool(o.is_completed) == (replay.state.value == "won")
    stats = game.stats()
    video = read_video(path)
    play = play_video(video)
    assert (o.left, o.right, o.double) == (play.left, play.right, play.double)
    assert play.time_ms == o.rtime_ms
    assert play.outcome == replay.state.value
    again = rebuild(video, play)
    assert again.view.tolist() == game.view.tolist()
    return o, stats


@pytest.mark.parametrize("kind", list(GAMES))
def test_our_games_read_back_the_same(tmp_path, kind):
    for seed in range(4):
        replay = Replay.from_game(_game(seed, **GAMES[kind]))
        o, stats = _check(tmp_path, replay, to_evf(replay, player="Tester"))
        # the clients' counts are fastmine's: a reveal a left click, a mark a right, a chord a double
        assert (o.left, o.right, o.double) == (stats.left_clicks, stats.right_clicks,
                                               stats.chord_clicks)


@pytest.mark.parametrize("name", ["arbiter_exp_lost.avf", "vienna1_exp_gbk_name.rmv",
                                  "meta_v3_beg.evf"])
def test_an_imported_video_goes_back_out_with_its_mouse_path(tmp_path, name):
    iv = import_video((DATA / name).read_bytes(), name)
    _check(tmp_path, iv.replay, to_evf(iv.replay, player=iv.video.player))


def test_the_export_command_writes_an_evf(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    with RecordsStore(data / "records.sqlite3") as store:
        rec = store.record_game(_game(1, chords=True, flags=True), name="Ann")
        replay = store.replay(rec.id)
    out = tmp_path / "game.evf"
    code = cli.main(["replay", "--export", str(rec.id), str(out), "--data-dir", str(data)])
    assert code == 0, capsys.readouterr().err
    video = read_video(out)
    assert video.player == "Ann" and video.software == "fastmine"
    _check(tmp_path, replay, out.read_bytes())


def test_a_board_evf_cannot_hold_is_refused(tmp_path):
    g = fastmine.Game(300, 10, 5, seed=1)
    g.reveal(150, 5)
    with pytest.raises(ValueError, match="255x255"):
        to_evf(Replay.from_game(g))


def test_bad_export_paths_and_boards_are_one_line(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    big = fastmine.Game(300, 10, 5, seed=1)
    big.reveal(150, 5)
    big.reveal(*map(int, np.argwhere(big.board.mines)[0]))
    with RecordsStore(data / "records.sqlite3") as store:
        ok = store.record_game(_game(2))
        too_big = store.record_game(big)
    before = (data / "records.sqlite3").read_bytes()
    for ident, out in ((str(ok.id), tmp_path / "no such folder" / "g.evf"),
                       (str(ok.id), tmp_path),
                       (str(ok.id), data / "records.sqlite3"),
                       (str(too_big.id), tmp_path / "big.evf"),
                       ("999", tmp_path / "none.evf")):
        code = cli.main(["replay", "--export", ident, str(out), "--data-dir", str(data)])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and err.startswith("fastmine replay: "), err
    assert not (tmp_path / "big.evf").exists() and not (tmp_path / "none.evf").exists()
    assert (data / "records.sqlite3").read_bytes() == before
