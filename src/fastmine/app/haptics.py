"""A short vibration when a long press lands (plyer's vibrator).

Where there is no vibrator (a desktop, plyer missing, a phone without the
permission) :func:`vibrate` does nothing and says so by returning False;
after the first failure it stops trying, so a long press never pays for a
failing import twice.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.logger import Logger

PULSE = 0.03
"""Seconds of one haptic pulse: felt, not heard."""

_backend: Callable[[float], None] | None = None
_failed = False


def _plyer_vibrate(seconds: float) -> None:
    from plyer import vibrator

    vibrator.vibrate(seconds)


def set_backend(backend: Callable[[float], None] | None) -> None:
    """Use ``backend(seconds)`` instead of plyer (tests); None goes back to plyer."""
    global _backend, _failed
    _backend = backend
    _failed = False


def vibrate(seconds: float = PULSE) -> bool:
    """Vibrate for ``seconds``; True if a vibrator took the request."""
    global _failed
    if _failed:
        return False
    try:
        (_backend or _plyer_vibrate)(seconds)
    except Exception as exc:  # no vibrator here, no plyer, no permission: stay silent
        _failed = True
        Logger.info(f"fastmine: no vibration on this device ({type(exc).__name__})")
        return False
    return True
