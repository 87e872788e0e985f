"""The batched environment as a Stable-Baselines3 ``VecEnv`` (action masks included).

Stable-Baselines3 takes a Gymnasium environment one game at a time (through its
``DummyVecEnv``); :class:`MinesweeperSB3VecEnv` hands it the batched kernel
instead, B games a step, with the ``VecEnv`` contract SB3 defines: same-step
reset, ``dones``, one info dict per game (``terminal_observation`` and
``TimeLimit.truncated`` where an episode ended), float32 rewards, and
``env_method("action_masks")`` for sb3-contrib's ``MaskablePPO``::

    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor
    from fastmine.env.sb3 import MinesweeperSB3VecEnv

    envs = VecMonitor(MinesweeperSB3VecEnv(64, rows=9, cols=9, mines=10))
    model = MaskablePPO("MultiInputPolicy", envs, n_steps=32).learn(100_000)

It steps exactly as ``DummyVecEnv`` over 64 :class:`~fastmine.env.MinesweeperEnv`
seeded ``s + i`` would (tests/env/test_env_sb3.py compares them).  The module
imports without Stable-Baselines3; where SB3 is installed, the class is
registered as a virtual subclass of its ``VecEnv`` (what SB3's algorithms and
wrappers check).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode
from numpy.typing import NDArray

from .vector import MinesweeperVectorEnv

__all__ = ["MinesweeperSB3VecEnv"]


class MinesweeperSB3VecEnv:
    """B Minesweeper games as one Stable-Baselines3 ``VecEnv``.

    Parameters
    ----------
    num_envs : int
        How many games (B).
    **settings
        The game's settings, as :class:`~fastmine.env.MinesweeperVectorEnv`
        takes them (``rows``, ``cols``, ``mines``, ``rule``, ``flags``, ...;
        ``render_mode``); not ``copy`` or ``autoreset_mode`` (SB3 needs new
        arrays every step and same-step reset).

    Raises
    ------
    TypeError, ValueError
        A bad setting.

    Notes
    -----
    ``observation_space`` and ``action_space`` are one game's (as SB3 defines
    them).  ``env`` is the batched environment underneath.  ``seed(s)`` makes
    the next ``reset()`` seed game i with ``s + i``, as SB3's own ``VecEnv``.
    """

    def __init__(self, num_envs: int = 8, **settings: Any) -> None:
        for name in ("copy", "autoreset_mode"):
            if name in settings:
                raise ValueError(f"{name} is fixed for Stable-Baselines3 (new arrays every "
                                 "step, same-step reset); leave it out")
        self.env = MinesweeperVectorEnv(num_envs, copy=True,
                                        autoreset_mode=AutoresetMode.SAME_STEP, **settings)
        self.num_envs = self.env.num_envs
        self.observation_space = self.env.single_observation_space
        self.action_space = self.env.single_action_space
        self.render_mode = self.env.render_mode
        modes = {"rgb_array": ["human", "rgb_array"], "ansi": ["ansi"]}
        self.metadata: dict[str, Any] = {"render_modes": modes.get(str(self.render_mode), [])}
        self.reset_infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        self._seeds: list[int | None] = [None] * self.num_envs
        self._actions: NDArray[Any] | None = None

    # ------------------------------------------------------------ VecEnv API

    def reset(self) -> dict[str, NDArray[Any]]:
        """Start a new episode in every game; returns the observations.

        Returns
        -------
        dict
            ``view`` and ``mines_left``, one row per game.
        """
        seeds = self._seeds
        obs, info = self.env.reset(seed=None if all(s is None for s in seeds) else list(seeds))
        self.reset_infos = self._per_game(info)
        self._seeds = [None] * self.num_envs
        return obs

    def step_async(self, actions: NDArray[Any]) -> None:
        """Keep ``actions`` (one per game) for :meth:`step_wait`."""
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[dict[str, NDArray[Any]], NDArray[np.float32],
                                 NDArray[np.bool_], list[dict[str, Any]]]:
        """Step every game with the kept actions.

        Returns
        -------
        observations : dict
            After the step; a game whose episode ended shows its new episode.
        rewards : numpy.ndarray
            float32 (B,).
        dones : numpy.ndarray
            bool (B,): terminated or truncated.
        infos : list of dict
            One per game: its step info (``action_mask``, ``board_seed``,
            ``won``), ``TimeLimit.truncated``, and where the episode ended
            ``terminal_observation`` (its last observation).

        Raises
        ------
        RuntimeError
            No actions were given (:meth:`step_async`).
        """
        if self._actions is None:
            raise RuntimeError("call step_async(actions) before step_wait()")
        actions, self._actions = self._actions, None
        obs, rewards, terminated, truncated, info = self.env.step(actions)
        dones = terminated | truncated
        infos = self._per_game(info)
        for i in np.flatnonzero(dones).tolist():
            # The ended episode's last info goes to the step, the new one's to reset_infos.
            self.reset_infos[i] = infos[i]
            final = info["final_info"]
            infos[i] = {k: _item(final[k][i]) for k in final if not k.startswith("_")}
            infos[i]["terminal_observation"] = info["final_obs"][i]
        for i, info_i in enumerate(infos):
            info_i["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs, rewards.astype(np.float32), dones, infos

    def step(self, actions: NDArray[Any]) -> tuple[dict[str, NDArray[Any]], NDArray[np.float32],
                                                   NDArray[np.bool_], list[dict[str, Any]]]:
        """:meth:`step_async` then :meth:`step_wait`."""
        self.step_async(actions)
        return self.step_wait()

    def close(self) -> None:
        """Nothing to release (the games live in this process)."""
        self.env.close()

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seed game i with ``seed + i`` at the next :meth:`reset` (a random
        ``seed`` when None, as SB3's ``VecEnv``); returns the seeds."""
        if seed is None:
            seed = int(np.random.randint(0, np.iinfo(np.uint32).max, dtype=np.uint32))
        self._seeds = [seed + i for i in range(self.num_envs)]
        return list(self._seeds)

    def set_options(self, options: list[dict[str, Any]] | dict[str, Any] | None = None) -> None:
        """The games take no reset options; only None or empty ones are accepted.

        Raises
        ------
        ValueError
            A non-empty option.
        """
        items = options if isinstance(options, list) else [options or {}]
        if any(items):
            raise ValueError("the Minesweeper games take no reset options through "
                             "Stable-Baselines3 (seed them with seed())")

    def action_masks(self) -> NDArray[np.bool_]:
        """The valid actions of every game, bool (B, actions)."""
        return self.env.action_masks()

    def has_attr(self, attr_name: str) -> bool:
        """Whether the games have ``attr_name`` (``action_masks`` for MaskablePPO)."""
        return hasattr(self.env, attr_name)

    def get_attr(self, attr_name: str, indices: None | int | Iterable[int] = None) -> list[Any]:
        """``attr_name`` of the games (they share their settings: one value repeated).

        Raises
        ------
        AttributeError
            The games have no such attribute.
        """
        value = getattr(self.env, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: None | int | Iterable[int] = None
                 ) -> None:
        """Set ``attr_name`` of the batched environment (shared by every game).

        Raises
        ------
        ValueError
            ``indices`` names some games only: their settings are shared.
        """
        if len(self._indices(indices)) != self.num_envs:
            raise ValueError("the games share one environment: set an attribute of all of them")
        setattr(self.env, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any,
                   indices: None | int | Iterable[int] = None, **method_kwargs: Any) -> list[Any]:
        """Call a method for each game: ``action_masks`` (each game's mask) is the
        one per-game method; any other is called once on the batched environment
        and its result given to every game named.

        Raises
        ------
        AttributeError
            No such method.
        """
        which = self._indices(indices)
        if method_name == "action_masks":
            masks = self.env.action_masks()
            return [masks[i] for i in which]
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result for _ in which]

    def env_is_wrapped(self, wrapper_class: type, indices: None | int | Iterable[int] = None
                       ) -> list[bool]:
        """No game is wrapped in a Gymnasium wrapper (use SB3's ``VecMonitor``)."""
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[NDArray[np.uint8] | None]:
        """Every game's image (``render_mode="rgb_array"``), else Nones."""
        if self.render_mode != "rgb_array":
            return [None] * self.num_envs
        return list(self.env.render() or ())

    def render(self, mode: str | None = None) -> NDArray[np.uint8] | None:
        """The games' images tiled in one (``render_mode="rgb_array"``), else None."""
        images = [im for im in self.get_images() if im is not None]
        if not images:
            return None
        n = len(images)
        cols = int(np.ceil(np.sqrt(n)))
        rows = -(-n // cols)
        h, w, c = images[0].shape
        grid = np.zeros((rows * h, cols * w, c), np.uint8)
        for k, im in enumerate(images):
            r, q = divmod(k, cols)
            grid[r * h:(r + 1) * h, q * w:(q + 1) * w] = im
        return grid

    @property
    def unwrapped(self) -> MinesweeperSB3VecEnv:
        """This adapter (SB3's wrappers ask for it)."""
        return self

    def getattr_depth_check(self, name: str, already_found: bool) -> str | None:
        """What SB3's ``VecEnvWrapper`` asks of the environment it wraps."""
        if hasattr(self, name) and already_found:
            return f"{type(self).__module__}.{type(self).__name__}"
        return None

    # ------------------------------------------------------------ internals

    def _indices(self, indices: None | int | Iterable[int]) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, (int, np.integer)):
            return [int(indices)]
        return [int(i) for i in indices]

    def _per_game(self, info: dict[str, Any]) -> list[dict[str, Any]]:
        """The batched info as one dict per game (the entries a single env gives)."""
        keys = [k for k in ("action_mask", "board_seed", "won", "probabilities") if k in info]
        columns = [info[k] for k in keys]
        return [{k: _item(col[i]) for k, col in zip(keys, columns, strict=True)}
                for i in range(self.num_envs)]


def _item(value: Any) -> Any:
    """One game's entry as a single environment gives it (``won`` a bool)."""
    if isinstance(value, np.bool_):
        return bool(value)
    return value


try:        # SB3's algorithms and wrappers check isinstance(env, VecEnv).
    from stable_baselines3.common.vec_env import VecEnv as _VecEnv
except ImportError:         # pragma: no cover - depends on what is installed
    pass
else:
    _VecEnv.register(MinesweeperSB3VecEnv)
