"""A quiet start: the app's log holds no CRITICAL, traceback or DEBUG line.

The app is started as the README starts it (``python -m fastmine.app``), in a
process of its own with a user's environment: Kivy's console log on, a Kivy
folder of its own (the first start writes Kivy's ``config.ini``; the second
reads it), no xclip or xsel needed.  Without a display it runs on SDL's
offscreen driver.  Ctrl-C then stops it without a traceback.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from sigint_default import SIGINT_DEFAULT

pytest.importorskip("kivy", reason="Kivy is not installed (pip install 'fastmine[app]')")

MAIN_LOOP = "Start application main loop"


def _start_and_stop(tmp_path: Path, kivy_home: Path) -> tuple[int, list[str]]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("KIVY_", "FASTMINE_")) and k not in ("SDL_AUDIODRIVER",)}
    env.update(KIVY_HOME=str(kivy_home), FASTMINE_DATA_DIR=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_CACHE_HOME=str(tmp_path / "cache"))
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        env["SDL_VIDEODRIVER"] = "offscreen"
    # SIGINT at its default whatever this process's parent did with it (see sigint_default)
    proc = subprocess.Popen([*SIGINT_DEFAULT, sys.executable, "-m", "fastmine.app"],
                            stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env, cwd=tmp_path)
    lines: list[str] = []
    started = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if MAIN_LOOP in line:
                started.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        if not started.wait(180):
            pytest.fail("the app did not reach its main loop in 180 s:\n" + "\n".join(lines[-30:]))
        time.sleep(3.0)                  # its first frames, the settings and the board drawn
        proc.send_signal(signal.SIGINT)  # Ctrl-C in the terminal that started it
        code = proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reader.join(10)
    return code, lines


@pytest.mark.skipif(sys.platform == "win32", reason="Ctrl-C is a POSIX signal here")
def test_the_app_starts_and_stops_without_a_critical_traceback_or_debug_line(tmp_path):
    kivy_home = tmp_path / "kivy"
    for run in ("first start", "second start"):
        code, lines = _start_and_stop(tmp_path, kivy_home)
        loud = [line for line in lines
                if any(word in line for word in ("CRITICAL", "Traceback", "DEBUG", "ERROR"))]
        assert not loud, f"{run}:\n" + "\n".join(lines)
        assert code == 130, f"{run}: exit {code}\n" + "\n".join(lines[-20:])
        assert any(MAIN_LOOP in line for line in lines)
    assert (kivy_home / "config.ini").is_file()   # the second start read Kivy's own settings
