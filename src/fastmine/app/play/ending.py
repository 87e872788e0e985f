"""The end of a game in the app: the game recorded, the end-of-game dialog, the
name for a best time, the losing move taken back.

The App makes one :class:`Ending` and hands it every finished game (the
controller's ``on_game_over``); the dialog (:class:`.endgame.EndDialog`) only
shows and asks, and this class does what its answers mean.  A game is stored at
once, before any prompt: an app killed at the best-time prompt loses nothing,
and the name typed there is set on the stored game afterwards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.clock import Clock
from kivy.logger import Logger

from fastmine import Game, difficulty_name

from .. import settings as S
from ..playerdata import PlayerDataError
from ..text.i18n import _

if TYPE_CHECKING:
    from ..application import FastmineApp
    from ..dialogs.endgame import EndDialog
    from ..kivytypes import ClockEvent
    from ..playerdata import PlayerData
    from .controller import GameController

END_DIALOG_DELAY = 0.6
"""Seconds to see the board before the end dialog covers it."""


class Ending:
    """The end of each game of ``app``: :meth:`game_over` records it and opens
    the end dialog; :meth:`undo_loss` takes a loss back."""

    def __init__(self, app: FastmineApp) -> None:
        self.app = app
        self.dialog: EndDialog | None = None
        """The end dialog of the last game, until a new game starts."""
        self._pending_record: int | None = None  # the stored best time a name is asked for
        self._loss_record: int | None = None  # the stored loss an undo takes back
        self._events: list[ClockEvent] = []  # scheduled callbacks to cancel when the app stops

    def _data(self) -> PlayerData:
        # the records, which the App's build() opens: every game ends after that
        if self.app.store is None:
            raise AttributeError("the app has no records before it is built")
        return self.app.store

    def game_over(self, ctrl: GameController, state: str) -> None:
        """Record the game that just ended (``state`` "won" or "lost") and open
        the end dialog after :data:`END_DIALOG_DELAY`."""
        app = self.app
        if app.tutorial_on:
            return  # the tutorial's game is never recorded
        # imported with the first game's end: no start needs the dialog
        from ..dialogs.endgame import EndDialog, end_lines, fmt_time

        g = ctrl.game
        try:
            self._data().clear_saved()
        except PlayerDataError as exc:
            Logger.warning(f"fastmine: cannot clear the saved game: {exc}")
        st = g.stats()
        diff = difficulty_name(g.rows, g.cols, g.mine_count)
        board = diff if diff != "custom" else (g.rows, g.cols, g.mine_count)
        won = state == "won"
        note, ask = "", False
        best = None
        read_only = self._read_only()
        if read_only:
            # nothing can be stored: no name asked for a best time, no record to take
            # back; the Records screen says where and why in full
            note = _("Not recorded: the records here can be read but not changed (see Records).")
        elif won and g.assisted:
            note = _("Assisted game: it counts as assisted in the records, not for best times.")
        elif won:
            try:
                best = self._data().best_time(board)
                ask = self._data().is_best_time(g)
            except PlayerDataError as exc:
                note = _("Records unavailable: {why}").format(why=exc)
            if ask:
                note = (_("New best time (was {time} by {name})! Enter your name:").format(
                    time=fmt_time(best.time), name=best.name or _("someone")) if best
                    else _("New best time! Enter your name:"))
            elif best is not None:
                note = _("Best time: {time} by {name}. So close, try again!").format(
                    time=fmt_time(best.time), name=best.name or _("someone"))
        # The game is stored at once (an app killed at the prompt loses nothing);
        # the name typed at the best-time prompt is set on it afterwards.
        self._pending_record = self.record(g) if ask else None
        self._loss_record = None
        if not ask and not read_only:
            record_id = self.record(g)
            if not won:
                self._loss_record = record_id
        dialog = EndDialog()
        dialog.won = won
        dialog.title = _("You won!") if won else _("Boom! You hit a mine.")
        dialog.lines = end_lines(st, won, (g.revealed_count, g.rows * g.cols - g.mine_count))
        dialog.note = note
        dialog.name = app.config.get(S.SECTION, "player_name") or self._last_name()
        dialog.ask_name = ask and self._pending_record is not None
        dialog.can_undo = ctrl.undoable
        app.offer_replay(dialog, g)
        dialog.bind(on_name_entered=self._on_name, on_new_game=lambda *_a: app.new_game(),
                    on_undo=lambda *_a: app.undo_loss())
        self.dialog = dialog
        self._events.append(Clock.schedule_once(
            lambda _dt: dialog.open() if self.dialog is dialog else None, END_DIALOG_DELAY))

    def undo_loss(self) -> bool:
        """Take back the move that just lost: the game goes on, marked assisted.

        The loss already stored is removed, so the game is recorded once,
        as assisted, when it ends; it can never set a best time.
        """
        ctrl = self.app.ctrl
        if not ctrl.undoable:
            return False
        record_id, self._loss_record = self._loss_record, None
        if record_id is not None:
            try:
                self._data().remove_record(record_id)
            except PlayerDataError as exc:
                Logger.warning(f"fastmine: cannot take back the recorded loss: {exc}")
        dialog, self.dialog = self.dialog, None
        if dialog is not None and dialog.parent is not None:
            dialog.dismiss()
        return ctrl.undo_loss()

    def forget(self) -> None:
        """A new game starts: a best-time prompt left unanswered keeps the default
        name already stored, and the last end dialog is done with."""
        self._pending_record = None
        self.dialog = None

    def stop(self) -> None:
        """The app stops: nothing scheduled runs any more."""
        for ev in self._events:
            ev.cancel()
        self._events.clear()
        self.dialog = None

    def _read_only(self) -> str | None:
        """The records' read-only note, or None (unreadable records are reported
        when the game is recorded)."""
        try:
            return self._data().read_only_note()
        except PlayerDataError:
            return None

    def _last_name(self) -> str:
        try:
            return self._data().last_name()
        except PlayerDataError:
            return ""

    def record(self, game: Game, name: str | None = None) -> int | None:
        """Store a finished game; returns its record id, or None on failure (reported)."""
        if name is None:
            name = self.app.config.get(S.SECTION, "player_name")
        try:
            return self._data().record_game(game, name)
        except PlayerDataError as exc:
            why = str(exc)
            Logger.warning(f"fastmine: cannot store the game: {why}")
            self._events.append(Clock.schedule_once(
                lambda _dt: self.app.show_message(_("Records"), _("The game was not recorded: {why}").format(
                    why=why)), 0))
            return None

    def _on_name(self, dialog: EndDialog, name: str) -> None:
        from ..dialogs.endgame import fmt_time

        record_id, self._pending_record = self._pending_record, None
        if record_id is None:
            return
        app = self.app
        if name:
            app.config.set(S.SECTION, "player_name", name)
            app.write_settings()
        try:
            self._data().set_name(record_id, name)
        except PlayerDataError as exc:
            dialog.note = _("The name was not saved: {why}").format(why=exc)
            return
        dialog.note = _("Saved: {name}, {time}.").format(
            name=name or _("anonymous"), time=fmt_time(app.ctrl.game.stats().time))
