"""A chord on a revealed 0 in the environment: fastmine.Game's rule (the clients'),
in the batched kernel, its action mask and the reference alike."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from env_reference import ReferenceEnv  # noqa: E402

import fastmine  # noqa: E402
from fastmine.env import MinesweeperEnv  # noqa: E402


def _scene(seed: int) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """On board seed ``seed`` (9x9/10, opening rule, first click at the centre): a
    number ``f`` next to a zero ``z`` of the first opening: flagged before the
    first click, ``f`` stays closed beside the open ``z``."""
    g = fastmine.Game(9, 9, 10, rule="opening", seed=seed)
    g.reveal(4, 4)
    board = g.board
    assert board is not None
    counts, mines = board.counts, board.mines
    for (r, c) in zip(*np.nonzero(g.view == 0), strict=True):
        for rr in range(max(r - 1, 0), min(r + 2, 9)):
            for cc in range(max(c - 1, 0), min(c + 2, 9)):
                if (rr, cc) != (4, 4) and not mines[rr, cc] and counts[rr, cc] > 0:
                    return (int(rr), int(cc)), (int(r), int(c))
    return None


def test_a_chord_on_a_revealed_zero_opens_the_cell_a_flag_kept_closed() -> None:
    env = MinesweeperEnv(9, 9, 10, "opening", flags=True, chord=True)
    ref = ReferenceEnv(9, 9, 10, "opening", flags=True, chord=True)
    o = env.options
    for seed in range(50):
        scene = _scene(seed)
        if scene is None:
            continue
        (fr, fc), (zr, zc) = scene
        obs, info = env.reset(options={"board_seed": seed})
        ref.reset(seed)
        for kind, r, c in (("flag", fr, fc), ("reveal", 4, 4), ("flag", fr, fc)):
            obs, *_, info = env.step(o.action(kind, r, c))
            ref.step(o.action(kind, r, c))
        assert obs["view"][zr, zc] == 0 and obs["view"][fr, fc] == fastmine.HIDDEN
        chord = o.action("chord", zr, zc)
        assert info["action_mask"][chord] and ref.mask()[chord]
        obs, reward, *_ = env.step(chord)
        r, *_ = ref.step(chord)
        assert obs["view"][fr, fc] >= 0 and reward == r > 0
        assert np.array_equal(obs["view"], ref.observation()[0])
        return
    pytest.fail("no board seed gave the scene")
