"""B Minesweeper games stepped together by one Cython kernel call.

``gymnasium.make_vec("fastmine/Minesweeper-v0", num_envs=B,
vectorization_mode="vector_entry_point")`` makes one.  The games play exactly
as B :class:`~fastmine.env.MinesweeperEnv` would with the same seeds (game i of
``reset(seed=s)`` is the single environment reset with ``seed=s + i``); a game
whose episode ends starts a new one at its next step (Gymnasium's next-step
auto-reset: that step ignores its action and returns the new episode's first
observation, reward 0), or at once (``autoreset_mode=AutoresetMode.SAME_STEP``),
or only when reset (``DISABLED``): see :mod:`fastmine.env.autoreset`.
"""

from __future__ import annotations

import sys
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from .. import Board, GameOverError
from .._frozen import frozen
from .._validate import is_integer
from . import render
from .autoreset import autoreset_mode as _autoreset_mode
from .autoreset import final_entries, with_masks
from .batch_labels import BatchLabels
from .options import Options, one_hot_planes
from .seeds import vector_seeds

__all__ = ["MinesweeperVectorEnv", "check_actions"]

_INT64 = np.dtype(np.int64)     # (NumPy keeps one dtype object of each built-in type)
_STRIDE = (8,)                  # an int64 array's strides in C order


def check_actions(actions: object, num_envs: int, n_actions: int, *,
                  in_range: bool = True) -> NDArray[np.int64]:
    """``actions`` as a new int64 array of shape ``(num_envs,)``, each in range.

    ``in_range=False`` leaves the range to the caller (the batch kernel checks
    each action as it copies it, with the same message) and hands back an
    int64 array that may be ``actions`` itself.

    Raises
    ------
    TypeError
        Not integers (bools and floats are refused).
    ValueError
        The wrong shape, or an action out of range (the message names the first).
    """
    arr = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"actions must be integers, got dtype {arr.dtype}")
    if arr.shape != (num_envs,):
        raise ValueError(f"actions must have shape ({num_envs},), one per environment, "
                         f"got {arr.shape}")
    if not in_range and arr.dtype != np.uint64:       # (a uint64 could wrap in int64)
        return np.ascontiguousarray(arr, np.int64)
    bad = (arr < 0) | (arr >= n_actions)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"action {int(arr[i])} of environment {i} is out of range "
                         f"(0 to {n_actions - 1})")
    # A private copy: the kernel reads it without the GIL, while the caller's
    # array could be changed by another thread.
    return arr.astype(np.int64, copy=True)


class MinesweeperVectorEnv(VectorEnv[dict[str, NDArray[Any]], NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` Minesweeper games in one kernel (see the module docstring).

    Parameters
    ----------
    num_envs : int
        How many games (B).
    copy : bool
        True (default): every step returns new arrays.  False: the
        observation, reward, termination and mask arrays are the environment's
        own, read-only, overwritten by the next step (faster; copy what you keep).
    render_mode : str, optional
        ``"ansi"`` or ``"rgb_array"``, as :class:`~fastmine.env.MinesweeperEnv`.
    autoreset_mode : gymnasium.vector.AutoresetMode or str
        ``NEXT_STEP`` (default), ``SAME_STEP`` or ``DISABLED``, as Gymnasium 1.x
        defines them (:mod:`fastmine.env.autoreset`); also in ``metadata``.
    rows, cols, mines, rule, flags, chord, one_hot, invalid, rewards, max_steps, labels
        As :class:`~fastmine.env.MinesweeperEnv`.

    Raises
    ------
    TypeError, ValueError
        A bad argument, or more games than fit in
        :data:`fastmine.env.options.MAX_BATCH_BYTES` (4 GiB; checked before
        anything of the batch's size is allocated).

    Notes
    -----
    Observations: ``{"view": int8 (B, rows, cols), "mines_left": int32 (B, 1)}``,
    the view written by the kernel into one preallocated array.  Info:
    ``action_mask`` (B, actions), ``board_seed`` (B,), ``won`` (B,), and with
    ``labels`` ``probabilities`` (B, rows, cols) (a solver call per game and
    step: slow); each entry ``key`` with its ``_key`` mask (bool (B,): the
    games that have it), as Gymnasium's sync and async vector environments
    give them.  Rewards, terminations and truncations: (B,) arrays.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4,
                                "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, *, copy: bool = True, render_mode: str | None = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 rows: int = 16, cols: int = 16, mines: int = 40, rule: str = "opening",
                 flags: bool = False, chord: bool = False, one_hot: bool = False,
                 invalid: str = "end", rewards: object = None, max_steps: int | None = None,
                 labels: bool = False) -> None:
        if not is_integer(num_envs):
            raise TypeError(f"num_envs must be an integer, got {type(num_envs).__name__}")
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        if not isinstance(copy, (bool, np.bool_)):
            raise TypeError("copy must be True or False")
        self.options = Options.make(rows, cols, mines, rule, flags=flags, chord=chord,
                                    one_hot=one_hot, invalid=invalid, rewards=rewards,
                                    max_steps=max_steps, labels=labels)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r:.40}")
        self.autoreset_mode = _autoreset_mode(autoreset_mode)
        # The instance's own metadata: Gymnasium's make_vec reads the mode from it.
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.num_envs = int(num_envs)
        self._one_each = (self.num_envs,)
        self.render_mode = render_mode
        self.copy = bool(copy)
        # The memory budget is checked (in Options.batch) before anything of the
        # batch's size is allocated, the batched spaces' bounds included.
        self._batch = self.options.batch(self.num_envs)
        self.single_observation_space = self.options.observation_space()
        self.single_action_space = self.options.action_space()
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        # SAME_STEP: the step's rewards and ends, kept apart from the kernel's
        # (which the same-step reset clears); copy=False hands these out.
        self._held = (np.zeros(self.num_envs, np.float64), np.zeros(self.num_envs, np.bool_),
                      np.zeros(self.num_envs, np.bool_))
        self._have_all = _read_only(np.ones(self.num_envs, np.bool_))
        self._pool: tuple[list[NDArray[Any]], list[NDArray[Any]]] = ([], [])
        self._labeller = self._new_labeller()
        self._need = np.zeros(self.num_envs, np.uint8)
        self._all = np.ones(self.num_envs, np.uint8)
        self._seeded = np.zeros(self.num_envs, bool)
        self._started = False
        self._planes = (np.zeros((self.num_envs, 14, self.options.rows, self.options.cols), np.uint8)
                        if self.options.one_hot else None)
        self._out = self._views()

    # ------------------------------------------------------------------ API

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, NDArray[Any]], dict[str, Any]]:
        """Start new episodes; returns ``(observations, info)``.

        ``seed``: None, an int ``s`` (game i gets ``s + i``) or one int or None
        per game.  ``options={"reset_mask": mask}`` (bool, one per game) resets
        only those games (the others go on as they were).

        Parameters
        ----------
        seed : int or list, optional
            See above.
        options : dict, optional
            See above.

        Returns
        -------
        observations : dict
            The views, (B, ...) arrays.
        info : dict
            Per game, as a single environment's, in (B, ...) arrays.

        Raises
        ------
        TypeError, ValueError
            A bad seed or option.
        """
        seeds = vector_seeds(seed, self.num_envs)
        which = self._all
        if options:
            unknown = sorted(set(options) - {"reset_mask"})
            if unknown:
                raise ValueError(f"unknown reset option {unknown[0]!r}; the option is 'reset_mask'")
            mask = options["reset_mask"]
            if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_:
                raise TypeError("options['reset_mask'] must be a numpy array of bools")
            if mask.shape != (self.num_envs,):
                raise ValueError(f"options['reset_mask'] must have shape ({self.num_envs},), "
                                 f"got {mask.shape}")
            if not self._started and not mask.all():
                raise ValueError("the first reset must reset every environment")
            which = mask.astype(np.uint8)
        first = seed if isinstance(seed, int) else None
        super().reset(seed=first)
        # Games never seeded and given no seed draw one (from np_random: an unseeded
        # environment is seeded from the operating system's entropy).
        fresh = which.astype(bool) & ~self._seeded
        for i in np.flatnonzero(fresh):
            if seeds[i] is None:
                seeds[i] = int(self.np_random.integers(0, 2**64, dtype=np.uint64))
        given = np.array([s is not None for s in seeds]) & which.astype(bool)
        if given.any():
            values = np.array([0 if s is None else s for s in seeds], np.uint64)
            self._batch.seed(given.astype(np.uint8), values)
            self._seeded |= given
        self._batch.reset(which)
        self._started = True
        if which is self._all:
            return self._observations(), self._info()
        # Only the games reset have an info, as in Gymnasium's vector environments.
        have = which.astype(bool)
        info = {k: np.where(have.reshape(-1, *([1] * (v.ndim - 1))), v, np.zeros_like(v))
                for k, v in self._info(masks=False).items()}
        return self._observations(), with_masks(info, have)

    def step(self, actions: object) -> tuple[dict[str, NDArray[Any]], NDArray[np.float64],
                                             NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        """Step every game; returns ``(observations, rewards, terminations,
        truncations, info)``.

        Parameters
        ----------
        actions : array_like
            One action per game (int, length B).

        Returns
        -------
        observations : dict
            The views after the actions.
        rewards : numpy.ndarray
            float64 (B,).
        terminations, truncations : numpy.ndarray
            bool (B,).
        info : dict
            Per game, in (B, ...) arrays.

        Raises
        ------
        TypeError, ValueError
            Bad actions (wrong dtype, shape or range): nothing changes.
        fastmine.GameOverError
            Before the first :meth:`reset`.
        fastmine.NoGuessTimeoutError
            ``rule="no_guess"`` and no solvable board was found in time.
        """
        # The range is the kernel's to check (as it copies the actions; a bad
        # one changes nothing), except before the no-guess boards are laid.
        # An int64 array of one action a game, in C order, goes to it as it is
        # (what check_actions would hand back) without the checks' NumPy calls.
        if (type(actions) is np.ndarray and actions.dtype is _INT64
                and actions.shape == self._one_each and actions.strides == _STRIDE
                and self.options.rule != "no_guess"):
            a = actions
        else:
            a = check_actions(actions, self.num_envs, self.options.n_actions,
                              in_range=self.options.rule == "no_guess")
        if not self._started:
            raise GameOverError("call reset() before the first step")
        b = self._batch
        if self.autoreset_mode is AutoresetMode.DISABLED and b.done.any():
            i = int(np.argmax(b.done))
            raise GameOverError(f"the episode of environment {i} has ended and autoreset_mode "
                                "is DISABLED: reset the ended games first, with "
                                "reset(options={'reset_mask': terminations | truncations})")
        if self.options.rule == "no_guess" and b.needs_board(a, self._need):
            self._lay_no_guess(a)
        if self.copy and self._planes is None and self.autoreset_mode is not AutoresetMode.SAME_STEP:
            # The default path: the kernel writes each game's outputs into new
            # arrays right after stepping it (one pass over the batch, where
            # copies after the step made one pass an array over memory), and
            # makes the small ones itself: between two steps of a batch larger
            # than the cache, little of the interpreter's and NumPy's own
            # memory is still cached, and every NumPy call there cost
            # microseconds.
            view, mask = self._buffers()
            reward, term, trunc, left, seed, won, *every = b.step_copy(a, view, mask)
            if self._labeller is None:
                info = {"action_mask": mask, "board_seed": seed, "won": won,
                        "_action_mask": every[0], "_board_seed": every[1], "_won": every[2]}
            else:
                info = self._info(given={"action_mask": mask, "board_seed": seed, "won": won})
            return {"view": view, "mines_left": left}, reward, term, trunc, info
        b.step(a)
        if self.autoreset_mode is AutoresetMode.SAME_STEP:
            return self._same_step()
        out = self._out
        if self.copy:
            return (self._observations(), b.reward.copy(), b.terminated.copy(),
                    b.truncated.copy(), self._info())
        return (self._observations(), out["reward"], out["terminated"], out["truncated"],
                self._info())

    def _buffers(self) -> tuple[NDArray[np.int8], NDArray[np.bool_]]:
        """New view and mask arrays for a copy=True step: ones handed out earlier
        that nobody holds any more (the only reference is this pool's: no
        variable, view, info dict or tensor keeps it), else new ones.

        Why: a batch's arrays are large (480 KiB each at Expert, B=1024), and
        fresh ones came from the operating system every step (page faults cost
        as much as the step's copies); an array the caller dropped is as new
        to them as a fresh one, and still in the cache.  Views and masks are
        pooled apart: a caller often keeps the info (its mask) a step longer
        than the observation.
        """
        b = self._batch
        return _reuse(self._pool[0], b.obs), _reuse(self._pool[1], b.mask)

    def _same_step(self) -> tuple[dict[str, NDArray[Any]], NDArray[np.float64],
                                  NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        """The rest of a SAME_STEP step: the ended games' final observation and
        info kept, the games reset at once (as Gymnasium's SyncVectorEnv does)."""
        b = self._batch
        held = self._held
        for dst, src in zip(held, (b.reward, b.terminated, b.truncated), strict=True):
            np.copyto(dst, src)
        ended = b.done.copy()
        extra: dict[str, Any] = {}
        if ended.any():
            last = self._observations(fresh=True)
            extra = final_entries(ended, last, self._info(masks=False, fresh=True))
            b.reset(ended.view(np.uint8))
        obs, info = self._observations(), self._info()
        info.update(extra)
        if self.copy:
            return obs, held[0].copy(), held[1].copy(), held[2].copy(), info
        ro = tuple(_read_only(h) for h in held)
        return obs, ro[0], ro[1], ro[2], info

    def action_masks(self) -> NDArray[np.bool_]:
        """The valid actions of every game now, (B, actions) (a copy).

        Returns
        -------
        numpy.ndarray
            bool (B, actions).
        """
        mask: NDArray[np.bool_] = self._batch.mask.copy()
        return mask

    def random_reveals(self) -> NDArray[np.int64]:
        """A uniformly random valid reveal for every game, each from its game's own
        stream (seeded by ``reset(seed=...)``: game i draws what a single
        environment reset with seed ``s + i`` draws from :meth:`~fastmine.env.MinesweeperEnv.random_reveal`).

        Returns
        -------
        numpy.ndarray
            int64 (B,): one action per game.
        """
        return self._batch.sample(None, False)      # (a new array, made by the kernel)

    def render(self) -> tuple[Any, ...] | None:
        """Every game's view as text or an image (``render_mode``), in a tuple.

        Returns
        -------
        tuple or None
            One text or image per game; None without a ``render_mode``.  The
            images together stay within :data:`fastmine.env.render.MAX_RENDER_BYTES`
            (fewer pixels a cell when needed).

        Raises
        ------
        ValueError
            Too many games to draw within that budget even at one pixel a cell.
        """
        if self.render_mode is None:
            gym.logger.warn("render() was called without a render_mode")
            return None
        if self.render_mode == "ansi":
            return tuple(render.ansi(v) for v in self._batch.obs)
        # One pixel size for the whole batch, within render.MAX_RENDER_BYTES.
        cell = render.cell_size(self.options.rows, self.options.cols, self.num_envs)
        return tuple(render.rgb_array(v, cell) for v in self._batch.obs)

    @property
    def board_seeds(self) -> NDArray[np.uint64]:
        """The board seed of every game's current episode (a copy)."""
        seeds: NDArray[np.uint64] = self._batch.board_seed.copy()
        return seeds

    def mine_mask(self, i: int) -> NDArray[np.bool_]:
        """Where game i's mines are (for tests and analysis; an agent reading it cheats).

        Parameters
        ----------
        i : int
            The game, 0 to B - 1.

        Returns
        -------
        numpy.ndarray
            bool (rows, cols), a copy.

        Raises
        ------
        ValueError
            ``i`` is out of range.
        """
        if not 0 <= i < self.num_envs:
            raise ValueError(f"there are {self.num_envs} environments; got index {i}")
        return self._batch.mine_mask(i)

    # ------------------------------------------------------------ internals

    def _views(self) -> dict[str, NDArray[Any]]:
        """What copy=False hands out: read-only views of the kernel's arrays."""
        views = {name: _read_only(getattr(self._batch, name)) for name in
                 ("obs", "reward", "terminated", "truncated", "mask", "board_seed", "won")}
        views["mines_left"] = _read_only(self._batch.mines_left.reshape(self.num_envs, 1))
        return views

    def __getstate__(self) -> dict[str, Any]:
        # copy.deepcopy and pickle: the views are made again from the copy's own
        # kernel (copied as they are, they would be arrays of their own, and a
        # copy=False step would hand out ones it never writes).
        state = self.__dict__.copy()
        del state["_out"]
        state["_pool"] = ([], [])   # (arrays handed out: not the copy's to reuse)
        state["_labeller"] = None   # (a solver workspace: made again, it counts afresh)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._out = self._views()
        self._labeller = self._new_labeller()

    def _new_labeller(self) -> BatchLabels | None:
        o = self.options
        return BatchLabels(self.num_envs, o.rows, o.cols, o.mines) if o.labels else None

    def _lay_no_guess(self, a: NDArray[np.int64]) -> None:
        """Lay the no-guess boards of the games this step starts (all found
        before any is given, so a timeout changes nothing)."""
        o, b = self.options, self._batch
        boards = []
        for i in np.flatnonzero(self._need).tolist():
            r, c = divmod(int(a[i]), o.cols)
            board = Board.generate(o.rows, o.cols, o.mines, first_click=(r, c), rule="no_guess",
                                   seed=int(b.board_seed[i]))
            boards.append((i, np.ascontiguousarray(board.mines, np.uint8)))
        for i, mines in boards:
            b.set_board(i, mines)

    def _observations(self, fresh: bool = False) -> dict[str, NDArray[Any]]:
        """The observations; new arrays with copy=True or ``fresh``, else the env's own."""
        b, out = self._batch, self._out
        copy = self.copy or fresh
        if self._planes is not None:
            view = (one_hot_planes(b.obs) if copy
                    else _read_only(one_hot_planes(b.obs, self._planes)))
        else:
            view = b.obs.copy() if copy else out["obs"]
        left = b.mines_left.reshape(self.num_envs, 1).copy() if copy else out["mines_left"]
        return {"view": view, "mines_left": left}

    def _info(self, masks: bool = True, fresh: bool = False,
              given: dict[str, Any] | None = None) -> dict[str, Any]:
        """Every game's info, with its ``_key`` masks (every game has every entry);
        ``given``: its arrays, written by the kernel already (copy=True)."""
        b = self._batch
        copy = self.copy or fresh
        if given is not None:
            info: dict[str, Any] = given
        elif copy:
            info = {"action_mask": b.mask.copy(), "board_seed": b.board_seed.copy(),
                    "won": b.won.copy()}
        else:
            info = {k: self._out[n] for k, n in (("action_mask", "mask"),
                                                  ("board_seed", "board_seed"), ("won", "won"))}
        if self._labeller is not None:
            info["probabilities"] = self._labeller.compute(self._batch)
        if not masks:
            return info
        if copy:
            # Every mask new, as every array of a copy=True step: rows of one
            # allocation (one call where one a key cost as much as the kernel's
            # step of 64 games).
            keys = list(info)
            for key, row in zip(keys, np.ones((len(keys), self.num_envs), np.bool_), strict=True):
                info[f"_{key}"] = row
            return info
        return with_masks(info, self._have_all)


def _held_by_list_only(pool: list[NDArray[Any]], k: int) -> int:
    """getrefcount of ``pool[k]`` as :func:`_reuse` sees it."""
    return sys.getrefcount(pool[k])


# What that count is for an array only its list holds (2 on CPython up to 3.13:
# the list and getrefcount's argument), measured rather than assumed, so an
# interpreter that counts otherwise never reuses an array someone holds.
_FREE = _held_by_list_only([np.empty(0)], 0)


def _reuse(pool: list[NDArray[Any]], like: NDArray[Any]) -> NDArray[Any]:
    """An array of ``pool`` nobody else holds, else a new one like ``like`` (kept
    in the pool, up to 4)."""
    for k in range(len(pool)):
        if _held_by_list_only(pool, k) <= _FREE:
            if not pool[k].flags.writeable:
                # Its last holder made it read-only: the kernel cannot write
                # it (and should not undo the holder's choice), so a new one.
                pool[k] = np.empty_like(like)
            return pool[k]
    arr = np.empty_like(like)
    if len(pool) < 4:
        pool.append(arr)
    return arr


def _read_only(a: NDArray[Any]) -> NDArray[Any]:
    # frozen: a plain read-only view can be flagged writable again by the caller,
    # who would then write into the arrays the kernel reads (fastmine._frozen)
    return frozen(a)
