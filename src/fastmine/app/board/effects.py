"""Short animations on the board: the long-press arming ring, the opening
cascade, the explosion on a loss and the win celebration.

Every effect draws into an :class:`~kivy.graphics.InstructionGroup` the
board owns and is stepped by one Clock event that runs only while an effect
is alive.  Effects start *after* the move's own work (the tiles are already
final underneath) and only add instructions over them, so turning them off
("reduce motion") changes nothing but the pictures, and a single-cell
reveal never pays for them.  The arming ring is feedback, not decoration:
it shows whatever the setting.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, InstructionGroup, Line, Mesh, Rectangle
from kivy.metrics import dp

from . import tiles as T

if TYPE_CHECKING:
    from ..kivytypes import ClockEvent
    from .boardview import BoardView

CASCADE_SPREAD = 0.32
"""Seconds for the opening's wave to cross the opened area."""
CASCADE_FADE = 0.14
"""Seconds each cell's cover takes to fade once the wave reaches it."""
CASCADE_BANDS = 12
EXPLOSION_TIME = 0.7
CELEBRATION_TIME = 1.8
CONFETTI = 70
CONFETTI_COLORS = [(0.95, 0.3, 0.3, 1), (1.0, 0.8, 0.2, 1), (0.3, 0.75, 0.4, 1),
                   (0.25, 0.55, 0.95, 1), (0.75, 0.4, 0.9, 1), (1.0, 0.55, 0.2, 1)]


class _Effect:
    """One running animation: ``step(t)`` draws it at ``t`` seconds, False when over."""

    group: InstructionGroup
    duration = 0.0

    def step(self, t: float) -> bool:
        raise NotImplementedError


class Cascade(_Effect):
    """Opened cells uncover in a wave from the cell that opened them: each
    band of cells keeps a hidden-tile cover that fades when the wave arrives.
    Drawn in cell units (inside the board's zoom)."""

    def __init__(self, board: BoardView, cells: np.ndarray, origin: tuple[int, int]) -> None:
        # each cell's quad as the board draws it (drawn cell units, turned or not):
        # the covers sit exactly on the cells and only their texture differs
        quads = board.cell_quads(cells)  # (n, 4, 4): x, y, u, v per corner
        corner = quads[:, 0, :2]
        o = board.cell_quads(np.array([origin]))[0, 0, :2]
        d = np.hypot(corner[:, 0] - o[0], corner[:, 1] - o[1])
        dmax = float(d.max()) or 1.0
        nb = max(1, min(CASCADE_BANDS, int(dmax) + 1))
        band = np.minimum((d / dmax * nb).astype(int), nb - 1)
        self.starts = np.arange(nb) / nb * CASCADE_SPREAD
        self.duration = CASCADE_SPREAD + CASCADE_FADE
        self.group = InstructionGroup()
        self.colors: list[Color] = []
        uv = board.atlas.uv[T.HIDDEN_T]  # (4, 2)
        for k in range(nb):
            v = quads[band == k]
            color = Color(1, 1, 1, 1)
            self.colors.append(color)
            self.group.add(color)
            if len(v) == 0:
                continue
            v[:, :, 2:] = uv
            idx = ((np.arange(len(v)) * 4)[:, None] + np.array([0, 1, 2, 2, 3, 0])).ravel()
            self.group.add(Mesh(vertices=v.reshape(-1), indices=idx.tolist(), mode="triangles",
                                texture=board.atlas.texture))

    def step(self, t: float) -> bool:
        for start, color in zip(self.starts, self.colors, strict=True):
            color.a = 1.0 - min(1.0, max(0.0, (t - start) / CASCADE_FADE))
        return t < self.duration


class Explosion(_Effect):
    """A flash and a shock ring spreading from the mine that went off
    (window-space, follows the cell if the board moves)."""

    duration = EXPLOSION_TIME

    def __init__(self, board: BoardView, cell: tuple[int, int]) -> None:
        self.board, self.cell = board, cell
        self.group = InstructionGroup()
        self.flash_color = Color(1.0, 0.55, 0.1, 0.9)
        self.flash = Ellipse(pos=(0, 0), size=(0, 0))
        self.ring_color = Color(1.0, 0.3, 0.15, 0.9)
        self.ring = Line(circle=(0, 0, 1), width=dp(3))
        for ins in (self.flash_color, self.flash, self.ring_color, self.ring):
            self.group.add(ins)

    def step(self, t: float) -> bool:
        x, y = self.board.cell_center(*self.cell)
        s = max(self.board.scale, dp(12))
        u = min(1.0, t / self.duration)
        ease = 1 - (1 - u) ** 3
        rf = s * (0.5 + 1.2 * ease)
        self.flash.pos, self.flash.size = (x - rf, y - rf), (2 * rf, 2 * rf)
        self.flash_color.a = 0.85 * (1 - u) ** 2
        rr = s * (0.6 + 4.5 * ease)
        self.ring.circle = (x, y, rr)
        self.ring.width = max(1.0, dp(5) * (1 - u))
        self.ring_color.a = 0.9 * (1 - u)
        return t < self.duration


class Celebration(_Effect):
    """Confetti falling over the board (window-space)."""

    duration = CELEBRATION_TIME

    def __init__(self, board: BoardView, seed: int | None = None) -> None:
        rng = random.Random(seed)
        self.board = board
        self.group = InstructionGroup()
        # each piece: its colour and rectangle, where it starts across and above
        # the board (fractions), its fall speed, and its sway's phase and frequency
        self.pieces: list[tuple[Color, Rectangle, float, float, float, float, float]] = []
        for _ in range(CONFETTI):
            color = Color(*rng.choice(CONFETTI_COLORS))
            w, h = dp(rng.uniform(5, 8)), dp(rng.uniform(8, 13))
            rect = Rectangle(pos=(0, 0), size=(w, h))
            self.group.add(color)
            self.group.add(rect)
            self.pieces.append((color, rect, rng.random(), rng.uniform(-0.25, 0.05),
                                rng.uniform(0.45, 0.9), rng.uniform(0, 2 * math.pi), rng.uniform(3, 7)))

    def step(self, t: float) -> bool:
        b = self.board
        fade = min(1.0, max(0.0, (self.duration - t) / 0.4))
        for color, rect, fx, fy, speed, phase, freq in self.pieces:
            x = b.x + fx * b.width + dp(14) * math.sin(phase + freq * t)
            y = b.top - (fy + speed * t) * b.height
            rect.pos = (x, y)
            color.a = fade
        return t < self.duration


class Effects:
    """The board's running animations and the one Clock event that steps them."""

    def __init__(self, cells_group: InstructionGroup, screen_group: InstructionGroup) -> None:
        self.cells_group = cells_group  # drawn in cell units, under the cursor
        self.screen_group = screen_group  # drawn in window units, over the board
        # each running effect, the group it draws in, and its age in seconds
        self.running: list[tuple[_Effect, InstructionGroup, float]] = []
        self._event: ClockEvent | None = None

    def start(self, effect: _Effect, in_cells: bool = False) -> _Effect:
        """Show ``effect`` from its first frame."""
        parent = self.cells_group if in_cells else self.screen_group
        parent.add(effect.group)
        self.running.append((effect, parent, 0.0))
        effect.step(0.0)
        if self._event is None:
            self._event = Clock.schedule_interval(self._step, 0)
        return effect

    def _step(self, dt: float) -> None:
        alive = []
        for effect, parent, t in self.running:
            t += dt
            if effect.step(t):
                alive.append((effect, parent, t))
            else:
                parent.remove(effect.group)
        self.running = alive
        if not alive:
            self._stop_clock()

    def _stop_clock(self) -> None:
        if self._event is not None:
            self._event.cancel()
            self._event = None

    def clear(self) -> None:
        """Stop and remove every effect (a new game)."""
        for effect, parent, _t in self.running:
            parent.remove(effect.group)
        self.running = []
        self._stop_clock()

    def kinds(self) -> list[str]:
        """Names of the effects running now (tests, the benchmark)."""
        return [type(e).__name__ for e, _p, _t in self.running]


class ArmingRing:
    """The ring that fills around a held finger until the long press fires.

    ``progress`` goes from 0 to 1 over ``delay`` seconds; a faint full ring
    shows the goal, a bold arc the part done.
    """

    def __init__(self, group: InstructionGroup) -> None:
        self.group = group
        self.progress = 0.0
        self.active = False
        self._delay = 0.4
        self._pos = (0.0, 0.0)
        self._event: ClockEvent | None = None
        self._track_color = Color(1, 1, 1, 0)
        self._track = Line(circle=(0, 0, 1), width=dp(2))
        self._arc_color = Color(1, 1, 1, 0)
        self._arc = Line(circle=(0, 0, 1, 0, 1), width=dp(4), cap="round")
        for ins in (self._track_color, self._track, self._arc_color, self._arc):
            group.add(ins)

    def radius(self) -> float:
        """Big enough to show around a fingertip."""
        size: float = dp(40)
        return size

    def show(self, pos: tuple[float, float], delay: float, rgba: Sequence[float]) -> None:
        """Start filling at ``pos`` (board parent coords) over ``delay`` seconds."""
        self.hide()
        self.active = True
        self._pos = pos
        self._delay = max(delay, 1e-3)
        self.progress = 0.0
        r, g, b = rgba[:3]
        self._track_color.rgba = (r, g, b, 0.3)
        self._arc_color.rgba = (r, g, b, 0.95)
        self._draw()
        self._event = Clock.schedule_interval(self._tick, 0)

    def _tick(self, dt: float) -> None:
        self.progress = min(1.0, self.progress + dt / self._delay)
        self._draw()

    def _draw(self) -> None:
        x, y = self._pos
        r = self.radius()
        self._track.circle = (x, y, r)
        self._arc.circle = (x, y, r, 0, max(1.0, 360.0 * self.progress))

    def hide(self) -> None:
        """Remove the ring (released, moved, or the long press fired)."""
        if self._event is not None:
            self._event.cancel()
            self._event = None
        self.active = False
        self.progress = 0.0
        self._track_color.a = self._arc_color.a = 0.0
