"""The screens besides the game's, and their kv files, loaded on first use.

The first frame shows the game screen only: what it draws is all the app
imports and parses before it (``application.KV_FILES``).  Every other screen,
its module and its kv files come in when the player first opens it
(:func:`screen_class`), so a start never pays for Settings, Records, Progress,
the replay player or the rules.  Rules more than one of these screens use are
in ``widgets.kv``, which loads at start: a screen's rules may come first in
any order.

A kv file loads once per process (:func:`load_kv`): tests and the benchmark
start several apps in one process, and a file loaded twice would give every
widget of its rules its children twice.
"""

from __future__ import annotations

import importlib
import os

HERE = os.path.dirname(os.path.abspath(__file__))

SCREENS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "new_game": ("newgamescreen", "NewGameScreen", ("newgame.kv",)),
    "records": ("recordsscreen", "RecordsScreen", ("records.kv",)),
    "progress": ("statsscreen", "ProgressScreen", ("stats.kv",)),
    "about": ("aboutscreen", "AboutScreen", ("about.kv",)),
    "settings": ("settingsscreen", "SettingsScreen", ("settings.kv",)),
    "replays": ("replaylist", "ReplaysScreen", ("replay.kv",)),
    "replay": ("replayscreen", "ReplayScreen", ("replay.kv",)),
    "how_to_play": ("howtoplay", "HowToPlayScreen", ("howtoplay.kv",)),
}
"""Screen name -> (its module in this package, its class, the kv files it needs)."""


def load_kv(*names: str) -> None:
    """Load the kv files ``names`` (beside this module) in this order, each
    once per process."""
    from kivy.lang import Builder

    loaded = {os.path.abspath(f) for f in Builder.files}
    for name in names:
        path = os.path.join(HERE, name)
        if path not in loaded:
            Builder.load_file(path)
            loaded.add(path)


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
    found: type = getattr(importlib.import_module(f"{__package__}.{module}"), cls)
    return found
