"""The app's kv files: each named by its path in the app's folder
(``screens/game.kv``), each loaded once per process.

Tests and the benchmark start several apps in one process, and a kv file
loaded twice would give every widget of its rules its children twice.
"""

from __future__ import annotations

import os

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
