"""The first-run tutorial.

The tutorial is played on the game screen itself, with the real board, the real
gestures and the real controller: a small fixed board is attached, a card over
the board says what to do, a cell is outlined, and each step waits for the
player's own move (:data:`STEPS`): open a cell, flag a mine (a hold, or a tap
in flag mode), chord a number, fit the zoomed board with the corner button, ask
for a Hint.  It comes once, at the first start; Skip ends it at any step, and
either way it does not come back (the setting ``tutorial = done``); the menu's
*How to play* (the rules, in one screen: :mod:`.howtoplay`) starts it again.  The game that was
on screen before it comes back afterwards; the tutorial's own game is never
recorded nor saved.  A mixin of :class:`.application.FastmineApp`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from kivy.clock import Clock
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from fastmine import FLAG, Board, Game

from .. import kvfiles
from .. import settings as S
from ..text.i18n import N_, _, translate

MINES = ((0, 2), (3, 3), (4, 3), (4, 4), (4, 5))
"""The tutorial's 6 x 6 board: five mines, laid so each step has its move."""
OPEN = (3, 1)
"""The first cell to open: it opens most of the board."""
FLAG_CELL = (3, 3)
"""A mine the numbers prove once the board is open: the cell to flag."""
CHORD_CELL = (2, 2)
"""A 1 next to the flagged mine with hidden safe neighbours: the number to chord."""


@dataclass(frozen=True)
class Step:
    """One step: what the card says (English, translated when shown) to a finger
    on a touch screen and to a mouse on a desktop, and the cell outlined."""

    name: str
    text: str
    cell: tuple[int, int] | None = None
    mouse: str = ""
    """The words for a mouse (click, right click), where they differ."""


STEPS: tuple[Step, ...] = (
    Step("open", N_("Tap the outlined cell to open it. The first cell you open is always safe."),
         OPEN, N_("Click the outlined cell to open it. The first cell you open is always "
                  "safe.")),
    Step("flag", N_("The outlined cell is certainly a mine: the numbers around it say so. Hold "
                    "a finger on it until a flag appears (or turn on the flag button, then tap "
                    "it)."), FLAG_CELL,
         N_("The outlined cell is certainly a mine: the numbers around it say so. Right-click "
            "it to flag it (on a touch screen, hold a finger on it).")),
    Step("chord", N_("Now tap the outlined 1: its mine is flagged, so a tap opens all its other "
                     "neighbours at once. That is a chord."), CHORD_CELL,
         N_("Now click the outlined 1: its mine is flagged, so a click opens all its other "
            "neighbours at once. That is a chord.")),
    Step("fit", N_("The board is zoomed in now. Tap the button in the board's corner to see it "
                   "whole."), None,
         N_("The board is zoomed in now. Click the button in the board's corner to see it "
            "whole.")),
    Step("hint", N_("Stuck? Tap Hint: it outlines a cell that is certainly safe. A game with a "
                    "hint counts apart from your best times."), None,
         N_("Stuck? Click Hint: it outlines a cell that is certainly safe. A game with a "
            "hint counts apart from your best times.")),
    Step("done", N_("That is all you need. Open every cell that is not a mine to win. Have "
                    "fun!")),
)
"""The tutorial, in order."""

TOUCH_PLATFORMS = ("android", "ios")
"""Kivy's platforms whose players use a finger; elsewhere a mouse (a desktop)."""


def step_words(step: Step, mouse: bool) -> str:
    """What the card says at ``step``, translated, for a mouse or a finger."""
    return translate(step.mouse if mouse and step.mouse else step.text)


def stopped_clock() -> float:
    """The tutorial game's clock: it never runs (the counter stays at 0 while the
    player reads the card; it is no timed game)."""
    return 0.0


def board() -> Board:
    """The tutorial's board."""
    mines = np.zeros((6, 6), bool)
    for cell in MINES:
        mines[cell] = True
    return Board.from_mines(mines)


def load_kv() -> None:
    """Load ``tutorial.kv`` (the card) once per process: when a tutorial first starts."""
    kvfiles.load_kv("screens/tutorial.kv")


class TutorialCard(BoxLayout):  # type: ignore[misc]  # Kivy has no type information
    """The card over the board: the step's words, Skip, and at the end Play."""

    text = StringProperty("")
    last = BooleanProperty(False)
    wide = BooleanProperty(False)
    """Turned: the buttons beside the words (a lower card over the board)."""

    __events__ = ("on_skip", "on_play")

    def on_skip(self) -> None:
        """The player skipped the tutorial."""

    def on_play(self) -> None:
        """The player finished the tutorial."""


class TutorialMixin:
    """The tutorial, for the App (which has ``config``, ``ctrl``, ``game_screen``,
    ``root``, ``show_screen``, ``start_game`` and ``current_difficulty``)."""

    offer_tutorial = True
    """Start the tutorial at the first start (tests turn it off)."""
    mouse_player: bool | None = None
    """The tutorial speaks to a mouse (True) or a finger (False); None: by the
    platform, a mouse on a desktop (Linux, Windows, macOS), a finger on Android and iOS."""
    tutorial_step: int | None = None
    """The step shown (an index of :data:`STEPS`), or None when no tutorial runs."""
    _before_tutorial: Game | None = None
    _card: TutorialCard | None = None

    @property
    def tutorial_on(self) -> bool:
        """A tutorial is on the game screen."""
        return self.tutorial_step is not None

    def speaks_to_mouse(self) -> bool:
        """True when the tutorial's words are for a mouse (see :attr:`mouse_player`)."""
        if self.mouse_player is not None:
            return self.mouse_player
        from kivy.utils import platform

        return platform not in TOUCH_PLATFORMS

    def tutorial_done(self: Any) -> bool:
        """True once the tutorial was finished or skipped."""
        return str(self.config.getdefault(S.SECTION, "tutorial", "")) == "done"

    def start_tutorial(self: Any) -> None:
        """Play the tutorial on the game screen (the game on screen comes back after it)."""
        load_kv()
        if self.tutorial_on:
            return
        ctrl = self.ctrl
        g = ctrl.game
        # a game played on comes back after it, paused; a fresh one (the first
        # start's) does not: the first game would have said "Paused" unplayed
        self._before_tutorial = (g if g is not None and not g.state.is_over and len(g.moves)
                                 else None)
        if g is not None and ctrl.state == "playing":
            ctrl.pause()
        self.tutorial_step = 0
        card = self._card = TutorialCard(pos_hint={"center_x": 0.5, "top": 1})
        card.bind(on_skip=lambda *_a: self.end_tutorial(), on_play=lambda *_a: self.end_tutorial())
        self._place_card()
        self.game_screen.bind(landscape=self._place_card_later)
        ctrl.bind(on_moved=self._tutorial_check, assisted=self._tutorial_check,
                  on_game_over=self._tutorial_lost)
        self.game_screen.board.fit_button.bind(on_release=self._tutorial_fitted)
        self.show_screen("game")
        self._tutorial_board()

    def _place_card_later(self: Any, *_args: Any) -> None:
        # after the screen has moved its controls for the new orientation
        Clock.schedule_once(self._place_card, 0)

    def _place_card(self: Any, *_args: Any) -> None:
        """Upright, the card goes under the top bar and the board gets the room left
        below it; turned, over the board's top left corner (the side column holds
        the controls)."""
        card, screen = self._card, self.game_screen
        if card is None:
            return
        if card.parent is not None:
            card.parent.remove_widget(card)
        card.wide = screen.landscape
        if screen.landscape:
            card.pos_hint = {"x": 0, "top": 1}
            screen.ids.board_area.add_widget(card)
            self._clear_later(0)  # once the card has its size
        else:
            card.pos_hint = {"center_x": 0.5}
            frame = screen.ids.frame
            frame.add_widget(card, index=frame.children.index(screen._parts["top_bar"]))

    def _clear_later(self: Any, delay: float) -> None:
        """:meth:`_clear_the_step` after ``delay`` seconds (one waiting at a time;
        none once the tutorial ends)."""
        event = getattr(self, "_clear_event", None)
        if event is not None:
            event.cancel()
        self._clear_event = Clock.schedule_once(self._clear_the_step, delay)

    def _clear_the_step(self: Any, *_args: Any) -> None:
        """Turned (a phone on its side, a desktop window), the card lies over the
        board: it goes to the corner of the board's area farthest from what the
        step talks about (the outlined cell and its neighbours, the corner
        button), not over the rows it names."""
        card, screen = self._card, self.game_screen
        if card is None or not screen.landscape or card.parent is None or not self.tutorial_on:
            return
        area, b = screen.ids.board_area, screen.board
        step = STEPS[self.tutorial_step]
        if step.cell is not None:
            cx, cy = b.to_window(*b.cell_center(*step.cell))
            half = 1.5 * b.scale  # the cell and the numbers around it
            avoid = (float(cx - half), float(cy - half), float(cx + half), float(cy + half))
        elif step.name == "fit":
            f = b.fit_button
            (fx0, fy0), (fx1, fy1) = f.to_window(f.x, f.y), f.to_window(f.right, f.top)
            avoid = (float(fx0), float(fy0), float(fx1), float(fy1))
        else:
            return
        (ax0, ay0), (ax1, ay1) = area.to_window(area.x, area.y), area.to_window(area.right,
                                                                               area.top)
        w, h = float(card.width), float(card.height)
        corners = (({"x": 0, "top": 1}, ax0, ay1 - h), ({"right": 1, "top": 1}, ax1 - w, ay1 - h),
                   ({"x": 0, "y": 0}, ax0, ay0), ({"right": 1, "y": 0}, ax1 - w, ay0))

        def overlap(x: float, y: float) -> float:
            dx = min(x + w, avoid[2]) - max(x, avoid[0])
            dy = min(y + h, avoid[3]) - max(y, avoid[1])
            return max(0.0, dx) * max(0.0, dy)

        card.pos_hint = min(corners, key=lambda c: overlap(c[1], c[2]))[0]
        area.do_layout()

    def _tutorial_board(self: Any) -> None:
        """A fresh tutorial board at its first step."""
        self.ctrl.attach(Game.from_board(board(), clock=stopped_clock))
        self.tutorial_step = 0
        self._tutorial_show()

    def _tutorial_show(self: Any) -> None:
        step = STEPS[self.tutorial_step]
        card, b = self._card, self.game_screen.board
        card.text = step_words(step, self.speaks_to_mouse())
        card.last = step.name == "done"
        b.cursor = step.cell
        if step.name == "fit":  # zoomed in, so the corner button has a whole board to show;
            # once the card has its new words and the board its new room
            Clock.schedule_once(lambda _dt: b.set_view(b.fit_scale() * 2.0, (3.0, 3.0)), 0.05)
            self._clear_later(0.1)
        else:
            self._clear_later(0)

    def _tutorial_next(self: Any) -> None:
        self.tutorial_step += 1
        self._tutorial_show()

    def _tutorial_check(self: Any, *_args: Any) -> None:
        """After each move: was it the move the step asks for?"""
        if not self.tutorial_on:
            return
        g = self.ctrl.game
        name = STEPS[self.tutorial_step].name
        moves = g.moves
        last = (int(moves[-1][0]) & 3, int(moves[-1][1]), int(moves[-1][2])) if len(moves) else None
        done = {"open": bool(g.view[OPEN] >= 0),
                "flag": bool(g.view[FLAG_CELL] == FLAG),
                "chord": last == (2, *CHORD_CELL) and bool(g.view[CHORD_CELL] >= 0),  # a chord
                "hint": bool(g.assisted)}
        if done.get(name, False):
            self._tutorial_next()

    def _tutorial_fitted(self: Any, *_args: Any) -> None:
        if self.tutorial_on and STEPS[self.tutorial_step].name == "fit":
            self._tutorial_next()

    def _tutorial_lost(self: Any, _ctrl: Any, state: str) -> None:
        if self.tutorial_on and state == "lost":  # a mine: the same lesson on a fresh board
            self._tutorial_board()
            self._card.text = (_("That was a mine. Let's start again.") + "\n"
                               + step_words(STEPS[0], self.speaks_to_mouse()))

    def end_tutorial(self: Any) -> None:
        """Skip or finish: it never comes back by itself; the game before it does."""
        if not self.tutorial_on:
            return
        self.tutorial_step = None
        if getattr(self, "_clear_event", None) is not None:
            self._clear_event.cancel()
        ctrl = self.ctrl
        ctrl.unbind(on_moved=self._tutorial_check, assisted=self._tutorial_check,
                    on_game_over=self._tutorial_lost)
        board_view = self.game_screen.board
        board_view.fit_button.unbind(on_release=self._tutorial_fitted)
        board_view.cursor = None
        self.game_screen.unbind(landscape=self._place_card_later)
        if self._card is not None and self._card.parent is not None:
            self._card.parent.remove_widget(self._card)
        self._card = None
        self.config.set(S.SECTION, "tutorial", "done")
        self.write_settings()
        before, self._before_tutorial = self._before_tutorial, None
        if before is not None:
            ctrl.attach(before)
            ctrl.pause()  # as the player left it: a tap resumes
        else:
            _name, d = self.current_difficulty()
            ctrl.new_game(d.rows, d.cols, d.mines)

    def game_to_keep(self: Any) -> Game | None:
        """The game to save: the one before the tutorial while it runs."""
        game: Game | None = self._before_tutorial if self.tutorial_on else self.ctrl.game
        return game
