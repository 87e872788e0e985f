"""Agents that play the environment with fastmine's strategies.

A :class:`SolverAgent` turns a strategy of :mod:`fastmine.solver` (``best``,
``auto``, ...) into environment actions.  The strategies play a
:class:`fastmine.Game`; the agent keeps one in step with the environment (the
game of the episode's board seed, moved exactly as the environment is) and asks
the strategy for its move there.  The strategies read nothing but the view and
the mine count, which is what the observation shows; before every move the
agent checks that its game shows exactly the observation, so it cannot see
more than an agent of your own would.

>>> from fastmine.env import MinesweeperEnv
>>> env = MinesweeperEnv(9, 9, 10)
>>> agent = SolverAgent(env, "best")
>>> obs, info = env.reset(seed=1)
>>> done = False
>>> while not done:
...     obs, reward, terminated, truncated, info = env.step(agent.act(obs, info))
...     done = terminated or truncated
>>> info["won"]
True
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from .. import Game, solver
from .single import MinesweeperEnv

__all__ = ["SolverAgent"]

_KINDS = {0: "reveal", 1: "flag", 2: "chord", 3: "flag"}     # move log kind -> action kind


class SolverAgent:
    """Plays a :class:`~fastmine.env.MinesweeperEnv` with a strategy of fastmine's solver.

    Parameters
    ----------
    env : MinesweeperEnv (or a wrapper of one)
        The environment the agent acts in.  Strategies that flag or chord
        (``auto``, ``deterministic``, ``inference``) need ``flags=True`` and
        ``chord=True``; ``best``, ``probability`` and ``random`` only reveal.
        Its observation must be the int8 view (not one-hot).
    strategy : str
        One of :data:`fastmine.solver.STRATEGIES` (default ``"best"``).
    seed : int, optional
        Seed of the strategy's random choices.

    Raises
    ------
    TypeError, ValueError
        Not a fastmine environment, one-hot observations, an unknown strategy.
    """

    def __init__(self, env: gym.Env[Any, Any], strategy: str = "best",
                 seed: int | None = None) -> None:
        base = getattr(env, "unwrapped", env)
        if not isinstance(base, MinesweeperEnv):
            raise TypeError(f"a SolverAgent plays fastmine's MinesweeperEnv, got {type(base).__name__}")
        if base.options.one_hot:
            raise ValueError("a SolverAgent reads the int8 view: make the environment with one_hot=False")
        if strategy not in solver.STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(solver.STRATEGIES)}")
        self.env = base
        self.strategy = strategy
        self.rng = np.random.default_rng(seed)
        self.game: Game | None = None
        self._board_seed: int | None = None

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> int:
        """The strategy's action for this observation (``info`` from the same step).

        Parameters
        ----------
        observation : dict
            The environment's observation.
        info : dict
            Its info of the same step (``board_seed``, ``action_mask``).

        Returns
        -------
        int
            The action.

        Raises
        ------
        RuntimeError
            The observation is not what the agent's game shows (an action was
            taken that the agent did not choose).
        ValueError
            The strategy flags or chords and the environment has no such action.
        """
        o = self.env.options
        view = observation["view"]
        if self.game is None or info["board_seed"] != self._board_seed or (
                self.game.state.is_over or ((view == -1).all() and self.game.board is not None)):
            self.game = Game(o.rows, o.cols, o.mines, rule=o.rule, seed=int(info["board_seed"]),
                             question_marks=False)
            self._board_seed = int(info["board_seed"])
        game = self.game
        if not np.array_equal(game.view, view):
            raise RuntimeError("the observation is not the agent's game: every action of an "
                               "episode must be the agent's")
        moves = len(game.moves)
        solver.step(game, self.strategy, rng=self.rng)
        log = game.moves
        if len(log) == moves:          # the strategy has no move (nothing certain)
            cells = np.flatnonzero(info["action_mask"][: o.cells])
            r, c = divmod(int(self.rng.choice(cells)), o.cols)
            game.reveal(r, c)
            return r * o.cols + c
        kind, r, c = (int(x) for x in log[-1, :3])
        return o.action(_KINDS[kind & 3], r, c)
