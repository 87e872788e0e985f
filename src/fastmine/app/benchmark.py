"""App speed, for the benchmark suite: ``python app/main.py --bench``.

Runs at a phone profile by default (``FASTMINE_BENCH_PROFILE=phone``: a
1080x2340 window at density 2.75, i.e. 393x851 dp, games opened the
touch-screen way, so 50x50 opens zoomed at 56 dp cells);
``FASTMINE_BENCH_PROFILE=desktop`` keeps the window ``--size`` gives
(default 1000x1000) at density 1.  Prints one JSON line:

- ``startup_s``: from the first line of ``app/main.py`` to the first frame
  on screen (the window, the atlas, the screens and a board built);
  ``process_startup_s`` counts from the process start instead (Linux);
  ``process_cpu_to_first_frame_s`` is the CPU time the whole process used
  up to that frame (interpreter start and imports included);
  ``main_thread_cpu_to_first_frame_s`` the same for the thread that runs the
  app only, without the threads of libraries (a software OpenGL's render
  threads, a BLAS library's thread pool, which spins while idle) that a phone
  does not have or runs elsewhere.  ``first_start`` says whether this was the
  first start with this data folder (the tiles drawn, not read from the cache,
  and the tutorial shown; the bench then skips it as a player would): run twice
  with one ``--data-dir`` to measure a later start.
- ``reveal_app_ms_*``: on a 50x50 board with 500 mines, the app's own work
  for one reveal of a single cell (no opening): the move in the engine, the
  tile lookup, the vertex update and the animation check -- the call to the
  controller, no drawing.  ``..._no_animations`` is the same with the
  animations setting off: animations must not make this slower.
- ``opening_app_ms_*``: the same for a first click that opens an area on a
  fresh 50x50 board (mines laid, flood fill, the opening cascade built when
  animations are on), with and without animations.
- ``reveal_frame_ms_*``: the time from a reveal to the end of the frame
  that shows it: the move, the mesh update, drawing, the buffer swap and
  ``glFinish`` (so a software renderer's work is counted);
  ``reveal_cpu_ms_median`` is the same without waiting for the GPU.
- ``mark_frame_ms_median``: the same for flagging a cell.
- ``redraw_frame_ms_median``: a frame that redraws the whole window with
  nothing changed, the floor the two above are compared with.
- ``peak_rss_mb``: the process's peak resident memory (Linux's ``ru_maxrss``)
  once all of the above ran: the window, the app, 50x50 games opened and
  played; ``peak_rss_mb_first_frame`` the same at the first frame.
- ``gl_renderer`` and ``gl_samples``: the OpenGL renderer and the window's
  samples per pixel (0: the app turns multisampling off, see :mod:`.launch`).

Without a display it runs on SDL's offscreen driver (software GL here), in a
throwaway data folder, so it never touches the player's records.

``--bench-memory CLICKS`` (:func:`run_memory_bench`) measures memory instead:
the resident size (Linux's ``VmRSS``, what the process holds now, not its
peak) at the first frame, after a 50x50 game played by ``CLICKS`` clicks (each
drawn and finished as a screen would), on each other screen and back at the
game after it, then after every screen was visited; one JSON line.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np

if TYPE_CHECKING:
    from .application import FastmineApp

class Profile(TypedDict):
    """A screen the benchmark runs on."""

    size: tuple[int, int]  # the window, pixels
    density: float  # pixels per dp


PHONE: Profile = {"size": (1080, 2340), "density": 2.75}
"""The phone profile the bench runs at (tests/app/profiles.py's phone_393)."""


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


def _frame(EventLoop: Any) -> float:  # Kivy's event loop
    """Run one frame and wait until the GPU finished it; returns the CPU-side ms."""
    from kivy.graphics.opengl import glFinish

    a = time.perf_counter()
    EventLoop.idle()
    cpu = (time.perf_counter() - a) * 1000
    glFinish()
    return cpu



def _start_app(data_dir: str | None) -> tuple[Any, str, bool]:
    """Start the app on ``data_dir`` (a new temporary folder when None) and run frames
    until its first one is drawn (50 at most): the app, its folder, and whether this
    was a first start (no tile atlas cached yet)."""
    from kivy.base import EventLoop, runTouchApp

    from .application import FastmineApp
    from .services import appfiles

    data_dir = data_dir or tempfile.mkdtemp(prefix="fastmine-bench-")
    first_start = not any(appfiles.cache_folder(data_dir).glob("atlas-*.npy"))
    app = FastmineApp(data_dir=data_dir)
    app._run_prepare()
    runTouchApp(embedded=True)
    for _ in range(50):
        _frame(EventLoop)
        if app.first_frame_at is not None:
            break
    return app, data_dir, first_start


def _peak_rss_mb() -> float | None:
    """The process's peak resident memory so far, in MB (None where unknown)."""
    try:
        import resource
    except ImportError:  # not on Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1 << 20 if sys.platform == "darwin" else 1 << 10), 1)  # bytes on macOS


def _median(xs: list[float]) -> float | None:
    # imported here: statistics (and fractions with it) is nothing the app loads,
    # and the start-up this module measures must be the app's own
    import statistics

    return round(statistics.median(xs), 3) if xs else None


def _set_animations(app: FastmineApp, on: bool) -> None:
    from . import settings as S

    app.config.set(S.SECTION, "animations", "1" if on else "0")


def run_bench(t0: float, data_dir: str | None = None, reveals: int = 30) -> int:
    """Start the app, time the first frame and reveals on 50x50, print JSON."""
    from kivy.config import Config

    Config.set("graphics", "maxfps", "0")
    profile = os.environ.get("FASTMINE_BENCH_PROFILE", "phone").strip().lower() or "phone"
    if profile not in ("phone", "desktop"):
        raise SystemExit(f"FASTMINE_BENCH_PROFILE must be phone or desktop, not {profile!r}")
    if profile == "phone":
        # before the window exists: SDL's offscreen surface never grows later
        Config.set("graphics", "width", str(PHONE["size"][0]))
        Config.set("graphics", "height", str(PHONE["size"][1]))
        from kivy.metrics import Metrics

        from .board import viewport

        Metrics.density = PHONE["density"]
        viewport.TOUCH_FIRST = True
    from kivy.base import EventLoop
    from kivy.core.window import Window

    from fastmine import Difficulty, GameState


    cpu_first: list[float] = []
    thread_cpu_first: list[float] = []
    rss_first: list[float | None] = []

    def first_flip(*_a: object) -> None:
        Window.unbind(on_flip=first_flip)
        cpu_first.append(time.process_time())
        thread_cpu_first.append(time.thread_time())
        rss_first.append(_peak_rss_mb())

    Window.bind(on_flip=first_flip)
    app, data_dir, first_start = _start_app(data_dir)
    startup = (app.first_frame_at or time.perf_counter()) - t0
    age = _process_age()
    process_startup = None if age is None else age - (time.perf_counter() - (app.first_frame_at or 0))

    if app.sounds is None or app.game_screen is None:
        raise RuntimeError("the app did not build its game screen")
    app.sounds.enabled = False
    # A player finishes or skips the tutorial of a first start, so it is not shown
    # again: the next run with this data folder is then a later start like theirs.
    if app.tutorial_on:
        app.end_tutorial()
    ctrl = app.ctrl
    board = app.game_screen.board

    # openings: first clicks on fresh boards, animations on and off in turn
    opening: dict[bool, list[float]] = {True: [], False: []}
    for i in range(2 * max(3, reveals // 3)):
        on = i % 2 == 0
        _set_animations(app, on)
        app.start_game(Difficulty(50, 50, 500), rule="opening")
        _frame(EventLoop)
        a = time.perf_counter()
        ctrl.reveal(25, 25)
        opening[on].append((time.perf_counter() - a) * 1000)
        _frame(EventLoop)
    _set_animations(app, True)

    app.start_game(Difficulty(50, 50, 500), rule="opening")
    for _ in range(3):
        _frame(EventLoop)
    scale_dp = board.scale / (PHONE["density"] if profile == "phone" else 1.0)
    ctrl.reveal(25, 25)  # first click: lays the mines, opens an area
    for _ in range(30):  # let the cascade finish
        _frame(EventLoop)
    game = ctrl.game
    view = game.view
    counts = game.board.counts
    candidates = np.argwhere((view == -1) & ~game.board.mines & (counts > 0))
    # shuffled with the standard library: numpy.random (2 MB of extension modules)
    # is nothing the app loads at a later start, and the peak memory is measured
    order = list(range(len(candidates)))
    random.Random(1).shuffle(order)
    candidates = candidates[order]

    reveal_ms: list[float] = []
    reveal_cpu: list[float] = []
    reveal_app: dict[bool, list[float]] = {True: [], False: []}
    for i, (r, c) in enumerate(candidates[:2 * reveals]):
        if game.state is not GameState.PLAYING or game.view[r, c] != -1:
            continue
        on = i % 2 == 0
        _set_animations(app, on)
        a = time.perf_counter()
        ctrl.reveal(int(r), int(c))
        move = (time.perf_counter() - a) * 1000
        reveal_app[on].append(move)
        frame_cpu = _frame(EventLoop)
        if on:
            reveal_cpu.append(move + frame_cpu)
            reveal_ms.append((time.perf_counter() - a) * 1000)
    _set_animations(app, True)
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
    try:  # the window's samples per pixel: 0 (multisampling doubled its buffers)
        from kivy.graphics.opengl import GL_SAMPLES, glGetIntegerv
        samples: int | None = int(glGetIntegerv(GL_SAMPLES)[0])
    except Exception:
        samples = None
    result = {
        "profile": ("phone: 1080x2340 px at density 2.75 (393x851 dp), touch-first"
                    if profile == "phone" else "desktop: density 1"),
        "startup_s": round(startup, 4),
        "process_startup_s": None if process_startup is None else round(process_startup, 4),
        "process_cpu_to_first_frame_s": round(cpu_first[0], 4) if cpu_first else None,
        "main_thread_cpu_to_first_frame_s": round(thread_cpu_first[0], 4) if thread_cpu_first else None,
        "first_start": first_start,
        "board": "50x50/500",
        "window": list(Window.size),
        "cell_dp": round(scale_dp, 2),
        "reveals": len(reveal_ms),
        "reveal_app_ms_median": _median(reveal_app[True]),
        "reveal_app_ms_max": round(max(reveal_app[True]), 3) if reveal_app[True] else None,
        "reveal_app_ms_median_no_animations": _median(reveal_app[False]),
        "opening_app_ms_median": _median(opening[True]),
        "opening_app_ms_median_no_animations": _median(opening[False]),
        "reveal_frame_ms_median": _median(reveal_ms),
        "reveal_frame_ms_max": round(max(reveal_ms), 3) if reveal_ms else None,
        "reveal_cpu_ms_median": _median(reveal_cpu),
        "mark_frame_ms_median": _median(mark_ms),
        "redraw_frame_ms_median": _median(redraw_ms),
        "peak_rss_mb": _peak_rss_mb(),
        "peak_rss_mb_first_frame": rss_first[0] if rss_first else None,
        "gl_renderer": renderer,
        "gl_samples": samples,
    }
    out = sys.__stdout__ or sys.stdout
    out.write(json.dumps(result) + "\n")
    out.flush()
    app.stop()
    return 0


MEMORY_SCREENS = ("new_game", "records", "progress", "replays", "replay", "settings",
                  "how_to_play", "about")
"""The screens the memory bench visits, each from the game and back."""


def _rss_mb() -> float | None:
    """The process's resident memory now, in MB (Linux; None elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return round(pages * os.sysconf("SC_PAGE_SIZE") / (1 << 20), 1)


def _play_clicks(app: Any, EventLoop: Any, clicks: int) -> int:
    """A 50x50 game with 500 mines played by ``clicks`` clicks that keep it in
    play (an opening, then safe cells opened and mines flagged, in a seeded
    order), each followed by its frame; returns the clicks made."""
    from fastmine import Difficulty, GameState

    ctrl = app.ctrl
    app.start_game(Difficulty(50, 50, 500), rule="opening")
    _frame(EventLoop)
    ctrl.reveal(25, 25)
    made = 1
    rng = random.Random(1)
    game = ctrl.game
    while made < clicks and game.state is GameState.PLAYING:
        hidden = np.argwhere(game.view == -1)
        if len(hidden) == 0:
            break
        r, c = (int(v) for v in hidden[rng.randrange(len(hidden))])
        if game.board.mines[r, c]:
            ctrl.mark(r, c)
        else:
            ctrl.reveal(r, c)
        made += 1
        _frame(EventLoop)
    for _ in range(30):  # the last animations end
        _frame(EventLoop)
    return made


def run_memory_bench(data_dir: str | None = None, clicks: int = 300) -> int:
    """Start the app at the bench's profile, play a 50x50 game and visit every
    screen, printing the resident memory at each step as one JSON line."""
    from kivy.config import Config

    Config.set("graphics", "maxfps", "0")
    Config.set("graphics", "width", str(PHONE["size"][0]))
    Config.set("graphics", "height", str(PHONE["size"][1]))
    from kivy.metrics import Metrics

    from .board import viewport

    Metrics.density = PHONE["density"]
    viewport.TOUCH_FIRST = True
    from kivy.base import EventLoop

    from fastmine.replay import Replay


    app, data_dir, first_start = _start_app(data_dir)
    for _ in range(3):
        _frame(EventLoop)
    rss: dict[str, float | None] = {"first_frame": _rss_mb()}
    if app.sounds is not None:
        app.sounds.enabled = False
    if app.tutorial_on:
        app.end_tutorial()
    if app.resume_dialog is not None:  # a later start offers the last run's game
        app.resume_dialog.dismiss()
    made = _play_clicks(app, EventLoop, clicks)
    rss["game"] = _rss_mb()
    game = app.ctrl.game
    for name in MEMORY_SCREENS:
        if name == "replay":
            try:
                app.watch_replay(Replay.from_game(game))
            except ValueError:
                continue
        else:
            app.show_screen(name)
        for _ in range(10):
            _frame(EventLoop)
        rss[name] = _rss_mb()
        app.show_screen("game")
        for _ in range(5):
            _frame(EventLoop)
        rss[f"{name}_then_game"] = _rss_mb()
    rss["every_screen_then_game"] = rss[f"{MEMORY_SCREENS[-1]}_then_game"]
    result = {
        "profile": "phone: 1080x2340 px at density 2.75 (393x851 dp), touch-first",
        "first_start": first_start,
        "board": "50x50/500",
        "clicks": made,
        "game_state": game.state.value,
        "rss_mb": rss,
        "peak_rss_mb": _peak_rss_mb(),
    }
    out = sys.__stdout__ or sys.stdout
    out.write(json.dumps(result) + "\n")
    out.flush()
    app.stop()
    return 0
