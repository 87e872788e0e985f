"""The game controller: one :class:`fastmine.Game`, its board view and clock.

It turns cell events into moves (honouring flag mode), redraws exactly the
cells each move changed, runs the timer, pauses and resumes, drives the
assist buttons, the hint and the probability overlay, and announces sounds
and the end of the game as events.  Records, dialogs and saving belong to
the app (see :mod:`.application`), not here.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.logger import Logger
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty

from fastmine import FLAG, HIDDEN, Game, GameOverError, GamePausedError, GameState
from fastmine.board import _check_rule

from ..board import controls
from ..board import tiles as T
from ..text.i18n import _
from . import assist, livecoach

if TYPE_CHECKING:
    from ..board.boardview import BoardView

_NONE = np.empty((0, 2), np.intp)


class GameController(EventDispatcher):  # type: ignore[misc]  # Kivy has no type information
    """Plays one game at a time on a :class:`.boardview.BoardView`."""

    game = ObjectProperty(None, allownone=True)
    state = StringProperty("ready")
    """The game's state as a string: ready, playing, won, lost."""
    mines_left = NumericProperty(0)
    time_text = StringProperty("000")
    paused = BooleanProperty(False)
    flag_mode = BooleanProperty(False)
    """Opening and flagging swap in every touch gesture (the flag-mode toggle button)."""
    overlay = BooleanProperty(False)
    """Shade every unknown cell by its mine probability."""
    assisted = BooleanProperty(False)
    message = StringProperty("")
    undoable = BooleanProperty(False)
    """The game was just lost and the losing move can be taken back (:meth:`undo_loss`)."""
    coach = BooleanProperty(False)
    """Coach while playing: after a risky move, say how risky (:mod:`.livecoach`)."""

    __events__ = ("on_game_over", "on_sound", "on_new_game", "on_moved")

    def __init__(self, board: BoardView, clock: Callable[[], float] = time.monotonic,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.board = board
        self.clock = clock
        self.question_marks = True
        self.rule = "opening"
        """The first-click rule of new games (a name of :data:`fastmine.board.RULES`)."""
        self.seed: int | None = None
        self._hint_cell: tuple[int, int] | None = None
        self._last_cell: tuple[int, int] | None = None
        self._probs: np.ndarray | None = None
        # The game was lost by a move played here (not attached lost, not taken back):
        # the engine takes the move back (Game.take_back_loss), so no copy is kept.
        self._lost_here = False
        self.scheme = controls.DEFAULT_SCHEME
        """The touch control scheme (see :mod:`.controls`)."""
        self.tap_number = "chord"
        """What a single tap on a number does: "chord" or "nothing"."""
        board.bind(on_cell_tap=lambda _b, r, c: self.tap(r, c),
                   on_cell_long_press=lambda _b, r, c: self.long_press(r, c),
                   on_cell_double_tap=lambda _b, r, c: self.double_tap(r, c),
                   on_cell_click=lambda _b, r, c: self.click(r, c),
                   on_cell_secondary=lambda _b, r, c: self.mark(r, c),
                   on_cell_chord=lambda _b, r, c: self.chord(r, c))
        self._shown_hint: assist.Hint | None = None  # the hint the message names
        board.bind(transposed=self._on_turned)
        self._ticker = Clock.schedule_interval(self._tick, 0.2)

    # ------------------------------------------------------------ games

    def new_game(self, rows: int, cols: int, mines: int, rule: str | None = None) -> None:
        """Start a fresh game (mines are laid at the first reveal)."""
        game = Game(rows, cols, mines, rule=_check_rule(rule or self.rule), seed=self.seed,
                    question_marks=self.question_marks, clock=self.clock)
        self.attach(game)

    def attach(self, game: Game) -> None:
        """Show and play ``game`` (a new one or one resumed from a save)."""
        self.board.gestures.cancel_all()
        self.game = game
        self._hint_cell = None
        self._last_cell = None
        self._probs = None
        self._lost_here = False
        self.overlay = False
        self.flag_mode = False
        self.message = ""
        game.question_marks = self.question_marks
        self.board.set_board(self._tiles_of(game.view))
        self._sync()
        self.dispatch("on_new_game")

    def close(self) -> None:
        """Stop the timer (the app is going away)."""
        self._ticker.cancel()

    # ------------------------------------------------------------ moves

    def tap(self, r: int, c: int) -> None:
        """A single tap: what the control scheme says (:mod:`.controls`)."""
        self._gesture("tap", r, c)

    def double_tap(self, r: int, c: int) -> None:
        """A double tap (double-tap control schemes)."""
        self._gesture("double", r, c)

    def _gesture(self, gesture: str, r: int, c: int) -> None:
        v = self._cell(r, c)
        if v is None:
            return
        kind = controls.move(self.scheme, gesture, on_number=v >= 0, flag_mode=self.flag_mode,
                             tap_number=self.tap_number)
        if kind is not None:
            self._play(kind, r, c)

    def click(self, r: int, c: int) -> None:
        """A left click: chord on a number, else reveal (or mark, in flag mode),
        whatever the touch control scheme."""
        v = self._cell(r, c)
        if v is None:
            return
        if v >= 0:
            self.chord(r, c)
        elif self.flag_mode:
            self.mark(r, c)
        else:
            self.reveal(r, c)

    def open(self, r: int, c: int) -> None:
        """Reveal a cell or chord on a number, whatever the flag mode (keyboard)."""
        v = self._cell(r, c)
        if v is not None:
            (self.chord if v >= 0 else self.reveal)(r, c)

    def long_press(self, r: int, c: int) -> None:
        """A hold: what the control scheme says (mark, by default)."""
        self._gesture("hold", r, c)

    def reveal(self, r: int, c: int) -> None:
        """Reveal a cell."""
        self._play("reveal", r, c)

    def mark(self, r: int, c: int) -> None:
        """Cycle a cell's mark (flag, question, none)."""
        self._play("mark", r, c)

    def chord(self, r: int, c: int) -> None:
        """Chord on a number."""
        self._play("chord", r, c)

    def _cell(self, r: int, c: int) -> int | None:
        g = self.game
        if g is None or g.state.is_over or g.paused:
            return None
        return int(g.view[r, c])

    def _play(self, kind: str, r: int, c: int) -> None:
        g = self.game
        if g is None or g.state.is_over or g.paused:
            return
        before = g.state
        move = {"reveal": g.reveal, "mark": g.toggle_mark, "chord": g.chord}[kind]
        verdict = livecoach.judge(g, kind, r, c) if self.coach else None  # marks it assisted
        try:
            changed = move(r, c)
        except (GameOverError, GamePausedError):
            return
        except (RuntimeError, ValueError, ImportError) as exc:
            # laying the mines failed, e.g. no no-guess board found in time
            self.message = _("Could not start the game: {why}").format(why=exc)
            return
        self._last_cell = (r, c)
        self._after(changed, kind, before)
        if verdict is not None:
            self.message = livecoach.message(verdict)

    def assist(self, strategy: str) -> None:
        """One solver move with ``strategy`` (an assist button)."""
        g = self.game
        if g is None or g.state.is_over or g.paused:
            return
        before = g.state
        try:
            changed = assist.step(g, strategy)
        except Exception as exc:  # the solver is another package: report, don't crash
            Logger.exception(f"fastmine: assist {strategy!r} failed")
            self.message = _("Assist failed: {why}").format(why=exc)
            return
        self.assisted = True
        self._after(changed, "assist", before)

    def _after(self, changed: np.ndarray, kind: str, before: GameState) -> None:
        g = self.game
        if self._hint_cell is not None:
            changed = np.concatenate([changed, np.array([self._hint_cell], np.intp)])
            self._hint_cell = None
        if self.overlay and g.state is GameState.PLAYING:
            self._refresh_overlay()
        else:
            self._probs = None
            if len(changed):
                self.board.set_tiles(changed, self._tiles_at(changed))
        self.board.animate_move(changed, self._last_cell if kind != "assist" else None,
                                g.state.value if g.state.is_over and not before.is_over else "")
        self.message = ""
        self._lost_here = g.state is GameState.LOST and not before.is_over
        self._sync()
        if g.state is GameState.LOST:
            self.dispatch("on_sound", "explode")
        elif g.state is GameState.WON:
            self.dispatch("on_sound", "win")
        elif len(changed):
            self.dispatch("on_sound", "flag" if kind == "mark" else "reveal")
        self.dispatch("on_moved", changed)
        if g.state.is_over and not before.is_over:
            if self.overlay:
                self.overlay = False
            self.dispatch("on_game_over", g.state.value)

    @property
    def can_undo_loss(self) -> bool:
        """True when the game was just lost and the losing move can be taken back."""
        g = self.game
        return g is not None and self._lost_here and g.can_take_back_loss

    def undo_loss(self) -> bool:
        """Take back the move that lost, as Simon Tatham's Mines does.

        The board returns to what it was before that move and the game goes
        on, marked assisted (so it can never set a best time).  Returns True
        if the move was taken back.
        """
        if not self.can_undo_loss:
            return False
        # The engine rebuilds the position from its board and move log, and drops
        # the move from the log (so the game keeps an exact replay); on a copy, so
        # the lost game stays as it was when it was recorded.
        game = copy.copy(self.game)
        try:
            game.take_back_loss()
        except ValueError as exc:  # moves that do not lead to the game (an edited save)
            self.message = _("Cannot take the move back: {why}").format(why=exc)
            return False
        self.game = game
        self._lost_here = False
        self._hint_cell = None
        self._probs = None
        new = self._tiles_of(game.view)
        diff = np.argwhere(new != self.board.tiles)
        if len(diff):
            self.board.set_tiles(diff, new[diff[:, 0], diff[:, 1]])
        self.message = _("Move taken back: the game goes on, marked as assisted.")
        self._sync()
        self.dispatch("on_moved", diff)
        return True

    # ------------------------------------------------------------ tiles

    def _tiles_of(self, view: np.ndarray) -> np.ndarray:
        return T.VIEW_TILE[np.ascontiguousarray(view).view(np.uint8)]

    def _tiles_at(self, cells: np.ndarray) -> np.ndarray:
        g = self.game
        r, c = cells[:, 0], cells[:, 1]
        out = self._tiles_of(g.view[r, c])
        if self._probs is not None:
            p = self._probs[r, c]
            hidden = g.view[r, c] == HIDDEN
            out[hidden] = T.PROB_T + T.prob_level(p[hidden])
        if self._hint_cell is not None:
            hit = (r == self._hint_cell[0]) & (c == self._hint_cell[1])
            out[hit & (g.view[r, c] != FLAG)] = T.HINT_T
        return out

    def _all_cells(self) -> np.ndarray:
        g = self.game
        rr, cc = np.divmod(np.arange(g.rows * g.cols), g.cols)
        return np.stack([rr, cc], 1)

    def _refresh_overlay(self) -> None:
        """Recompute probabilities and redraw the cells whose tile changed."""
        g = self.game
        self._probs = assist.probabilities(g) if self.overlay else None
        cells = self._all_cells()
        new = self._tiles_at(cells).reshape(g.rows, g.cols)
        diff = np.argwhere(new != self.board.tiles)
        if len(diff):
            self.board.set_tiles(diff, new[diff[:, 0], diff[:, 1]])

    def on_overlay(self, _inst: object, on: bool) -> None:
        if self.game is None:
            return
        if on:
            if not assist.available():
                self.message = assist.unavailable_reason().capitalize()
                self.overlay = False
                return
            if self.game.state is GameState.PLAYING:
                self.game.assisted = True
                self.assisted = True
        self._refresh_overlay()

    def hint(self) -> None:
        """Show a certainly safe cell, or the safest guess and its odds."""
        g = self.game
        if g is None or g.state.is_over or g.paused:
            return
        try:
            h = assist.hint(g, near=self.board.cursor or self._last_cell)
        except Exception as exc:  # the solver is another package: report, don't crash
            Logger.exception("fastmine: hint failed")
            self.message = _("No hint: {why}").format(why=exc)
            return
        if h is None:
            self.message = _("No hint for this position.")
            return
        if g.state is GameState.PLAYING:
            g.assisted = True
            self.assisted = True
        old = self._hint_cell
        self._hint_cell = (h.row, h.col)
        cells = np.array([self._hint_cell] + ([old] if old else []), np.intp)
        self.board.set_tiles(cells, self._tiles_at(cells))
        self.board.show_cell(h.row, h.col)
        if g.state is GameState.READY and h.certain:
            self._shown_hint = None
            self.message = _("The first click is always safe: tap anywhere.")
        else:
            self._shown_hint = h
            self.message = h.message(transposed=self.board.transposed)

    def _on_turned(self, _board: object, transposed: bool) -> None:
        # the phone turned while a hint shows: name its cell where it now is
        h = self._shown_hint
        if h is not None and self.message == h.message(transposed=not transposed):
            self.message = h.message(transposed=transposed)

    # ------------------------------------------------------------ clock

    def pause(self) -> bool:
        """Pause the game and hide the board; True if it is now paused."""
        g = self.game
        if g is None or g.state.is_over or g.paused:
            return False
        g.pause()
        self.board.gestures.cancel_all()
        self._sync()
        return True

    def resume(self) -> bool:
        """Resume a paused game; True if it was paused."""
        g = self.game
        if g is None or not g.paused:
            return False
        g.resume()
        self._sync()
        return True

    def toggle_pause(self) -> None:
        """The pause button."""
        if not self.resume():
            self.pause()

    def _tick(self, _dt: float | None = None) -> None:
        g = self.game
        if g is not None:
            text = f"{min(int(g.elapsed), 999):03d}"
            if text != self.time_text:
                self.time_text = text

    def _sync(self) -> None:
        g = self.game
        self.state = g.state.value
        self.mines_left = g.mines_left
        self.paused = g.paused
        self.board.hidden = g.paused
        self.assisted = bool(g.assisted)
        self.undoable = self.can_undo_loss
        self._tick()

    def set_question_marks(self, on: bool) -> None:
        """The question-marks setting (applies to the current game at once)."""
        self.question_marks = bool(on)
        if self.game is not None:
            self.game.question_marks = self.question_marks

    # ------------------------------------------------------------ events

    def on_game_over(self, state: str) -> None:
        """The game just ended: ``state`` is "won" or "lost"."""

    def on_sound(self, name: str) -> None:
        """A sound effect should play."""

    def on_new_game(self) -> None:
        """A game was attached."""

    def on_moved(self, changed: np.ndarray) -> None:
        """A move changed these cells."""

