"""The screens besides the game's, and their kv files, loaded on first use.

The first frame shows the game screen only: what it draws is all the app
imports and parses before it (``application.KV_FILES``).  Every other screen,
its module and its kv files come in when the player first opens it
(:func:`screen_class`), so a start never pays for Settings, Records, Progress,
the replay player or the rules.  Rules more than one of these screens use are
in ``widgets.kv``, which loads at start: a screen's rules may come first in
any order.

A kv file loads once per process (:func:`.kvfiles.load_kv`).

Memory comes back too: :class:`Screens` releases every screen but the game's
once the player is back at the game (:func:`release`): the screen leaves the
manager, whatever else held it lets go, its widgets are collected and their
textures (each Label's text is one: About's long text alone is 11 MB at
1080x2340) deleted from OpenGL at once, and the C library is asked to give the
freed memory back to the system (:func:`give_back_memory`).  Opened again, a
screen is built again like the first time.  A screen opened from another one
(Progress from Records, the replay player from Replays) keeps the one it goes
back to until the excursion ends at the game.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import importlib
import sys
from typing import Any

from kivy.clock import Clock
from kivy.properties import ObjectProperty
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from ..kvfiles import load_kv

APP_PACKAGE = __package__.rpartition(".")[0]

SCREENS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "new_game": ("screens.newgame", "NewGameScreen", ("screens/newgame.kv",)),
    "records": ("screens.records", "RecordsScreen", ("screens/records.kv",)),
    "progress": ("screens.progress", "ProgressScreen", ("screens/progress.kv",)),
    "about": ("screens.about", "AboutScreen", ("screens/about.kv",)),
    "settings": ("screens.settings", "SettingsScreen", ("screens/settings.kv",)),
    "replays": ("replays.listing", "ReplaysScreen", ("replays/replays.kv",)),
    "replay": ("replays.player", "ReplayScreen", ("replays/replays.kv",)),
    "how_to_play": ("screens.howtoplay", "HowToPlayScreen", ("screens/howtoplay.kv",)),
}
"""Screen name -> (its module in the app's package, its class, the kv files it needs,
each by its path in the app's folder: :func:`.kvfiles.load_kv`)."""


def screen_class(name: str) -> type:
    """The class of the screen called ``name``, with its module imported and
    its kv rules loaded.

    Raises
    ------
    KeyError
        ``name`` is not a screen of :data:`SCREENS`.
    """
    module, cls, kv_files = SCREENS[name]
    load_kv(*kv_files)
    found: type = getattr(importlib.import_module(f"{APP_PACKAGE}.{module}"), cls)
    return found


class Cut(NoTransition):  # type: ignore[misc]  # Kivy has no type information
    """Kivy's instant switch, whose screens in and out can be let go of once it
    is over (Kivy's own keeps the last two screens for good)."""

    screen_in = ObjectProperty(None, allownone=True)
    screen_out = ObjectProperty(None, allownone=True)


class Screens(ScreenManager):  # type: ignore[misc]  # Kivy has no type information
    """The app's screen manager: it switches at once, and the screens not in
    ``keep`` (the game's) are released once the player is back on one that is
    (see the module's docstring)."""

    keep: frozenset[str] = frozenset({"game"})
    """The screens never released."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("transition", Cut())
        super().__init__(**kwargs)
        self._release_event: Any = None

    def add_widget(self, widget: Any, *args: Any, **kwargs: Any) -> None:
        super().add_widget(widget, *args, **kwargs)
        if isinstance(widget, Screen):
            widget.fbind("on_enter", self._entered)

    def _entered(self, screen: Screen) -> None:
        # after the switch is over (on_enter comes last but one, the screen
        # left still to be told): release in the next frame, never inside it
        if screen.name in self.keep and self._release_event is None:
            self._release_event = Clock.schedule_once(self._release_hidden, 0)

    def _release_hidden(self, _dt: float = 0.0) -> int:
        self._release_event = None
        if self.current not in self.keep or self.transition.is_active:
            return 0
        gone = [s for s in self.screens if s.name not in self.keep and s.name != self.current]
        count = len(gone)
        while gone:  # no name here may keep one from being collected
            release(self, gone.pop())
        if count:
            collect()
        return count

    def release_hidden(self) -> int:
        """Release now the screens not shown and not kept (when the screen shown
        is kept); returns how many were released."""
        if self._release_event is not None:
            self._release_event.cancel()
        return self._release_hidden()


def release(manager: ScreenManager, screen: Screen) -> None:
    """Take ``screen`` out of ``manager`` and out of whatever else keeps it:
    its running animations, the manager's last switch, Kivy's memory of the
    last text field that scrolled.  :func:`collect` then frees it."""
    from kivy.animation import Animation

    manager.remove_widget(screen)
    if isinstance(manager, Screens):
        screen.funbind("on_enter", manager._entered)
    tree = list(screen.walk(restrict=True))
    ids = {id(w) for w in tree}
    for widget in tree:
        Animation.cancel_all(widget)  # a scroll bar fading out holds its ScrollView
    transition = manager.transition
    for side in ("screen_in", "screen_out"):
        if getattr(transition, side, None) is screen:
            with contextlib.suppress(ValueError):  # a Kivy transition refuses None
                setattr(transition, side, None)
    _forget_last_text_field(ids)
    from kivy.app import App
    from kivy.core.window import Window

    for dispatcher in (App.get_running_app(), Window):
        if dispatcher is not None:
            _unbind_tree(dispatcher, ids)
    from kivy.cache import Cache

    for category in ("textinput.label", "textinput.width"):  # text fields' drawn words
        Cache.remove(category)


def _unbind_tree(dispatcher: Any, ids: set[int]) -> None:
    """Unbind from ``dispatcher`` (the app, the window) whatever a widget of the
    released tree bound on it: a method of the widget, or a function that holds
    the widget (the replay player pauses on the app's ``on_pause``)."""
    names = [*dispatcher.properties(), *getattr(dispatcher, "__events__", ())]
    for name in names:
        try:
            callbacks = dispatcher.get_property_observers(name)
        except (KeyError, AttributeError):
            continue
        for callback in callbacks:
            owner = getattr(callback, "__self__", None)
            held = [c.cell_contents for c in getattr(callback, "__closure__", None) or ()
                    if c.cell_contents is not None]
            if id(owner) in ids or any(id(h) in ids for h in held):
                dispatcher.funbind(name, callback)


def _forget_last_text_field(ids: set[int]) -> None:
    """Kivy's TextInput remembers the arguments of its last viewport adjustment
    (``@triggered`` keeps them in a closure shared by every field): the last
    field that scrolled, and with it its whole screen, stays alive."""
    textinput = sys.modules.get("kivy.uix.textinput")
    adjust = getattr(getattr(textinput, "TextInput", None), "_adjust_viewport", None)
    if adjust is None:  # no text field was ever made
        return
    for cell in getattr(adjust, "__closure__", None) or ():
        remembered = cell.cell_contents
        if isinstance(remembered, list) and any(id(a) in ids for a in remembered):
            adjust.cancel()  # its field is going: nothing left to adjust
            remembered.clear()


def collect() -> None:
    """Free what was released: Python's cycles (a widget tree is one), the
    OpenGL textures and buffers of the widgets freed (deleted now, not at the
    next frame), then the memory the C library keeps (:func:`give_back_memory`)."""
    gc.collect()
    from kivy.graphics.context import get_context

    get_context().gl_dealloc()
    give_back_memory()


_LIBC: Any = None


def give_back_memory() -> bool:
    """Ask glibc to return the freed memory it keeps to the system
    (``malloc_trim``); False where there is no glibc (macOS, Windows, musl,
    Android's bionic, which returns freed memory by itself).

    Freed blocks stay in the process otherwise: most of a released screen's
    memory (its textures' pixels with a software OpenGL, its Python objects)
    would still count in its resident size.
    """
    global _LIBC
    if _LIBC is None:
        _LIBC = False
        if sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL("libc.so.6")  # find_library would start subprocesses
                _LIBC = libc if hasattr(libc, "malloc_trim") else False
            except OSError:
                pass
    if not _LIBC:
        return False
    _LIBC.malloc_trim(0)
    return True
