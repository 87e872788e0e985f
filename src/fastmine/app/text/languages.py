"""The Language setting at work: the catalog, the font, and every screen again in the new words.

A mixin of :class:`.application.FastmineApp`.  The words of the kv files are
read when a widget is built, so a new language builds the screens again
(:meth:`LanguageMixin.apply_language`): the game in progress goes on in the new
screens, paused as it was, and the player stays on the Settings screen.  Chinese
and Japanese are drawn with a CJK font (the device's own where it has one, else
the app's: Noto Sans CJK cut to the common characters, see ``fonts/``), which
then stands in for Kivy's default font everywhere; the Language picker draws
each language's name in its own script's font (:func:`name_font`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.core.text import DEFAULT_FONT, LabelBase
from kivy.core.window import Window

from . import cjkbreak, i18n

if TYPE_CHECKING:
    from ..screens.game import GameScreen

_KIVY_FONT: list[str] = []
"""Kivy's own default font files (regular, italic, bold, bold italic), kept to come back to."""


def use_font(code: str | None = None) -> str | None:
    """Draw every label of language ``code`` (the current one) with its font;
    returns the font file, or None for Kivy's own."""
    fonts = LabelBase._fonts  # noqa: SLF001 - Kivy keeps its registered fonts here
    if not _KIVY_FONT:
        _KIVY_FONT.extend(fonts[DEFAULT_FONT])
        cjkbreak.install()  # CJK text (a name, the Language picker) in any language
    font = i18n.font_for(code)
    if font is None:
        LabelBase.register(DEFAULT_FONT, *_KIVY_FONT)
    else:
        LabelBase.register(DEFAULT_FONT, font, font, font, font)
    return font


def kivy_font() -> str:
    """The file of Kivy's own regular font (Roboto: Latin, Greek and Cyrillic)."""
    fonts = LabelBase._fonts  # noqa: SLF001 - Kivy keeps its registered fonts here
    return _KIVY_FONT[0] if _KIVY_FONT else str(fonts[DEFAULT_FONT][0])


def name_font(code: str) -> str | None:
    """The font the name of language ``code`` is drawn with in the Language
    picker, whatever the language in use: its own script's (日本語 in the
    Japanese font in an English app, "Русский" in Roboto in a Chinese one), so
    a player finds the way back to their language.  None for a choice that is
    no language's name ("System", in the words of the language in use)."""
    if code not in i18n.LANGUAGES:
        return None
    return i18n.font_for(code) or kivy_font()


class LanguageMixin:
    """The Language setting, for the App (which has ``config``, ``root``, ``ctrl``,
    ``game_screen``, ``build`` and ``show_screen``)."""

    if TYPE_CHECKING:  # the App's, declared for the type checker only
        game_screen: GameScreen | None

    def set_language(self, setting: str) -> str:
        """Load the catalog and the font of the Language setting (``"system"`` or a
        code); returns the code in use.  Screens built afterwards speak it."""
        code = i18n.set_language(setting)
        use_font(code)
        return code

    def apply_language(self: Any, setting: str) -> None:
        """The Language setting changed: every screen is built again in the new
        words; the game on screen goes on (paused if it was), and the player stays
        on the Settings screen."""
        self.set_language(setting)
        old = self.root
        if old is None or self.game_screen is None:
            return
        game, paused, screen = self.ctrl.game, self.ctrl.paused, old.current
        self.ctrl.board.gestures.cancel_all()
        self.ctrl.close()
        self.game_screen = None
        root = self.build()  # a new game screen, with a fresh game for a moment
        if game is not None:
            self.ctrl.attach(game)
            if paused:
                self.ctrl.pause()
        Window.remove_widget(old)
        self.root = root
        Window.add_widget(root)
        if screen != "game" and screen in getattr(self, "SCREENS", {}):
            self.show_screen(screen)
