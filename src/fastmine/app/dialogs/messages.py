"""The app's small dialogs: a message, a yes/no question, the resume offer.

Each is a ModalView whose layout is in ``dialogs.kv``, loaded when the first
dialog is made (most starts show none); the app listens to their events and
does the work, so the dialogs only show and ask.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import StringProperty
from kivy.uix.modalview import ModalView

from .. import kvfiles
from ..text.i18n import _
from ..widgets import LetsGoWhenClosing


class RulesOnFirstUse(kvfiles.RulesOnFirstUse):
    """A dialog whose rules (``dialogs.kv`` unless it names others) load with
    the first one."""

    KV_FILES: tuple[str, ...] = ("dialogs/dialogs.kv",)


class ResumeDialog(RulesOnFirstUse, LetsGoWhenClosing, ModalView):  # type: ignore[misc]  # Kivy has no type information
    """Offered at start when an unfinished game was saved."""

    text = StringProperty("")

    __events__ = ("on_resume_game", "on_discard")

    def choose(self, resume: bool) -> None:
        self.dismiss()
        self.dispatch("on_resume_game" if resume else "on_discard")

    def on_resume_game(self) -> None:
        """Resume the saved game."""

    def on_discard(self) -> None:
        """Start a new game instead."""


class MessageDialog(RulesOnFirstUse, LetsGoWhenClosing, ModalView):  # type: ignore[misc]  # Kivy has no type information
    """A title, a message and an OK button."""

    title = StringProperty("")
    text = StringProperty("")


class ConfirmDialog(RulesOnFirstUse, LetsGoWhenClosing, ModalView):  # type: ignore[misc]  # Kivy has no type information
    """A question with two answers: ``on_yes`` or ``on_no`` (escape says no)."""

    title = StringProperty("")
    text = StringProperty("")
    yes_text = StringProperty("")
    no_text = StringProperty("")

    __events__ = ("on_yes", "on_no")

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("yes_text", _("OK"))
        kwargs.setdefault("no_text", _("Cancel"))
        super().__init__(**kwargs)

    def answer(self, yes: bool) -> None:
        """A button was pressed."""
        self._answered = True
        self.dismiss()
        self.dispatch("on_yes" if yes else "on_no")

    def on_dismiss(self) -> None:
        if not getattr(self, "_answered", False):  # escape / back / a tap outside
            self._answered = True
            self.dispatch("on_no")

    def on_yes(self) -> None:
        """The player confirmed."""

    def on_no(self) -> None:
        """The player declined."""
