"""Screen profiles for app tests: phones in portrait and landscape, a desktop.

A profile is a window size in pixels plus Kivy's :data:`kivy.metrics.Metrics`
``density`` (pixels per dp) and ``fontscale`` (the system font size
preference), so ``dp()`` and ``sp()`` give what they would on that device.

Kivy reads the metrics when a kv rule is applied (``dp(56)`` in a kv
expression is evaluated once, when the widget is built), so a profile must be
applied *before* the app is started: :func:`start_app` does both, and the
``make_app`` fixture puts the metrics back to 1 at teardown.

>>> p = PROFILES["phone_360"]
>>> p.size, p.dp_size
((720, 1280), (360.0, 640.0))
>>> PROFILES["landscape"].landscape, PROFILES["phone_393"].landscape
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Profile:
    """A device: window size in pixels, density (px per dp) and font scale."""

    name: str
    size: tuple[int, int]
    density: float
    fontscale: float = 1.0

    @property
    def dp_size(self) -> tuple[float, float]:
        """The window size in dp."""
        return (self.size[0] / self.density, self.size[1] / self.density)

    @property
    def landscape(self) -> bool:
        """Wider than tall."""
        return self.size[0] > self.size[1]


PROFILES: dict[str, Profile] = {p.name: p for p in (
    Profile("phone_393", (1080, 2340), 2.75),          # a common 6.1" phone, 393 dp wide
    Profile("phone_360", (720, 1280), 2.0),            # the most common Android width
    Profile("phone_360_font13", (720, 1280), 2.0, 1.3),  # ... with large text
    Profile("landscape", (2340, 1080), 2.75),          # the 393-dp phone turned
    Profile("desktop", (1280, 800), 1.0),              # a small laptop screen
)}
"""Every profile by name."""

PHONES = ("phone_393", "phone_360", "phone_360_font13", "landscape")
"""The phone profiles (touch screens)."""

ALL = (*PHONES, "desktop")


def set_metrics(density: float = 1.0, fontscale: float = 1.0) -> None:
    """Set Kivy's density and font scale (``dp()`` and ``sp()`` follow at once)."""
    from kivy.metrics import Metrics

    Metrics.density = float(density)
    Metrics.fontscale = float(fontscale)


def apply_profile(window, profile: Profile | str) -> Profile:
    """Give the window the profile's size and Kivy the profile's metrics."""
    from kivy.base import EventLoop

    p = PROFILES[profile] if isinstance(profile, str) else profile
    set_metrics(p.density, p.fontscale)
    if tuple(window.size) != p.size:
        window.size = p.size
        EventLoop.idle()
    return p


def start_app(make_app, data_dir, profile: Profile | str, **config):
    """Start a fresh app (a :class:`kivydriver.Driver`) at ``profile``.

    ``make_app`` is the conftest fixture; ``config`` are settings as a previous
    run left them.  The driver gets a ``profile`` attribute.
    """
    p = PROFILES[profile] if isinstance(profile, str) else profile
    set_metrics(p.density, p.fontscale)  # before any widget of the app is built
    drv = make_app(data_dir, size=p.size, **config)
    drv.profile = p
    return drv


def box(widget) -> tuple[float, float, float, float]:
    """A widget's box (x0, y0, x1, y1) in window coordinates; the window's own for the window."""
    from kivy.core.window import WindowBase

    if isinstance(widget, WindowBase):
        return (0.0, 0.0, float(widget.width), float(widget.height))
    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.right, widget.top)
    return (x0, y0, x1, y1)


def inside(widget, container, slack: float = 0.5) -> bool:
    """True if the widget's box has a size and lies entirely inside the
    container's (the window, or another widget)."""
    x0, y0, x1, y1 = box(widget)
    cx0, cy0, cx1, cy1 = box(container)
    return (x0 >= cx0 - slack and y0 >= cy0 - slack and x1 <= cx1 + slack
            and y1 <= cy1 + slack and widget.width > 0 and widget.height > 0)
