"""The app's kv files: each named by its path in the app's folder
(``screens/game.kv``), each loaded once per process.

Tests and the benchmark start several apps in one process, and a kv file
loaded twice would give every widget of its rules its children twice.
"""

from __future__ import annotations

import os
from typing import Any

APP_DIR = os.path.dirname(os.path.abspath(__file__))
"""The app's folder: kv files are named by their path in it."""


def load_kv(*names: str) -> None:
    """Load the kv files ``names`` (paths in the app's folder, ``screens/game.kv``)
    in this order, each once per process."""
    from kivy.lang import Builder

    loaded = {os.path.abspath(f) for f in Builder.files}
    for name in names:
        path = os.path.join(APP_DIR, *name.split("/"))
        if path not in loaded:
            Builder.load_file(path)
            loaded.add(path)


class RulesOnFirstUse:
    """A widget whose rules load with its first instance: :attr:`KV_FILES`,
    before it is built (each file once per process), and not at start."""

    KV_FILES: tuple[str, ...] = ()
    """The kv files of the widget's rules, by their path in the app's folder."""

    def __init__(self, **kwargs: Any) -> None:
        load_kv(*self.KV_FILES)
        super().__init__(**kwargs)
