"""Arrays handed out over the engine's own state cannot be made writable again.

``Game.view`` and the batched environment's ``copy=False`` arrays are views of
the arrays the kernels read.  A plain read-only view can be switched back
(``v.flags.writeable = True``): writing 0 over a number then made an illegal
chord open the cells around it and explode a mine.  Each is now a view
through a read-only buffer (:func:`fastmine._frozen.frozen`): NumPy refuses.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastmine
from fastmine._frozen import frozen


def _refuses_writing(a: np.ndarray) -> None:
    assert not a.flags.writeable
    with pytest.raises(ValueError):
        a.flags.writeable = True
    for v in (a.view(), a.reshape(-1) if a.flags.c_contiguous else a[...], a[...]):
        with pytest.raises(ValueError):
            v.flags.writeable = True


def test_game_view_cannot_be_made_writable_and_an_illegal_chord_stays_illegal():
    game = fastmine.Game(9, 9, 10, seed=1)
    game.reveal(4, 4)
    view = game.view
    _refuses_writing(view)
    mines = game.board.mines
    r, c = next((int(r), int(c)) for r, c in np.argwhere(view > 0)
                if mines[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2].any())
    before = view.copy()
    with pytest.raises(ValueError):
        view.flags.writeable = True
    with pytest.raises(ValueError):
        view[r, c] = 0
    game.chord(r, c)                 # no flags around: a chord there does nothing
    assert game.state is fastmine.GameState.PLAYING
    assert np.array_equal(game.view, before)


def test_game_view_still_follows_the_game():
    game = fastmine.Game(9, 9, 10, seed=2)
    view = game.view
    game.reveal(4, 4)
    assert (view >= 0).sum() > 0 and np.array_equal(view, game.view)


def test_batched_environment_copy_false_arrays_cannot_be_made_writable():
    pytest.importorskip("gymnasium")
    from fastmine.env import MinesweeperVectorEnv

    for one_hot in (False, True):
        envs = MinesweeperVectorEnv(3, copy=False, rows=6, cols=6, mines=5, rule="opening",
                                    one_hot=one_hot)
        obs, info = envs.reset(seed=4)
        got = envs.step(envs.random_reveals())
        for arrays in (obs, info, got[0], got[4]):
            for a in arrays.values():
                if isinstance(a, np.ndarray):
                    _refuses_writing(a)
        for a in got[1:4]:
            _refuses_writing(a)
        # the kernel's own arrays are untouched by the attempt and play on
        envs.step(envs.random_reveals())


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([np.int8, np.uint8, np.bool_, np.int64, np.float64]),
       st.lists(st.integers(0, 5), min_size=0, max_size=3))
def test_frozen_shares_memory_and_refuses_writing(dtype, shape):
    a = np.zeros(shape, dtype)
    v = frozen(a)
    assert v.shape == a.shape and v.dtype == a.dtype
    _refuses_writing(v)
    if a.size:
        a.reshape(-1)[-1] = 1
        assert v.reshape(-1)[-1] == 1      # a view, not a copy


def test_a_replays_checked_mouse_path_cannot_be_changed_after_its_check():
    from fastmine.replay import mousepath

    path = mousepath.check_mouse(np.array([[0, 5, 5, 0], [10, 6, 6, 1], [20, 6, 6, 2]]))
    _refuses_writing(path)


def test_a_replay_keeps_its_own_arrays():
    """Replay flagged the caller's own arrays read-only (changing them) and the flag
    could be switched back to change the replay after it was made."""
    from fastmine.replay import Replay

    game = fastmine.Game(9, 9, 10, seed=4)
    game.reveal(4, 4)
    rep = Replay.from_game(game)
    mines, moves = rep.mines.copy(), rep.moves.copy()
    mines.flags.writeable = True
    again = Replay(mines=mines, rule=rep.rule, moves=moves, state=rep.state, time=rep.time)
    assert mines.flags.writeable and moves.flags.writeable       # the caller's, untouched
    _refuses_writing(again.mines)
    _refuses_writing(again.moves)
    mines[:] = ~mines
    assert np.array_equal(again.mines, rep.mines)


def test_a_videos_arrays_cannot_be_made_writable_again():
    """fastmine.videos.Video kept its mine layout and events behind a flag its caller
    could switch back (``arr.flags.writeable = True``) to change a read video."""
    from pathlib import Path

    from fastmine.videos import read_video

    data = Path(__file__).parent / "data" / "videos"
    video = read_video(sorted(data.glob("*.avf"))[0])
    arrays = [video.mine_layout, *(getattr(video.events, f) for f in video.events.__dataclass_fields__
                                    if isinstance(getattr(video.events, f), np.ndarray))]
    assert len(arrays) >= 3
    for a in arrays:
        with pytest.raises(ValueError):
            a.flags.writeable = True
