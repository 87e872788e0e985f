"""The coach (fastmine.coach) against brute force on small boards, and by hand."""

from __future__ import annotations

import re
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fastmine
from fastmine import FLAG, HIDDEN, QUESTION, Board, Game
from fastmine.coach import (
    MARGIN,
    Category,
    Verdict,
    Words,
    analyze,
    describe,
    fatal,
    judge,
    judging,
    remark,
    summary,
    summary_lines,
    tag,
)
from fastmine.solver.incremental import IncrementalAnalyzer

sys.path.insert(0, str(Path(__file__).parent / "solver"))
import brute_force  # noqa: E402  (the solver tests' slow reference)
from safe_play_reference import judge_guess  # noqa: E402  (safe play, written out)

sys.path.insert(0, str(Path(__file__).parent))
from coach_reference import same_verdicts  # noqa: E402

# A 4x4 board: mines in three corners, the first click at (1, 2) shows 1.
#   *1..
#   1111
#   111*
#   *111
CORNERS = Board.from_mines([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0]])


def _opened(view: np.ndarray, kind: str, r: int, c: int) -> list[tuple[int, int]]:
    """Cells a reveal / chord opens directly, written out from the rules."""
    rows, cols = view.shape
    if kind == "reveal":
        return [(r, c)] if view[r, c] in (HIDDEN, QUESTION) else []
    if view[r, c] < 0:
        return []
    nb = [(i, j) for i in range(rows) for j in range(cols)
          if max(abs(i - r), abs(j - c)) == 1]
    if sum(view[p] == FLAG for p in nb) != view[r, c]:
        return []
    return [p for p in nb if view[p] in (HIDDEN, QUESTION)]


def reference(board: Board, moves: list[tuple[str, int, int]], rule: str) -> list[tuple]:
    """(category, risk, best, safe count, survived) of each move by counting layouts."""
    game = Game.from_board(board)
    mines = board.mines
    out = []
    for kind, r, c in moves:
        view = np.array(game.view)
        started = game.state is not fastmine.GameState.READY
        if kind == "mark":
            if view[r, c] == HIDDEN:
                p = float(brute_force.probabilities(view, board.mine_count)[r, c])
                out.append(("flag" if mines[r, c] else "wrong_flag", p, None, None, True))
            elif view[r, c] in (FLAG, QUESTION):
                out.append(("mark", None, None, None, True))
            else:
                out.append(("no_effect", None, None, None, True))
            game.toggle_mark(r, c)
            continue
        cells = _opened(view, kind, r, c) if (started or kind == "reveal") else []
        if not cells:
            out.append(("no_effect", None, None, None, True))
        elif not started and rule != "none":
            out.append(("first_click", 0.0, 0.0, None, True))
        else:
            prob = brute_force.probabilities(view, board.mine_count)
            safe, _ = brute_force.certain(view, board.mine_count)
            n_safe = int(safe.sum())
            risk = max(float(prob[p]) for p in cells)
            best = float(np.nanmin(prob))
            if all(safe[p] for p in cells):
                cat, risk, best = "safe", 0.0, 0.0
            elif n_safe:        # judged by what safe play would have done
                cat, best = judge_guess(view, board, cells)[0], 0.0
            elif risk > best + MARGIN:
                cat = "worse_guess"
            else:
                cat = "forced_guess"
            out.append((cat, risk, best, n_safe, not any(mines[p] for p in cells)))
        if kind == "reveal":
            game.reveal(r, c)
        else:
            game.chord(r, c)
    assert game.state is not fastmine.GameState.LOST or out[-1][4] is False
    return out


@st.composite
def games(draw: st.DrawFn) -> tuple[Board, list[tuple[str, int, int]], str]:
    """A board of at most 16 cells, a rule, and a legal move sequence on it."""
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(2, 4))
    n = rows * cols
    k = draw(st.integers(1, max(1, n - 2)))
    cells = draw(st.permutations(range(n)))
    mask = np.zeros(n, bool)
    mask[cells[:k]] = True
    board = Board.from_mines(mask.reshape(rows, cols))
    rule = draw(st.sampled_from(["none", "cell"]))
    game = Game.from_board(board)
    moves: list[tuple[str, int, int]] = []
    if rule == "cell":   # the rule made the first reveal safe: play it first
        first = divmod(int(draw(st.sampled_from(np.flatnonzero(~mask).tolist()))), cols)
        moves.append(("reveal", *first))
        game.reveal(*first)
    for _ in range(draw(st.integers(0, 16))):
        if game.state.is_over:
            break
        kind, where = draw(st.sampled_from([
            ("reveal", "hidden"), ("reveal", "hidden"), ("reveal", "any"), ("mark", "any"),
            ("mark", "mine"), ("mark", "mine"), ("chord", "number"), ("chord", "any")]))
        view = np.array(game.view)
        pool = {"any": np.ones_like(mask), "hidden": view.ravel() == HIDDEN,
                "mine": mask & (view.ravel() == HIDDEN), "number": view.ravel() >= 0}[where]
        if not pool.any():
            pool = np.ones_like(mask)
        r, c = divmod(int(draw(st.sampled_from(np.flatnonzero(pool).tolist()))), cols)
        moves.append((kind, r, c))
        {"reveal": game.reveal, "mark": game.toggle_mark, "chord": game.chord}[kind](r, c)
    return board, moves, rule


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_matches_brute_force(case: tuple[Board, list[tuple[str, int, int]], str]) -> None:
    board, moves, rule = case
    got = analyze(board, moves, rule=rule)  # type: ignore[arg-type]
    want = reference(board, moves, rule)
    assert len(got) == len(want) == len(moves)
    for i, (v, (cat, risk, best, n_safe, survived)) in enumerate(zip(got, want, strict=True)):
        assert (v.index, v.kind, v.cell) == (i, moves[i][0], moves[i][1:])
        assert v.category.value == cat, (i, v)
        assert v.survived is survived
        for a, b in ((v.risk, risk), (v.best_risk, best)):
            assert (a is None) == (b is None)
            if a is not None:
                assert a == pytest.approx(b, abs=1e-9)
        if cat not in ("first_click", "flag", "wrong_flag", "mark", "no_effect"):
            assert v.safe_cells_available == n_safe
    lost = fatal(got)
    assert (lost is None) == all(w[4] for w in want)
    assert isinstance(summary(got), str)


def test_first_click_free_then_forced_guess() -> None:
    # Two mines in opposite corners, first click in the centre: its 2 covers
    # all 8 hidden cells, so every one has P = 2/8.
    board = Board.from_mines([[1, 0, 0], [0, 0, 0], [0, 0, 1]])
    v = analyze(board, [("reveal", 1, 1), ("reveal", 0, 1)], rule="opening")
    assert v[0].category is Category.FIRST_CLICK and v[0].risk == 0.0
    assert v[1].category is Category.FORCED_GUESS
    assert Fraction(v[1].risk).limit_denominator(100) == Fraction(1, 4)
    assert v[1].best_risk == pytest.approx(0.25) and v[1].safe_cells_available == 0
    assert summary(v) == "You survived 1 guess you had to make (25%)."
    assert fatal(v) is None


def test_first_click_without_rule_is_a_guess() -> None:
    v = analyze(CORNERS, [("reveal", 1, 2)], rule="none")
    assert v[0].category is Category.FORCED_GUESS
    assert v[0].risk == pytest.approx(3 / 16) and v[0].best_risk == pytest.approx(3 / 16)


def test_worse_guess_and_fatal() -> None:
    # After the 1 at (1, 2): its 8 neighbours hold 1 mine, the other 7 cells 2.
    moves = [("reveal", 1, 2), ("reveal", 0, 0)]
    v = analyze(CORNERS, moves, rule="cell")
    assert v[1].category is Category.WORSE_GUESS
    assert v[1].risk == pytest.approx(2 / 7) and v[1].best_risk == pytest.approx(1 / 8)
    assert v[1].survived is False and fatal(v) == v[1]
    assert summary(v) == "You lost on a 29% guess when the safest cell had 12%."
    assert describe(v[1]).endswith("when the safest cell had 12%. It hit a mine.")


def test_certain_safe_and_avoidable_risk() -> None:
    #   0 0 1 1      the first click at (0, 0) opens the top-left zeros and
    #   1 1 2 *      their border; the brute force finds a proven-safe cell
    #   * 1 2 1      left, so revealing it is safe and any other guess avoidable
    board = Board.from_mines([[0, 0, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0]])
    game = Game.from_board(board)
    game.reveal(0, 0)
    safe, _ = brute_force.certain(np.array(game.view), 2)
    assert safe.any()
    r, c = (int(x) for x in np.argwhere(safe)[0])
    risky = next((int(i), int(j)) for i, j in np.argwhere(game.view < 0) if not safe[i, j])
    v = analyze(board, [("reveal", 0, 0), ("reveal", r, c), ("reveal", *risky)], rule="cell")
    assert v[1].category is Category.SAFE and v[1].risk == 0.0
    assert v[2].category is Category.AVOIDABLE_RISK and v[2].risk is not None and v[2].risk > 0
    assert v[2].best_risk == 0.0 and (v[2].safe_cells_available or 0) >= 1
    assert summary(v).startswith("1 guess you did not need (")
    assert summary(v).endswith("%): a safe cell was there.")


def test_flags_marks_chords() -> None:
    moves = [("reveal", 1, 2), ("mark", 1, 2),      # a mark on the revealed 1: nothing
             ("mark", 0, 1), ("mark", 0, 1),        # wrong flag, then flag -> ?
             ("mark", 0, 1),                        # ? -> hidden
             ("mark", 0, 0), ("chord", 2, 2),       # flag a mine; chord a hidden cell
             ("reveal", 0, 0)]                      # a reveal on a flag does nothing
    v = analyze(CORNERS, moves, rule="cell")
    assert [x.category for x in v] == [
        Category.FIRST_CLICK, Category.NO_EFFECT, Category.WRONG_FLAG, Category.MARK,
        Category.MARK, Category.FLAG, Category.NO_EFFECT, Category.NO_EFFECT]
    assert v[2].risk == pytest.approx(1 / 8)
    assert summary(v) == "1 flag on a cell with no mine."


def test_chord_takes_its_riskiest_cell() -> None:
    # Flag the true mine next to the 1 at (1, 2)? It is not next to it: flag (0, 1)
    # (safe, P = 1/8) and chord the 1: it opens the 7 other neighbours.
    v = analyze(CORNERS, [("reveal", 1, 2), ("mark", 0, 1), ("chord", 1, 2)], rule="cell")
    assert v[2].category is Category.FORCED_GUESS
    assert v[2].risk == pytest.approx(1 / 8) and v[2].best_risk == pytest.approx(1 / 8)


def test_chord_on_a_zero_is_judged_like_any_chord() -> None:
    # A flag stops the flood of the 0 at (0, 0), is taken off, and a chord on
    # the 0 opens the cell it left hidden: proven safe (a 0 has no mine around).
    board = Board.from_mines([[0, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 1]])
    moves = [("mark", 1, 1), ("reveal", 0, 0), ("mark", 1, 1), ("chord", 0, 0),
             ("reveal", 1, 1)]
    v = analyze(board, moves, rule="none", question_marks=False)
    assert [x.category for x in v] == [
        Category.WRONG_FLAG, Category.FORCED_GUESS, Category.MARK, Category.SAFE,
        Category.NO_EFFECT]         # the chord opened (1, 1): revealing it does nothing
    assert v[3].risk == 0.0 and v[3].survived
    g = Game.from_board(board, question_marks=False)
    for kind, r, c in moves[:3]:
        {"reveal": g.reveal, "mark": g.toggle_mark}[kind](r, c)
    live = judge(g, "chord", 0, 0)
    assert live.category is Category.SAFE and live.safe_cells_available
    g.chord(0, 0)
    assert g.view[1, 1] == 0
    # With a flag still next to the 0 the chord does nothing, as on any number.
    v = analyze(board, [("mark", 1, 1), ("mark", 0, 1), ("reveal", 0, 0), ("mark", 1, 1),
                        ("chord", 0, 0)], rule="none", question_marks=False)
    assert v[4].category is Category.NO_EFFECT


def test_not_analysed_when_too_large(monkeypatch: pytest.MonkeyPatch) -> None:
    from fastmine.solver import probability

    def too_large(*args: object, **kwargs: object) -> None:
        raise fastmine.solver.PositionTooLargeError("too large for the test")

    monkeypatch.setattr(probability, "analyze", too_large)
    monkeypatch.setattr(IncrementalAnalyzer, "analyze", too_large)   # the live coach's cache
    # the compiled replay's count, in its place
    monkeypatch.setattr(judging, "_FAULT", fastmine.solver.PositionTooLargeError("too large"))
    v = analyze(CORNERS, [("reveal", 1, 2), ("reveal", 3, 3)], rule="cell")
    assert v[1].category is Category.NOT_ANALYSED and v[1].risk is None
    assert summary(v) == "1 move the coach could not weigh (too much to count)."


def test_solver_game_has_no_avoidable_risk() -> None:
    game = Game(9, 9, 10, rule="opening", seed=5)
    while not game.state.is_over:
        fastmine.solver.step(game)
    moves = game.moves          # the game's own log (the solver's moves carry the assist bit)
    v = analyze(game.board, moves, rule="opening")  # type: ignore[arg-type]
    assert len(v) == len(moves) > 10
    assert v[0].category is Category.FIRST_CLICK
    assert not any(x.category in (Category.AVOIDABLE_RISK, Category.WRONG_FLAG) for x in v)
    assert (fatal(v) is None) == (game.state is fastmine.GameState.WON)


@pytest.mark.parametrize("bad, err", [
    ([("jump", 0, 0)], ValueError), ([("reveal", 9, 0)], ValueError),
    ([("reveal", 0)], TypeError), ([("reveal", 0, 0), ("reveal", 0, 1)], ValueError),
])
def test_bad_moves(bad: list, err: type) -> None:
    # (0, 0) is a mine: under "none" the game ends there, a later move is refused;
    # under "cell" the first click on a mine says the board does not fit the rule.
    with pytest.raises(err):
        analyze(CORNERS, bad, rule="none")
    with pytest.raises(ValueError, match="first-click|not made under"):
        analyze(CORNERS, [("reveal", 0, 0)], rule="cell")
    with pytest.raises(TypeError):
        analyze("board", [])  # type: ignore[arg-type]


def test_verdict_is_frozen() -> None:
    v = Verdict(0, "reveal", (0, 0), Category.SAFE, 0.0, 0.0, 1)
    with pytest.raises(AttributeError):
        v.risk = 1.0  # type: ignore[misc]


def test_move_log_rows_accepted() -> None:
    # (kind, row, col, ms) rows as a game's move log gives them: 0 reveal, 1 mark,
    # 2 chord, 3 mark without "?", +4 for a solver's move (8 is none of them).
    log = np.array([[0, 1, 2, 0], [1, 0, 0, 500], [4, 0, 1, 900]], np.int64)
    v = analyze(CORNERS, log, rule="cell")
    assert [(x.kind, x.cell) for x in v] == [("reveal", (1, 2)), ("mark", (0, 0)), ("reveal", (0, 1))]
    assert [x.category for x in v] == [Category.FIRST_CLICK, Category.FLAG, Category.FORCED_GUESS]
    with pytest.raises(ValueError, match="unknown kind"):
        analyze(CORNERS, [(8, 0, 0)])
    with pytest.raises(TypeError, match="integers"):
        analyze(CORNERS, [("reveal", 0.5, 0)])


def test_chord_risk_is_its_riskiest_cell_by_brute_force() -> None:
    # Two 1s open, a wrong flag at (0, 1), then a chord on (1, 1): it opens six
    # cells whose odds differ; its risk is the highest of them.
    moves = [("reveal", 1, 2), ("reveal", 1, 1), ("mark", 0, 1), ("chord", 1, 1)]
    v = analyze(CORNERS, moves, rule="cell")
    game = Game.from_board(CORNERS)
    game.reveal(1, 2)
    game.reveal(1, 1)
    game.toggle_mark(0, 1)
    prob = brute_force.probabilities(np.array(game.view), 3)
    opened = [(0, 0), (0, 2), (1, 0), (2, 0), (2, 1), (2, 2)]
    p = [float(prob[c]) for c in opened]
    assert max(p) > min(p) + 0.01
    assert v[3].risk == pytest.approx(max(p))
    assert v[3].survived is False          # (0, 0) is a mine


def test_summary_plurals() -> None:
    v = [Verdict(i, "reveal", (0, i), Category.FORCED_GUESS, p, p, 0)
         for i, p in enumerate([0.5, 1 / 3, 0.25])]
    v += [Verdict(3, "reveal", (1, 0), Category.WORSE_GUESS, 0.2, 0.1, 0),
          Verdict(4, "reveal", (1, 1), Category.WORSE_GUESS, 0.04, 0.03, 0),
          Verdict(5, "mark", (1, 2), Category.WRONG_FLAG, 0.0, None, None),
          Verdict(6, "mark", (1, 3), Category.WRONG_FLAG, 0.5, None, None)]
    assert summary_lines(v) == [
        "You survived 3 guesses you had to make (50/33/25%).",
        "2 guesses riskier than they had to be (20/4%, when the safest cells had 10/3%).",
        "2 flags on cells with no mine."]


def test_bench_coach_case_runs() -> None:
    root = Path(__file__).resolve().parents[1]
    if not (root / "bench" / "solver_bench.py").is_file():
        pytest.skip("bench/ is not here (tests run against an installed wheel)")
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    from bench.report_sections import solver_section
    from bench.solver_bench import coach_task

    r = coach_task(1, 5.0, 0)
    assert r["games"] == 1 and r["moves_per_game"] > 10 and r["ms_per_game"] > 0
    text = "\n".join(solver_section({"solver": {"coach": dict(r, status="ok")}}))
    assert "The coach on whole games" in text and "Expert games" in text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_live_judge_agrees_with_analyze(case: tuple[Board, list[tuple[str, int, int]], str]) -> None:
    board, moves, rule = case
    game = Game.from_board(board)
    live = []
    for i, (kind, r, c) in enumerate(moves):
        before = np.array(game.view)
        live.append(judge(game, kind, r, c, rule=rule, index=i))  # type: ignore[arg-type]
        assert np.array_equal(game.view, before)                   # judging changes nothing
        {"reveal": game.reveal, "mark": game.toggle_mark, "chord": game.chord}[kind](r, c)
    # the same verdicts; a probability may differ in its last bit: the live judge
    # counts each position afresh, analyze from what the last count proved
    same_verdicts(live, analyze(board, moves, rule=rule))  # type: ignore[arg-type]


def test_live_judge_needs_laid_mines() -> None:
    game = Game(9, 9, 10, seed=3)
    with pytest.raises(ValueError, match="first reveal"):
        judge(game, "reveal", 4, 4)
    game.reveal(4, 4)
    hidden = tuple(int(x) for x in np.argwhere(game.view < 0)[0])
    v = judge(game, "reveal", *hidden)
    assert v.category in (Category.SAFE, Category.AVOIDABLE_RISK, Category.FORCED_GUESS,
                          Category.WORSE_GUESS)
    with pytest.raises(TypeError):
        judge("game", "reveal", 0, 0)  # type: ignore[arg-type]


def test_summary_line_as_the_issue_writes_it() -> None:
    v = [Verdict(i, "reveal", (0, i), Category.FORCED_GUESS, p, p, 0)
         for i, p in enumerate([0.5, 1 / 3, 0.25])]
    v.append(Verdict(3, "reveal", (1, 0), Category.AVOIDABLE_RISK, 0.2, 0.0, 2))
    assert summary(v) == ("You survived 3 guesses you had to make (50/33/25%). "
                          "1 guess you did not need (20%): a safe cell was there.")
    assert summary([]) == "No guesses: every cell you opened was certainly safe."


def test_plain_words_for_the_issues_two_games() -> None:
    # A tap on a certain mine while a safe cell existed: it once read "lost on an
    # avoidable risk of 100% (a safe cell existed)".
    lost = Verdict(5, "reveal", (2, 2), Category.AVOIDABLE_RISK, 1.0, 0.0, 4, False)
    assert summary([lost]) == "You opened a cell that was certainly a mine, while a safe cell was there."
    assert remark(lost) == "That cell was certainly a mine: 4 safe cells were there."
    assert describe(lost) == ("Move 6, open at row 3, column 3: a cell that was certainly a "
                              "mine, while 4 safe cells were there. It hit a mine.")
    # A win with two risks taken while a safe cell existed: "2 avoidable risks of 20/50%".
    won = [Verdict(1, "reveal", (0, 1), Category.AVOIDABLE_RISK, 0.2, 0.0, 1),
           Verdict(2, "chord", (0, 2), Category.AVOIDABLE_RISK, 0.5, 0.0, 2)]
    assert summary(won) == ("2 guesses you did not need (20/50%): a safe cell was there each "
                            "time.")
    # No cell was safe, one was safer, and the player opened a certain mine.
    worse = Verdict(3, "reveal", (1, 1), Category.WORSE_GUESS, 1.0, 0.25, 0, False)
    assert summary([worse]) == ("You opened a cell that was certainly a mine, when the safest "
                                "cell had 25%.")
    assert remark(worse) == "That cell was certainly a mine: a cell at 25% was the safer guess."
    # A risk near certain is never rounded to "certainly".
    near = Verdict(3, "reveal", (1, 1), Category.AVOIDABLE_RISK, 0.9996, 0.0, 1, False)
    assert summary([near]) == ("You lost on a guess you did not need (99.96%): a safe cell was "
                               "there.")
    # describe names the cell where the reader sees it (a board drawn turned).
    assert describe(lost, at=(2, 7)).startswith("Move 6, open at row 3, column 8: ")


class _Marked:
    """A translation that marks every message it is asked for, and counts plurals."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def gettext(self, message: str) -> str:
        self.asked.append(message)
        return "<" + message + ">"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        self.asked.append(singular)
        return "<" + (singular if n == 1 else plural) + ">"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.builds(
    Verdict, st.integers(0, 500), st.sampled_from(["reveal", "chord", "mark"]),
    st.tuples(st.integers(0, 30), st.integers(0, 30)), st.sampled_from(list(Category)),
    st.one_of(st.none(), st.floats(0.0, 1.0)), st.one_of(st.none(), st.floats(0.0, 1.0)),
    st.one_of(st.none(), st.integers(0, 40)), st.booleans()), max_size=8))
def test_every_sentence_goes_through_the_translation(vs: list[Verdict]) -> None:
    # Whatever the verdicts, every word the coach says is a message of the
    # translation it is given (a front end's catalog), numbers filled in, and
    # the decimal sign is the reader's.
    t = _Marked()
    w = Words(t, decimal=",")
    for line in summary_lines(vs, w):
        assert line.startswith("<") and line.endswith(">"), line
    for v in vs:
        said = remark(v, w)
        assert said is None or (said.startswith("<") and said.endswith(">"))
        text = describe(v, w)
        assert text.startswith("<") and text.endswith(">"), text
        for number in re.findall(r"\d+[.,]\d+", text + (said or "")):
            assert "." not in number, text
    assert all("{" not in m or "}" in m for m in t.asked)


def test_approximate_odds_are_not_analysed(monkeypatch: pytest.MonkeyPatch) -> None:
    # When the solver had to approximate (a huge component), certain cells stay
    # certain but odds do not: a guess is "not analysed", a proven-safe click is safe.
    from fastmine.solver import probability

    real = probability.analyze
    real_chain = IncrementalAnalyzer.analyze

    def approximate(*args: object, **kwargs: object) -> probability.Analysis:
        a = real(*args, **kwargs)  # type: ignore[arg-type]
        a.exact = False
        return a

    def approximate_chain(*args: object, **kwargs: object) -> probability.Analysis:
        a = real_chain(*args, **kwargs)  # type: ignore[arg-type]
        a.exact = False
        return a

    monkeypatch.setattr(probability, "analyze", approximate)
    monkeypatch.setattr(IncrementalAnalyzer, "analyze", approximate_chain)  # the coach's cache
    monkeypatch.setattr(judging, "_FAULT", "approximate")      # the compiled replay's count
    v = analyze(CORNERS, [("reveal", 1, 2), ("reveal", 3, 3)], rule="cell")
    assert v[1].category is Category.NOT_ANALYSED and v[1].risk is None
    board = Board.from_mines([[0, 0, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0]])
    game = Game.from_board(board)
    game.reveal(0, 0)
    safe, _ = brute_force.certain(np.array(game.view), 2)
    r, c = (int(x) for x in np.argwhere(safe)[0])
    v = analyze(board, [("reveal", 0, 0), ("reveal", r, c)], rule="cell")
    assert v[1].category is Category.SAFE


def test_a_loss_not_analysed_is_named_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from fastmine.solver import probability

    def too_large(*args: object, **kwargs: object) -> None:
        raise fastmine.solver.PositionTooLargeError("too large for the test")

    monkeypatch.setattr(probability, "analyze", too_large)
    monkeypatch.setattr(IncrementalAnalyzer, "analyze", too_large)   # the live coach's cache
    monkeypatch.setattr(judging, "_FAULT", fastmine.solver.PositionTooLargeError("too large"))
    v = analyze(CORNERS, [("reveal", 1, 2), ("reveal", 0, 0)], rule="cell")
    assert v[1].category is Category.NOT_ANALYSED and not v[1].survived
    assert summary(v) == "You lost on a move the coach could not weigh (too much to count)."


def test_budget_leaves_the_rest_not_analysed() -> None:
    game = Game(16, 30, 99, rule="opening", seed=2)
    while not game.state.is_over:
        fastmine.solver.step(game)
    full = analyze(game.board, game.moves, rule="opening")
    none = analyze(game.board, game.moves, rule="opening", budget=0)
    assert [v.survived for v in none] == [v.survived for v in full]
    assert none[0].category is Category.FIRST_CLICK
    for a, b in zip(full, none, strict=True):
        # Moves the solver weighs become "not analysed"; the rest keep their verdict.
        if a.category in (Category.SAFE, Category.FORCED_GUESS, Category.AVOIDABLE_RISK,
                          Category.EARLY_GUESS, Category.FORCED_EARLY, Category.WORSE_GUESS):
            assert b.category is Category.NOT_ANALYSED
        else:
            assert b.category is a.category
    assert analyze(game.board, game.moves, rule="opening", budget=60.0) == full
    with pytest.raises(ValueError, match="budget"):
        analyze(game.board, game.moves, budget=-1.0)


def test_tags_and_remarks() -> None:
    from fastmine.coach import is_risky, tag

    v = analyze(CORNERS, [("reveal", 1, 2), ("mark", 0, 1), ("reveal", 2, 2), ("reveal", 0, 0)],
                rule="cell")
    assert [tag(x) for x in v] == ["first click", "wrong flag", "guess 12%", "worse 35%>10% LOST"]
    assert [is_risky(x) for x in v] == [False, False, True, True]
    assert [remark(x) for x in v] == [
        None,                                              # the first click is free
        "A flag on a guess: a 12% chance of a mine there.",    # never "no mine there"
        "You had to guess (12%): no cell was safer.",
        "A 35% guess: a cell at 10% was the safer guess."]


def test_the_live_coach_marks_a_game_it_weighs_as_assisted_and_never_the_first_click():
    from fastmine.coach import live

    g = Game.from_board(CORNERS)
    assert live(g, "reveal", 1, 2) is None and not g.assisted   # before the first reveal
    g.reveal(1, 2)
    assert live(g, "reveal", 1, 2).category is Category.NO_EFFECT and not g.assisted
    v = live(g, "reveal", 2, 2)
    assert v.category is Category.FORCED_GUESS and g.assisted
    assert g.revealed_count == 1                                # judged, not played
    with pytest.raises(TypeError):
        live("game", "reveal", 0, 0)


def test_a_long_list_of_risks_is_summed_up_as_its_range():
    # 54 avoidable risks once made a line of 54 percentages: six lines on a phone.
    def v(i, cat, risk, best=0.0):
        return Verdict(i, "reveal", (0, i), cat, risk, best, 0 if best else 3)

    many = [v(i, Category.AVOIDABLE_RISK, 0.10 + (i % 3) / 100) for i in range(54)]
    forced = [v(i, Category.FORCED_GUESS, p, p) for i, p in enumerate((0.5, 1 / 3, 0.25, 0.2))]
    worse = [v(i, Category.WORSE_GUESS, 0.4 - i / 100, 0.1 + i / 100) for i in range(5)]
    line = summary(many + forced + worse)
    assert line == ("You survived 4 guesses you had to make (50/33/25/20%). "
                    "54 guesses you did not need (10-12%): a safe cell was there each time. "
                    "5 guesses riskier than they had to be (36-40%, when the safest cells had "
                    "10-14%).")
    same = [v(i, Category.AVOIDABLE_RISK, 0.125) for i in range(6)]
    assert summary(same) == "6 guesses you did not need (12%): a safe cell was there each time."


@pytest.mark.parametrize("exact, said", [(0.125, "12%"), (0.375, "38%"), (0.0625, "6.2%"),
                                         (0.875, "88%")])
def test_a_half_percent_reads_the_same_whatever_the_last_bits_of_its_float(exact, said):
    """Two counts of the same odds may differ in the last bits of their floats
    (the kept count gave 0.12500000000000003 where the solver's gave 0.125): the
    words must not, or a summary says 13% where the live coach said 12%."""
    texts = set()
    for p in (exact, np.nextafter(exact, 1.0), np.nextafter(exact, 0.0),
              exact + 3e-17 if exact < 0.5 else exact - 1e-16):
        v = [Verdict(0, "reveal", (0, 0), Category.FIRST_CLICK, 0.0, 0.0, None),
             Verdict(1, "reveal", (1, 1), Category.FORCED_GUESS, float(p), float(p), 0)]
        texts.add(summary(v))
        texts.add(tag(v[1]))
    assert len(texts) == 2 and any(f"({said})" in t for t in texts), texts
