"""Videos of other clients in the app: a file dropped on the window, or
Replays -> Import, is read, recorded and played with the coach's marks.

A video (``.avf``, ``.rmv``, ``.mvf``, ``.evf``) goes through
:func:`fastmine.replay.fromvideo.import_video`: the game is rebuilt, stored in
the records with the player's name, the software and the date, and opened in
the replay player (a lost game at the move that lost, as "Why did I lose?"
shows it; a won one playing from the start).  A fastmine replay
(``.fmreplay``) is played without being recorded.  A file that cannot be read
gives one message and changes nothing.

Files come from the window (Kivy's ``on_drop_file``, desktop), from plyer's
file chooser where the platform has one (Android, Windows, macOS, Linux with
zenity or kdialog) and otherwise from the app's own themed chooser
(:mod:`.filepicker`: home, Downloads, the last folder, a path field).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.logger import Logger

if TYPE_CHECKING:
    from ..dialogs.filepicker import FilePicker

from ..text.i18n import N_, _

VIDEO_PATTERNS = ["*.avf", "*.rmv", "*.mvf", "*.evf", "*.fmreplay"]
"""The files the chooser lists."""

IMPORT_WORDS = N_("Import a video or replay")
NOT_A_VIDEO = N_("This is neither a video fastmine reads (an .avf, .rmv, .mvf or .evf "
                 "file) nor a fastmine replay.")
"""What a file that is neither says, in the player's language (the reader's own
words for it are English)."""
DAMAGED_VIDEO = N_("The video is damaged or incomplete: fastmine cannot read it.")
DAMAGED_REPLAY = N_("The replay is damaged or incomplete: fastmine cannot read it.")
UNPLAYABLE = N_("fastmine cannot replay the game of this video: its board or its moves are not "
                "ones fastmine plays.")
NOT_RECORDED = N_("The video's game could not be added to the records.")
"""What a file that cannot be used says, in the player's language: the readers'
and the records' own words are English and technical (they go to the log)."""
"""The Replays screen's button (translated where it is shown: a module-level
``_()`` kept the words of the language at import, whatever the player chose later)."""


def import_path(app: Any, path: str) -> Any:
    """Read ``path`` (a video or a replay), record a video's game, open the player.

    Returns
    -------
    ReplayScreen or None
        The player, or None when the file could not be used (a message says why;
        the records are unchanged).
    """
    from fastmine.files.storage import read_regular_file
    from fastmine.replay import Replay
    from fastmine.replay.fromvideo import import_video, is_replay_file
    from fastmine.replay.playback import MAX_REPLAY_BYTES
    from fastmine.videos.model import MAX_FILE_BYTES
    from fastmine.videos.reading import sniff_format

    from ..playerdata import PlayerDataError
    from .player import analyse

    name = os.path.basename(path)
    try:
        data = read_regular_file(path, max(MAX_FILE_BYTES, MAX_REPLAY_BYTES))
        if is_replay_file(path, data):
            replay = Replay.from_bytes(data)
            note = ""
        elif sniff_format(data, name) is None:
            Logger.info(f"fastmine: could not import {path}: not a video")
            app.show_message(_("Cannot open {name}").format(name=name), _(NOT_A_VIDEO))
            return None
        else:
            imported = import_video(data, path)
            replay = imported.replay
            note = imported.describe()
            record = imported.record()
            if record is not None:
                app.store.add_imported(record, replay)
    except (OSError, ValueError, PlayerDataError) as exc:
        Logger.info(f"fastmine: could not import {path}: {exc}")
        app.show_message(_("Cannot open {name}").format(name=name), why_not_imported(exc, path))
        return None
    if note:
        Logger.info(f"fastmine: {note}")
    coaching = analyse(replay)
    fatal = coaching.fatal
    back = lambda: app.show_screen("replays")  # noqa: E731
    if replay.state.value == "lost" and fatal is not None:
        return app.watch_replay(replay, coaching, fatal.index, back)      # "Why did I lose?"
    return app.watch_replay(replay, coaching, 0, back, play=True)


def why_not_imported(exc: Exception, path: str) -> str:
    """What the player reads when ``path`` could not be imported.

    Parameters
    ----------
    exc : Exception
        What reading or recording it raised (an OSError, a reader's
        :class:`fastmine.VideoFormatError` or :class:`fastmine.SaveFormatError`,
        another ValueError, a records error).
    path : str
        The file.

    Returns
    -------
    str
        A sentence in the player's language (the technical detail is logged).
    """
    from fastmine.errors import SaveFormatError, VideoFormatError

    from ..playerdata import PlayerDataError
    from ..services.appfiles import why_not_read

    if isinstance(exc, FileNotFoundError):
        return _("There is no such file: {path}").format(path=path)
    if isinstance(exc, OSError):
        return why_not_read(exc, path, sentence=True)
    if isinstance(exc, PlayerDataError):
        return _(NOT_RECORDED)
    if isinstance(exc, VideoFormatError):
        return _(DAMAGED_VIDEO)
    if isinstance(exc, SaveFormatError):
        return _(DAMAGED_REPLAY)
    return _(UNPLAYABLE)


def on_drop_file(window: Any, filename: bytes | str, *_args: Any) -> bool:
    """Kivy's ``on_drop_file``: import the dropped file once this event is done."""
    path = os.fsdecode(filename) if isinstance(filename, bytes) else str(filename)
    app = App.get_running_app()
    if app is not None:
        Clock.schedule_once(lambda _dt: import_path(app, path), 0)
    return True


def install(app: Any) -> None:
    """Accept files dropped on the window (desktop); binding twice binds once."""
    Window.unbind(on_drop_file=on_drop_file)
    Window.bind(on_drop_file=on_drop_file)


def uninstall(app: Any) -> None:
    """Stop accepting dropped files."""
    Window.unbind(on_drop_file=on_drop_file)


def choose_file(app: Any, chooser: Callable[..., Any] | None = None) -> FilePicker | None:
    """Replays -> Import: pick a file and import it (:func:`.filepicker.choose`: the
    platform's chooser, else the app's own, which is returned)."""
    from ..dialogs.filepicker import choose

    return choose(app, _(IMPORT_WORDS), VIDEO_PATTERNS, lambda path: import_path(app, path),
                  kinds="Minesweeper videos and replays", chooser=chooser)


def kivy_chooser(app: Any, start: str | None = None) -> FilePicker:
    """The app's own chooser (:class:`.filepicker.FilePicker`, themed, with the
    usual places and a path field) where no native one works; Open imports."""
    # imported here: the app installs the drop handler at every start, and the
    # chooser is only for Replays -> Import
    from ..dialogs.filepicker import open_picker

    return open_picker(app, _(IMPORT_WORDS), VIDEO_PATTERNS, lambda path: import_path(app, path),
                       start=start)
