"""A second look at the coach, the replays and take-backs: fuzz that mixes
``Game.take_back_loss`` with pause/resume, marks, copies, pickles and
save-and-load, and the bad input found by hand."""

from __future__ import annotations

import base64
import copy
import pickle

import numpy as np
import pytest
from engine_strategies import masks
from hypothesis import event, given, settings
from hypothesis import strategies as st

import fastmine
from fastmine import GameState
from fastmine.replay import Replay

_NOW = [0.0]


def _clock() -> float:
    """A module-level clock: a pickled game gets this same clock back."""
    return _NOW[0]


OPS = ("reveal", "reveal", "reveal", "mark", "chord", "pause", "resume", "take_back",
       "take_back", "copy", "pickle", "save", "mine", "qm")


def _reference(board: fastmine.Board, moves: np.ndarray, question_marks: bool) -> fastmine.Game:
    """The obvious reference: a new game on the board, the moves made one by one
    (a mark with the setting it was made with: kind 1 question marks on, 3 off)."""
    g = fastmine.Game.from_board(board, question_marks=question_marks, clock=_clock)
    for kind, r, c, _ms in moves.tolist():
        if kind & 3 in (1, 3):
            g.question_marks = kind & 3 == 1
        {0: g.reveal, 1: g.toggle_mark, 2: g.chord, 3: g.toggle_mark}[kind & 3](r, c)
    return g


def _as_old_save(d: dict) -> dict:
    """``d`` as a save written before marks logged their cycle: every mark kind 1."""
    pairs = np.frombuffer(base64.b64decode(d["moves"]), "<i8").reshape(-1, 2).copy()
    pairs[pairs[:, 0] & 3 == 3, 0] -= 2
    return {**{k: v for k, v in d.items() if k != "moves_version"},
            "moves": base64.b64encode(pairs.tobytes()).decode()}


def _apply(g: fastmine.Game, op: str, r: int, c: int) -> fastmine.Game:
    """One step of the script on ``g``; returns the game to go on with (a copy,
    a pickle or a reloaded save of it for those steps)."""
    try:
        if op == "reveal":
            g.reveal(r, c)
        elif op == "mine" and g.board is not None:      # lose on purpose
            mines = np.argwhere(g.board.mines & (g.view != fastmine.FLAG))
            if len(mines):
                g.reveal(*(int(x) for x in mines[(r * 7 + c) % len(mines)]))
        elif op == "mark":
            g.toggle_mark(r, c)
        elif op == "chord":
            g.chord(r, c)
        elif op == "pause":
            g.pause()
        elif op == "resume":
            g.resume()
        elif op == "qm":                # the setting switched mid-game
            g.question_marks = not g.question_marks
        elif op == "take_back":
            if g.can_take_back_loss:
                g.take_back_loss()
            else:
                d = g.to_dict()
                with pytest.raises(ValueError, match="cannot be taken back"):
                    g.take_back_loss()
                assert g.to_dict() == d
    except (fastmine.GameOverError, fastmine.GamePausedError):
        pass
    if op == "copy":
        return copy.copy(g)
    if op == "pickle":
        return pickle.loads(pickle.dumps(g))
    if op == "save":
        return fastmine.Game.from_dict(g.to_dict(), clock=_clock)
    return g


@settings(max_examples=60, deadline=None)
@given(masks(max_side=6), st.booleans(), st.sampled_from((None, "none", "cell", "opening")),
       st.lists(st.tuples(st.sampled_from(OPS), st.integers(0, 5), st.integers(0, 5),
                          st.integers(0, 2500)), max_size=40))
def test_take_backs_mixed_with_pause_copy_pickle_and_saves(mask, question_marks, rule, script):
    _NOW[0] = 100.0
    board = fastmine.Board.from_mines(np.array(mask))

    def new() -> fastmine.Game:
        if rule is None:        # a fixed board
            return fastmine.Game.from_board(board, question_marks=question_marks, clock=_clock)
        # a board laid at the first reveal (the same for both: same seed, same click)
        return fastmine.Game(board.rows, board.cols, min(board.mine_count, board.rows * board.cols - 1),
                             rule=rule, seed=7, question_marks=question_marks, clock=_clock)

    plain, stored = new(), new()
    for op, a, b, dt in script:
        _NOW[0] += dt / 1000.0
        r, c = a % board.rows, b % board.cols
        if rule == "opening" and op == "reveal" and plain.state is GameState.READY:
            r = c = 0       # a corner: the opening rule needs room for an opening
        # The same steps on a game never saved and on one copied, pickled and
        # saved along the way: both stay the same game.
        if op not in ("copy", "pickle", "save"):
            plain = _apply(plain, op, r, c)
        stored = _apply(stored, op, r, c)
        if plain.state is GameState.LOST:
            event("lost")
        elif op == "take_back" and plain.assisted:
            event("taken back")
        assert stored.to_dict() == plain.to_dict()
        assert np.array_equal(stored.moves, plain.moves)
        assert stored.can_take_back_loss == plain.can_take_back_loss
        # The moves replay exactly to the game, also after a take-back ...
        if plain.board is None:
            continue
        ref = _reference(plain.board, plain.moves, question_marks)
        assert np.array_equal(ref.view, plain.view) and ref.state is plain.state
        assert (ref.mines_left, ref.revealed_count) == (plain.mines_left, plain.revealed_count)
        assert (np.diff(plain.moves[:, 3]) >= 0).all()
        if plain.state is not GameState.READY:
            # ... and so does its replay file, after a save and a load.
            rep = Replay.from_game(stored)
            again = Replay.from_bytes(rep.to_bytes())
            assert again == rep
            end = again.play()
            assert np.array_equal(end.view, plain.view) and end.state is plain.state
            assert again.assisted == plain.assisted


BOARD = fastmine.Board.from_mines([[1, 0, 0], [0, 0, 0], [0, 0, 1]])


@pytest.mark.parametrize("budget", ["1", 1j, True, [1.0]])
def test_analyze_refuses_a_budget_that_is_not_seconds(budget):
    from fastmine import coach

    with pytest.raises(TypeError, match="budget must be a number of seconds"):
        coach.analyze(BOARD, [("reveal", 1, 1)], budget=budget)


@pytest.mark.parametrize("budget", [float("nan"), -1, -0.5, float("-inf")])
def test_analyze_refuses_a_budget_below_zero(budget):
    from fastmine import coach

    with pytest.raises(ValueError, match="0 or more"):
        coach.analyze(BOARD, [("reveal", 1, 1)], budget=budget)


@pytest.mark.parametrize("budget", [10**400, float("inf"), np.float32(5), np.int64(3), 0])
def test_analyze_takes_any_number_of_seconds(budget):
    from fastmine import coach

    v = coach.analyze(BOARD, [("reveal", 1, 1), ("reveal", 0, 2)], rule="cell", budget=budget)
    # (0 s: the second move is weighed only if the clock has not moved on)
    want = {"forced_guess"} if budget else {"forced_guess", "not_analysed"}
    assert v[0].category.value == "first_click" and v[1].category.value in want


@pytest.mark.parametrize("index, error", [("a", TypeError), (1.0, TypeError), (True, TypeError),
                                          (-1, ValueError)])
def test_judge_refuses_an_index_that_is_not_a_move_number(index, error):
    from fastmine import coach

    g = fastmine.Game.from_board(BOARD)
    g.reveal(1, 1)
    with pytest.raises(error, match="index must be"):
        coach.judge(g, "reveal", 0, 2, index=index)
    v = coach.judge(g, "reveal", 0, 2, index=np.int64(4))
    assert v.index == 4 and type(v.index) is int
    assert coach.describe(v).startswith("Move 5, open at row 1, column 3: a guess you had to "
                                        "make (25%)")


def _lost_game() -> fastmine.Game:
    g = fastmine.Game.from_board(BOARD, clock=_clock)
    g.reveal(0, 2)
    g.reveal(0, 0)
    assert g.state is GameState.LOST
    return g


def test_a_replay_file_with_a_move_after_the_end_names_that_move():
    rep = Replay.from_game(_lost_game())
    d = rep.to_dict()
    longer = Replay(rep.mines, rep.rule, np.vstack([rep.moves, rep.moves[-1:]]), rep.state,
                    rep.time)
    d.update({k: longer.to_dict()[k] for k in ("moves", "move_count")})
    with pytest.raises(fastmine.SaveFormatError) as err:
        Replay.from_dict(d)
    # in the words of a file, not of a game being played ("start a new game")
    assert "move 3 comes after the game was over (it ended at move 2)" in str(err.value)
    assert "new game" not in str(err.value)


def test_a_game_whose_marks_do_not_replay_has_no_replay_in_plain_words():
    # Question marks switched off during the game: each mark logs the cycle it
    # used, so the game replays (it used to have no replay) ...
    board = fastmine.Board.from_mines([[0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 1], [0, 0, 1, 0]])
    g = fastmine.Game.from_board(board, clock=_clock)
    g.reveal(0, 0)
    for _ in range(3):
        g.toggle_mark(2, 1)     # flag, ?, none
    g.question_marks = False
    g.chord(1, 0)               # no flag around it: nothing happens
    g.reveal(2, 0)
    assert np.array_equal(Replay.from_game(g).play().view, g.view)
    # ... but from a save written before that, its marks replay differently
    # (all without "?", as the save's setting says): a later move comes after
    # the replayed game is over.
    old = fastmine.Game.from_dict(_as_old_save(g.to_dict()), clock=_clock)
    with pytest.raises(ValueError, match="moves do not replay to it"):
        Replay.from_game(old)


def _v(category: str, risk: float, best: float, safe: int = 0, survived: bool = True):
    from fastmine import coach

    return coach.Verdict(3, "reveal", (1, 2), coach.Category(category), risk, best, safe, survived)


@pytest.mark.parametrize("risk, shown", [(0.996, "99.6"), (0.99996, "99.996"), (1.0, "100"),
                                         (1 - 2**-52, "100"), (0.994, "99"), (0.5, "50"),
                                         (0.004, "0.4"), (0.123, "12")])
def test_a_risk_short_of_certain_never_reads_100(risk, shown):
    from fastmine import coach

    v = _v("avoidable_risk", risk, 0.0, 3)
    assert coach.tag(v) == f"RISK {shown}% (3 safe)"
    assert coach.summary([v]) == f"1 guess you did not need ({shown}%): a safe cell was there."
    if shown == "100":      # a certain mine is said in words
        assert "a cell that was certainly a mine, while 3 safe cells were" in coach.describe(v)
    else:
        assert f"a {shown}% risk you did not need: 3 safe cells were there" in coach.describe(v)


def test_a_worse_guess_never_reads_as_good_as_the_best():
    from fastmine import coach

    v = _v("worse_guess", 0.2049, 0.2041)     # both "20%" in whole numbers
    assert coach.tag(v) == "worse 20.5%>20.4%"
    assert coach.summary([v]) == ("1 guess riskier than it had to be (20.5%, when the safest "
                                  "cell had 20.4%).")
    assert coach.describe(v).endswith("a 20.5% guess when the safest cell had 20.4%.")
    lost = _v("worse_guess", 0.2049, 0.2041, survived=False)
    assert coach.summary([lost]) == "You lost on a 20.5% guess when the safest cell had 20.4%."
    # as before where whole numbers tell them apart
    assert coach.tag(_v("worse_guess", 0.4, 0.125)) == "worse 40%>12%"
    assert coach.summary([_v("worse_guess", 0.4, 0.125), _v("worse_guess", 0.3, 0.25)]) == \
        "2 guesses riskier than they had to be (40/30%, when the safest cells had 12/25%)."


def test_replay_of_a_game_id_too_large_for_the_records_is_no_such_game(tmp_path, capsys):
    from fastmine import cli
    from fastmine.records import RecordsStore

    with RecordsStore(data_dir=tmp_path) as store:
        store.record_game(_lost_game())
        assert store.replay(10**30) is None and store.replay(-(10**30)) is None
        assert store.remove(2**63) is False
        assert store.replay_ids() == [1]
    # was an OverflowError traceback from SQLite
    assert cli.main(["replay", "99999999999999999999999", "--data-dir", str(tmp_path)]) == 2
    assert "game 99999999999999999999999 has no replay" in capsys.readouterr().err


def test_export_to_a_folder_that_does_not_exist_is_refused_not_made(tmp_path, capsys):
    from fastmine import cli
    from fastmine.records import RecordsStore

    with RecordsStore(data_dir=tmp_path) as store:
        store.record_game(_lost_game())
    missing = tmp_path / "typo" / "game.fmreplay"
    assert cli.main(["replay", "--export", "last", str(missing), "--data-dir", str(tmp_path)]) == 2
    assert "the folder" in capsys.readouterr().err and not missing.parent.exists()
    assert cli.main(["replay", "--export", "last", str(tmp_path), "--data-dir", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
    good = tmp_path / "game.fmreplay"
    assert cli.main(["replay", "--export", "1", str(good), "--data-dir", str(tmp_path)]) == 0
    assert Replay.load(good) == Replay.from_game(_lost_game())


def test_a_save_whose_times_go_back_loads_with_a_replay_that_reads_back():
    # A save written before the move log kept its times in order (a clock
    # that stepped back): the game loads, and its replay file can be read.
    import base64

    now = [0.0]
    g = fastmine.Game(9, 9, 10, seed=3, clock=lambda: now[0])
    g.reveal(4, 4)
    now[0] = 5.0
    g.toggle_mark(0, 0)
    now[0] = 6.0
    g.toggle_mark(0, 0)
    d = g.to_dict()
    pairs = np.frombuffer(base64.b64decode(d["moves"]), "<i8").reshape(-1, 2).copy()
    pairs[1, 1] = 9000                                  # after the move that follows it
    d["moves"] = base64.b64encode(pairs.tobytes()).decode()
    loaded = fastmine.Game.from_dict(d)
    assert loaded.moves[:, 3].tolist() == [0, 9000, 9000]
    rep = Replay.from_game(loaded)
    assert Replay.from_bytes(rep.to_bytes()) == rep     # was: "times go backwards"


def test_a_take_back_that_would_hide_cells_the_player_opened_is_refused():
    # Question marks off while (2, 0) is marked three times (flag, none, flag),
    # a chord on (2, 1) opens (3, 0), a mine loses; then question marks are
    # switched on.  Each mark logs its cycle, so the take-back is exact; from
    # a save written before that, the marks replay with the save's setting
    # (flag, ?, none), the chord opens nothing, and taking back would hide
    # (3, 0) again, silently: refused.
    mines = np.zeros((5, 5), bool)
    mines[2, 0] = mines[4, 3] = mines[4, 4] = True
    g = fastmine.Game.from_board(fastmine.Board.from_mines(mines), question_marks=False,
                                 clock=_clock)
    g.reveal(0, 4)
    for _ in range(3):
        g.toggle_mark(2, 0)
    g.chord(2, 1)
    assert g.view[3, 0] == 1
    before = g.view.copy()
    g.reveal(4, 4)
    g.question_marks = True
    old = fastmine.Game.from_dict(_as_old_save(g.to_dict()), clock=_clock)
    d, view = old.to_dict(), old.view.copy()
    with pytest.raises(ValueError, match="moves do not lead to it"):
        old.take_back_loss()
    assert old.to_dict() == d and np.array_equal(old.view, view) and old.state is GameState.LOST
    g.take_back_loss()
    assert g.state is GameState.PLAYING and np.array_equal(g.view, before)
    assert g.view[3, 0] == 1 and g.view[2, 0] == fastmine.FLAG and g.question_marks


def test_a_take_back_that_would_leave_a_flag_the_player_never_placed_is_refused():
    # "flag, ?, none" with question marks on, then off; lost on the first click.
    # From a save written before marks logged their cycle, the marks replay
    # with them off and end in a flag, on which the losing reveal does
    # nothing: taking back used to leave that flag on the board; refused.
    # With each mark's cycle logged, the take-back is exact.
    g = fastmine.Game.from_board(fastmine.Board.from_mines(np.array([[True, False]])),
                                 clock=_clock)
    for _ in range(3):
        g.toggle_mark(0, 0)
    g.question_marks = False
    g.reveal(0, 0)
    old = fastmine.Game.from_dict(_as_old_save(g.to_dict()), clock=_clock)
    with pytest.raises(ValueError, match="moves do not lead to it"):
        old.take_back_loss()
    assert old.state is GameState.LOST and old.view[0, 0] == fastmine.EXPLODED
    g.take_back_loss()
    assert g.state is GameState.READY and (g.view == fastmine.HIDDEN).all()


def test_the_coach_judges_marks_made_with_question_marks_switched_as_they_were():
    # (0, 0), a mine: flag and ? with question marks on; then off: none, flag.
    # Judged from the log with the final setting, the third mark found a
    # hidden cell (a flag) and the fourth a flag; each mark now replays with
    # the cycle it used, so the verdicts are the ones judged as it was played.
    from fastmine import coach

    board = fastmine.Board.from_mines([[1, 0, 0], [0, 0, 0], [0, 0, 1]])
    g = fastmine.Game.from_board(board, clock=_clock)
    live = []
    for i, (kind, r, c, qm) in enumerate([("reveal", 1, 1, True), ("mark", 0, 0, True),
                                          ("mark", 0, 0, True), ("mark", 0, 0, False),
                                          ("mark", 0, 0, False), ("reveal", 0, 2, False)]):
        g.question_marks = qm
        live.append(coach.judge(g, kind, r, c, index=i))
        {"reveal": g.reveal, "mark": g.toggle_mark}[kind](r, c)
    verdicts = coach.analyze(board, g.moves, rule="none", question_marks=g.question_marks)
    assert [v.category for v in verdicts] == [v.category for v in live]
    assert [v.category.value for v in verdicts[1:5]] == ["flag", "mark", "mark", "flag"]
    assert [v.kind for v in verdicts] == ["reveal"] + ["mark"] * 4 + ["reveal"]
    # a mark given by name cycles as the question_marks argument says
    named = coach.analyze(board, [("reveal", 1, 1), ("mark", 0, 0), ("mark", 0, 0), ("mark", 0, 0)],
                          rule="none", question_marks=False)
    assert [v.category.value for v in named[1:]] == ["flag", "mark", "flag"]


def test_replay_outputs_never_replace_the_records_or_the_file_read(tmp_path, capsys):
    from fastmine import cli
    from fastmine.records import RecordsStore, default_path

    with RecordsStore(data_dir=tmp_path) as store:
        store.record_game(_lost_game())
    db = default_path(tmp_path)
    before = db.read_bytes()
    d = ["--data-dir", str(tmp_path)]
    # was: "replay written to .../records.sqlite3", every record lost
    assert cli.main(["replay", "--export", "last", str(db), *d]) == 2
    assert "is your records database" in capsys.readouterr().err
    assert cli.main(["replay", "last", "--verdicts", str(db), *d]) == 2
    assert "is your records database" in capsys.readouterr().err
    assert db.read_bytes() == before
    with RecordsStore(data_dir=tmp_path) as store:
        assert store.replay_ids() == [1]
    f = tmp_path / "game.fmreplay"
    assert cli.main(["replay", "--export", "1", str(f), *d]) == 0
    kept = f.read_bytes()
    assert cli.main(["replay", "--import", str(f), "--verdicts", str(f), *d]) == 2
    err = capsys.readouterr().err     # refused as the file read, or as a replay wherever it is
    assert "is the replay being read" in err or "is a fastmine replay" in err
    assert f.read_bytes() == kept
    out = tmp_path / "verdicts.json"
    assert cli.main(["replay", "--import", str(f), "--verdicts", str(out), *d]) == 0
    assert out.exists()


_ANY_MOVE = st.one_of(
    st.tuples(st.sampled_from(["reveal", "mark", "chord", "flag", "", 0, 1, 2, 4, 5, 6, 3, 7, -1,
                               None, 1.5, True]),
              st.one_of(st.integers(-3, 8), st.floats(allow_nan=True), st.none(), st.booleans()),
              st.one_of(st.integers(-3, 8), st.text(max_size=2))),
    st.tuples(st.sampled_from(["reveal", "mark", "chord"]), st.integers(0, 4), st.integers(0, 4),
              st.integers(0, 10**6)),
    st.none(), st.text(max_size=3), st.integers(), st.lists(st.integers(0, 4), max_size=5))


@settings(max_examples=150, deadline=None)
@given(masks(max_side=5), st.sampled_from(("none", "cell", "opening", "no_guess")),
       st.lists(_ANY_MOVE, max_size=12), st.booleans())
def test_analyze_any_moves_gives_verdicts_or_a_clear_error(mask, rule, moves, question_marks):
    from fastmine import coach

    board = fastmine.Board.from_mines(np.array(mask))
    try:
        verdicts = coach.analyze(board, moves, rule=rule, question_marks=question_marks)
    except (TypeError, ValueError) as exc:
        assert str(exc)             # a message, in words
        return
    assert len(verdicts) == len(moves)
    assert sum(not v.survived for v in verdicts) <= 1
    line = coach.summary(verdicts)
    assert line and all(isinstance(coach.tag(v), str) and coach.describe(v) for v in verdicts)


def test_a_game_with_more_moves_than_a_replay_file_holds_has_no_replay(monkeypatch, tmp_path):
    # (a solver on a huge board: its file would be refused when read, so the
    # records would hold a replay they call unreadable)
    import fastmine.replay.fileformat as replay_module
    from fastmine.records import RecordsStore

    g = _lost_game()
    monkeypatch.setattr(replay_module, "MAX_REPLAY_MOVES", 1)
    with pytest.raises(ValueError, match="more moves than a replay holds"):
        Replay.from_game(g)
    with RecordsStore(data_dir=tmp_path) as store:
        rec = store.record_game(g)
        assert store.replay_ids() == [] and store.replay(rec.id) is None
    monkeypatch.setattr(replay_module, "MAX_REPLAY_MOVES", 2)
    assert len(Replay.from_game(g)) == 2
