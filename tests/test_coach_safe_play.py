"""The right word for each guess: a guess taken while a safe cell existed is
judged by what safe play would have done to it (needless, early, or early but
fair), against a slow reference that lists every mine layout, on random small
games and on real Expert games; and the words said about it."""

from __future__ import annotations

import gettext
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from safe_play_reference import judge_guess

import fastmine
from fastmine import FLAG, HIDDEN, QUESTION, Board, Game
from fastmine.coach import (
    Category,
    Verdict,
    Words,
    analyze,
    describe,
    fatal,
    is_risky,
    judge,
    remark,
    summary,
    summary_lines,
    tag,
)

sys.path.insert(0, str(Path(__file__).parent / "solver"))
sys.path.insert(0, str(Path(__file__).parent / "videos"))
import brute_force  # noqa: E402
from video_files import path  # noqa: E402

JUDGED_BY_SAFE_PLAY = {"avoidable_risk", "early_guess", "forced_early"}


def _opened(view: np.ndarray, kind: str, r: int, c: int) -> list[tuple[int, int]]:
    """Cells a reveal or chord opens directly, from the rules."""
    rows, cols = view.shape
    if kind == "reveal":
        return [(r, c)] if view[r, c] in (HIDDEN, QUESTION) else []
    if view[r, c] < 0:
        return []
    nb = [(i, j) for i in range(rows) for j in range(cols) if max(abs(i - r), abs(j - c)) == 1]
    if sum(view[p] == FLAG for p in nb) != view[r, c]:
        return []
    return [p for p in nb if view[p] in (HIDDEN, QUESTION)]


@st.composite
def games(draw: st.DrawFn) -> tuple[Board, list[tuple[str, int, int]]]:
    """A board of at most 5x5 cells and a game on it that guesses while safe cells
    exist: mostly reveals of hidden cells, some flags (right and wrong) and chords."""
    rows = draw(st.integers(2, 5))
    cols = draw(st.integers(3, 5))
    n = rows * cols
    k = draw(st.integers(1, min(6, n - 3)))
    order = draw(st.permutations(range(n)))
    mask = np.zeros(n, bool)
    mask[order[:k]] = True
    board = Board.from_mines(mask.reshape(rows, cols))
    game = Game.from_board(board)
    first = divmod(int(draw(st.sampled_from(np.flatnonzero(~mask).tolist()))), cols)
    moves: list[tuple[str, int, int]] = [("reveal", *first)]
    game.reveal(*first)
    for _ in range(draw(st.integers(0, 12))):
        if game.state.is_over:
            break
        kind, where = draw(st.sampled_from([
            ("reveal", "hidden"), ("reveal", "hidden"), ("reveal", "hidden"), ("reveal", "hidden"),
            ("reveal", "safe"), ("mark", "hidden"), ("chord", "number")]))
        view = np.array(game.view)
        pool = {"hidden": view.ravel() == HIDDEN, "number": view.ravel() >= 0,
                "safe": ~mask & (view.ravel() < 0)}[where]
        if not pool.any():
            continue
        r, c = divmod(int(draw(st.sampled_from(np.flatnonzero(pool).tolist()))), cols)
        moves.append((kind, r, c))
        {"reveal": game.reveal, "mark": game.toggle_mark, "chord": game.chord}[kind](r, c)
    return board, moves


def _expected(board: Board, moves: list[tuple[str, int, int]]) -> list[tuple | None]:
    """The reference's judgement of every move the coach judges by safe play
    (None for the others): (category, risk after, best after, cells opened)."""
    game = Game.from_board(board)
    out: list[tuple | None] = []
    for i, (kind, r, c) in enumerate(moves):
        view = np.array(game.view)
        cells = _opened(view, kind, r, c) if i else []
        out.append(None)
        if cells:
            safe, _ = brute_force.certain(view, board.mine_count)
            if safe.any() and not all(safe[p] for p in cells):
                out[-1] = judge_guess(view, board, cells)
        {"reveal": game.reveal, "mark": game.toggle_mark, "chord": game.chord}[kind](r, c)
    return out


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_safe_play_matches_the_reference_that_lists_every_layout(
        case: tuple[Board, list[tuple[str, int, int]]]) -> None:
    board, moves = case
    got = analyze(board, moves, rule="cell")
    for v, want in zip(got, _expected(board, moves), strict=True):
        if want is None:
            assert v.category.value not in JUDGED_BY_SAFE_PLAY, v
            assert (v.safe_play_cells, v.safe_play_risk, v.safe_play_best) == (None, None, None)
            continue
        cat, risk_after, best_after, opened = want
        event(cat)
        assert v.category.value == cat, (v, want)
        assert v.safe_play_risk == pytest.approx(float(risk_after), abs=1e-12)
        assert v.safe_play_cells == opened
        if best_after is None:
            assert v.safe_play_best is None
        else:
            assert v.safe_play_best == pytest.approx(float(best_after), abs=1e-12)
        assert v.best_risk == 0.0 and v.safe_cells_available and is_risky(v)


def _each_category_once() -> dict[str, tuple[Board, list[tuple[str, int, int]], int]]:
    """A small game for each category, found by playing random guesses on fixed seeds."""
    found: dict[str, tuple[Board, list[tuple[str, int, int]], int]] = {}
    rng = np.random.default_rng(5)
    for _ in range(400):
        board = Board.generate(4, 5, int(rng.integers(3, 7)), first_click=(0, 0), rule="opening",
                               seed=int(rng.integers(2**31)))
        game = Game.from_board(board)
        game.reveal(0, 0)
        moves = [("reveal", 0, 0)]
        while not game.state.is_over:
            hidden = np.argwhere(game.view == HIDDEN)
            r, c = (int(x) for x in hidden[rng.integers(len(hidden))])
            moves.append(("reveal", r, c))
            game.reveal(r, c)
        for i, v in enumerate(analyze(board, moves, rule="opening")):
            if v.category.value in JUDGED_BY_SAFE_PLAY:
                found.setdefault(v.category.value, (board, moves[:i + 1], i))
        if len(found) == 3:
            return found
    raise AssertionError(f"only {sorted(found)} in 400 games")


def test_each_kind_of_early_guess_happens_on_small_boards_and_matches_the_reference() -> None:
    # The random games above must reach all three; here each is checked on a
    # game where it is known to happen.
    for cat, (board, moves, i) in _each_category_once().items():
        v = analyze(board, moves, rule="opening")[i]
        want = _expected(board, moves)[i]
        assert want is not None and v.category.value == want[0] == cat


def test_wrong_flags_on_the_safe_cells_do_not_stop_safe_play() -> None:
    # Flags are the player's opinion: every proven-safe cell flagged (wrongly)
    # before a guess changes nothing in what safe play does to it.
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(200):
        board = Board.generate(4, 5, 4, first_click=(0, 0), rule="opening",
                               seed=int(rng.integers(2**31)))
        game = Game.from_board(board)
        game.reveal(0, 0)
        view = np.array(game.view)
        safe, _ = brute_force.certain(view, board.mine_count)
        guesses = np.argwhere((view == HIDDEN) & ~safe)
        if not safe.any() or not len(guesses):
            continue
        guess = ("reveal", *(int(x) for x in guesses[rng.integers(len(guesses))]))
        flags = [("mark", int(r), int(c)) for r, c in np.argwhere(safe)]
        plain = analyze(board, [("reveal", 0, 0), guess], rule="opening")[-1]
        flagged = analyze(board, [("reveal", 0, 0), *flags, guess], rule="opening")[-1]
        assert (flagged.category, flagged.risk, flagged.safe_play_cells, flagged.safe_play_risk,
                flagged.safe_play_best) == (plain.category, plain.risk, plain.safe_play_cells,
                                            plain.safe_play_risk, plain.safe_play_best)
        assert plain.category.value == _expected(board, [("reveal", 0, 0), guess])[1][0]
        checked += 1
    assert checked > 50


def test_a_chord_is_judged_by_every_cell_it_opens() -> None:
    # Flags (right or wrong) around a number, then a chord there: the chord is
    # needless only when safe play settles every cell it opens (or proves one
    # a mine), as the reference says cell by cell.
    rng = np.random.default_rng(11)
    seen = set()
    for _ in range(300):
        board = Board.generate(4, 5, 4, first_click=(0, 0), rule="opening",
                               seed=int(rng.integers(2**31)))
        game = Game.from_board(board)
        game.reveal(0, 0)
        moves: list[tuple[str, int, int]] = [("reveal", 0, 0)]
        while not game.state.is_over:
            numbers = np.argwhere(game.view > 0)
            if not len(numbers):
                break
            r, c = (int(x) for x in numbers[rng.integers(len(numbers))])
            around = [(i, j) for i in range(max(r - 1, 0), min(r + 2, 4))
                      for j in range(max(c - 1, 0), min(c + 2, 5)) if game.view[i, j] == HIDDEN]
            need = int(game.view[r, c]) - sum(
                game.view[i, j] == FLAG for i in range(max(r - 1, 0), min(r + 2, 4))
                for j in range(max(c - 1, 0), min(c + 2, 5)))
            if need < 0 or len(around) <= need:
                break
            for p in around[:need]:
                moves.append(("mark", *p))
                game.toggle_mark(*p)
            moves.append(("chord", r, c))
            game.chord(r, c)
        got = analyze(board, moves, rule="opening")
        for v, want in zip(got, _expected(board, moves), strict=True):
            if want is not None and v.kind == "chord":
                assert v.category.value == want[0], (v, want)
                seen.add(want[0])
    assert "avoidable_risk" in seen and len(seen) >= 2, seen


def test_safe_play_kept_between_guesses_starts_afresh_on_a_view_that_goes_back() -> None:
    # A SafePlayer keeps its work while the views grow; given an earlier view
    # (a take-back) it must not use what it found from the later one.
    from fastmine.coach.safeplay import SafePlayer
    from fastmine.solver import probability

    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(100):
        board = Board.generate(5, 5, 5, first_click=(0, 0), rule="opening",
                               seed=int(rng.integers(2**31)))
        game = Game.from_board(board)
        game.reveal(0, 0)
        views = [np.array(game.view)]
        safe_cells = np.argwhere(~board.mines & (game.view < 0))
        game.reveal(*(int(x) for x in safe_cells[rng.integers(len(safe_cells))]))
        views.append(np.array(game.view))
        for late, early in ((views[1], views[0]), (views[0], views[1])):
            a = probability.analyze(early, board.mine_count)
            guesses = np.argwhere((early < 0) & ~a.safe & ~a.mine)
            if not a.safe.any() or not len(guesses):
                continue
            cell = [tuple(int(x) for x in guesses[0])]
            kept = SafePlayer(board)
            kept.play(late, probability.analyze(late, board.mine_count), cell)
            got, want = kept.play(early, a, cell), SafePlayer(board).play(early, a, cell)
            assert got is not None and want is not None
            assert (got.settled, got.opened) == (want.settled, want.opened)
            assert got.risk == pytest.approx(want.risk, abs=1e-12)
            assert (got.best_risk is None) == (want.best_risk is None)
            assert got.best_risk == pytest.approx(want.best_risk, abs=1e-12)
            checked += 1
    assert checked > 20


# ------------------------------------------------------------------ real Expert games

def _real(name: str) -> list[Verdict]:
    from fastmine.videos import play_video, read_video
    from fastmine.videos.rebuild import rebuild

    v = read_video(path(name))
    g = rebuild(v, play_video(v))
    assert g.board is not None and (g.rows, g.cols, g.mine_count) == (16, 30, 99)
    return analyze(g.board, g.moves, rule=g.rule, question_marks=g.question_marks)


EXPERT = ["arbiter_exp_lost.avf", "clone_096.mvf", "clone_097.mvf", "clone_097_counts.mvf",
          "clone_097_exp.mvf", "clone_2006.mvf", "clone_2007_cp1252_name.mvf", "meta_v3_exp.evf",
          "vienna1_exp_gbk_name.rmv"]


def test_known_guesses_of_real_expert_games() -> None:
    # Move 162 of Lin Jinfan's 59.62 s Expert: a 1-in-3 guess taken with 17 safe
    # cells on the board; opening them (70 cells) leaves it 1 in 3 and no cell
    # safer: a forced guess taken early, no fault.
    v = _real("clone_097_counts.mvf")[161]
    assert (v.kind, v.cell, v.category) == ("reveal", (0, 27), Category.FORCED_EARLY)
    assert v.risk == pytest.approx(1 / 3) and v.safe_play_risk == pytest.approx(1 / 3)
    assert v.safe_play_best == pytest.approx(1 / 3) and v.safe_play_cells == 70
    assert remark(v) == ("A forced guess, taken early (33%): after the safe cells the odds "
                         "would have been the same, and no cell safer.")
    # Kamil Murañski's Expert: move 133 at 2/7 would have been 20% after the 19
    # cells safe play opens; move 91 at 22% would have been 40%, with 20% on offer.
    vs = _real("clone_2007_cp1252_name.mvf")
    assert (vs[132].cell, vs[132].category) == ((4, 0), Category.EARLY_GUESS)
    assert vs[132].risk == pytest.approx(2 / 7) and vs[132].safe_play_risk == pytest.approx(0.2)
    assert vs[132].safe_play_cells == 19
    assert describe(vs[132]) == ("Move 133, open at row 5, column 1: guessed early at 29%; "
                                 "after the 19 safe cells it would have been 20%.")
    assert (vs[90].cell, vs[90].category) == ((8, 29), Category.EARLY_GUESS)
    assert remark(vs[90]) == ("Guessed early at 22%: after the 151 safe cells it would have "
                              "been 40%, and a 20% cell would have been there.")
    assert vs[85].category is Category.AVOIDABLE_RISK and vs[85].safe_play_risk == 0.0
    # A chord of Gabriel de Tarragon's Expert whose risky cell safe play opens: needless.
    v = _real("clone_2006.mvf")[15]
    assert (v.kind, v.category, v.safe_play_risk) == ("chord", Category.AVOIDABLE_RISK, 0.0)
    # The losing click of the lost Arbiter game was a proven mine: needless, risk 1.
    v = fatal(_real("arbiter_exp_lost.avf"))
    assert v is not None and v.category is Category.AVOIDABLE_RISK and v.safe_play_risk == 1.0


def test_the_real_expert_games_counts() -> None:
    # Every guess of the nine real Expert videos taken while a safe cell existed
    # (24, all "avoidable risk" before): 17 needless, 6 early, 1 early but fair.
    counts = {c: 0 for c in JUDGED_BY_SAFE_PLAY}
    for name in EXPERT:
        for v in _real(name):
            if v.category.value in counts:
                counts[v.category.value] += 1
    assert counts == {"avoidable_risk": 17, "early_guess": 6, "forced_early": 1}


def _same_but_rounding(a: Verdict, b: Verdict) -> bool:
    """Equal verdicts, their odds within 1e-12."""
    import dataclasses

    x, y = dataclasses.asdict(a), dataclasses.asdict(b)
    return all(x[k] == y[k] or (isinstance(x[k], float) and isinstance(y[k], float)
                                and abs(x[k] - y[k]) <= 1e-12) for k in x)


def test_the_live_coach_judges_a_guess_as_analyze_does_and_leaves_the_game() -> None:
    from fastmine.videos import play_video, read_video
    from fastmine.videos.rebuild import rebuild

    video = read_video(path("clone_2007_cp1252_name.mvf"))
    g = rebuild(video, play_video(video))
    assert g.board is not None
    want = analyze(g.board, g.moves, rule=g.rule)
    game = Game.from_board(g.board)
    for i, (kind, r, c, _ms) in enumerate(g.moves.tolist()[:134]):
        name = ("reveal", "mark", "chord", "mark")[kind & 3]
        if i:
            before = (np.array(game.view), game.revealed_count)
            # analyze's odds come from analyses kept between moves, judge's
            # from scratch: the same up to the floats' rounding
            got = judge(game, name, r, c, rule=g.rule, index=i)
            assert got == want[i] or _same_but_rounding(got, want[i])
            assert np.array_equal(game.view, before[0]) and game.revealed_count == before[1]
        game.question_marks = kind & 3 == 1
        {"reveal": game.reveal, "mark": game.toggle_mark, "chord": game.chord}[name](r, c)


def test_analyze_and_verdicts_json_carry_the_new_judgement(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from fastmine.cli import main

    video = str(path("clone_2007_cp1252_name.mvf"))
    assert main(["analyze", video, "--json", "-"]) == 0
    (g,) = json.loads(capsys.readouterr().out)["games"]
    assert (g["avoidable_risk"], g["early_guess"], g["forced_early"]) == (1, 4, 0)
    assert "4 guesses taken early (20/20/22/29%)" in g["coach"]
    assert main(["analyze", video]) == 0
    assert "; coach: 1 guess you did not need (22%)" in capsys.readouterr().out
    out = tmp_path / "v.json"
    assert main(["replay", "--import", video, "--verdicts", str(out),
                 "--data-dir", str(tmp_path / "data")]) == 0
    moves = json.loads(out.read_text(encoding="utf-8"))["moves"]
    m = moves[132]
    assert (m["category"], m["safe_play_cells"], m["tag"]) == ("early_guess", 19,
                                                              "early 29%->20% (13 safe)")
    assert m["safe_play_risk"] == pytest.approx(0.2) and m["safe_play_best"] == pytest.approx(0.2)
    assert m["text"].endswith("guessed early at 29%; after the 19 safe cells it would have been 20%.")
    assert (moves[85]["category"], moves[85]["safe_play_risk"], moves[85]["safe_play_cells"]) == (
        "avoidable_risk", 0.0, None)


# ------------------------------------------------------------------ words

EARLY = Verdict(132, "reveal", (4, 0), Category.EARLY_GUESS, 2 / 7, 0.0, 13, True, 19, 0.2, 0.2)
SAFER = Verdict(40, "reveal", (2, 2), Category.EARLY_GUESS, 1 / 3, 0.0, 4, True, 12, 1 / 3, 0.09)
BOTH = Verdict(90, "reveal", (8, 29), Category.EARLY_GUESS, 0.2176, 0.0, 25, True, 151, 0.4, 0.2)
FAIR = Verdict(161, "reveal", (0, 27), Category.FORCED_EARLY, 0.5, 0.0, 17, True, 70, 0.5, 0.5)
FORCED = Verdict(170, "reveal", (3, 3), Category.FORCED_GUESS, 0.25, 0.25, 0)


def test_the_words_for_a_guess_taken_early() -> None:
    assert remark(EARLY) == "Guessed early at 29%: after the 19 safe cells it would have been 20%."
    assert remark(SAFER) == ("Guessed early at 33%: after the 12 safe cells a 9% cell would "
                             "have been there.")
    assert describe(BOTH) == ("Move 91, open at row 9, column 30: guessed early at 22%; after the "
                              "151 safe cells it would have been 40%, and a 20% cell would have "
                              "been there.")
    one = Verdict(4, "reveal", (3, 0), Category.EARLY_GUESS, 0.3865, 0.0, 1, False, 1, 0.5, 0.1028)
    assert summary([one]) == ("You lost on a guess taken early at 39%: after the 1 safe cell it "
                              "would have been 50%, and a 10% cell would have been there.")
    assert tag(EARLY) == "early 29%->20% (13 safe)" and tag(FAIR) == "forced early 50% (17 safe)"
    assert summary_lines([EARLY, SAFER]) == [
        "2 guesses taken early (29/33%): after the safe cells, the safest cells would have had "
        "20/9%."]


def test_the_words_for_a_forced_guess_taken_early() -> None:
    # Counted with the forced guesses, and said to be no fault.
    assert summary_lines([FORCED, FAIR, FAIR]) == [
        "You survived 3 guesses you had to make (25/50/50%).",
        "You took 2 forced guesses early, as fast players do."]
    assert remark(FAIR) == ("A forced guess, taken early (50%): after the safe cells the odds "
                            "would have been the same, and no cell safer.")
    lost = Verdict(161, "reveal", (0, 27), Category.FORCED_EARLY, 0.5, 0.0, 17, False, 70, 0.5,
                   0.5)
    assert remark(lost).endswith("no cell safer. Bad luck.")
    assert summary([lost]) == ("You lost on a forced guess taken early (50%): after the safe "
                               "cells the odds would have been the same, and no cell safer.")
    assert describe(FAIR) == ("Move 162, open at row 1, column 28: a forced guess taken early "
                              "(50%): after the safe cells the odds would have been the same, and "
                              "no cell safer.")


def _catalog(code: str) -> Words:
    """The coach's words from the app's compiled catalog for ``code`` (read as the
    app reads it, without loading the app)."""
    locale = Path(fastmine.__file__).parent / "app" / "text" / "locale"
    return Words(gettext.translation("fastmine", locale, languages=[code]), decimal=",")


@pytest.mark.parametrize(("code", "words"), [
    ("de", ["Früh geraten bei 29\u00a0% – nach den 19 sicheren Feldern wären es 20\u00a0% "
            "gewesen.",
            "Du hast 2 unvermeidbare Rateversuche früh genommen, wie schnelle Spieler es tun."]),
    ("fr", ["Pari pris tôt à 29\u00a0%\u00a0: après les 19 cases sûres, le risque aurait été de "
            "20\u00a0%.",
            "Vous avez pris tôt 2 paris inévitables, comme le font les joueurs rapides."]),
])
def test_the_new_words_are_translated(code: str, words: list[str]) -> None:
    w = _catalog(code)
    assert remark(EARLY, w) == words[0]
    assert summary_lines([FAIR, FAIR], w)[-1] == words[1]
    for v in (EARLY, SAFER, BOTH, FAIR):
        for text in (remark(v, w), describe(v, w), summary([v], w)):
            assert text and "safe" not in text and "guess" not in text, text


def test_a_game_with_no_guess_is_unchanged() -> None:
    board = Board.from_mines([[0, 0, 0], [0, 0, 0], [0, 0, 1]])
    v = analyze(board, [("reveal", 0, 0)], rule="cell")
    assert summary(v) == "No guesses: every cell you opened was certainly safe."
    assert fastmine.coach.Category("avoidable_risk") is Category.AVOIDABLE_RISK
