"""Replays -> Import where the platform has no file chooser of its own: a themed
file list with the usual places and a path field.

Kivy's ``FileChooserListView`` was a bare dark list with English headers (Name,
Size) and no way to type a path.  This one is drawn with the app's widgets in
its theme and words: the places a video is likely to be (the home folder, the
Downloads folder, the last folder a file was imported from), a field that takes
a folder or a file's path, the folders and the videos and replays of the
folder shown (with their sizes), Cancel and Open.  A file the list shows is
chosen by a tap; Open (or a second tap on it) imports it.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.properties import ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView

from .. import settings as S
from ..text.i18n import N_, _, fmt_number
from ..widgets import FlatButton, LetsGoWhenClosing, TLabel

LAST_FOLDER_KEY = "import_folder"
"""The setting that remembers the folder of the last file imported."""


def places(last: str = "", home: str | None = None) -> list[tuple[str, str]]:
    """The places offered: (words, folder), each an existing folder, none twice.

    >>> import tempfile; h = tempfile.mkdtemp(); os.mkdir(os.path.join(h, "Downloads"))
    >>> [w for w, _p in places(home=h)]
    ['Home', 'Downloads']
    """
    home = os.path.expanduser("~") if home is None else home
    found: list[tuple[str, str]] = []
    for words, folder in ((N_("Home"), home), (N_("Downloads"), os.path.join(home, "Downloads")),
                          (N_("Last folder"), last)):
        if folder and os.path.isdir(folder) and all(os.path.realpath(folder) != os.path.realpath(p)
                                                    for _w, p in found):
            found.append((words, folder))
    return found


def size_words(size: int) -> str:
    """A file's size in the language's digits (``12 KB``, ``1,5 MB`` in German)."""
    if size < 1000:
        return _("{n} B").format(n=size)
    if size < 1_000_000:
        return _("{n} KB").format(n=fmt_number(size / 1000, 0))
    return _("{n} MB").format(n=fmt_number(size / 1_000_000, 1))


def listing(folder: str, patterns: list[str]) -> tuple[list[str], list[tuple[str, int]]]:
    """The folder's sub-folders and its files matching ``patterns`` (with their
    sizes), each sorted by name; hidden ones left out.  An unreadable folder is empty."""
    folders: list[str] = []
    files: list[tuple[str, int]] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return folders, files
    for e in entries:
        if e.name.startswith("."):
            continue
        try:
            if e.is_dir():
                folders.append(e.name)
            elif e.is_file() and any(fnmatch.fnmatch(e.name.lower(), p) for p in patterns):
                files.append((e.name, e.stat().st_size))
        except OSError:
            continue  # gone, or no right to look
    return sorted(folders, key=str.lower), sorted(files, key=lambda f: f[0].lower())


class FilePicker(LetsGoWhenClosing, ModalView):  # type: ignore[misc]
    """The themed chooser: places, a path field, the folder's list, Cancel and Open."""

    folder = StringProperty("")
    """The folder shown."""
    chosen = StringProperty("")
    """The file chosen (its path), or ""."""
    entries = ListProperty([])
    """The names listed: folders (ending in ``/``) then files."""
    message = StringProperty("")
    """Why a typed path cannot be used, or ""."""

    def __init__(self, title: str, patterns: list[str], import_file: Callable[[str], Any],
                 start: str, last: str = "", empty: str = "", **kwargs: Any) -> None:
        kwargs.setdefault("size_hint", (0.95, 0.95))
        kwargs.setdefault("auto_dismiss", True)
        super().__init__(**kwargs)
        from kivy.factory import Factory

        from ..textfield import FlatInput

        self.background, self.background_color = "", (0, 0, 0, 0)  # the card is the dialog's
        self.overlay_color = (0, 0, 0, 0.45)
        self.patterns, self.import_file = patterns, import_file
        # what an empty folder says, translated (marked with N_ by the caller)
        self.empty = empty or N_("No videos or replays in this folder.")
        box = Factory.DialogBox()  # the app's dialog card, in the theme's colours
        box.spacing, box.padding = dp(8), dp(14)
        box.add_widget(TLabel(text=title, bold=True, font_size=sp(19), size_hint_y=None,
                              height=dp(40), halign="left", valign="middle",
                              text_size=(None, None)))
        row = BoxLayout(size_hint_y=None, height=dp(48), spacing=dp(8))
        self.places = {}
        for words, folder in places(last):
            b = Factory.DialogButton(text=_(words))  # outlined: a button on the card's colour
            b.bind(on_release=lambda _b, f=folder: self.show(f))
            row.add_widget(b)
            self.places[words] = b
        box.add_widget(row)
        self.path_field = FlatInput(size_hint_y=None, height=dp(48), multiline=False,
                                    hint_text=_("A folder or a file"))
        self.path_field.bind(on_text_validate=lambda f: self.go(f.text))
        box.add_widget(self.path_field)
        self.note = TLabel(size_hint_y=None, height=0, halign="left")
        self.note.bind(width=lambda w, v: setattr(w, "text_size", (v, None)),
                       texture_size=lambda w, ts: setattr(w, "height", ts[1] if w.text else 0))
        self.bind(message=lambda _s, m: setattr(self.note, "text", m))
        box.add_widget(self.note)
        self.scroll = ScrollView(do_scroll_x=False)
        self.list = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(2))
        self.list.bind(minimum_height=self.list.setter("height"))
        self.scroll.add_widget(self.list)
        box.add_widget(self.scroll)
        buttons = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(8))
        cancel = Factory.DialogButton(text=_("Cancel"))
        cancel.bind(on_release=lambda *_a: self.dismiss())
        self.open_button = FlatButton(text=_("Open"), accent=True, disabled=True)
        self.open_button.bind(on_release=lambda *_a: self.open_chosen())
        buttons.add_widget(cancel)
        buttons.add_widget(self.open_button)
        box.add_widget(buttons)
        self.add_widget(box)
        self.bind(chosen=lambda _s, c: setattr(self.open_button, "disabled", not c))
        self.show(start)

    def show(self, folder: str) -> None:
        """List ``folder`` (its sub-folders, then its videos and replays)."""
        folder = os.path.abspath(folder)
        self.folder, self.chosen, self.message = folder, "", ""
        self.path_field.text = folder
        self.list.clear_widgets()
        folders, files = listing(folder, self.patterns)
        names: list[str] = []
        parent = str(Path(folder).parent)
        if parent != folder:
            self._row("..", _("Up: {folder}").format(folder=os.path.basename(parent) or parent),
                      lambda: self.show(parent))
        for name in folders:
            names.append(name + "/")
            self._row(name + "/", name + "/", partial(self.show, os.path.join(folder, name)))
        for name, size in files:
            names.append(name)
            self._row(name, f"{name}    [color=#888888]{size_words(size)}[/color]",
                      partial(self.choose, os.path.join(folder, name)))
        if not folders and not files:
            self.message = _(self.empty)
        self.entries = names
        self.scroll.scroll_y = 1

    def _row(self, key: str, words: str, action: Callable[[], Any]) -> None:
        b = FlatButton(text=words, size_hint_y=None, height=dp(48), halign="left",
                       markup=True, shorten=True, shorten_from="center")
        b.bind(size=lambda w, s: setattr(w, "text_size", (s[0] - dp(24), s[1])))
        b.valign = "middle"
        b.key = key
        b.bind(on_release=lambda *_a: action())
        self.list.add_widget(b)

    def choose(self, path: str) -> None:
        """Choose a file of the list (a second tap on it opens it)."""
        if self.chosen == path:
            self.open_chosen()
            return
        self.chosen = path
        for b in self.list.children:
            b.accent = os.path.join(self.folder, b.key) == path

    def go(self, text: str) -> None:
        """The path field: a folder is shown, a file opened, anything else said so."""
        path = os.path.expanduser(text.strip())
        if os.path.isdir(path):
            self.show(path)
        elif os.path.isfile(path):
            self.chosen = os.path.abspath(path)
            self.open_chosen()
        else:
            self.message = _("There is no such folder or file: {path}").format(path=text.strip())

    def open_chosen(self) -> None:
        """Open: import the chosen file, remember its folder."""
        if not self.chosen:
            return
        path = self.chosen
        app = App.get_running_app()
        if app is not None and app.config is not None:
            app.config.set(S.SECTION, LAST_FOLDER_KEY, os.path.dirname(path))
            app.write_settings()
        self.dismiss()
        self.import_file(path)


def open_picker(app: Any, title: str, patterns: list[str], on_pick: Callable[[str], Any], *,
                start: str | None = None, fallback: str | None = None,
                empty: str = "") -> FilePicker:
    """Open the app's own chooser: at ``start``, else the folder of the last file
    imported, else ``fallback`` (the home folder when None).

    Parameters
    ----------
    app : App
        The running app (its settings remember the last folder).
    title, patterns, empty
        As :class:`FilePicker`.
    on_pick : callable
        Called with the path chosen.
    start, fallback : str, optional
        Where it opens.

    Returns
    -------
    FilePicker
        The open chooser.
    """
    last = str(app.config.getdefault(S.SECTION, LAST_FOLDER_KEY, "")) if app.config else ""
    if start is None:
        start = last if last and os.path.isdir(last) else (fallback or os.path.expanduser("~"))
    picker = FilePicker(title, patterns, on_pick, start, last, empty=empty)
    picker.open()
    return picker


def choose(app: Any, title: str, patterns: list[str], on_pick: Callable[[str], Any], *,
           kinds: str, chooser: Callable[..., Any] | None = None, fallback: str | None = None,
           empty: str = "") -> FilePicker | None:
    """Pick a file: the platform's own chooser (plyer's: Android's storage, a
    desktop's dialog) where there is one, else :func:`open_picker`'s, returned.

    Parameters
    ----------
    app, title, patterns, on_pick, fallback, empty
        As :func:`open_picker`.
    kinds : str
        The native chooser's name for the files, beside ``patterns``.
    chooser : callable, optional
        A native chooser with plyer's ``open_file`` signature (plyer's when None).

    Returns
    -------
    FilePicker or None
        The app's chooser when it opened; None when the native one did.
    """
    from kivy.clock import Clock
    from kivy.logger import Logger

    if chooser is None:
        try:
            from plyer import filechooser

            chooser = filechooser.open_file
        except (ImportError, NotImplementedError):  # plyer is optional
            chooser = None
    if chooser is not None:
        def chosen(selection: list[str] | None) -> None:
            if selection:
                Clock.schedule_once(lambda _dt: on_pick(selection[0]), 0)

        try:
            chooser(on_selection=chosen, filters=[[kinds, *patterns]])
            return None
        except Exception as exc:  # noqa: BLE001 - no native chooser here: the app's own
            Logger.info(f"fastmine: no native file chooser ({exc}); using the app's")
    return open_picker(app, title, patterns, on_pick, fallback=fallback, empty=empty)
