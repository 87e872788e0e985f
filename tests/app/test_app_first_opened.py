"""A screen or dialog opened first looks the same as opened after all the others.

The app loads every screen but the game's, the dialogs' rules and the
tutorial's card on first use (``fastmine.app.screens.screenloader``).  Kivy builds a
widget whose kv rule is not loaded yet without complaint: it just looks wrong
(no background, no children, another size).  So each screen of
``screenloader.SCREENS`` and each dialog a player meets (the end of a game won
and lost, the offer to resume, quit and abandon questions, a message, the Main
menu, the solver's menu, the tutorial's card) is opened by touch as the FIRST
thing in a fresh child process, and its pixels must be exactly those of the
same screen opened in a process where every kv file of the app was loaded
before the app started.  Time is a fake clock, and the win's confetti (random)
have fallen before the picture is taken, so the two runs draw the same frames.

The child is ``firstopened.py``; the profile is a 360-dp phone with large
text (720x1280, density 2, font scale 1.3).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("kivy")

import firstopened  # noqa: E402

from fastmine.app import kvfiles  # noqa: E402
from fastmine.app.screens import screenloader  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PROFILE = "phone_360_font13"
LANGUAGE = "en"


def run_child(out_dir, mode: str, *targets: str) -> None:
    env = os.environ.copy()  # conftest's headless Kivy settings
    env.pop("FASTMINE_APP_DATA", None)
    out = subprocess.run(
        [sys.executable, os.path.join(HERE, "firstopened.py"), PROFILE, LANGUAGE, mode, str(out_dir),
         *targets], capture_output=True, text=True, timeout=600, env=env, cwd=str(out_dir))
    assert out.returncode == 0, out.stderr[-3000:]


@pytest.fixture(scope="module")
def warm(kivy_window, tmp_path_factory):
    """Every target opened in one process that loaded every kv file first."""
    out_dir = tmp_path_factory.mktemp("warm")
    run_child(out_dir, "warm", *firstopened.targets())
    return out_dir


def test_the_targets_are_every_screen_and_every_dialog():
    assert set(screenloader.SCREENS) <= set(firstopened.targets())
    # every kv file of the app is loaded in the warm run
    kv_here = {p.relative_to(kvfiles.APP_DIR).as_posix() for p in Path(kvfiles.APP_DIR).rglob("*.kv")}
    assert set(firstopened.all_kv_files()) == kv_here


@pytest.mark.slow  # a child process each, about 2.5 minutes in all: handed out first
@pytest.mark.parametrize("target", firstopened.targets())
def test_opened_first_it_looks_as_opened_after_every_rule_was_loaded(warm, tmp_path, target):
    run_child(tmp_path, "fresh", target)
    fresh = np.load(tmp_path / f"{target}-fresh.npy")
    loaded = np.load(warm / f"{target}-warm.npy")
    assert fresh.shape == loaded.shape
    differ = np.any(fresh != loaded, axis=2)
    rows = np.flatnonzero(differ.any(axis=1))
    assert not differ.any(), (
        f"{target} opened first differs from {target} opened with every rule loaded: "
        f"{int(differ.sum())} pixels, rows {rows.min()}..{rows.max()} from the bottom "
        f"(pictures: {tmp_path / (target + '-fresh.png')}, {warm / (target + '-warm.png')})")
    # a picture of something: not one flat colour
    assert len(np.unique(fresh.reshape(-1, 3), axis=0)) > 8
