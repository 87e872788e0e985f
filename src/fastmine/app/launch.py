"""Starting the app: ``fastmine-app``, ``python -m fastmine.app`` and ``app/main.py``.

Options (anything after ``--`` goes to Kivy):
  --data-dir DIR   keep settings, records, saved game and sounds in DIR
  --bench          measure startup to first frame and the frame time after a
                   reveal on a 50x50 board, print one JSON line, and exit
  --size WxH       window size (desktop)

Nothing here imports Kivy before the arguments are read and Kivy is known to
be installed, so ``--help`` works without it and a missing Kivy is one line
naming the extra that brings it.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections.abc import Mapping

from .._blas import one_blas_thread

# Kivy reads its providers from the environment when it is first imported, and by
# default tries every image library it knows: PIL's import alone costs a start
# 30-40 ms of CPU.  The app loads no image file but Kivy's own PNG theme atlas
# (SDL2 reads it; the tiles are drawn with numpy), so it names the loaders it uses.
# Set on import of fastmine.app, before any of its modules imports Kivy; a player's
# own KIVY_IMAGE wins.
os.environ.setdefault("KIVY_IMAGE", "tex,dds,sdl2")
# The app multiplies no matrix (the tiles are drawn with element-wise numpy):
# OpenBLAS starts no thread of its own (a player's own setting wins).
one_blas_thread()

DESKTOP_SIZE = "1180x720"
"""The desktop window's first size (then it remembers its own)."""

NO_KIVY = ("The fastmine app needs Kivy, which is not installed for {python}.\n"
           "Install the app extra:  {install}\n"
           "or play in the terminal without it:  fastmine play")


def _have_kivy() -> bool:
    """Whether Kivy imports; if not, say which extra brings it (no traceback)."""
    try:
        import kivy  # noqa: F401
    except ImportError as exc:
        if (exc.name or "").split(".")[0] != "kivy":
            raise  # Kivy is there but something it needs is broken: show the real error
        from ..extras import install_hint

        print(NO_KIVY.format(python=sys.executable, install=install_hint("app")), file=sys.stderr)
        return False
    return True


def _no_sound_device() -> bool:
    """True on a desktop Linux with no sound device and no sound server (a server, CI)."""
    if not sys.platform.startswith("linux") or "ANDROID_ARGUMENT" in os.environ \
            or "ANDROID_ROOT" in os.environ:
        return False
    if os.environ.get("PULSE_SERVER"):
        return False
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if runtime and any(os.path.exists(os.path.join(runtime, s))
                       for s in ("pulse/native", "pipewire-0")):
        return False
    try:
        return not any(n.startswith("pcm") for n in os.listdir("/dev/snd"))
    except OSError:
        return True


def _quiet_audio() -> None:
    """Without a sound device, SDL's dummy audio driver: sound stays silent instead
    of Kivy logging a CRITICAL "Unable to open mixer" (and ALSA its own errors)."""
    if _no_sound_device():
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


CUT_BUFFER_ALARM = "Cutbuffer: Unable to find any valuable Cutbuffer provider"
"""How Kivy on Linux starts the CRITICAL it logs, with two tracebacks, when neither
xclip nor xsel is installed.  They would serve X11's cut buffer (middle-click paste of
the selected text), which the app does not use; copy and paste go through the
clipboard, whose providers include SDL2's, which needs nothing installed."""


def _not_the_cut_buffer_alarm(record: logging.LogRecord) -> bool:
    """A logging filter: False (drop) for Kivy's missing-cut-buffer CRITICAL only."""
    return not (record.levelno == logging.CRITICAL
                and str(record.msg).startswith(CUT_BUFFER_ALARM))


def _quiet_kivy_log() -> None:
    """Kivy's log at a start: INFO and above, without the missing-cut-buffer alarm.

    Kivy's logger passes everything until its configuration sets its level, and a
    first start (no ``config.ini`` in Kivy's folder yet) logs DEBUG lines before
    that.  Set before Kivy is imported; the level in Kivy's configuration applies
    from then on.
    """
    kivy_logger = logging.getLogger("kivy")
    if kivy_logger.level == logging.NOTSET:
        kivy_logger.setLevel(logging.INFO)
    if _not_the_cut_buffer_alarm not in kivy_logger.filters:
        kivy_logger.addFilter(_not_the_cut_buffer_alarm)


def parse_args(argv: list[str] | None = None, prog: str | None = None) -> argparse.Namespace:
    """The launcher's options (see the module's docstring)."""
    p = argparse.ArgumentParser(prog=prog or "fastmine-app",
                                description="fastmine: Minesweeper for touch screens and desktops.")
    p.add_argument("--data-dir", help="folder for settings, records, the saved game and sounds")
    p.add_argument("--bench", action="store_true",
                   help="print startup and reveal frame times as JSON (runs headless if there is no display)")
    p.add_argument("--bench-reveals", type=int, default=30, help="reveals to time with --bench (default 30)")
    p.add_argument("--bench-memory", type=int, metavar="CLICKS",
                   help="with --bench: measure the resident memory instead, with a 50x50 game "
                        "of CLICKS clicks and every screen visited")
    p.add_argument("--size", help="window size WIDTHxHEIGHT, e.g. 480x800")
    return p.parse_args(argv)


def _say(text: str) -> None:
    """A line for the player once Kivy is imported: on the process's own standard
    error, since Kivy hands ``sys.stderr`` to its logger, which keeps it from the
    console where ``KIVY_NO_CONSOLELOG`` is set."""
    print(text, file=sys.__stderr__ or sys.stderr)


def no_display(environ: Mapping[str, str] | None = None, system: str | None = None) -> str | None:
    """Why the app cannot show its window here, or None when it can.

    On Linux without ``DISPLAY`` or ``WAYLAND_DISPLAY`` (a server over ssh, a
    container) SDL falls back to an off-screen window: the app would start, draw
    where nobody sees it and wait until killed.  ``SDL_VIDEODRIVER`` set by hand
    (``offscreen`` for screenshots, ``kmsdrm`` on a console) is taken as meant.
    Android has no ``DISPLAY`` either and always has a screen.

    Parameters
    ----------
    environ : mapping, optional
        The environment (``os.environ`` when None).
    system : str, optional
        ``sys.platform`` (when None), with ``"android"`` for Android.

    Returns
    -------
    str or None
        A message that says what to do instead.
    """
    env = os.environ if environ is None else environ
    if system is None:
        system = "android" if "ANDROID_ARGUMENT" in env or "ANDROID_ROOT" in env else sys.platform
    if not system.startswith("linux") or system == "android":
        return None
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or env.get("SDL_VIDEODRIVER"):
        return None
    return ("fastmine-app: there is no display here (neither DISPLAY nor WAYLAND_DISPLAY is "
            "set), so the window could not be seen.\n"
            "Play in this terminal instead: fastmine play   (from a checkout set up by "
            "scripts/play.sh: .venv/bin/fastmine play)\n"
            "To start the app anyway (screenshots, tests): SDL_VIDEODRIVER=offscreen fastmine-app")


def folder_problem(path: str | os.PathLike[str]) -> str | None:
    """Why ``path`` cannot be the app's data folder (a file, a loop of links, a
    link to nothing, a folder that cannot be looked into), or None.

    Nothing is made: a folder that does not exist yet is fine when it can be
    made, that is when the nearest part of ``path`` that exists is a folder.

    >>> folder_problem("/") is None
    True
    """
    import stat
    from pathlib import Path

    wanted = Path(path).expanduser()
    probe = wanted
    while True:
        try:
            st = os.stat(probe)
        except FileNotFoundError:
            if os.path.islink(probe):        # a link to nothing: mkdir cannot make it
                return f"{probe} is a link to {os.readlink(probe)}, which does not exist"
            if probe.parent == probe:
                return None
            probe = probe.parent
            continue
        except OSError as exc:               # a loop of links, a name too long, no access
            return exc.strerror or str(exc)
        if stat.S_ISDIR(st.st_mode):
            return None
        return "it is a file, not a folder" if probe == wanted else \
            f"{probe} is a file, not a folder"


def _data_folder_problem(option: str | None, env: Mapping[str, str]) -> str | None:
    """One line for a data folder named by ``--data-dir`` or the environment that
    cannot be used, or None."""
    for name, value in (("--data-dir", option), ("FASTMINE_APP_DATA", env.get("FASTMINE_APP_DATA")),
                        ("FASTMINE_DATA_DIR", env.get("FASTMINE_DATA_DIR"))):
        if value:
            why = folder_problem(value)
            if why is not None:
                return f"fastmine-app: {name} {value}: {why}; give a folder"
            if name == "--data-dir":
                return None                  # the folder given wins over the environment
    return None


def main(argv: list[str] | None = None, *, t0: float | None = None, prog: str | None = None) -> int:
    """Start the app; returns the exit status.

    Parameters
    ----------
    argv
        The options (``sys.argv[1:]`` when None); anything after ``--`` goes to Kivy.
    t0
        The ``time.perf_counter()`` reading startup is measured from (``--bench``);
        now when None.
    prog
        The program name shown by ``--help``.

    Returns
    -------
    int
        0 after the app closes, 1 without Kivy, 2 for a bad ``--size`` or a data
        folder that cannot be one (a file, a loop of links), 130
        when stopped by Ctrl-C.
    """
    t0 = time.perf_counter() if t0 is None else t0
    if argv is None:
        argv = sys.argv[1:]
    kivy_args: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, kivy_args = argv[:i], argv[i + 1:]
    args = parse_args(argv, prog)
    if (problem := _data_folder_problem(args.data_dir, os.environ)) is not None:
        print(problem, file=sys.stderr)      # one line, before any window (was FileExistsError)
        return 2
    sys.argv = [sys.argv[0], *kivy_args]
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    _quiet_audio()
    _quiet_kivy_log()
    if not _have_kivy():
        return 1
    if not args.bench and (reason := no_display()):
        _say(reason)
        return 1
    if args.bench:
        from .benchmark import bench_environment
        bench_environment()
        args.size = args.size or "1000x1000"
    from kivy.config import Config

    # right click marks instead of drawing Kivy's red multitouch dot
    Config.set("input", "mouse", "mouse,multitouch_on_demand")
    # No multisampling (Kivy's default is 2 samples): it doubles the frame buffers
    # (93 MB more at 1080x2340 with software OpenGL, 0.3 s more CPU to the first
    # frame) for edges that the smooth shapes of the kv rules draw soft anyway.
    Config.set("graphics", "multisamples", "0")
    from kivy.utils import platform

    # Landscape, and within a 1280x800 screen with its title bar and panel; the
    # app then restores the size the window had when it was last closed.
    size = args.size or (None if platform in ("android", "ios") else DESKTOP_SIZE)
    if size:
        try:
            w, h = (str(int(v)) for v in size.lower().split("x"))
        except ValueError:
            _say(f"--size must look like 480x800, got {size!r}")
            return 2
        Config.set("graphics", "width", w)
        Config.set("graphics", "height", h)
    if args.bench and args.bench_memory is not None:
        from .benchmark import run_memory_bench
        return int(run_memory_bench(data_dir=args.data_dir, clicks=args.bench_memory))
    if args.bench:
        from .benchmark import run_bench
        return int(run_bench(t0, data_dir=args.data_dir, reveals=args.bench_reveals))
    from .application import FastmineApp

    app = FastmineApp(data_dir=args.data_dir)
    app.restore_window_size = not args.size  # --size wins over the remembered size
    try:
        app.run()
    except KeyboardInterrupt:   # Ctrl-C in the terminal that started it: no traceback
        return 130
    return 0
