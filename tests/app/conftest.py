"""Kivy app tests: the real app, real rendering (SDL offscreen over EGL), real touches.

Kivy reads its environment at import, so it is set here before anything
imports Kivy.  One window serves the whole session; each test gets a fresh
app in its own data folder, driven frame by frame on a fake clock (see
:mod:`driver`).  Every test here is marked ``app``; all of them are skipped
with the reason when Kivy or OpenGL cannot start on this machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_NO_CONFIG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="fastmine-kivy-home-"))
if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.pop("FASTMINE_APP_DATA", None)
try:  # the installed fastmine (CI), else the source tree's
    import fastmine  # noqa: F401
except ImportError:
    sys.path.insert(0, str(ROOT / "src"))

WINDOW = (480, 800)  # a phone in portrait
# SDL's offscreen driver draws into a surface made once, at the window's first
# size, and never grows it: a window resized larger is drawn only in part.  The
# session's window starts as large as the largest profile (tests/app/profiles.py,
# 1080x2340 in portrait and in landscape), and every test then sets its size.
SURFACE = (2340, 2340)

try:  # before any test module imports Kivy widgets (and with them the Clock)
    from kivy.config import Config as _Config

    _Config.set("graphics", "maxfps", "0")  # never sleep between frames
    _Config.set("graphics", "multisamples", "0")  # as the app draws (fastmine.app.launch)
    _Config.set("graphics", "width", str(SURFACE[0]))
    _Config.set("graphics", "height", str(SURFACE[1]))
except ImportError:  # no Kivy: the kivy_window fixture skips with the reason
    pass

_PROBE = """
from kivy.config import Config
Config.set("graphics", "width", "64"); Config.set("graphics", "height", "64")
from kivy.core.window import Window
assert Window is not None, "no window provider"
from kivy.graphics.opengl import glGetString, GL_RENDERER
print(glGetString(GL_RENDERER))
"""


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.app)


@pytest.fixture(scope="session")
def kivy_window():
    """The one Kivy window, or a clean skip saying why there is none."""
    pytest.importorskip("kivy", reason="Kivy is not installed (pip install 'fastmine[app]')")
    # Probe in a child process first: a window provider that cannot start may
    # take the whole interpreter down with it.
    probe = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                           timeout=120, env=os.environ.copy())
    if probe.returncode != 0:
        tail = (probe.stderr or probe.stdout).strip().splitlines()[-3:]
        pytest.skip("Kivy cannot open an OpenGL window here (need libgl1 and libegl1): "
                    + " | ".join(tail))
    from kivy.config import Config

    Config.set("graphics", "width", str(SURFACE[0]))
    Config.set("graphics", "height", str(SURFACE[1]))
    Config.set("graphics", "maxfps", "0")
    Config.set("graphics", "multisamples", "0")
    Config.set("graphics", "resizable", "1")
    from kivy.base import EventLoop, runTouchApp
    from kivy.clock import Clock
    from kivy.core.window import Window

    Clock._max_fps = 0.0  # in case the Clock was made before maxfps was set

    if Window is None:
        pytest.skip("Kivy has no window provider here")
    from kivydriver import FakeClock

    clock = FakeClock.install()
    runTouchApp(embedded=True)
    EventLoop.idle()
    yield Window, clock


@pytest.fixture
def data_dir(tmp_path):
    """An empty data folder for one app (settings, records, saved game, sounds)."""
    d = tmp_path / "data"
    d.mkdir()
    return d


@pytest.fixture
def make_app(kivy_window):
    """``make_app(data_dir)`` starts a fresh app; every app is stopped at teardown."""
    from kivydriver import Driver

    window, clock = kivy_window
    drivers: list[Driver] = []

    def make(data_dir, size=WINDOW, **config):
        for d in drivers:
            d.stop()
        drv = Driver.start(window, clock, str(data_dir), size=tuple(size), config=config)
        drivers.append(drv)
        return drv

    yield make
    for d in drivers:
        d.stop()
    from profiles import set_metrics

    set_metrics(1.0, 1.0)  # a profile (profiles.start_app) must not leak into the next test


@pytest.fixture
def drv(make_app, data_dir):
    """A started app on a beginner board, in a fresh data folder."""
    return make_app(data_dir)


@pytest.fixture(scope="session")
def screenshot_dir(tmp_path_factory):
    """Where screenshots go: ``$FASTMINE_SCREENSHOTS`` or a session temp folder."""
    env = os.environ.get("FASTMINE_SCREENSHOTS")
    if env:
        p = Path(env)
        p.mkdir(parents=True, exist_ok=True)
        return p
    return tmp_path_factory.mktemp("screenshots")
