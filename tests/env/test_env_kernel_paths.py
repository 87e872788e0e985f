"""The batch kernel's fast paths give exactly what the plain ones gave: boards laid
with remainders by multiplication (boards up to 4,096 cells) and by division (larger)
equal fastmine.Board.generate's, dense boards too; the lost and won views drawn from
each game's mine list equal fastmine.Game's; and copy=True steps hand out arrays
that stay the caller's (a dropped pair is reused, one still held never is)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import fastmine  # noqa: E402
from fastmine.env import MinesweeperVectorEnv  # noqa: E402


@pytest.mark.parametrize("rows, cols, mines", [
    (64, 64, 800),          # 4,096 cells: the multiplication table
    (65, 64, 800),          # 4,160: division
    (9, 9, 70),             # dense: the mines are the cells not drawn
    (30, 16, 99), (1, 2, 1), (2, 2, 3),
])
@pytest.mark.parametrize("rule", ["none", "cell", "opening"])
def test_boards_are_board_generates(rows, cols, mines, rule):
    n = 12
    envs = MinesweeperVectorEnv(n, rows=rows, cols=cols, mines=mines, rule=rule)
    envs.reset(seed=rows * 1000 + cols)
    rng = np.random.default_rng(mines)
    cells = rng.integers(rows * cols, size=n)
    cells[:4] = [0, cols - 1, rows * cols - 1, (rows // 2) * cols]     # corners, an edge
    _, _, _, _, info = envs.step(cells)
    for i in range(n):
        board = fastmine.Board.generate(rows, cols, mines, first_click=divmod(int(cells[i]), cols),
                                        rule=rule, seed=int(envs.board_seeds[i]))
        assert np.array_equal(envs.mine_mask(i), board.mines), (i, int(cells[i]))


def test_fast_remainder_is_the_remainder():
    """The board's draws take x % d by one high multiplication and a correction:
    exact at the edges (x near 0 and 2**64, multiples of d and one off them) and
    on random 64-bit x, for every d a board up to 4,096 cells uses, and large d."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from fastmine.env import _batch

    top = 2**64 - 1
    for d in [*range(1, 4097), 2**32 - 1, 2**32, 2**32 + 1, 2**62 + 7, 2**63]:
        for x in (0, 1, d - 1, d, d + 1, 2 * d - 1, 2 * d, top, top - 1, top - d, (top // d) * d,
                  (top // d) * d - 1):
            if 0 <= x <= top:
                assert _batch.fast_remainder(x, d) == x % d, (x, d)

    @settings(max_examples=3000, deadline=None)
    @given(st.integers(0, top), st.integers(1, 2**63))
    def check(x, d):
        assert _batch.fast_remainder(x, d) == x % d

    check()
    for bad in (0, 2**63 + 1):
        with pytest.raises(ValueError, match="divisor"):
            _batch.fast_remainder(5, bad)


@pytest.mark.parametrize("flags", [False, True])
def test_lost_and_won_views_are_fastmine_games(flags):
    """Random play (flags put and taken off with flags=True) against fastmine.Game
    on the same boards: every view equal, to the end of every game."""
    rows, cols, mines, n = 8, 7, 9, 16
    envs = MinesweeperVectorEnv(n, rows=rows, cols=cols, mines=mines, rule="cell", flags=flags)
    obs, info = envs.reset(seed=5)
    rng = np.random.default_rng(0)
    games: list[fastmine.Game | None] = [None] * n
    ended = np.zeros(n, bool)
    finished = {"won": 0, "lost": 0}
    for _ in range(400):
        actions = np.zeros(n, np.int64)
        for i in range(n):
            valid = np.flatnonzero(info["action_mask"][i])
            # Reveal mostly safe cells once the board is laid, so some games are won.
            if games[i] is not None and rng.random() < 0.85:
                safe = np.flatnonzero(~envs.mine_mask(i).ravel() & info["action_mask"][i][:rows * cols])
                valid = safe if len(safe) else valid
            actions[i] = rng.choice(valid)
        before = [envs.board_seeds[i] for i in range(n)]
        obs, _, term, trunc, info = envs.step(actions)
        for i in range(n):
            if ended[i]:                     # the auto-reset step: a new game
                games[i] = None
                continue
            kind, cell = divmod(int(actions[i]), rows * cols)
            r, c = divmod(cell, cols)
            if games[i] is None:
                games[i] = fastmine.Game(rows, cols, mines, rule="cell", seed=int(before[i]),
                                         question_marks=False)
            if kind == 0:
                games[i].reveal(r, c)
            else:
                games[i].toggle_mark(r, c)
            assert np.array_equal(obs["view"][i], games[i].view), i
            if term[i]:
                finished["won" if info["won"][i] else "lost"] += 1
        ended = term | trunc
    assert finished["won"] > 3 and finished["lost"] > 3


def test_copy_true_hands_out_arrays_that_stay_the_callers():
    envs = MinesweeperVectorEnv(8, rows=9, cols=9, mines=10)
    envs.reset(seed=0)
    held = []
    for t in range(12):
        obs, _, _, _, info = envs.step(envs.random_reveals())
        if t % 3 == 0:                       # keep some, drop the others
            held.append((obs["view"], obs["view"].copy(), info["action_mask"],
                         info["action_mask"].copy()))
    for view, view_then, mask, mask_then in held:
        assert np.array_equal(view, view_then) and np.array_equal(mask, mask_then)
    views = [h[0] for h in held]
    assert len({id(v) for v in views}) == len(views)


def test_copy_true_reuses_a_pair_nobody_holds():
    """Once warm, a step whose caller dropped the last step's arrays allocates no
    view or mask of the batch's size (tracemalloc sees NumPy's allocations)."""
    import tracemalloc

    envs = MinesweeperVectorEnv(64, rows=30, cols=30, mines=100)
    envs.reset(seed=0)
    for _ in range(3):
        envs.step(envs.random_reveals())
    a = envs.random_reveals()
    tracemalloc.start()
    grew = []
    for _ in range(10):
        tracemalloc.reset_peak()
        before, _ = tracemalloc.get_traced_memory()
        obs, _, _, _, info = envs.step(a)
        grew.append(tracemalloc.get_traced_memory()[1] - before)
        del obs, info
    tracemalloc.stop()
    assert max(grew) < 64 * 900 // 2, grew          # less than half of one view
    # A view of an array keeps it from being reused.
    obs, *_ = envs.step(envs.random_reveals())
    row = obs["view"][0]
    before = row.copy()
    del obs
    for _ in range(5):
        envs.step(envs.random_reveals())
    assert np.array_equal(row, before)


def test_arrays_made_read_only_and_dropped_are_not_reused():
    """A copy=True step reuses the view and mask arrays it handed out once nobody
    holds them; one its holder made read-only before dropping it is replaced,
    not written (the step raised 'buffer source array is read-only' before)."""
    envs = MinesweeperVectorEnv(4, rows=5, cols=5, mines=3)
    twin = MinesweeperVectorEnv(4, rows=5, cols=5, mines=3)
    envs.reset(seed=0)
    twin.reset(seed=0)
    for _ in range(6):
        actions = twin.random_reveals()
        obs, _, _, _, info = envs.step(actions)
        want, _, _, _, want_info = twin.step(actions)
        assert np.array_equal(obs["view"], want["view"])
        assert np.array_equal(info["action_mask"], want_info["action_mask"])
        obs["view"].flags.writeable = False
        info["action_mask"].flags.writeable = False
        del obs, info
