"""App speed, for the benchmark suite: ``python app/main.py --bench``.

Prints one JSON line:

- ``startup_s``: from the first line of ``app/main.py`` to the first frame
  on screen (the window, the atlas, the screens and a board built);
  ``process_startup_s`` counts from the process start instead (Linux).
- ``reveal_frame_ms_*``: on a 50x50 board with 500 mines, the time from a
  reveal (a single cell, no opening) to the end of the frame that shows it:
  the move, the mesh update, drawing, the buffer swap and ``glFinish`` (so
  a software renderer's work is counted); ``reveal_cpu_ms_median`` is the
  same without waiting for the GPU.
- ``mark_frame_ms_median``: the same for flagging a cell.
- ``redraw_frame_ms_median``: a frame that redraws the whole window with
  nothing changed, the floor the two above are compared with.

Without a display it runs on SDL's offscreen driver (software GL here), in a
throwaway data folder, so it never touches the player's records.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time

import numpy as np


def bench_environment() -> None:
    """Quiet, headless, isolated Kivy; call before Kivy is imported."""
    env = os.environ
    env.setdefault("KIVY_NO_ARGS", "1")
    env.setdefault("KIVY_NO_CONSOLELOG", "1")
    env.setdefault("KIVY_NO_FILELOG", "1")
    env.setdefault("KIVY_NO_CONFIG", "1")
    env.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="fastmine-kivy-"))
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        env.setdefault("SDL_VIDEODRIVER", "offscreen")
    env.setdefault("SDL_AUDIODRIVER", "dummy")


def _process_age() -> float | None:
    try:
        with open("/proc/self/stat") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        return uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _frame(EventLoop) -> float:
    """Run one frame and wait until the GPU finished it; returns the CPU-side ms."""
    from kivy.graphics.opengl import glFinish

    a = time.perf_counter()
    EventLoop.idle()
    cpu = (time.perf_counter() - a) * 1000
    glFinish()
    return cpu


def run_bench(t0: float, data_dir: str | None = None, reveals: int = 30) -> int:
    """Start the app, time the first frame and reveals on 50x50, print JSON."""
    from kivy.config import Config

    Config.set("graphics", "maxfps", "0")
    from kivy.base import EventLoop, runTouchApp

    from fastmine import Difficulty, GameState

    from .application import FastmineApp

    data_dir = data_dir or tempfile.mkdtemp(prefix="fastmine-bench-")
    app = FastmineApp(data_dir=data_dir)
    app._run_prepare()
    runTouchApp(embedded=True)
    for _ in range(50):
        _frame(EventLoop)
        if app.first_frame_at is not None:
            break
    startup = (app.first_frame_at or time.perf_counter()) - t0
    age = _process_age()
    process_startup = None if age is None else age - (time.perf_counter() - (app.first_frame_at or 0))

    app.sounds.enabled = False
    ctrl = app.ctrl
    app.start_game(Difficulty(50, 50, 500), rule="opening")
    for _ in range(3):
        _frame(EventLoop)
    ctrl.reveal(25, 25)  # first click: lays the mines, opens an area
    _frame(EventLoop)
    game = ctrl.game
    rng = np.random.default_rng(1)
    view = game.view
    counts = game.board.counts
    candidates = np.argwhere((view == -1) & ~game.board.mines & (counts > 0))
    rng.shuffle(candidates)
    from kivy.core.window import Window

    reveal_ms, reveal_cpu = [], []
    for r, c in candidates[:reveals]:
        if game.state is not GameState.PLAYING or game.view[r, c] != -1:
            continue
        a = time.perf_counter()
        ctrl.reveal(int(r), int(c))
        move = (time.perf_counter() - a) * 1000
        reveal_cpu.append(move + _frame(EventLoop))
        reveal_ms.append((time.perf_counter() - a) * 1000)
    mark_ms = []
    hidden = np.argwhere(game.view == -1)[:reveals]
    for r, c in hidden:
        a = time.perf_counter()
        ctrl.mark(int(r), int(c))
        _frame(EventLoop)
        mark_ms.append((time.perf_counter() - a) * 1000)
    redraw_ms = []
    for _ in range(reveals):
        a = time.perf_counter()
        Window.canvas.ask_update()
        _frame(EventLoop)
        redraw_ms.append((time.perf_counter() - a) * 1000)

    try:
        from kivy.graphics.opengl import GL_RENDERER, glGetString
        renderer = glGetString(GL_RENDERER).decode(errors="replace")
    except Exception:
        renderer = "unknown"
    result = {
        "startup_s": round(startup, 4),
        "process_startup_s": None if process_startup is None else round(process_startup, 4),
        "board": "50x50/500",
        "window": list(Window.size),
        "reveals": len(reveal_ms),
        "reveal_frame_ms_median": round(statistics.median(reveal_ms), 3) if reveal_ms else None,
        "reveal_frame_ms_max": round(max(reveal_ms), 3) if reveal_ms else None,
        "reveal_cpu_ms_median": round(statistics.median(reveal_cpu), 3) if reveal_cpu else None,
        "mark_frame_ms_median": round(statistics.median(mark_ms), 3) if mark_ms else None,
        "redraw_frame_ms_median": round(statistics.median(redraw_ms), 3),
        "gl_renderer": renderer,
    }
    out = sys.__stdout__ or sys.stdout
    out.write(json.dumps(result) + "\n")
    out.flush()
    app.stop()
    return 0
