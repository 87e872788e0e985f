"""App section: the Kivy app, run headless in a subprocess (skipped until app/main.py exists).

Two measurements, each in its own process with SDL's ``offscreen`` driver (real
software OpenGL, no screen needed):

* **Startup to first frame**, for any app: ``app/main.py`` runs as
  ``__main__`` under a small driver that wraps ``kivy.app.App.run`` and stops
  the app at the first ``Window.on_flip`` (the first frame on screen).  Two
  figures: from process launch (interpreter start and imports included) and
  from the driver's first line (imports of Kivy and the app included), and
  the CPU time the process used up to that frame (``cpu_to_first_frame_ms``:
  what a slower phone CPU scales, unlike the wall time on a shared machine),
  and its peak resident memory by then (``peak_rss_mb_to_first_frame``).
* **The app's own figures**: ``python app/main.py --bench`` (the app's
  benchmark mode, at a phone profile: 1080x2340 px at density 2.75, games
  opened the touch-screen way; startup wall and process CPU time to the first
  frame, the app-side time of one reveal and of an opening on a 50x50 board
  with animations on and off, frame times after a reveal and a flag, and the
  peak resident memory with those 50x50 games)
  prints one JSON line, reported as is; it runs twice on one data folder,
  and the second run's start-up figures (a later start: the tiles read from
  the cache, as at every start but the first) are added as
  ``later_start_<name>``.  An app without that option gets a note instead.
* **Memory that comes back**: ``python app/main.py --bench --bench-memory
  CLICKS`` at the same phone profile, twice on one data folder (a first start,
  then a later one): the resident memory (now, not the peak) at the first
  frame, after a 50x50 game of ``CLICKS`` clicks, on each other screen and
  back at the game after it (``memory``).
* **The machine's floor**: a bare Kivy app (one Button, numpy imported, nothing
  of fastmine) at the same phone profile, timed the same way to its first
  frame: the CPU any Kivy app with numpy spends here before it draws, which
  the app's own start-up figures are read against.

Every child may write bytecode (``PYTHONDONTWRITEBYTECODE`` is dropped from
its environment): a later start reads fastmine's compiled modules, as an
installed app's, and Kivy and numpy have theirs from their installation.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from fastmine.children import clean_env

ROOT = Path(__file__).resolve().parents[1]

_DRIVER = r"""
import json, runpy, sys, time
t_driver = time.time()
from kivy.config import Config
Config.set("graphics", "maxfps", "0")
from kivy.app import App
from kivy.clock import Clock
_run = App.run
def _stop_at_first_flip(app, *args):
    from kivy.core.window import Window
    def flip(*a):
        Window.unbind(on_flip=flip)
        import resource
        print("BENCH_FIRST_FRAME " + json.dumps({"t_frame": time.time(), "t_driver": t_driver,
                                                 "cpu": time.process_time(),
                                                 "rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}),
              flush=True)
        Clock.schedule_once(lambda dt: app.stop(), 0)
    Window.bind(on_flip=flip)
def run(self):
    self.fbind("on_start", _stop_at_first_flip)
    return _run(self)
App.run = run
sys.argv = [sys.argv[1]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""

_FLOOR = r"""
import json, os, sys, time
import numpy  # noqa: F401  (the engine needs it: part of any start of the app)
from kivy.config import Config
Config.set("graphics", "width", "1080")
Config.set("graphics", "height", "2340")
Config.set("graphics", "multisamples", "0")  # as the app sets it
Config.set("graphics", "maxfps", "0")
from kivy.metrics import Metrics
Metrics.density = 2.75
from kivy.app import App
from kivy.base import EventLoop, runTouchApp
from kivy.core.window import Window
from kivy.uix.button import Button
seen = []
def flip(*_a):
    Window.unbind(on_flip=flip)
    seen.append((time.process_time(), time.thread_time()))
Window.bind(on_flip=flip)
class Bare(App):
    def load_kv(self, filename=None):  # no kv file of its own (and no source file to look beside)
        return True
    def build(self):
        return Button(text="fastmine")
app = Bare()
app._run_prepare()
runTouchApp(embedded=True)
for _ in range(50):
    EventLoop.idle()
    if seen:
        break
print("BENCH_FIRST_FRAME " + json.dumps({"cpu": seen[0][0], "thread_cpu": seen[0][1]}), flush=True)
os._exit(0)
"""


def floor(timeout: float) -> dict:
    """CPU to the first frame of a bare Kivy app with numpy at the phone profile."""
    with tempfile.TemporaryDirectory(prefix="fastmine-bench-kivy-") as tmp:
        env = _env(tmp)
        env["KIVY_IMAGE"] = "tex,dds,sdl2"  # the loaders the app names (fastmine.app.launch)
        env.setdefault("SDL_AUDIODRIVER", "dummy")
        got, failed = _to_first_frame(["-c", _FLOOR], env, tmp, timeout)
    if got is None:
        return failed
    return {"status": "ok", "process_cpu_to_first_frame_s": got["cpu"],
            "main_thread_cpu_to_first_frame_s": got["thread_cpu"]}


def _env(tmp: str) -> dict[str, str]:
    env = dict(os.environ)
    # Bytecode as an installed app has it (pip and buildozer compile the modules):
    # the app's first start writes fastmine's next to its sources, later starts
    # read it.  With PYTHONDONTWRITEBYTECODE set (as in some shells) every start
    # compiled fastmine's 67 modules again, 0.04 s that Kivy and numpy, compiled
    # at their installation, never cost the bare app beside it.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.setdefault("SDL_VIDEODRIVER", "offscreen")
    # the app's settings, records and tile cache in the throwaway folder, never the
    # player's own (the startup driver starts the app without --data-dir)
    env.update(KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1",
               KIVY_NO_CONFIG="1", KIVY_HOME=tmp, FASTMINE_APP_DATA=os.path.join(tmp, "data"))
    # The child must measure the fastmine this process measures: the source tree
    # only when that is where ours comes from, never shadowing an installed build.
    import fastmine
    src = ROOT / "src"
    here = Path(fastmine.__file__).resolve().parent.parent
    extra = [str(ROOT)] + ([str(src)] if here == src.resolve() else [])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (*extra, env.get("PYTHONPATH")) if p)
    return clean_env(env)       # the app never imports from the working folder


def _tagged(stdout: str, tag: str) -> dict | None:
    for line in stdout.splitlines():
        if line.startswith(tag + " "):
            return json.loads(line[len(tag) + 1:])
    return None


def _failure(proc: subprocess.CompletedProcess) -> dict:
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
    return {"status": "error", "error": f"exit code {proc.returncode}: " + " | ".join(tail)}


def _to_first_frame(args: list[str], env: dict[str, str], cwd: str | Path,
                    timeout: float) -> tuple[dict | None, dict]:
    """Run ``python <args>``, which prints ``BENCH_FIRST_FRAME {json}`` at its first
    frame: (those figures, {}) or (None, what went wrong)."""
    try:
        proc = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                              timeout=timeout, cwd=cwd)
    except subprocess.TimeoutExpired:
        return None, {"status": "timeout", "error": f"no first frame within {timeout:g} s"}
    got = _tagged(proc.stdout, "BENCH_FIRST_FRAME")
    return (got, {}) if got is not None else (None, _failure(proc))


def startup(main: Path, timeout: float) -> dict:
    """Launch ``main`` headless and time it to its first frame."""
    with tempfile.TemporaryDirectory(prefix="fastmine-bench-kivy-") as tmp:
        t_launch = time.time()
        got, failed = _to_first_frame(["-c", _DRIVER, str(main)], _env(tmp), ROOT, timeout)
    if got is None:
        return failed
    return {"status": "ok",
            "launch_to_first_frame_ms": 1e3 * (got["t_frame"] - t_launch),
            "imports_to_first_frame_ms": 1e3 * (got["t_frame"] - got["t_driver"]),
            "cpu_to_first_frame_ms": 1e3 * got["cpu"],
            "peak_rss_mb_to_first_frame": got["rss_kb"] / 1024}


LATER_START_KEYS = ("startup_s", "process_cpu_to_first_frame_s", "main_thread_cpu_to_first_frame_s",
                    "peak_rss_mb_first_frame")
"""The figures of a later start (the tiles read from the cache) the report keeps."""


def _bench_once(main: Path, tmp: str, timeout: float, reveals: int | None) -> dict:
    data = os.path.join(tmp, "data")
    try:
        more = [] if reveals is None else ["--bench-reveals", str(reveals)]
        proc = subprocess.run([sys.executable, str(main), "--bench", "--data-dir", data, *more], env=_env(tmp),
                              capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "error": f"no result within {timeout:g} s"}
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith("{"):
            try:
                return {"status": "ok", **json.loads(line)}
            except ValueError:
                break
    return _failure(proc)


def app_bench(main: Path, timeout: float, reveals: int | None = None) -> dict:
    """Run ``python app/main.py --bench`` twice on one data folder: a first start
    (tiles drawn) and a later one (tiles from the cache); returns the first run's
    JSON object with the later start's figures as ``later_start_<name>``;
    ``reveals`` is the app's ``--bench-reveals`` (its own default when None)."""
    with tempfile.TemporaryDirectory(prefix="fastmine-bench-kivy-") as tmp:
        first = _bench_once(main, tmp, timeout, reveals)
        if first.get("status") != "ok":
            return first
        later = _bench_once(main, tmp, timeout, reveals)
    if later.get("status") != "ok":
        return {**first, "later_start": f"{later['status']}: {later.get('error', '')}"}
    return {**first, **{f"later_start_{k}": later.get(k) for k in LATER_START_KEYS}}


def _memory_once(main: Path, tmp: str, timeout: float, clicks: int) -> dict:
    data = os.path.join(tmp, "data")
    try:
        proc = subprocess.run([sys.executable, str(main), "--bench", "--bench-memory", str(clicks),
                               "--data-dir", data], env=_env(tmp), capture_output=True, text=True,
                              timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "error": f"no result within {timeout:g} s"}
    got = next((line for line in reversed(proc.stdout.splitlines()) if line.startswith("{")), None)
    if got is None:
        return _failure(proc)
    try:
        return {"status": "ok", **json.loads(got)}
    except ValueError:
        return _failure(proc)


def memory(main: Path, timeout: float, clicks: int = 300) -> dict:
    """``python app/main.py --bench --bench-memory CLICKS`` twice on one data
    folder: ``{"first_start": ..., "later_start": ...}``, each the app's JSON
    (the resident memory at each step, ``rss_mb``)."""
    out: dict = {}
    with tempfile.TemporaryDirectory(prefix="fastmine-bench-kivy-") as tmp:
        for run_name in ("first_start", "later_start"):
            out[run_name] = _memory_once(main, tmp, timeout, clicks)
            if out[run_name].get("status") != "ok":
                break
    return out


def run(cfg, progress, root: Path = ROOT) -> dict:
    """The app section of the results document."""
    main = root / "app" / "main.py"
    if not main.exists():
        return {"skipped": "app/main.py does not exist yet"}
    # Never import Kivy here: importing it parses (and rejects) this process's argv.
    if importlib.util.find_spec("kivy") is None:
        return {"skipped": "Kivy is not installed"}
    timeout = 60.0 if cfg.quick else 120.0
    runs = 1 if cfg.quick else 3
    progress.total += 2 * runs + 2
    out: dict = {"startup": []}
    for _ in range(runs):
        progress.set_postfix_str("app startup", refresh=False)
        out["startup"].append(startup(main, timeout))
        progress.update()
    progress.set_postfix_str("app --bench", refresh=False)
    out["app_bench"] = app_bench(main, timeout, reveals=3 if cfg.quick else None)
    progress.update()
    progress.set_postfix_str("app --bench-memory", refresh=False)
    out["memory"] = memory(main, 2 * timeout, clicks=20 if cfg.quick else 300)
    progress.update()
    out["floor"] = []
    for _ in range(runs):
        progress.set_postfix_str("bare Kivy app", refresh=False)
        out["floor"].append(floor(timeout))
        progress.update()
    return out


_ONE_RUN = r"""
import json, sys, tempfile
import bench.app_bench as ab
if sys.argv[1] == "floor":
    got = ab.floor(120)
else:
    with tempfile.TemporaryDirectory(prefix="fastmine-bench-kivy-") as tmp:
        main = ab.ROOT / "app" / "main.py"
        ab._bench_once(main, tmp, 120, 1)          # the first start: tiles drawn, bytecode written
        got = ab._bench_once(main, tmp, 120, 1)    # the later start, measured
print("GAP_RUN " + json.dumps(got))
"""


def startup_gap(runs: int = 7, checkouts: tuple[Path, ...] = (ROOT,)) -> dict:
    """The bare Kivy app (:func:`floor`) and a later start of each checkout's app
    (``python app/main.py --bench --bench-reveals 1`` run a second time on one
    data folder), interleaved ``runs`` times, each by that checkout's own bench
    module: ``{name: {"process_cpu_to_first_frame_s": [...],
    "main_thread_cpu_to_first_frame_s": [...]}}`` with ``name`` "floor" or the
    checkout's folder."""
    import statistics

    names = {"floor": ROOT, **{str(c): Path(c) for c in checkouts}}
    out: dict = {name: {"process_cpu_to_first_frame_s": [], "main_thread_cpu_to_first_frame_s": []}
                 for name in names}
    for _ in range(runs):
        for name, root in names.items():
            env = clean_env(dict(os.environ))
            env["PYTHONPATH"] = os.pathsep.join([str(root), str(root / "src")])
            proc = subprocess.run([sys.executable, "-c", _ONE_RUN, "floor" if name == "floor" else "app"],
                                  cwd=root, env=env, capture_output=True, text=True, timeout=600)
            got = _tagged(proc.stdout, "GAP_RUN") or {}
            for key, values in out[name].items():
                if got.get(key) is not None:
                    values.append(got[key])
    for figures in out.values():
        for key in list(figures):
            values = figures[key]
            figures[key[:-2] + "_median_s"] = round(statistics.median(values), 3) if values else None
    return out


if __name__ == "__main__":
    # python bench/app_bench.py [RUNS] [OTHER_CHECKOUT ...]: the start-up gap
    # (issue 34 §4), this checkout's app and any other's against the bare Kivy app
    sys.path.insert(0, str(ROOT))
    result = startup_gap(int(sys.argv[1]) if len(sys.argv) > 1 else 7,
                         (ROOT, *(Path(p).resolve() for p in sys.argv[2:])))
    print(json.dumps(result, indent=1))
