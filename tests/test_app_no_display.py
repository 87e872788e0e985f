"""Started where no window can be seen, the app says so and how to play instead.

Without DISPLAY or WAYLAND_DISPLAY (a server over ssh, a container) SDL falls back to
an off-screen window: ``bash scripts/play.sh`` used to start an invisible app and
wait, silently, until killed."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from fastmine.app.launch import no_display


@pytest.mark.parametrize("env, system, shows", [
    ({}, "linux", False),
    ({"DISPLAY": ":0"}, "linux", True),
    ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", True),
    ({"SDL_VIDEODRIVER": "offscreen"}, "linux", True),     # asked for by hand
    ({"DISPLAY": ""}, "linux", False),                     # set but empty
    ({}, "android", True),
    ({"ANDROID_ARGUMENT": "/data/app"}, None, True),
    ({}, "darwin", True),
    ({}, "win32", True),
])
def test_no_display_is_said_only_where_no_window_can_be_seen(env, system, shows):
    reason = no_display(env, system)
    assert (reason is None) is shows
    if reason:
        assert "fastmine play" in reason and "SDL_VIDEODRIVER=offscreen" in reason


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the check is Linux's")
def test_the_launcher_without_a_display_exits_at_once_with_the_message(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env["FASTMINE_DATA_DIR"] = str(tmp_path)
    r = subprocess.run([sys.executable, "-m", "fastmine.app"], capture_output=True, text=True,
                       timeout=120, env=env, stdin=subprocess.DEVNULL, cwd=tmp_path)
    assert r.returncode == 1
    assert "no display" in r.stderr and "fastmine play" in r.stderr
    assert "Traceback" not in r.stderr


def test_a_bad_size_is_said_on_the_console_though_kivy_holds_stderr(tmp_path):
    """Kivy hands sys.stderr to its logger, which shows nothing under
    KIVY_NO_CONSOLELOG: the launcher's lines after Kivy's import were lost."""
    pytest.importorskip("kivy", reason="the app extra (Kivy) is not installed")
    env = dict(os.environ, KIVY_NO_CONSOLELOG="1", SDL_VIDEODRIVER="offscreen",
               FASTMINE_DATA_DIR=str(tmp_path))
    r = subprocess.run([sys.executable, "-m", "fastmine.app", "--size", "big"],
                       capture_output=True, text=True, timeout=120, env=env,
                       stdin=subprocess.DEVNULL, cwd=tmp_path)
    assert r.returncode == 2
    assert "--size must look like 480x800" in r.stderr
