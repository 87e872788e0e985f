"""The batched environment's auto-reset modes and the info layout Gymnasium's vector
environments give (``_key`` masks, ``final_obs`` and ``final_info``).

Gymnasium 1.x defines three modes (:class:`gymnasium.vector.AutoresetMode`):

- ``NEXT_STEP`` (the default): the step after the one that ends an episode
  ignores that game's action and returns the new episode's first observation;
- ``SAME_STEP``: the step that ends an episode resets the game at once and
  returns the new episode's first observation; the last observation of the
  ended episode is in ``info["final_obs"]`` and its info in
  ``info["final_info"]``;
- ``DISABLED``: nothing resets by itself; reset the ended games with
  ``reset(options={"reset_mask": terminations | truncations})``.

Every info entry ``key`` comes with ``info["_key"]``, a bool (B,) array of the
games that have it, as :class:`gymnasium.vector.SyncVectorEnv` builds them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode
from numpy.typing import NDArray

__all__ = ["AUTORESET_MODES", "autoreset_mode", "final_entries", "with_masks"]

AUTORESET_MODES: tuple[AutoresetMode, ...] = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP,
                                              AutoresetMode.DISABLED)
"""The auto-reset modes of :class:`~fastmine.env.MinesweeperVectorEnv` (all three of Gymnasium's)."""


def autoreset_mode(value: object) -> AutoresetMode:
    """``value`` as an :class:`~gymnasium.vector.AutoresetMode` (the enum or its value,
    such as ``"SameStep"``).

    Raises
    ------
    ValueError
        Not one of the modes.
    """
    if isinstance(value, AutoresetMode):
        return value
    for mode in AUTORESET_MODES:
        if isinstance(value, str) and value in (mode.value, mode.name):
            return mode
    raise ValueError(f"autoreset_mode must be one of {[m.value for m in AUTORESET_MODES]} "
                     f"(gymnasium.vector.AutoresetMode), got {value!r:.40}")


def with_masks(info: dict[str, Any], have: NDArray[np.bool_]) -> dict[str, Any]:
    """``info`` with a ``_key`` mask (``have``, one bool per game) beside every entry.

    ``have`` is shared by every mask; callers hand out a fresh or read-only one.
    """
    for key in list(info):
        info[f"_{key}"] = have
    return info


def final_entries(ended: NDArray[np.bool_], views: dict[str, NDArray[Any]],
                  info: dict[str, Any]) -> dict[str, Any]:
    """``final_obs``, ``final_info`` and their masks for the games where ``ended`` is set.

    Parameters
    ----------
    ended : numpy.ndarray
        bool (B,): the games whose episode this step ended.
    views : dict
        The observations of every game as the step left them (before the reset).
    info : dict
        The info of every game as the step left it, without masks.

    Returns
    -------
    dict
        ``final_obs`` (an object array: a game's last observation, or None),
        ``final_info`` (the same entries as ``info``, zero where a game did not
        end, each with its ``_key`` mask), ``_final_obs`` and ``_final_info``.
    """
    idx = np.flatnonzero(ended)
    final_obs = np.full(len(ended), None, dtype=object)
    for i in idx.tolist():
        final_obs[i] = {k: v[i].copy() for k, v in views.items()}
    final_info: dict[str, Any] = {}
    for key, value in info.items():
        arr = np.zeros_like(value)
        arr[idx] = value[idx]
        final_info[key] = arr
        final_info[f"_{key}"] = ended.copy()
    return {"final_obs": final_obs, "_final_obs": ended.copy(),
            "final_info": final_info, "_final_info": ended.copy()}
