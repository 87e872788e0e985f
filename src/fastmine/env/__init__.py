"""Minesweeper for learning agents: a Gymnasium environment, a batched one, exact labels.

Importing this module registers ``fastmine/Minesweeper-v0``:

>>> import gymnasium
>>> import fastmine.env
>>> env = gymnasium.make("fastmine/Minesweeper-v0", rows=9, cols=9, mines=10, rule="cell")
>>> obs, info = env.reset(seed=1)
>>> obs["view"].shape, int(obs["mines_left"][0]), info["action_mask"].sum()
((9, 9), 10, np.int64(81))
>>> envs = gymnasium.make_vec("fastmine/Minesweeper-v0", num_envs=4,
...                           vectorization_mode="vector_entry_point", rows=9, cols=9, mines=10)
>>> obs, info = envs.reset(seed=1)
>>> obs["view"].shape
(4, 9, 9)

Needs the ``env`` extra (Gymnasium: ``pip install '.[env]'`` in fastmine's checkout).  See
docs/env.md for the observation, action and reward definitions, the seeding
contract, the baselines and the speed.
"""

from __future__ import annotations

try:
    import gymnasium as _gymnasium
except ImportError as exc:      # pragma: no cover - depends on what is installed
    from ..extras import install_hint

    raise ImportError(f"fastmine.env needs Gymnasium: {install_hint('env')} "
                      "(or pip install 'gymnasium>=1.0')") from exc

from .agents import SolverAgent
from .dataset import dataset, load_dataset
from .labels import labels
from .options import INVALID_MODES, PLANE_CODES, Options, Rewards
from .seeds import board_seeds
from .single import MinesweeperEnv
from .vector import MinesweeperVectorEnv

__all__ = [
    "ENV_ID",
    "INVALID_MODES",
    "PLANE_CODES",
    "MinesweeperEnv",
    "MinesweeperVectorEnv",
    "Options",
    "Rewards",
    "SolverAgent",
    "board_seeds",
    "dataset",
    "labels",
    "load_dataset",
]

ENV_ID = "fastmine/Minesweeper-v0"
"""The Gymnasium id this module registers."""

if ENV_ID not in _gymnasium.registry:
    _gymnasium.register(
        id=ENV_ID,
        entry_point="fastmine.env.single:MinesweeperEnv",
        vector_entry_point="fastmine.env.vector:MinesweeperVectorEnv",
        nondeterministic=False,
    )
