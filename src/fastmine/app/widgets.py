"""Small reusable widgets; their looks are in ``widgets.kv``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior, ToggleButtonBehavior
from kivy.uix.button import Button
from kivy.uix.dropdown import DropDown
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from .kvfiles import RulesOnFirstUse


class LetsGoWhenClosing:
    """Mixin for a dialog (ModalView) or a drop-down menu: once asked to close it
    takes no more touches.

    Kivy keeps a dismissed ModalView in the window while it fades out (0.1 s) and
    a DropDown for its ``min_state_time`` (0.1 s), and both take every touch
    meanwhile: a quick tap on the board right after "Undo the losing move" or a
    menu entry did nothing.  The app's dialogs never refuse to close (no
    ``on_dismiss`` handler returns True), so a dismissal always ends in removal.
    """

    _closing = False

    # The Kivy class it is mixed into (ModalView, DropDown) has these methods;
    # mypy sees no such base, hence the ``type: ignore[misc]`` on each super() call.

    def open(self, *args: Any, **kwargs: Any) -> None:
        """Show it (again); it takes touches."""
        super().open(*args, **kwargs)  # type: ignore[misc]
        self._closing = False  # after: DropDown.open may dismiss a previous opening first

    def dismiss(self, *args: Any, **kwargs: Any) -> None:
        """Close it: from now on touches go to what is under it."""
        self._closing = True
        super().dismiss(*args, **kwargs)  # type: ignore[misc]

    def on_touch_down(self, touch: Any) -> bool:
        if self._closing:
            return False
        handled: bool = super().on_touch_down(touch)  # type: ignore[misc]
        return handled

    def on_touch_move(self, touch: Any) -> bool:
        if self._closing:
            return False
        handled: bool = super().on_touch_move(touch)  # type: ignore[misc]
        return handled

    def on_touch_up(self, touch: Any) -> bool:
        if self._closing:
            return False
        handled: bool = super().on_touch_up(touch)  # type: ignore[misc]
        return handled


MENUS_KV = ("screens/menus.kv",)
"""The menus' rules, loaded when the first menu opens (no first frame shows one)."""


class MainMenu(RulesOnFirstUse, LetsGoWhenClosing, DropDown):  # type: ignore[misc]  # Kivy has no type information
    """The Menu button's drop-down (its entries are in ``menus.kv``)."""

    KV_FILES = MENUS_KV

    _placing = False
    if TYPE_CHECKING:  # Kivy's property, which the placing below both reads and sets
        height: float

    def _reposition(self, *largs: object) -> None:
        # Kivy placed the menu while its entries were still being laid out and
        # then let it grow from there: on a portrait phone it ended at the
        # bottom of the window over the tool bar, on a desktop 70 px under its
        # button.  It is placed here again each time its size or its entries
        # change: right under its button (their right edges in line), above
        # it where there is no room below, else beside it from the window's top
        if self._placing:
            return  # our own move below set it off again
        self._placing = True
        try:
            try:
                super()._reposition(*largs)
                win, widget = self._win, self.attach_to
                if not win or not widget or not widget.get_parent_window():
                    return
            except ReferenceError:  # its button is gone (a new screen): no menu to show
                Clock.schedule_once(lambda _dt: self.dismiss(), 0)
                return
            need: float = self.container.minimum_height if self.container else self.height
            wx, wy = widget.to_window(*widget.pos)
            wtop, wright = wy + widget.height, wx + widget.width
            self.x = max(0, min(wright - self.width, win.width - self.width))
            if need <= wy:
                self.height = need
                self.top = wy
            elif need <= win.height - wtop:
                self.height = need
                self.y = wtop
            elif need <= win.height:
                # no room for every 48-dp entry below or above the button (a
                # turned phone): the whole menu from the window's top, beside it
                self.height = need
                self.top = win.height
                self.x = max(0, min(wx - self.width, win.width - self.width))
        finally:
            self._placing = False


_MARKUP = re.compile(r"\[/?[a-z]+(=[^\]]*)?\]")
"""A Kivy markup tag ([b], [/color], [size=20])."""


def fitted_font_size(text: str, width: float, size: float, font_name: str) -> float:
    """The font size, at most ``size``, at which the longest word of ``text``
    fits ``width`` pixels (a word is never cut: "Подсказка" in a toolbar button
    with large text was drawn "Подска" / "зка"); never under half of ``size``.
    """
    from kivy.core.text import Label as CoreLabel

    from .text.cjkbreak import has_cjk, pieces

    words = []
    for word in _MARKUP.sub("", text).split():
        # a CJK sentence (no spaces) counts by its unbreakable pieces; a short
        # CJK word (ソルバー, 求解器) stays whole: a button's name on one line
        if len(word) > 6 and has_cjk(word):
            words += [w for w, _gap in pieces(word) if w]
        else:
            words.append(word)
    if not words or width <= 0:
        return size
    core = CoreLabel(font_size=size, font_name=font_name)
    widest: float = max(core.get_extents(word)[0] for word in words)
    if widest <= width:
        return size
    return max(size / 2, size * width / widest)


class FlatButton(Button):  # type: ignore[misc]  # Kivy has no type information
    """A flat button coloured by the theme."""

    accent = BooleanProperty(False)
    """Draw in the accent colour (the main action of a screen)."""


class FlatToggle(ToggleButtonBehavior, FlatButton):  # type: ignore[misc]  # Kivy has no type information
    """A flat toggle button (a choice in a group)."""


class WordButton(Button):  # type: ignore[misc]  # Kivy has no type information
    """A flat button as wide as its words (never wraps, never clips)."""

    accent = BooleanProperty(False)


class WordToggle(ToggleButtonBehavior, WordButton):  # type: ignore[misc]  # Kivy has no type information
    """A toggle as wide as its words (a setting's choice)."""


class IconButton(ButtonBehavior, Widget):  # type: ignore[misc]  # Kivy has no type information
    """A square button showing one atlas icon (white icons are tinted)."""

    icon = ObjectProperty(None, allownone=True)
    tint = ListProperty([1, 1, 1, 1])
    active = BooleanProperty(False)
    """Highlighted (a toggle that is on)."""
    plain = BooleanProperty(False)
    """Draw the icon in its own colours (the faces)."""


class TLabel(Label):  # type: ignore[misc]  # Kivy has no type information
    """A label in the theme's text colour."""


class Counter(Label):  # type: ignore[misc]  # Kivy has no type information
    """An LED-style number box (mines left, time)."""


class Toast(Label):  # type: ignore[misc]  # Kivy has no type information
    """A message shown over the board until it is cleared; a tap on it clears
    it (``on_dismiss``) and goes no further: the cells under it cannot be seen,
    so a tap there must not play one."""

    text = StringProperty("")

    __events__ = ("on_dismiss",)

    def on_touch_down(self, touch: Any) -> bool:
        if (self.text and self.opacity and not getattr(touch, "is_mouse_scrolling", False)
                and self.collide_point(*touch.pos)):
            self.dispatch("on_dismiss")
            return True
        handled: bool = super().on_touch_down(touch)
        return handled

    def on_dismiss(self) -> None:
        """The player tapped the message away."""


class MenuEntry(RulesOnFirstUse, FlatButton):
    """A menu line: a bold title and, below it, a line on what it does."""

    KV_FILES = MENUS_KV

    title = StringProperty("")
    line = StringProperty("")


# The text field (a Kivy TextInput: 10 ms of imports) is made by the screens and
# the dialog that ask for words, none of them on at start: the kv rules find it
# by name, and its module loads when the first one is built.
Factory.register("FlatInput", module=f"{__package__}.textfield")
