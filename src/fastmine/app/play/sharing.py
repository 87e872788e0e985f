"""Shareable games in the app: play a game code, copy the current game's code.

A mixin of :class:`.application.FastmineApp`.  The codes themselves are
:mod:`fastmine.gamecode` (the same ones ``fastmine play --code`` reads).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kivy.logger import Logger

from ..text.i18n import N_, _

if TYPE_CHECKING:
    from ..dialogs.messages import ConfirmDialog, MessageDialog
    from .controller import GameController
    from .ending import Ending

CODE_PROBLEMS = (
    ("this code has a typo", N_("This code has a typo: check it letter by letter.")),
    ("this game code is too short", N_("This game code is too short: copy the whole code.")),
    ("the game code is empty", N_("Type or paste a game code first.")),
    ("this game code is from a newer", N_("This game code is from a newer fastmine: update "
                                           "the app to play it.")),
    ("this game code is damaged", N_("This game code is damaged: copy it again.")),
    ("a game code has only digits", N_("A game code has only digits and the letters A to Z "
                                        "(no U).")),
    ("this is not", N_("This is not a game code.")),
)
"""The start of each of :func:`fastmine.gamecode.decode`'s messages (English, for
the terminal) -> what the app says in the player's language."""


def code_problem(message: str) -> str:
    """Why a game code cannot be played, in the player's words (``message`` is
    the engine's English ``ValueError``).

    >>> code_problem("this code has a typo: its check letters do not match")
    'This code has a typo: check it letter by letter.'
    """
    for start, words in CODE_PROBLEMS:
        if message.startswith(start):
            return _(words)
    return message[:1].upper() + message[1:] + "."


class SharingMixin:
    """Game codes, for the App (which has ``ctrl``, ``root``, ``confirm_abandon``,
    ``show_message`` and ``ending``)."""

    if TYPE_CHECKING:  # the App's, declared for the type checker only
        root: Any  # Kivy's ScreenManager
        ending: Ending

        @property
        def ctrl(self) -> GameController:
            """The game controller."""

        def confirm_abandon(self, then: Callable[[], None]) -> ConfirmDialog | None:
            """Run ``then``, asking first if a game is in progress (:mod:`.leaving`)."""

        def show_message(self, title: str, text: str) -> MessageDialog:
            """Show a message with an OK button."""


    def play_code(self, text: str) -> str:
        """Start the game of a game code; returns "" or why the code cannot be played.

        A bad code (a typo, a code from a newer fastmine) leaves the current game
        as it is: the message says what is wrong.
        """
        from fastmine import gamecode  # on first use, not at start

        try:
            spec = gamecode.decode(text)
            game = spec.new_game(question_marks=self.ctrl.question_marks,
                                 clock=self.ctrl.clock)
        except (ValueError, TypeError) as exc:
            return code_problem(str(exc))

        def start() -> None:
            self.ending.forget()
            self.ctrl.attach(game)
            if self.root is not None:
                self.root.current = "game"

        self.confirm_abandon(start)
        return ""

    def copy_code(self) -> str | None:
        """Copy the current game's code to the clipboard and show it; returns the code.

        A game laid from fresh randomness has no code before its first reveal
        (its mines do not exist yet): the message says so.
        """
        from fastmine import gamecode  # on first use, not at start

        game = self.ctrl.game
        code = gamecode.code_of(game) if game is not None else None
        if code is None:
            self.show_message(
                _("No game code yet"),
                _("This game's mines are laid at your first tap: its code (the exact board) "
                  "is ready after it."))
            return None
        try:
            # imported here, not at start: Kivy picks its clipboard provider on
            # import, trying xclip and xsel in subprocesses first (20 ms a start)
            from kivy.core.clipboard import Clipboard

            Clipboard.copy(code)
            copied = _("It is copied: paste it to a friend, who plays it from New game.")
        except Exception as exc:  # noqa: BLE001 - a missing clipboard must not lose the code
            Logger.warning(f"fastmine: clipboard unavailable: {exc}")
            copied = _("Share it with a friend, who plays it from New game.")
        self.show_message(_("Game code"), f"{code}\n\n{copied}")
        return code
