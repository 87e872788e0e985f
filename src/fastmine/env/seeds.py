"""How the environments turn a reset seed into boards.

A reset with ``seed=s`` starts a stream of *board seeds*; each episode takes
the next one, and its board is exactly ``fastmine.Game(rows, cols, mines,
rule, seed=board_seed)``'s board for the same first click (``info["board_seed"]``
says which one an episode plays).  The stream is splitmix64 from state ``s``:
one addition and a mix per episode, in the kernel, so a new game costs no
Python.

>>> board_seeds(7, 2) == board_seeds(7, 3)[:2]
True
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

import numpy as np

from . import _batch

__all__ = ["SEED_LIMIT", "board_seeds", "check_seed", "vector_seeds"]

SEED_LIMIT = 2**64
"""Seeds are 64-bit: from 0 to ``SEED_LIMIT - 1``."""


def check_seed(seed: object, name: str = "seed") -> int:
    """``seed`` as an int from 0 to 2**64 - 1.

    Raises
    ------
    TypeError
        Not an integer (a bool is not one).
    ValueError
        Negative or 2**64 and above (refused rather than cut to 64 bits).
    """
    if isinstance(seed, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, not a bool")
    try:
        s = operator.index(seed)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {type(seed).__name__}") from None
    if not 0 <= s < SEED_LIMIT:
        raise ValueError(f"{name} must be from 0 to 2**64 - 1, got {s}")
    return int(s)


def board_seeds(seed: int, n: int) -> list[int]:
    """The board seeds of the first ``n`` episodes after ``reset(seed=seed)``.

    Episode ``k`` plays ``fastmine.Game(rows, cols, mines, rule,
    seed=board_seeds(seed, k + 1)[k])``'s board.

    Parameters
    ----------
    seed : int
        The seed given to ``reset``.
    n : int
        How many episodes.

    Returns
    -------
    list of int
        The board seeds, in episode order.

    Raises
    ------
    TypeError, ValueError
        A seed outside 0 .. 2**64 - 1 or a negative ``n``.
    """
    state = check_seed(seed)
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"n must be 0 or more, got {n}")
    out = []
    for _ in range(n):
        value, state = _batch.next_seed(state)
        out.append(value)
    return out


def vector_seeds(seed: int | Sequence[int | None] | None, num_envs: int) -> list[int | None]:
    """The seed of each game of a batched reset, as Gymnasium's vector
    environments give them: ``None`` for all, ``[s, s + 1, ...]`` for an int
    ``s``, or one entry (an int or None) per game.

    Raises
    ------
    TypeError, ValueError
        A seed that is not an int or None, out of range (``s + num_envs - 1``
        must stay below 2**64), or a list of the wrong length.
    """
    if seed is None:
        return [None] * num_envs
    if isinstance(seed, Sequence) and not isinstance(seed, (str, bytes)):
        if len(seed) != num_envs:
            raise ValueError(f"a list of seeds needs one per environment ({num_envs}), "
                             f"got {len(seed)}")
        return [None if s is None else check_seed(s, f"seed[{i}]") for i, s in enumerate(seed)]
    first = check_seed(seed)
    if first + num_envs > SEED_LIMIT:
        raise ValueError(f"seed {first} + {num_envs} environments runs past 2**64 - 1")
    return [first + i for i in range(num_envs)]
