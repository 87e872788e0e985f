"""Vibration: a short buzz when a hold lands, patterns on an explosion and a win.

The device's vibrator (plyer's, on Android and iOS) is probed once, at the
first buzz, and silently: plyer has no vibrator module on a desktop and, asked
for one anyway, prints a traceback on every first use; here the module is
looked for before anything is imported, so a desktop or a phone without a
vibrator (or without the permission) gets one quiet line in the log and no
buzz, ever, at no cost per long press.

Strengths (the setting *Vibration*): "off", "light", "strong".  plyer cannot
set an amplitude, so a strong buzz is a longer one.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Sequence

from kivy.logger import Logger

Pattern = tuple[float, ...]
"""Seconds: a wait, then on and off times alternately (plyer's pattern)."""

PULSE = 0.03
"""Seconds of one haptic pulse: felt, not heard."""

PATTERNS: dict[str, dict[str, Pattern]] = {
    "hold": {"light": (0.0, 0.02), "strong": (0.0, 0.05)},
    "explode": {"light": (0.0, 0.09, 0.06, 0.15), "strong": (0.0, 0.2, 0.08, 0.35)},
    "win": {"light": (0.0, 0.03, 0.09, 0.03, 0.09, 0.06),
            "strong": (0.0, 0.06, 0.09, 0.06, 0.09, 0.14)},
}
"""Event -> strength -> pattern: a tick for a hold, a double thump for an
explosion, three quick beats for a win."""

Backend = Callable[[Pattern], object]
"""Something that plays a pattern; what it returns is ignored."""

_backend: Backend | None = None  # set by tests
_device: Backend | None = None  # the probed vibrator
_probed = False


def set_backend(backend: Callable[[Pattern], object] | None) -> None:
    """Send patterns to ``backend(pattern)`` instead of the device (tests); None
    goes back to the device, probed again at the next buzz."""
    global _backend, _probed, _device
    _backend = backend
    _probed = False
    _device = None


def _probe() -> Backend | str:
    """The device's vibrator, or why there is none; never raises, never prints
    a traceback."""
    try:
        from plyer.utils import platform
    except ImportError:
        return "plyer is not installed"
    name = f"plyer.platforms.{platform}.vibrator"
    try:
        if importlib.util.find_spec(name) is None:
            return f"no vibrator on {platform}"  # a desktop: plyer has no module for it
        vib = importlib.import_module(name).instance()
        if not vib.exists():
            return "the device has no vibrator"
    except Exception as exc:  # no permission, no service, no jnius: no vibration
        return f"the vibrator cannot be used ({type(exc).__name__})"

    def play(pattern: Pattern) -> None:
        try:
            vib.pattern(list(pattern), -1)
        except NotImplementedError:  # a platform with one-shot vibration only
            vib.vibrate(sum(pattern[1::2]))

    return play


def available() -> bool:
    """Whether buzzes reach a vibrator (probes the device the first time)."""
    global _device, _probed
    if _backend is not None:
        return True
    if not _probed:
        _probed = True
        found = _probe()
        _device = None if isinstance(found, str) else found
        if isinstance(found, str):
            Logger.info(f"fastmine: no vibration: {found}")
    return _device is not None


def play(pattern: Sequence[float]) -> bool:
    """Vibrate ``pattern``; True if a vibrator took it."""
    global _device
    if not available():
        return False
    target = _backend or _device
    assert target is not None
    try:
        target(tuple(pattern))
    except Exception as exc:  # the vibrator went away (a revoked permission): stop trying
        Logger.info(f"fastmine: vibration stopped ({type(exc).__name__})")
        if _backend is None:
            _device = None
        return False
    return True


def buzz(event: str, strength: str) -> bool:
    """The pattern of ``event`` ("hold", "explode", "win") at ``strength``
    ("off", "light", "strong"); True if it was played.

    >>> buzz("explode", "off")
    False
    """
    pattern = PATTERNS.get(event, {}).get(strength)
    return False if pattern is None else play(pattern)


def vibrate(seconds: float = PULSE) -> bool:
    """One pulse of ``seconds``; True if a vibrator took it."""
    return play((0.0, seconds))
