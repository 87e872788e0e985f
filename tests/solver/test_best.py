"""The ``best`` planner's guess scoring against brute force over explicit layouts."""

from __future__ import annotations

import brute_force
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from solver_fixtures import needs_exact, small_games

import fastmine
from fastmine.solver import analyze, endgame
from fastmine.solver.best import (
    BLEND,
    CANDIDATE_RATIO,
    FEW_INTERIOR,
    INTERIOR_RATIO,
    LOOKAHEAD_CANDIDATES,
    LOOKAHEAD_MARGIN,
    Planner,
    _nsum,
)
from fastmine.solver.probability import Analysis


def layouts_and_numbers(view: np.ndarray, mines: int):
    """Every layout that agrees with the view (n, rows, cols), and the number
    each cell would show in each."""
    lay = brute_force.layouts(view, mines)
    rows, cols = view.shape
    p = np.pad(lay, ((0, 0), (1, 1), (1, 1))).astype(int)
    counts = sum(p[:, 1 + dr:1 + dr + rows, 1 + dc:1 + dc + cols]
                 for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
    return lay, counts


def reference_key(view: np.ndarray, mines: int, cell: tuple[int, int]):
    """(can show more than one number, secondary safety) from the list of layouts.

    Secondary safety: over the numbers v the cell can show, the share of
    layouts where it is safe and shows v, times the blended safety (BLEND of
    the safest plus the rest of the second-safest unknown cell) of the position
    where it shows v.
    """
    lay, counts = layouts_and_numbers(view, mines)
    r, c = cell
    score, values = 0.0, 0
    for v in range(9):
        sel = ~lay[:, r, c] & (counts[:, r, c] == v)
        if not sel.any():
            continue
        values += 1
        child = view.copy()
        child[r, c] = v
        safeties = sorted(1.0 - lay[sel].mean(axis=0)[child < 0], reverse=True)
        if not safeties:
            blended = 1.0
        elif len(safeties) == 1:
            blended = safeties[0]
        else:
            blended = BLEND * safeties[0] + (1 - BLEND) * safeties[1]
        score += sel.sum() / len(lay) * blended
    return values > 1, score


def reference_deep(view: np.ndarray, mines: int, cell: tuple[int, int], planner: Planner):
    """Planner.deep_value from the list of layouts: over the numbers v the cell
    can show, the share of layouts where it is safe and shows v, times 1 if the
    position where it shows v has a certain move (or nothing left to find), else
    the best brute-force key of that position's safest candidates."""
    lay, counts = layouts_and_numbers(view, mines)
    cols = view.shape[1]
    r, c = cell
    total = 0.0
    for v in range(9):
        sel = ~lay[:, r, c] & (counts[:, r, c] == v)
        if not sel.any():
            continue
        child = view.copy()
        child[r, c] = v
        p_mine = lay[sel].mean(axis=0)
        hidden = child < 0
        w = sel.sum() / len(lay)
        if (hidden & (p_mine == 0)).any() or not (hidden & (p_mine < 1)).any():
            total += w
            continue
        cands = planner._candidates(child, analyze(child, mines))[:LOOKAHEAD_CANDIDATES]
        total += w * max(reference_key(child, mines, divmod(int(j), cols)) for j in cands)[1]
    return total


def playing(case):
    """(view, mines, exact analysis, fresh planner) of a drawn game still in play."""
    view, mines, state = case
    assume(state is fastmine.GameState.PLAYING)
    return view, mines, analyze(view, mines), Planner(*view.shape)


@needs_exact
@settings(max_examples=120, deadline=None)
@given(small_games())
def test_score_matches_brute_force(case):
    view, mines, a, planner = playing(case)
    cols = view.shape[1]
    for i in np.flatnonzero((view < 0) & ~a.mine):
        r, c = divmod(int(i), cols)
        living, score = reference_key(view, mines, (r, c))
        safe = 1.0 - a.probabilities[r, c]
        key = planner._score(view, mines, int(i), safe, a.log_solutions, None)
        assert key[0] == (0 if living else -1)
        assert key[1] == pytest.approx(score, abs=1e-9)
        # With the position's probabilities the numbers are ordered and the
        # impossible ones skipped: the same key to the last bit.
        child = view.copy()
        assert planner._score(view, mines, int(i), safe, a.log_solutions, None,
                              a.probabilities, child) == key
        assert np.array_equal(child, view)           # the work copy is restored
        if key[0] == 0:
            # A bound only cuts the work short: above the score the cell may be
            # given up (None), below it never is, and a key is always the same.
            assert planner._score(view, mines, int(i), safe, a.log_solutions,
                                  (0, key[1] + 1e-6), a.probabilities) in (None, key)
            assert planner._score(view, mines, int(i), safe, a.log_solutions,
                                  (0, key[1] - 1e-6), a.probabilities) == key
            if safe < key[1] + 1e-6:     # even a perfect rest cannot reach it
                assert planner._score(view, mines, int(i), safe, a.log_solutions,
                                      (0, key[1] + 1e-6), a.probabilities) is None


@needs_exact
# Games the certain moves win outright are discarded: that filtering is what
# asking for guessing positions means, and 80 real ones are still checked.
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(small_games(max_mines=6, to_guess=True))
def test_guess_takes_the_best_scored_candidate(case):
    """Pruning never drops the winner: the guess has the top brute-force key."""
    view, mines, state = case
    assume(state is fastmine.GameState.PLAYING)
    rows, cols = view.shape
    a = analyze(view, mines)
    assert not a.safe.any()       # play() made every certain move
    from fastmine.solver.best import unavoidable_pair

    planner = Planner(rows, cols)
    planner.endgame = False
    planner.lookahead = False
    planner.long_term = False     # its factor is checked in test_fifty.py
    pair = unavoidable_pair(view, a.mine)
    if pair is not None:          # played before any scoring
        assert planner.guess(view, mines, a) == pair[0]
        return
    cands = planner._candidates(view, a)
    assert len(cands) and all(view.ravel()[i] < 0 and not a.mine.ravel()[i] for i in cands)
    keys = {int(i): reference_key(view, mines, divmod(int(i), cols)) for i in cands}
    r, c = planner.guess(view, mines, a)
    living, score = keys[r * cols + c]
    best_living = max(k[0] for k in keys.values())
    assert living == best_living
    assert score == pytest.approx(max(s for lv, s in keys.values() if lv == best_living),
                                  abs=1e-9)


@needs_exact
@settings(max_examples=60, deadline=None)
@given(small_games(max_mines=6))
def test_deep_value_matches_brute_force(case):
    view, mines, a, planner = playing(case)
    cols = view.shape[1]
    before = view.copy()
    for i in np.flatnonzero((view < 0) & ~a.mine):
        expect = reference_deep(view, mines, divmod(int(i), cols), planner)
        value = planner.deep_value(view, mines, int(i), a)
        assert value == pytest.approx(expect, abs=1e-9)
        # A bound only cuts the work short: below the value the same value,
        # above it maybe None, and beyond even all-certain wins always None.
        assert planner.deep_value(view, mines, int(i), a, bound=value - 1e-6) == value
        assert planner.deep_value(view, mines, int(i), a, bound=value + 1e-6) in (None, value)
        safe = 1.0 - a.probabilities.flat[i]
        assert planner.deep_value(view, mines, int(i), a, bound=safe + 1e-6) is None
    assert np.array_equal(view, before)


def test_guesses_refuse_a_view_of_another_size():
    """The kernel's buffers are the planner's size: any other view is refused
    with a clear error (never read or written out of bounds)."""
    planner = Planner(9, 9)
    view = np.full((10, 9), -1, np.int8)
    view[0, 0] = 1
    a = analyze(view, 10)
    with pytest.raises(ValueError, match="10x9 view.*9x9 buffers"):
        planner.deep_value(view, 10, 5, a)
    small = np.full((9, 9), -1, np.int8)
    small[0, 0] = 1
    with pytest.raises(ValueError, match="10x9 probabilities"):
        planner.deep_value(small, 10, 5, a)
    with pytest.raises(ValueError, match="9x9 planner was given a view of shape"):
        planner.guess(view, 10, a)
    # the kernels behind guess() check their buffers too
    from fastmine.solver import _guess

    n = 81
    with pytest.raises(ValueError, match="do not fit a 10x9 view"):
        _guess.score(planner._ws, view, 10, np.empty(n), np.empty(n, np.uint8), 1000,
                     a.probabilities, 0, 1, a.log_solutions, 0.5, False, 0.0, 0.4,
                     np.empty(9), True)
    with pytest.raises(ValueError, match="do not fit a 10x9 view"):
        _guess.candidates(view, a.probabilities, a.mine.view(np.uint8),
                          a.interior.view(np.uint8), a.interior_probability, 0.9, 0.95, 30,
                          np.empty(n, np.intp), np.empty(n))


@needs_exact
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(small_games(max_mines=6, to_guess=True))
def test_lookahead_decides_close_calls_one_move_deeper(case):
    """The two best-scored candidates, when within the margin, are played by
    their brute-force value one move deeper; otherwise the best-scored one."""
    view, mines, state = case
    assume(state is fastmine.GameState.PLAYING)
    rows, cols = view.shape
    a = analyze(view, mines)
    from fastmine.solver.best import unavoidable_pair

    assume(unavoidable_pair(view, a.mine) is None)
    planner = Planner(rows, cols)
    planner.endgame = False
    planner.long_term = False     # the scores alone (the factor: test_fifty.py)
    cands = planner._candidates(view, a)
    assume(len(cands) > 1)
    keys = {int(i): reference_key(view, mines, divmod(int(i), cols)) for i in cands}
    ranked = sorted(keys.values(), reverse=True)
    (live1, s1), (live2, s2) = ranked[0], ranked[1]
    r, c = planner.guess(view, mines, a)
    g = r * cols + c
    live, score = keys[g]
    close = live1 and live2 and s2 >= (1 - LOOKAHEAD_MARGIN) * s1 + 1e-9
    if not (live1 and live2 and s2 >= (1 - LOOKAHEAD_MARGIN) * s1 - 1e-9):
        assert live == live1 and score == pytest.approx(s1, abs=1e-9)
        return
    assert live and score >= s2 - 1e-9           # one of the top two
    top = [i for i, k in keys.items() if k[0] and k[1] >= s2 - 1e-9]
    if close and len(top) == 2:                  # the top two are unambiguous
        other = top[0] if top[1] == g else top[1]
        assert (reference_deep(view, mines, divmod(g, cols), planner)
                >= reference_deep(view, mines, divmod(other, cols), planner) - 1e-9)


def reference_candidates(view, probs, mine, interior, p_int, ratio=CANDIDATE_RATIO,
                         interior_ratio=INTERIOR_RATIO, few=FEW_INTERIOR) -> np.ndarray:
    """Planner._candidates in NumPy, written from its rule (the kernel's spec)."""
    unknown = view < 0
    safety = np.where(unknown & ~mine, 1.0 - probs, -1.0)
    frontier = unknown & ~interior
    inner = interior & unknown & ~mine
    best = float(safety.max())
    best_f = float(safety[frontier].max()) if frontier.any() else -1.0
    pick = frontier & (safety >= ratio * best)
    if inner.any() and 1.0 - p_int >= interior_ratio * best_f:
        if inner.sum() < few:
            pick |= inner
        else:
            nunk = _nsum(unknown)
            witness = (view >= 0) & (nunk > 0)
            two_away = np.zeros_like(witness)       # two steps up, down, left or right
            two_away[2:, :] |= witness[:-2, :]
            two_away[:-2, :] |= witness[2:, :]
            two_away[:, 2:] |= witness[:, :-2]
            two_away[:, :-2] |= witness[:, 2:]
            near = inner & (two_away | ((nunk > 1) & (nunk < 4)))
            if not near.any():
                near = inner & (nunk == nunk[inner].min())
            pick |= near
    cands = np.flatnonzero(pick)
    if len(cands) == 0:
        cands = np.flatnonzero(safety == best)
    return cands[np.argsort(-safety.ravel()[cands], kind="stable")]


def _fake_analysis(view, probs, mine, interior, p_int) -> Analysis:
    return Analysis(probabilities=probs, safe=np.zeros_like(mine), mine=mine,
                    interior=interior, mines=0, exact=True, log_solutions=0.0,
                    interior_probability=p_int, frontier_cells=0, variables=0,
                    components=0, blocks=0)


@st.composite
def candidate_inputs(draw):
    """Arbitrary views, probabilities (few distinct values: ties and exact
    ratio boundaries) and masks, some with many off-frontier cells."""
    rows = draw(st.integers(1, 12))
    cols = draw(st.integers(1, 12))
    shape = (rows, cols)
    view = draw(hnp.arrays(np.int8, shape, elements=st.sampled_from([-3, -2, -1, -1, -1, 0, 1, 2])))
    levels = st.sampled_from([0.0, 0.05, 0.1, 0.15, 0.2, 0.5, 0.95, 1.0])
    probs = draw(hnp.arrays(np.float64, shape, elements=levels))
    mine = draw(hnp.arrays(np.bool_, shape, elements=st.booleans())) & (probs == 1.0)
    interior = draw(hnp.arrays(np.bool_, shape, elements=st.booleans())) & (view < 0)
    p_int = draw(levels)
    few = draw(st.sampled_from([0, 3, FEW_INTERIOR]))
    ratio = draw(st.sampled_from([CANDIDATE_RATIO, 0.5, 1.0]))
    return view, probs, mine, interior, p_int, ratio, few


@settings(max_examples=400, deadline=None)
@given(candidate_inputs())
def test_candidates_kernel_matches_the_reference(case):
    import fastmine.solver.best as best

    view, probs, mine, interior, p_int, ratio, few = case
    planner = Planner(*view.shape)
    a = _fake_analysis(view, probs, mine, interior, p_int)
    old = best.CANDIDATE_RATIO, best.FEW_INTERIOR
    best.CANDIDATE_RATIO, best.FEW_INTERIOR = ratio, few
    try:
        got = planner._candidates(view, a)
    finally:
        best.CANDIDATE_RATIO, best.FEW_INTERIOR = old
    want = reference_candidates(view, probs, mine, interior, p_int, ratio=ratio, few=few)
    assert got.tolist() == want.tolist()


@needs_exact
def test_candidates_match_the_reference_in_real_games():
    """Expert positions from fresh to late, with many off-frontier cells
    (the two-steps-from-a-number and fewest-neighbours rules)."""
    rng = np.random.default_rng(8)
    planner = Planner(16, 30)
    seen_near = 0
    for _ in range(12):
        g = fastmine.Game(16, 30, 99, rule="cell", seed=int(rng.integers(1 << 30)))
        a = analyze(g.view, 99)             # nothing revealed: the fewest-neighbours rule
        ref = reference_candidates(g.view, a.probabilities, a.mine, a.interior,
                                   a.interior_probability)
        assert planner._candidates(g.view, a).tolist() == ref.tolist()
        g.reveal(0, 0)
        while g.state is fastmine.GameState.PLAYING:
            a = analyze(g.view, 99)
            ref = reference_candidates(g.view, a.probabilities, a.mine, a.interior,
                                       a.interior_probability)
            assert planner._candidates(g.view, a).tolist() == ref.tolist()
            seen_near += int(a.interior.sum() >= FEW_INTERIOR)
            safe = np.argwhere(a.safe)
            r, c = safe[0] if len(safe) else divmod(int(ref[0]), 30)
            g.reveal(int(r), int(c))
    assert seen_near > 20


@needs_exact
def test_candidates_include_the_safest_cells_and_skip_mines():
    rng = np.random.default_rng(5)
    for _ in range(30):
        g = fastmine.Game(16, 30, 99, rule="cell", seed=int(rng.integers(1 << 30)))
        g.reveal(0, 0)
        a = analyze(g.view, 99)
        cands = Planner(16, 30)._candidates(g.view, a)
        safety = np.where((g.view < 0) & ~a.mine, 1.0 - a.probabilities, -1.0).ravel()
        assert safety[cands].min() >= 0.0
        assert safety[cands[0]] == pytest.approx(safety.max())
        assert list(safety[cands]) == sorted(safety[cands], reverse=True)


@needs_exact
def test_the_guess_book_recalls_exactly_what_a_fresh_guess_would_do(monkeypatch):
    """Replaying games with one planner recalls every guess; the moves and the
    outcomes are those of a planner that never saw them, and a changed setting
    or a full book never recalls a stale guess."""
    import fastmine.solver.best as best

    def games(planner):
        moves = []
        guess = Planner.guess.__get__(planner)

        def spy(view, mines, a):
            moves.append(guess(view, mines, a))
            return moves[-1]

        planner.guess = spy
        outcomes = []
        for seed in range(6):
            g = fastmine.Game(16, 30, 99, rule="cell", seed=seed)
            g.reveal(0, 0)
            outcomes.append(planner.play(g))
        return moves, outcomes

    planner = Planner(16, 30)
    first = games(planner)
    fresh = planner.stats["guesses"] - planner.stats["recalled"]
    assert games(planner) == first == games(Planner(16, 30))
    assert planner.stats["guesses"] - planner.stats["recalled"] == fresh > 0

    # another lookahead margin: the book's old guesses are never recalled, so
    # the planner plays and recalls exactly as a fresh one with that margin
    monkeypatch.setattr(best, "LOOKAHEAD_MARGIN", 0.5)
    recalled = planner.stats["recalled"]
    other = Planner(16, 30)
    assert games(planner) == games(other)
    assert planner.stats["recalled"] - recalled == other.stats["recalled"]
    monkeypatch.undo()

    # a book of a few positions stays that small and plays the same
    monkeypatch.setattr(best, "BOOK_BYTES", 3 * (16 * 30 + 200))
    small = Planner(16, 30)
    assert games(small) == first
    assert len(small._book) <= 3


@needs_exact
def test_the_endgame_search_decides_small_endgames():
    """With few layouts left, best plays the exhaustive search's move."""
    rng = np.random.default_rng(11)
    for _ in range(200):
        g = fastmine.Game(9, 9, 10, rule="opening", seed=int(rng.integers(1 << 30)))
        g.reveal(2, 2)
        planner = Planner(9, 9)
        while g.state is fastmine.GameState.PLAYING:
            cells, a = planner.certain_or_analysis(g.view, 10)
            if len(cells):
                g.reveal(*(int(x) for x in cells[0]))
                continue
            if a.log_solutions > np.log(endgame.MAX_SOLUTIONS):
                g.reveal(*planner.guess(g.view, 10, a))
                continue
            expected = endgame.best_move(g.view, 10, known=a.mine)
            assert expected is not None
            assert planner.guess(g.view, 10, a) == expected[0]
            assert planner.stats["endgame"] == 1
            return
    pytest.fail("no endgame guess in 200 beginner games")


def test_unavoidable_pairs():
    from solver_fixtures import game_at

    from fastmine.solver.best import unavoidable_pair

    # A 2-wide column at the edge, one mine in it, everything else open.
    game = game_at(["*..", "...", ], reveals=[(0, 2)])
    assert game.view.tolist() == [[-1, 1, 0], [-1, 1, 0]]
    assert unavoidable_pair(game.view, np.zeros((2, 3), bool)) == ((0, 0), (1, 0))
    # Three rows: the hidden cell below sees only one of the pair, so revealing
    # it could break the tie.
    view = np.array([[-1, 1, 0], [-1, 1, 0], [-1, 1, 0]], np.int8)
    assert unavoidable_pair(view, np.zeros((3, 3), bool)) is None
    # ... unless every such cell is a known mine.
    view = np.array([[-1, 1], [-1, 3], [-1, -1]], np.int8)
    mine = np.zeros((3, 2), bool)
    mine[2, :] = True
    assert unavoidable_pair(view, mine) == ((0, 0), (1, 0))
    mine[2, 1] = False          # (2, 1) hidden and undecided: it sees only (1, 0)
    assert unavoidable_pair(view, mine) is None


@needs_exact
def test_an_unavoidable_pair_really_is_a_fifty_fifty():
    """Every pair found in real positions is a symmetry of the layouts: swapping
    the mine between the two cells gives another layout, and every other cell
    shows the same number in both."""
    from fastmine.solver.best import unavoidable_pair
    from fastmine.solver.strategies import play

    found = 0
    for seed in range(400):
        game = fastmine.Game(5, 6, 5, rule="cell", seed=seed)
        game.reveal(0, 0)
        play(game, "inference")            # certain moves only: stops at a guess
        if game.state is not fastmine.GameState.PLAYING:
            continue
        view = np.array(game.view)
        a = analyze(view, 5)
        pair = unavoidable_pair(view, a.mine)
        assert unavoidable_pair(view, a.mine, a.probabilities) == pair   # the shortcut agrees
        if pair is None:
            continue
        found += 1
        lay = brute_force.layouts(view, 5)
        (ar, ac), (br, bc) = pair
        assert (lay[:, ar, ac] ^ lay[:, br, bc]).all()
        p = np.pad(lay, ((0, 0), (1, 1), (1, 1))).astype(int)
        counts = sum(p[:, 1 + dr:6 + dr, 1 + dc:7 + dc] for dr in (-1, 0, 1)
                     for dc in (-1, 0, 1) if dr or dc)
        keys = {lay[k].tobytes(): k for k in range(len(lay))}
        for k in range(len(lay)):
            swapped = lay[k].copy()
            swapped[ar, ac], swapped[br, bc] = lay[k][br, bc], lay[k][ar, ac]
            j = keys[swapped.tobytes()]                 # the swap is a layout too
            other = ~(lay[k] | lay[j])
            other[ar, ac] = other[br, bc] = False
            assert (counts[k][other] == counts[j][other]).all()
    assert found >= 3, f"only {found} unavoidable pairs in 400 games"


def test_unavoidable_pair_rejects_bad_input():
    from fastmine.solver.best import unavoidable_pair

    view = np.array([[1, -1], [1, -1]], np.int8)
    with pytest.raises(TypeError):
        unavoidable_pair(view, np.zeros((2, 2), np.int8))         # not a bool mask
    with pytest.raises(TypeError):
        unavoidable_pair(view.astype(float), np.zeros((2, 2), bool))
    with pytest.raises(ValueError):
        unavoidable_pair(view, np.zeros((3, 2), bool))            # shapes differ
    with pytest.raises(ValueError):
        unavoidable_pair(view, np.zeros((2, 2), bool), np.zeros((2, 3)))
    assert unavoidable_pair(view, np.zeros((2, 2), bool), np.full((2, 2), 0.5)) == ((0, 1), (1, 1))
    assert unavoidable_pair(view, np.zeros((2, 2), bool), np.full((2, 2), 0.4)) is None
