"""Settings as a file: Settings -> Export writes them, Settings -> Import reads them back.

The file is JSON with its format and version first, then the settings the
Settings screen shows (:data:`.settings.PANEL`), each as the text the app keeps::

    {"format": "fastmine-settings", "version": 1,
     "settings": {"first_click": "opening", "theme": "dark", ...}}

It is written atomically by the project's output writer
(:func:`fastmine.files.outputs.write_output`), which refuses to replace one of
fastmine's own files (the records, a saved game, the settings file itself),
to a free name in the Downloads folder (else the home folder).

Reading checks everything before changing anything: a file that is not a
fastmine settings file, one of a newer version, or any value that is not one
of its setting's choices is refused with a message naming it, and no setting
changes.  A key this version does not know (a setting of a later version, the
folder of the last import, the difficulty) is ignored, and the message says so.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.logger import Logger

from .. import settings as S
from ..text.i18n import N_, _, ngettext, translate

FORMAT = "fastmine-settings"
"""The file's ``format``."""
VERSION = 1
"""The file's ``version`` this app writes and the newest it reads."""
FILE_NAME = "fastmine-settings"
"""The exported file's name, before ``.json`` (``fastmine-settings-2.json`` when taken)."""
MAX_BYTES = 64 * 1024
"""A settings file is a few hundred bytes: anything over this is not one."""
MAX_NAME = 60
"""The longest player name read from a file."""
PATTERNS = ["*.json"]
"""What the chooser lists."""

FILE_TITLE = N_("Settings file")
EXPORT_WORDS = N_("Export settings")
IMPORT_WORDS = N_("Import settings")
"""The Settings screen's buttons (translated where they are shown)."""
EMPTY_WORDS = N_("No settings files in this folder.")
"""What the chooser says in a folder without one."""


class SettingsFileError(ValueError):
    """A settings file that cannot be used; its message is for the player."""


def exported_keys() -> list[str]:
    """The settings a file holds: those of the Settings screen, in its order.

    >>> exported_keys()[:2]
    ['first_click', 'question_marks']
    """
    return [item["key"] for item in S.PANEL if item["type"] != "title"]


def export_text(config: Any) -> str:
    """The settings file's text for the app's ``config``."""
    values = {k: str(config.get(S.SECTION, k)) for k in exported_keys()}
    return json.dumps({"format": FORMAT, "version": VERSION, "settings": values},
                      indent=2, ensure_ascii=False) + "\n"


def _allowed(item: S.PanelItem, value: object) -> str | None:
    """``value`` as the app keeps it if the setting ``item`` allows it, else None."""
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int) and item["type"] == "bool":
        value = str(value)
    if not isinstance(value, str):
        return None
    if item["type"] == "string":
        ok = len(value) <= MAX_NAME and value.isprintable()
        return value.strip() if ok else None
    return value if value in S.option_labels(item) else None


def read_text(text: str) -> tuple[dict[str, str], list[str]]:
    """Check a settings file's text.

    Returns
    -------
    values : dict
        Setting -> value, every one allowed.
    ignored : list
        The keys this version does not know.

    Raises
    ------
    SettingsFileError
        Not a fastmine settings file, a newer version, or a value not allowed
        (every such value named).

    >>> read_text('{"format": "fastmine-settings", "version": 1, "settings": {"theme": "dark", "x": 1}}')
    ({'theme': 'dark'}, ['x'])
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SettingsFileError(_("This is not a fastmine settings file."))
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SettingsFileError(_("This is not a fastmine settings file."))
    if version > VERSION:
        raise SettingsFileError(_(
            "This settings file is from a newer version of fastmine (file version "
            "{found}; this one reads up to {version}). Update fastmine to import it."
        ).format(found=version, version=VERSION))
    settings = data.get("settings")
    if not isinstance(settings, dict):
        raise SettingsFileError(_("This is not a fastmine settings file."))
    items = {item["key"]: item for item in S.PANEL if item["type"] != "title"}
    values: dict[str, str] = {}
    ignored: list[str] = []
    bad: list[str] = []
    for key, raw in settings.items():
        item = items.get(key)
        if item is None:
            ignored.append(str(key))
            continue
        value = _allowed(item, raw)
        if value is None:
            shown = json.dumps(raw, ensure_ascii=False)
            bad.append(_("{setting}: {value} is not one of its choices.").format(
                setting=translate(item["title"]), value=shown[:40]))
        else:
            values[key] = value
    if bad:
        raise SettingsFileError(" ".join([_("Nothing was changed."), *bad]))
    return values, ignored


def apply(app: Any, values: dict[str, str]) -> list[str]:
    """Set ``values`` in the app's settings, write them once, apply each change.

    Returns the keys whose value changed.
    """
    config = app.config
    changed = [k for k, v in values.items() if str(config.get(S.SECTION, k)) != v]
    for key in changed:
        config.set(S.SECTION, key, values[key])
    if changed:
        app.write_settings()
        for key in changed:
            app.on_config_change(config, S.SECTION, key, values[key])
    return changed


def import_path(app: Any, path: str) -> list[str] | None:
    """Settings -> Import: read ``path``, apply it, say what happened.

    Returns the keys changed, or None when the file was refused (a message
    says why; no setting changed).
    """
    from fastmine.files.reading import read_regular_file

    try:
        data = read_regular_file(path, MAX_BYTES)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise SettingsFileError(_("This is not a fastmine settings file.")) from None
        values, ignored = read_text(text)
    except (OSError, SettingsFileError) as exc:
        from ..services.appfiles import why_not_read

        Logger.info(f"fastmine: settings not imported from {path}: {exc}")
        # the system's words are English: the player reads a sentence in their language
        why = (_("There is no such file: {path}").format(path=path) if isinstance(exc, FileNotFoundError)
               else why_not_read(exc, path, sentence=True) if isinstance(exc, OSError) else str(exc))
        app.show_message(_("Settings not imported"), why)
        return None
    changed = apply(app, values)
    lines = [ngettext("{count} setting changed.", "{count} settings changed.",
                      len(changed)).format(count=len(changed))]
    if ignored:
        lines.append(_("Ignored, not settings of this version: {keys}.").format(
            keys=", ".join(ignored)[:200]))
    app.show_message(_("Settings imported"), " ".join(lines))
    root = getattr(app, "root", None)
    if root is not None and root.has_screen("settings"):
        root.get_screen("settings").on_pre_enter()  # its buttons show the new values
    return changed


def export_folder(home: str | None = None) -> Path:
    """Where Export writes: the Downloads folder, else the home folder."""
    home_path = Path(os.path.expanduser("~") if home is None else home)
    downloads = home_path / "Downloads"
    return downloads if downloads.is_dir() else home_path


def free_path(folder: Path) -> Path:
    """``fastmine-settings.json`` in ``folder``, or ``-2``, ``-3``... when taken."""
    path = folder / f"{FILE_NAME}.json"
    n = 2
    while os.path.lexists(path):
        path = folder / f"{FILE_NAME}-{n}.json"
        n += 1
    return path


def export_to(app: Any, path: str | os.PathLike[str] | None = None) -> Path | None:
    """Settings -> Export: write the settings to ``path`` (by default a free name
    in :func:`export_folder`) and say where; None when it could not be written
    (a message says why)."""
    from fastmine.files.outputs import write_output

    target = Path(path) if path is not None else free_path(export_folder())
    try:
        written = write_output(target, export_text(app.config), "Export",
                               data_dir=app.user_data_dir)
    except (OSError, ValueError) as exc:
        Logger.info(f"fastmine: settings not exported to {target}: {exc}")
        app.show_message(_("Settings not exported"), str(exc))
        return None
    app.show_message(_("Settings exported"), _("Saved as {path}").format(path=str(written)))
    return written


def choose_file(app: Any, chooser: Callable[..., Any] | None = None) -> Any:
    """Settings -> Import: the platform's chooser where there is one, else the app's
    own (:func:`.filepicker.choose`; the app's is returned), opening at the last folder
    used or where Export writes."""
    from ..dialogs.filepicker import choose

    return choose(app, _(IMPORT_WORDS), PATTERNS, lambda p: import_path(app, p),
                  kinds="fastmine settings", chooser=chooser, fallback=str(export_folder()),
                  empty=EMPTY_WORDS)


def buttons(app: Any) -> Any:
    """The Settings screen's Export and Import buttons, one under the other
    (their words are long in some languages)."""
    from kivy.metrics import dp
    from kivy.uix.boxlayout import BoxLayout

    from ..widgets import FlatButton

    box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(6), padding=(0, dp(6)))
    box.bind(minimum_height=box.setter("height"))
    for key, words, action in (("export", EXPORT_WORDS, lambda *_a: export_to(app)),
                               ("import", IMPORT_WORDS, lambda *_a: choose_file(app))):
        b = FlatButton(text=_(words), size_hint_y=None, height=dp(48))
        b.bind(on_release=action)
        b.key = key
        box.add_widget(b)
    return box
