"""The settings of a Minesweeper environment: size, rule, actions, rewards, spaces.

One :class:`Options` is shared by the single environment and the batched one,
so both check their arguments, build their spaces and lay out their actions the
same way.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from gymnasium import spaces

from .. import EXPLODED, FLAG, HIDDEN, MINE, RULES, WRONG_FLAG, Rule
from . import _batch

__all__ = ["INVALID_MODES", "MAX_BATCH_BYTES", "MAX_REWARD", "MAX_SIDE", "MAX_STEPS",
           "PLANE_CODES", "Options", "Rewards", "one_hot_planes"]

Invalid = Literal["end", "ignore"]
INVALID_MODES: tuple[Invalid, ...] = ("end", "ignore")
"""What an invalid action does: ``"end"`` the episode, or ``"ignore"`` it (the
game is left as it was); either way it earns :attr:`Rewards.invalid`."""

PLANE_CODES: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8, HIDDEN, FLAG, MINE, EXPLODED, WRONG_FLAG)
"""The view code of each one-hot plane, in plane order (``one_hot=True``)."""

MAX_SIDE = 1024
"""Most rows or columns of an environment's board."""

MAX_BATCH_BYTES = 4 * 2**30
"""Most bytes one environment may hold (4 GiB), its games' state, observations,
masks, one-hot planes, labels and batched spaces together, as
:meth:`Options.batch_bytes` counts them; checked before anything is allocated."""

MAX_STEPS = 2**63 - 1
"""Largest ``max_steps`` (the kernel counts steps in a signed 64-bit integer)."""

MAX_REWARD = 1e100
"""Largest size of a reward setting: sums of rewards stay finite."""


def _as_int(name: str, value: object) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, not a bool")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}") from None


def _as_bool(name: str, value: object) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r:.40}")
    return bool(value)


def _as_float(name: str, value: object) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer,
                                                                     np.floating)):
        raise TypeError(f"{name} must be a number, got {value!r:.40}")
    try:
        x = float(value)
    except OverflowError:       # an int too large for a float (10**400)
        raise ValueError(f"{name} must be a finite number of size at most {MAX_REWARD:g}, "
                         "got an integer too large for a float") from None
    if not math.isfinite(x) or abs(x) > MAX_REWARD:
        raise ValueError(f"{name} must be a finite number of size at most {MAX_REWARD:g}, "
                         f"got {x}")
    return x


@dataclass(frozen=True)
class Rewards:
    """What each outcome of a step earns.

    A won game that never made an invalid action returns ``progress + win``.

    Parameters
    ----------
    progress : float
        Earned for opening every safe cell of the board, shared equally: each
        safe cell a step opens earns ``progress / (rows * cols - mines)``
        (cells a flood fill opens count too).  Default 1.0.
    win : float
        Added on the step that opens the last safe cell.  Default 1.0.
    loss : float
        Added on the step that reveals a mine.  Default -1.0.
    invalid : float
        The whole reward of an invalid action (one that would change nothing:
        revealing an open or flagged cell, flagging an open cell, a chord that
        opens nothing).  Default -1.0.

    Raises
    ------
    TypeError, ValueError
        A value that is not a number, or not finite, or larger in size than
        :data:`MAX_REWARD`.
    """

    progress: float = 1.0
    win: float = 1.0
    loss: float = -1.0
    invalid: float = -1.0

    def __post_init__(self) -> None:
        for name in ("progress", "win", "loss", "invalid"):
            object.__setattr__(self, name, _as_float(f"rewards.{name}", getattr(self, name)))


def _rewards(value: object) -> Rewards:
    if value is None:
        return Rewards()
    if isinstance(value, Rewards):
        return value
    if isinstance(value, dict):
        unknown = sorted(set(value) - {"progress", "win", "loss", "invalid"})
        if unknown:
            raise ValueError(f"unknown reward {unknown[0]!r}; the rewards are progress, win, "
                             "loss and invalid")
        return Rewards(**value)
    raise TypeError(f"rewards must be a fastmine.env.Rewards or a dict, got {type(value).__name__}")


@dataclass(frozen=True)
class Options:
    """Checked settings of an environment (see :class:`fastmine.env.MinesweeperEnv`).

    Make one with :meth:`make`, which checks every argument.

    Parameters
    ----------
    rows, cols, mines, rule, flags, chord, one_hot, invalid, rewards, max_steps, labels
        As :class:`fastmine.env.MinesweeperEnv` takes them, checked.
    """

    rows: int
    cols: int
    mines: int
    rule: Rule
    flags: bool
    chord: bool
    one_hot: bool
    invalid: Invalid
    rewards: Rewards = field(default_factory=Rewards)
    max_steps: int | None = None
    labels: bool = False

    @classmethod
    def make(cls, rows: object = 16, cols: object = 16, mines: object = 40,
             rule: object = "opening", *, flags: object = False, chord: object = False,
             one_hot: object = False, invalid: object = "end", rewards: object = None,
             max_steps: object = None, labels: object = False) -> Options:
        """Check the arguments of an environment and return them as Options.

        Parameters
        ----------
        rows, cols, mines, rule, flags, chord, one_hot, invalid, rewards, max_steps, labels
            As :class:`fastmine.env.MinesweeperEnv` takes them.

        Returns
        -------
        Options
            The checked settings.

        Raises
        ------
        TypeError
            An argument of the wrong type (a bool for a number, a float for a count).
        ValueError
            A value out of range: a side outside 1..:data:`MAX_SIDE`, a mine count
            outside 1..cells-1, an unknown rule or invalid mode, chord actions
            without flag actions, a ``max_steps`` outside 1..:data:`MAX_STEPS`, a no-guess game no
            first click can make solvable.
        """
        r, c, m = _as_int("rows", rows), _as_int("cols", cols), _as_int("mines", mines)
        for name, side in (("rows", r), ("cols", c)):
            if not 1 <= side <= MAX_SIDE:
                raise ValueError(f"{name} must be from 1 to {MAX_SIDE}, got {side}")
        if r * c < 2:
            raise ValueError(f"a {r}x{c} board has no room for a mine and a safe cell")
        if not 1 <= m <= r * c - 1:
            raise ValueError(f"mines must be between 1 and {r * c - 1} on a {r}x{c} board, got {m}")
        if not isinstance(rule, str):
            raise TypeError(f"rule must be a string, one of {RULES}, got {type(rule).__name__}")
        if rule not in RULES:
            raise ValueError(f"unknown first-click rule {rule!r}; choose one of {RULES}")
        fl, ch = _as_bool("flags", flags), _as_bool("chord", chord)
        if ch and not fl:
            raise ValueError("chord=True needs flags=True: a chord opens the cells around "
                             "a number whose flags are all placed")
        if not isinstance(invalid, str) or invalid not in INVALID_MODES:
            raise ValueError(f"invalid must be one of {INVALID_MODES}, got {invalid!r:.40}")
        steps = None
        if max_steps is not None:
            steps = _as_int("max_steps", max_steps)
            if not 1 <= steps <= MAX_STEPS:
                raise ValueError(f"max_steps must be at least 1 and at most {MAX_STEPS} "
                                 f"(2**63 - 1), or None for no limit, got {steps}")
        if rule == "no_guess":
            from .. import Game

            Game(r, c, m, rule="no_guess")    # refuses a size no first click can make solvable
        return cls(r, c, m, rule, fl, ch, _as_bool("one_hot", one_hot),
                   invalid, _rewards(rewards), steps, _as_bool("labels", labels))

    @property
    def cells(self) -> int:
        """Cells of the board."""
        return self.rows * self.cols

    @property
    def n_actions(self) -> int:
        """Size of the action space: one block of ``rows * cols`` actions per kind."""
        return self.cells * (1 + self.flags + self.chord)

    @property
    def kinds(self) -> tuple[str, ...]:
        """The action kinds in block order: ``reveal``, then ``flag``, then ``chord``."""
        return ("reveal", "flag", "chord")[: 1 + self.flags + self.chord]

    def action(self, kind: str, row: int, col: int) -> int:
        """The action number of ``kind`` (``"reveal"``, ``"flag"``, ``"chord"``) at (row, col).

        Parameters
        ----------
        kind : {"reveal", "flag", "chord"}
            The action's kind (one of :attr:`kinds`).
        row, col : int
            The cell.

        Returns
        -------
        int
            The action number.

        Raises
        ------
        ValueError
            A kind this environment does not have, or a cell off the board.
        """
        if kind not in self.kinds:
            raise ValueError(f"this environment's actions are {', '.join(self.kinds)}, not {kind!r}")
        row, col = _as_int("row", row), _as_int("col", col)
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise ValueError(f"cell ({row}, {col}) is outside the {self.rows}x{self.cols} board")
        return self.kinds.index(kind) * self.cells + row * self.cols + col

    def decode(self, action: int) -> tuple[str, int, int]:
        """``(kind, row, col)`` of an action number (the inverse of :meth:`action`).

        Parameters
        ----------
        action : int
            An action number.

        Returns
        -------
        (str, int, int)
            Its kind, row and column.

        Raises
        ------
        TypeError, ValueError
            Not an action number of these settings.
        """
        a = _as_int("action", action)
        if not 0 <= a < self.n_actions:
            raise ValueError(f"action must be from 0 to {self.n_actions - 1}, got {a}")
        k, cell = divmod(a, self.cells)
        r, c = divmod(cell, self.cols)
        return self.kinds[k], r, c

    def observation_space(self) -> spaces.Dict:
        """The observation space of one game (see the module documentation of fastmine.env).

        Returns
        -------
        gymnasium.spaces.Dict
            ``view`` and ``mines_left``.
        """
        if self.one_hot:
            view: spaces.Box = spaces.Box(0, 1, (len(PLANE_CODES), self.rows, self.cols), np.uint8)
        else:
            view = spaces.Box(WRONG_FLAG, 8, (self.rows, self.cols), np.int8)
        # Shape (1,), not (): Stable-Baselines3's MultiInputPolicy (and MaskablePPO's)
        # flattens each entry from its second axis, which a 0-d entry lacks.
        left = spaces.Box(self.mines - self.cells, self.mines, (1,), np.int32)
        return spaces.Dict({"view": view, "mines_left": left})

    def action_space(self) -> spaces.Discrete:
        """The action space of one game: ``Discrete(rows * cols * kinds)``.

        Returns
        -------
        gymnasium.spaces.Discrete
            One action per kind and cell.
        """
        return spaces.Discrete(self.n_actions)

    def batch_bytes_per_game(self) -> int:
        """Bytes each game of an environment holds (an upper estimate; see :meth:`batch_bytes`).

        Returns
        -------
        int
            The kernel's state, the view and mask handed out, the batched
            spaces' bounds, one-hot planes and labels, of one game.
        """
        cells, padded = self.cells, (self.rows + 2) * (self.cols + 2)
        view = cells * (len(PLANE_CODES) if self.one_hot else 1)
        state = 3 * padded + cells + self.n_actions + 4 * self.mines + 80   # the kernel's
        spaces_ = 2 * view + 64                  # the batched spaces' low and high bounds
        step = view + self.n_actions + 64        # what a copy=True step hands out
        # one_hot: the planes kept, and the bool planes and their copy a step makes
        planes = 3 * view if self.one_hot else 0
        labels = 3 * 8 * cells if self.labels else 0     # probabilities: each game's, stacked
        return state + spaces_ + step + planes + labels

    def batch_bytes(self, n: int) -> int:
        """Bytes an environment of ``n`` games holds and hands out in one step, an
        upper estimate (checked against :data:`MAX_BATCH_BYTES`).

        Parameters
        ----------
        n : int
            How many games.

        Returns
        -------
        int
            The estimate: ``n`` times :meth:`batch_bytes_per_game` and the scratch
            arrays the games share.
        """
        return n * self.batch_bytes_per_game() + 32 * (self.rows + 2) * (self.cols + 2) + 64

    def batch(self, n: int) -> _batch.Batch:
        """A new kernel of ``n`` games with these settings (not yet seeded).

        Parameters
        ----------
        n : int
            How many games.

        Returns
        -------
        Batch
            The kernel's games.

        Raises
        ------
        ValueError
            More bytes than :data:`MAX_BATCH_BYTES` (checked before allocating).
        """
        need = self.batch_bytes(n)
        if need > MAX_BATCH_BYTES:
            most = max(0, (MAX_BATCH_BYTES - self.batch_bytes(0)) // self.batch_bytes_per_game())
            raise ValueError(f"{n} games of {self.rows}x{self.cols} with these settings need "
                             f"about {need / 2**30:,.1f} GiB, over the {MAX_BATCH_BYTES // 2**30} "
                             f"GiB an environment may hold: at most {most:,} games (fewer with "
                             "one_hot, flags, chord or labels)")
        rw = self.rewards
        return _batch.Batch(n, self.rows, self.cols, self.mines, _batch.RULE_CODES[self.rule],
                            self.flags, self.chord, self.invalid == "end", rw.progress, rw.win,
                            rw.loss, rw.invalid, self.max_steps or 0)


def one_hot_planes(view: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """One-hot planes of a view (``(..., rows, cols)`` int8 -> ``(..., 14, rows, cols)`` uint8).

    Plane ``k`` is 1 where the view shows :data:`PLANE_CODES` ``[k]``.
    """
    codes = np.array(PLANE_CODES, np.int8).reshape(-1, 1, 1)
    expanded = view[..., None, :, :]
    if out is None:
        planes: np.ndarray = np.equal(expanded, codes).view(np.uint8)
        return planes
    np.equal(expanded, codes, out=out.view(np.bool_))
    return out

