"""One Minesweeper game as a Gymnasium environment (``fastmine/Minesweeper-v0``).

A thin layer over the same kernel the batched environment steps (a batch of
one), so both play by exactly the same rules; the rules themselves are
fastmine.Game's (tests/env compare them move by move).
"""

from __future__ import annotations

import operator
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from numpy.typing import NDArray

from .. import Board, GameOverError
from . import _batch, render
from .labels import labels
from .options import Options, one_hot_planes
from .seeds import check_seed

__all__ = ["MinesweeperEnv"]

_ONE = np.ones(1, np.uint8)


def check_action(action: object, n_actions: int) -> int:
    """One action as an int in ``0 .. n_actions - 1``.

    Accepts a Python or NumPy integer or a 0-d integer array.

    Raises
    ------
    TypeError
        Not an integer (a bool, a float, a string, an array of another shape).
    ValueError
        Out of range.
    """
    if type(action) is not int:
        if isinstance(action, (bool, np.bool_)):
            raise TypeError("an action must be an integer, not a bool")
        if isinstance(action, np.ndarray):
            if action.shape != () or action.dtype.kind not in "iu":
                raise TypeError(f"an action must be one integer, got an array of shape "
                                f"{action.shape} and dtype {action.dtype}")
            action = action.item()
        try:
            action = operator.index(action)  # type: ignore[arg-type]
        except TypeError:
            raise TypeError(f"an action must be an integer, got {type(action).__name__}") from None
    if not 0 <= action < n_actions:
        raise ValueError(f"action must be from 0 to {n_actions - 1}, got {action}")
    return action


class MinesweeperEnv(gym.Env[dict[str, NDArray[Any]], np.int64]):
    """Minesweeper for learning agents, with fastmine's rules.

    Parameters
    ----------
    rows, cols, mines : int
        The board (default 16 x 16 with 40 mines, Intermediate).
    rule : str
        First-click rule, as :meth:`fastmine.Board.generate`: ``"opening"``
        (default: the first reveal opens an area), ``"cell"`` (only the cell is
        safe), ``"no_guess"`` (solvable by logic; boards come from fastmine's
        no-guess generator, in Python, so a new episode costs milliseconds),
        ``"none"`` (the first reveal may lose).
    flags : bool
        Add flag actions (toggle a flag on a hidden cell).  Default False.
    chord : bool
        Add chord actions (open the cells around a number whose flags are all
        placed); needs ``flags``.  Default False.
    one_hot : bool
        Observe the view as 14 one-hot uint8 planes instead of int8 codes.
    invalid : str
        ``"end"`` (default): an invalid action ends the episode
        (terminated); ``"ignore"``: it changes nothing and the episode goes on.
    rewards : Rewards or dict, optional
        See :class:`fastmine.env.Rewards` (default progress 1, win 1, loss -1,
        invalid -1).
    max_steps : int, optional
        Truncate an episode after this many steps (default: no limit; set one
        with flag actions or ``invalid="ignore"``, where an episode can go on
        for ever).
    labels : bool
        Add ``info["probabilities"]``: the exact mine probability of every
        cell (:mod:`fastmine.env.labels`).  Costs a solver call a step.
    render_mode : str, optional
        ``"ansi"`` (text) or ``"rgb_array"`` (an image, 16 pixels a cell).

    Raises
    ------
    TypeError, ValueError
        A bad argument (see :meth:`fastmine.env.options.Options.make`).

    Notes
    -----
    Observation: ``{"view": int8 (rows, cols), "mines_left": int32 (1,)}``; the
    view holds 0..8 for an open cell and fastmine's codes HIDDEN (-1), FLAG
    (-2), and at the end of an episode MINE (-4), EXPLODED (-5), WRONG_FLAG
    (-6), as :attr:`fastmine.Game.view`.  With ``one_hot`` the view is uint8
    (14, rows, cols), plane k marking :data:`~fastmine.env.options.PLANE_CODES` [k].

    Actions: ``Discrete(rows * cols * kinds)``, ``kind * rows * cols + row *
    cols + col`` with the kinds reveal, flag, chord in this order.

    Info: ``action_mask`` (bool, one per action; at the end of an episode it
    allows every action), ``board_seed`` (a ``numpy.uint64``:
    ``fastmine.Game(rows, cols, mines, rule, seed=int(board_seed))`` plays the
    same board), ``won`` and, with ``labels``, ``probabilities``.

    Seeding: ``reset(seed=s)`` restarts the stream of board seeds
    (:func:`fastmine.env.board_seeds`); ``reset()`` takes the next one;
    ``reset(options={"board_seed": b})`` plays board seed ``b`` once.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(self, rows: int = 16, cols: int = 16, mines: int = 40, rule: str = "opening",
                 *, flags: bool = False, chord: bool = False, one_hot: bool = False,
                 invalid: str = "end", rewards: object = None, max_steps: int | None = None,
                 labels: bool = False, render_mode: str | None = None) -> None:
        self.options = Options.make(rows, cols, mines, rule, flags=flags, chord=chord,
                                    one_hot=one_hot, invalid=invalid, rewards=rewards,
                                    max_steps=max_steps, labels=labels)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r:.40}")
        self.render_mode = render_mode
        self.observation_space = self.options.observation_space()  # type: ignore[assignment]
        self.action_space = self.options.action_space()
        self._batch = self.options.batch(1)
        self._action = np.zeros(1, np.int64)
        self._need = np.zeros(1, np.uint8)
        self._seeded = False
        self._started = False

    # ------------------------------------------------------------------ API

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, NDArray[Any]], dict[str, Any]]:
        """Start a new episode; returns ``(observation, info)``.

        Parameters
        ----------
        seed : int, optional
            Restarts the stream of board seeds (:func:`fastmine.env.board_seeds`);
            without it the next board seed of the stream is played.
        options : dict, optional
            ``{"board_seed": b}`` plays board seed ``b`` once.

        Returns
        -------
        observation : dict
            ``{"view": ..., "mines_left": ...}`` (see the class).
        info : dict
            ``action_mask``, ``board_seed``, ``won`` (and ``probabilities``).

        Raises
        ------
        TypeError, ValueError
            A seed outside 0 .. 2**64 - 1, or an unknown or bad option (the
            one option is ``board_seed``).
        """
        if seed is not None:
            seed = check_seed(seed)
        board_seed = None
        if options:
            unknown = sorted(set(options) - {"board_seed"})
            if unknown:
                raise ValueError(f"unknown reset option {unknown[0]!r}; the option is 'board_seed'")
            board_seed = check_seed(options["board_seed"], "board_seed")
        super().reset(seed=seed)
        if seed is None and not self._seeded:
            seed = int(self.np_random.integers(0, 2**64, dtype=np.uint64))
        if seed is not None:
            self._batch.seed(_ONE, np.array([seed], np.uint64))
            self._seeded = True
        if board_seed is None:
            self._batch.reset(_ONE)
        else:
            self._batch.reset_board_seed(0, board_seed)
        self._started = True
        return self._observation(), self._info()

    def step(self, action: int | np.integer[Any]
             ) -> tuple[dict[str, NDArray[Any]], SupportsFloat, bool, bool, dict[str, Any]]:
        """Play one action; returns ``(observation, reward, terminated, truncated, info)``.

        Parameters
        ----------
        action : int
            ``kind * rows * cols + row * cols + col`` (see the class).

        Returns
        -------
        observation : dict
            The view after the action.
        reward : float
            See :class:`fastmine.env.Rewards`.
        terminated : bool
            The game is won or lost (or an invalid action ended it).
        truncated : bool
            ``max_steps`` was reached.
        info : dict
            As :meth:`reset`'s.

        Raises
        ------
        TypeError, ValueError
            A bad action (nothing changes).
        fastmine.GameOverError
            The episode has ended (or never started): call :meth:`reset`.
        fastmine.NoGuessTimeoutError
            ``rule="no_guess"`` and no solvable board was found in time
            (nothing changes).
        """
        a = check_action(action, self.options.n_actions)
        b = self._batch
        if not self._started or b.done[0]:
            raise GameOverError("the episode has ended; call reset() to start a new one"
                                if self._started else "call reset() before the first step")
        self._action[0] = a
        if self.options.rule == "no_guess" and b.needs_board(self._action, self._need):
            r, c = divmod(a, self.options.cols)
            board = Board.generate(self.options.rows, self.options.cols, self.options.mines,
                                   first_click=(r, c), rule="no_guess",
                                   seed=int(b.board_seed[0]))
            b.set_board(0, np.ascontiguousarray(board.mines, np.uint8))
        b.step(self._action)
        return (self._observation(), float(b.reward[0]), bool(b.terminated[0]),
                bool(b.truncated[0]), self._info())

    def action_masks(self) -> NDArray[np.bool_]:
        """The valid actions now (a copy of ``info["action_mask"]``), for maskable algorithms.

        Returns
        -------
        numpy.ndarray
            bool, one per action.
        """
        mask: NDArray[np.bool_] = self._batch.mask[0].copy()
        return mask

    def random_reveal(self) -> int:
        """A uniformly random valid reveal, from this environment's own stream
        (seeded by ``reset(seed=...)``, as the boards are).

        Returns
        -------
        int
            The action.
        """
        out = np.zeros(1, np.int64)
        self._batch.sample(out, False)
        return int(out[0])

    def render(self) -> str | NDArray[np.uint8] | None:
        """The current view as text (``"ansi"``) or an image (``"rgb_array"``).

        Returns
        -------
        str or numpy.ndarray or None
            The text, or a uint8 (rows * 16, cols * 16, 3) image (fewer pixels a
            cell on a board too large for :data:`fastmine.env.render.MAX_RENDER_BYTES`:
            :func:`fastmine.env.render.cell_size`); None without a ``render_mode``.
        """
        if self.render_mode is None:
            gym.logger.warn("render() was called without a render_mode; set render_mode="
                            "'ansi' or 'rgb_array' when making the environment")
            return None
        view = self._batch.obs[0]
        return render.ansi(view) if self.render_mode == "ansi" else render.rgb_array(view)

    @property
    def board_seed(self) -> int:
        """The board seed of the current episode."""
        return int(self._batch.board_seed[0])

    @property
    def mine_mask(self) -> NDArray[np.bool_]:
        """Where the mines are (a copy; all False before the first reveal lays them).
        For tests and analysis: an agent that reads it is cheating."""
        return self._batch.mine_mask(0)

    # ------------------------------------------------------------ internals

    def _observation(self) -> dict[str, NDArray[Any]]:
        b = self._batch
        view = b.obs[0]
        return {"view": one_hot_planes(view) if self.options.one_hot else view.copy(),
                "mines_left": b.mines_left.copy()}          # (1,): the batch of one's

    def _info(self) -> dict[str, Any]:
        b = self._batch
        # The board seed as a NumPy uint64: Gymnasium's vector wrappers batch an
        # int info into int64, which 64-bit seeds overflow.
        info: dict[str, Any] = {"action_mask": b.mask[0].copy(),
                                "board_seed": b.board_seed[0].copy(), "won": bool(b.won[0])}
        if self.options.labels:
            over = int(b.phase[0]) in (_batch.WON, _batch.LOST)
            info["probabilities"] = labels(b.obs[0], self.options.mines, over=over,
                                           mine_mask=b.mine_mask(0) if over else None)
        return info
