"""Leaving a game or the app without losing anything by accident.

A mixin of :class:`.application.FastmineApp`: the question before a game in
progress is abandoned (and the count of abandoned games), the question before
quitting on Escape or back, and the desktop window's remembered size.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kivy.core.window import Window
from kivy.logger import Logger

from ..dialogs.messages import ConfirmDialog
from ..playerdata import PlayerDataError
from ..text.i18n import _

if TYPE_CHECKING:
    from fastmine import Game

    from ..playerdata import PlayerData
    from ..services.appfiles import SettingsConfig
    from .controller import GameController


class LeavingMixin:
    """Confirmations and the window size, for the App (which has ``ctrl``,
    ``store``, ``config`` and ``_write_config``)."""

    if TYPE_CHECKING:  # the App's, declared for the type checker only
        store: PlayerData | None
        config: SettingsConfig

        @property
        def ctrl(self) -> GameController:
            """The game controller."""

        def stop(self, *largs: object) -> None:
            """Close the app (Kivy's ``App.stop``)."""

        def _write_config(self) -> None:
            """Write the settings file."""

    quit_dialog: ConfirmDialog | None = None
    restore_window_size = True
    """Open a desktop window at the size it had when the app last closed."""

    def confirm_abandon(self, then: Callable[[], None]) -> ConfirmDialog | None:
        """Run ``then`` (a new game), asking first if a game is in progress.

        An abandoned game is paused while the question is on screen and, if
        the player confirms, counted as abandoned in the statistics.
        """
        g = self.ctrl.game
        if g is None or self.ctrl.state != "playing":
            then()
            return None
        was_paused = self.ctrl.paused
        self.ctrl.pause()
        d = ConfirmDialog(title=_("Abandon this game?"),
                          text=_("The game in progress will be lost and counted as abandoned "
                                 "in your statistics."),
                          yes_text=_("Abandon"), no_text=_("Keep playing"))

        def yes(*_a: object) -> None:
            self._count_abandoned(g)
            then()

        def no(*_a: object) -> None:
            if not was_paused:
                self.ctrl.resume()

        d.bind(on_yes=yes, on_no=no)
        d.open()
        return d

    def _count_abandoned(self, game: Game) -> None:
        if self.store is None:  # before the app is built: no records to count in
            return
        try:
            self.store.count_abandoned(game)
        except (PlayerDataError, OSError) as exc:
            Logger.warning(f"fastmine: cannot count the abandoned game: {exc}")

    def ask_quit(self) -> ConfirmDialog:
        """Escape or back on the game screen: pause, and ask before quitting."""
        if self.quit_dialog is not None:
            return self.quit_dialog
        if self.ctrl.state == "playing":
            self.ctrl.pause()
        text = (_("Your game is paused and will be saved: you can resume it next time.")
                if self.ctrl.state == "playing" else "")
        d = ConfirmDialog(title=_("Quit fastmine?"), text=text, yes_text=_("Quit"),
                          no_text=_("Keep playing"))

        def closed(*_a: object) -> None:
            self.quit_dialog = None

        def quit_now(*_a: object) -> None:
            closed()
            self.stop()

        d.bind(on_yes=quit_now, on_no=closed)
        self.quit_dialog = d
        d.open()
        return d

    def _on_request_close(self, _window: object, *args: object, source: str | None = None,
                          **kwargs: object) -> bool:
        # Kivy closes the window on Escape (source "keyboard"): ask instead.
        if source == "keyboard":
            self.ask_quit()
            return True
        return False

    def _restore_window_size(self) -> None:
        """A desktop window opens at the size it had when the app last closed."""
        from kivy.utils import platform

        if platform in ("android", "ios") or not self.restore_window_size:
            return
        try:
            w, h = self.config.getint("window", "width"), self.config.getint("window", "height")
        except ValueError:
            return
        if w >= 320 and h >= 320 and (w, h) != tuple(Window.system_size):
            Window.system_size = (w, h)

    def _remember_window_size(self) -> None:
        from kivy.utils import platform

        if platform in ("android", "ios"):
            return
        w, h = Window.system_size
        self.config.set("window", "width", int(w))
        self.config.set("window", "height", int(h))
        self._write_config()

