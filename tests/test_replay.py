"""Replays: the move log of a Game, Replay playback, the replay file, ``fastmine replay``."""

from __future__ import annotations

import base64
import copy
import json
import zlib

import numpy as np
import pytest
from engine_strategies import FakeClock, masks
from hypothesis import given, settings
from hypothesis import strategies as st

import fastmine
from fastmine import cli
from fastmine.errors import FutureVersionError, GameOverError, GamePausedError, SaveFormatError
from fastmine.replay import REPLAY_VERSION, Replay

# (op, row seed, col seed, milliseconds before the move)
OPS = ("reveal", "reveal", "reveal", "mark", "mark", "chord", "batch", "pause", "qm")
move_lists = st.lists(st.tuples(st.sampled_from(OPS), st.integers(0, 99), st.integers(0, 99),
                                st.integers(0, 5000)), max_size=40)


def _game(draw_mask: list[list[bool]] | None, shape_seed: tuple[int, int, int, int, str],
          clock: FakeClock) -> fastmine.Game:
    if draw_mask is not None:
        return fastmine.Game.from_board(fastmine.Board.from_mines(np.array(draw_mask)),
                                        clock=clock)
    rows, cols, mines, seed, rule = shape_seed
    mines = max(1, min(mines, rows * cols - 1))
    if rule == "opening":
        mines = min(mines, max(1, rows * cols - 9))
    return fastmine.Game(rows, cols, mines, rule=rule, seed=seed, clock=clock)


def play_script(game: fastmine.Game, clock: FakeClock, script: list) -> list:
    """Apply ``script``; returns the reference log [(kind, r, c, ms)] of the moves made
    and the view after each, kept by hand (the slow, obvious way)."""
    log = []
    for op, a, b, dt in script:
        r, c = a % game.rows, b % game.cols
        clock.advance(dt / 1000.0)
        if op == "pause":
            if game.pause():
                clock.advance(7.0)      # a pause's time is not game time
                game.resume()
            continue
        if op == "qm":                  # the setting switched mid-game (not a move)
            game.question_marks = not game.question_marks
            continue
        before_ms = round(game.elapsed * 1000)
        try:
            if op == "reveal":
                ready = game.state is fastmine.GameState.READY
                game.reveal(r, c)
                ms = 0 if ready else before_ms
                log.append((0, r, c, ms, game.view.copy()))
            elif op == "mark":
                kind = 1 if game.question_marks else 3      # the cycle the mark used
                game.toggle_mark(r, c)
                log.append((kind, r, c, before_ms, game.view.copy()))
            elif op == "chord":
                game.chord(r, c)
                log.append((2, r, c, before_ms, game.view.copy()))
            else:
                cells = [(r, c), ((r + 1) % game.rows, c), (r, (c + 1) % game.cols)]
                n_before = len(log)
                was_ready = game.state is fastmine.GameState.READY
                game.reveal_cells(cells)
                made = game.moves.shape[0] - n_before
                for rr, cc in cells[:made]:
                    log.append((0, rr, cc, 0 if was_ready else before_ms, None))
        except (GameOverError, GamePausedError):
            pass
    return log


@settings(max_examples=60, deadline=None)
@given(st.one_of(masks(max_side=6), st.none()),
       st.tuples(st.integers(1, 6), st.integers(2, 6), st.integers(1, 20), st.integers(0, 10**6),
                 st.sampled_from(("none", "cell", "opening"))),
       move_lists)
def test_any_moves_replay_exactly(mask, shape_seed, script):
    clock = FakeClock()
    game = _game(mask, shape_seed, clock)
    log = play_script(game, clock, script)
    # The log holds exactly the moves made, at their game times.
    moves = game.moves
    assert [tuple(m) for m in moves[:, :3].tolist()] == [m[:3] for m in log]
    assert moves[:, 3].tolist() == [m[3] for m in log]
    if game.board is None:
        with pytest.raises(ValueError, match="first cell"):
            Replay.from_game(game)
        return
    rep = Replay.from_game(game)
    end = rep.play()
    assert np.array_equal(end.view, game.view)
    assert end.state is game.state
    assert np.array_equal(end.moves, moves)
    assert (end.left_clicks, end.right_clicks, end.chord_clicks) == (
        game.left_clicks, game.right_clicks, game.chord_clicks)
    if len(log):
        assert end.elapsed == pytest.approx(moves[-1, 3] / 1000.0)
    if game.state.is_over:
        assert round(end.elapsed * 1000) == round(game.elapsed * 1000)
    # Every intermediate position, as the player saw it.
    for k, entry in enumerate(log, 1):
        if entry[4] is not None:
            assert np.array_equal(rep.play(upto=k).view, entry[4])
    # The file round trip and the saved-game round trip keep everything.
    again = Replay.from_bytes(rep.to_bytes())
    assert again == rep
    resumed = fastmine.Game.from_dict(game.to_dict(), clock=clock)
    assert np.array_equal(resumed.moves, moves) and resumed.moves_complete


def test_marks_before_the_first_reveal_and_times(tmp_path):
    clock = FakeClock()
    g = fastmine.Game(9, 9, 10, seed=7, clock=clock)
    g.toggle_mark(0, 0)
    clock.advance(3.0)                 # before the first reveal: not game time
    g.reveal(4, 4)
    clock.advance(1.25)
    g.toggle_mark(0, 0)
    clock.advance(0.5)
    g.pause()
    clock.advance(100.0)
    g.resume()
    clock.advance(0.25)
    g.chord(4, 4)
    assert g.moves.tolist() == [[1, 0, 0, 0], [0, 4, 4, 0], [1, 0, 0, 1250], [2, 4, 4, 2000]]
    rep = Replay.from_game(g)
    assert rep.play().elapsed == 2.0
    path = rep.save(tmp_path / "game.fmreplay")
    assert Replay.load(path) == rep
    assert [rep.describe_move(k) for k in (1, 3)] == [
        "0:00.000 reveal row 5, col 5", "0:02.000 chord row 5, col 5"]


def test_question_marks_switched_mid_game_replay_exactly(tmp_path):
    # "flag, ?, none" with question marks on, then off: "flag, none, flag" on
    # another cell.  Each mark is played back with the cycle it used (the log
    # used to say only "mark", and such a game had no replay).
    clock = FakeClock()
    mines = np.zeros((4, 4), bool)
    mines[0, 0] = mines[3, 3] = True
    g = fastmine.Game.from_board(fastmine.Board.from_mines(mines), clock=clock)
    g.reveal(1, 1)
    for _ in range(3):
        g.toggle_mark(0, 0)
    g.question_marks = False
    for _ in range(3):
        g.toggle_mark(3, 3)
    g.toggle_mark(0, 0)
    assert g.moves[:, 0].tolist() == [0, 1, 1, 1, 3, 3, 3, 3]
    rep = Replay.from_game(g)
    assert not rep.question_marks
    for k in range(len(rep) + 1):       # every position, and the setting stays the file's
        assert rep.play(upto=k).question_marks is False
    end = Replay.load(rep.save(tmp_path / "qm.fmreplay")).play()
    assert np.array_equal(end.view, g.view) and np.array_equal(end.moves, g.moves)
    assert end.view[0, 0] == end.view[3, 3] == fastmine.FLAG


# A replay file written before marks logged their cycle (replay version 1, by
# that fastmine): question marks off, reveal (1, 1), three marks on the mine at
# (0, 0) (flag, none, flag) and one on the mine at (3, 3).
OLD_REPLAY = (
    b'{"format":"fastmine-replay","version":1,"rows":4,"cols":4,"mines":2,"rule":"none",'
    b'"question_marks":false,"assisted":false,"state":"playing","time":2.75,"mine_layout":'
    b'"gAE=","move_count":5,"moves":"eNrTYEAFjFD6Disq/xobKv8CO4SuhPJPcUBoAIMmBAs="}')


def test_an_old_replay_file_reads_its_marks_as_its_setting_says():
    rep = Replay.from_bytes(OLD_REPLAY)
    assert rep.moves.tolist() == [[0, 1, 1, 0], [3, 0, 0, 1500], [3, 0, 0, 1750],
                                  [3, 0, 0, 2000], [3, 3, 3, 2250]]
    end = rep.play()
    assert end.view[0, 0] == end.view[3, 3] == fastmine.FLAG and end.elapsed == 2.25
    assert [rep.describe_move(k)[9:] for k in (1, 4)] == ["mark row 1, col 1", "mark row 4, col 4"]
    # written again, as this fastmine writes it, it reads back the same
    again = Replay.from_bytes(rep.to_bytes())
    assert json.loads(rep.to_bytes())["version"] == 2 < REPLAY_VERSION and again == rep
    # the same file with question marks on: flag, ?, none
    on = Replay.from_bytes(OLD_REPLAY.replace(b'"question_marks":false', b'"question_marks":true'))
    assert on.moves[:, 0].tolist() == [0, 1, 1, 1, 1]
    assert on.play().view[0, 0] == fastmine.HIDDEN


def test_a_clock_that_steps_back_still_writes_a_readable_replay(tmp_path):
    # The log's times never go back: a replay file with decreasing times is
    # refused on reading, so a game must never log one.
    clock = FakeClock()
    g = fastmine.Game(9, 9, 10, seed=7, clock=clock)
    g.reveal(4, 4)
    clock.advance(2.0)
    g.toggle_mark(0, 0)
    clock.advance(-1.5)                # an injected clock that went back
    g.toggle_mark(0, 0)
    assert g.moves[:, 3].tolist() == [0, 2000, 2000]
    rep = Replay.from_game(g)
    assert Replay.load(rep.save(tmp_path / "back.fmreplay")) == rep


def test_solver_moves_are_marked_and_make_the_game_assisted():
    from fastmine.solver import step

    g = fastmine.Game(9, 9, 10, seed=2)
    g.reveal(0, 0)
    step(g, "best")
    kinds = g.moves[:, 0].tolist()
    assert kinds[0] == 0 and kinds[1] & 4
    rep = Replay.from_game(g)
    assert not rep.play(upto=1).assisted and rep.play().assisted


def test_board_rows_and_cols_are_properties_like_the_games():
    g = fastmine.Game(9, 9, 10, seed=4)
    g.reveal(4, 4)
    rep = Replay.from_game(g)
    # Replay.board is a property (as Game.board and Replay.rows are), not a method.
    assert isinstance(rep.board, fastmine.Board)
    assert np.array_equal(rep.board.mines, g.board.mines)
    assert np.array_equal(rep.board.counts, g.board.counts)
    assert (rep.rows, rep.cols, rep.mine_count) == (9, 9, 10)
    assert isinstance(type(rep).__dict__["board"], property)


def test_copies_keep_their_own_log():
    g = fastmine.Game(9, 9, 10, seed=1)
    g.reveal(4, 4)
    h = copy.copy(g)
    h.toggle_mark(0, 0)
    assert g.moves.shape[0] == 1 and h.moves.shape[0] == 2


def test_a_game_without_its_moves_or_changed_by_hand_has_no_replay():
    g = fastmine.Game(9, 9, 10, seed=1)
    g.reveal(4, 4)
    d = g.to_dict()
    d.pop("moves")                       # a save from before replays
    old = fastmine.Game.from_dict(d)
    assert not old.moves_complete
    with pytest.raises(ValueError, match="without its moves"):
        Replay.from_game(old)
    d = g.to_dict()
    d["cells"] = "h" * 81                # cells changed by hand (a move taken back)
    d["state"] = "ready"
    d["clicks"] = {"left": 0, "right": 0, "chord": 0}
    with pytest.raises(ValueError, match="do not replay"):
        Replay.from_game(fastmine.Game.from_dict(d))


def _file(rep: Replay, **changes) -> bytes:
    d = rep.to_dict()
    d.update(changes)
    return json.dumps(d).encode()


@pytest.fixture
def rep() -> Replay:
    g = fastmine.Game(9, 9, 10, seed=3)
    g.reveal(4, 4)
    g.toggle_mark(0, 0)
    return Replay.from_game(g)


@pytest.mark.parametrize("change, words", [
    (dict(format="other"), "not a fastmine replay"),
    (dict(rows=0), "bad size"),
    (dict(mines=11), "exactly 11 mines"),
    (dict(mine_layout="!!"), "not valid base64"),
    (dict(mine_layout=base64.b64encode(b"\xff" * 11).decode()), "exactly 10 mines"),
    (dict(move_count=3), "hold 2 moves, not 3"),
    (dict(move_count=1), "more than move_count"),
    (dict(moves=base64.b64encode(b"junk").decode()), "corrupt"),
    (dict(moves=base64.b64encode(zlib.compress(np.array([[81 * 8, 0], [0, 0]], "<i8").tobytes())).decode()),
     "off the board"),
    (dict(version=1, moves=base64.b64encode(zlib.compress(np.array([[3, 0], [0, 0]], "<i8")
                                                         .tobytes())).decode()),
     "unknown kinds"),
    (dict(state="won"), "says the game was won"),
    (dict(time=float("inf")), "bad game time"),
    (dict(question_marks="yes"), "true or false"),
])
def test_corrupt_files_are_refused_clearly(rep, change, words):
    with pytest.raises(SaveFormatError, match=words):
        Replay.from_bytes(_file(rep, **change))


def test_newer_and_garbage_files(rep, tmp_path):
    with pytest.raises(FutureVersionError, match="newer fastmine"):
        Replay.from_bytes(_file(rep, version=REPLAY_VERSION + 1))
    bad = tmp_path / "x.fmreplay"
    bad.write_bytes(rep.to_bytes()[:40])
    with pytest.raises(SaveFormatError, match=r"x.fmreplay is corrupt.*not JSON"):
        Replay.load(bad)
    # A move after the game ended cannot be played.
    g = fastmine.Game(9, 9, 10, seed=3)
    g.reveal(4, 4)
    mine = np.argwhere(g.board.mines)[0]
    g.reveal(*mine)
    moves = np.array([[0, 4, 4, 0], [0, *mine, 0], [0, 4, 4, 0]])
    lost = Replay.from_game(g)
    d = lost.to_dict()
    cells = moves[:, 1] * 9 + moves[:, 2]
    d["moves"] = base64.b64encode(zlib.compress(np.stack([cells * 8, moves[:, 3]], 1)
                                                .astype("<i8").tobytes())).decode()
    d["move_count"] = 3
    with pytest.raises(SaveFormatError, match="cannot be played.*over"):
        Replay.from_dict(d)


def _stored_game(data_dir) -> int:
    from fastmine.records import RecordsStore
    from fastmine.solver import play

    g = fastmine.Game(9, 9, 10, seed=11)
    play(g, "best", rng=1)
    with RecordsStore(data_dir=data_dir) as store:
        return store.record_game(g).id


def test_cli_plays_exports_and_imports(tmp_path, capsys):
    d = str(tmp_path / "data")
    gid = _stored_game(d)
    assert cli.main(["replay", "--plain", "--speed", "0", "--data-dir", d]) == 0
    out = capsys.readouterr().out
    assert out.startswith("beginner 9x9/10") and "move 1/" in out and "    1 2 3" in out
    f = tmp_path / "g.fmreplay"
    assert cli.main(["replay", "--export", str(gid), str(f), "--data-dir", d]) == 0
    capsys.readouterr()
    assert cli.main(["replay", "--import", str(f), "--timeline", "--speed", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1].startswith("coach: ") and "(solver)" in lines[1]
    assert any(line.startswith(("won at", "lost at")) for line in lines[-3:])
    f.write_text("{}")
    assert cli.main(["replay", "--import", str(f), "--plain"]) == 1   # a bad file
    assert "not a fastmine replay" in capsys.readouterr().err
    assert cli.main(["replay", "99", "--data-dir", d]) == 2
    assert "has no replay" in capsys.readouterr().err


def test_plain_playback_waits_as_the_player_did(rep):
    import io

    waits: list[float] = []
    g = fastmine.Game(9, 9, 10, seed=3, clock=FakeClock())
    g.reveal(4, 4)
    g._clock.advance(2.0)
    g.toggle_mark(0, 0)
    from fastmine.cli.replay import play_text

    play_text(Replay.from_game(g), speed=4.0, boards=False, out=io.StringIO(), sleep=waits.append)
    assert waits == [0.5]


@pytest.mark.parametrize("paused", [False, True])
def test_a_resumed_save_goes_on_logging_game_time(paused):
    clock = FakeClock()
    g = fastmine.Game(9, 9, 10, seed=7, clock=clock)
    g.reveal(4, 4)
    clock.advance(1.5)
    if paused:
        g.pause()
    d = g.to_dict()
    later = FakeClock(start=-50.0)        # another run of the program, another clock
    h = fastmine.Game.from_dict(d, clock=later)
    later.advance(30.0)                   # the saved game was paused, or not yet running
    if paused:
        h.resume()
        later.advance(0.25)
        expected = 1750
    else:
        expected = 31500
    h.toggle_mark(0, 0)
    assert h.moves[:, 3].tolist() == [0, expected]
    assert Replay.from_game(h).play().elapsed == pytest.approx(expected / 1000)
