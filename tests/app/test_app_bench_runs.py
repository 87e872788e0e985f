"""The app's start-up measurements: a first and a later start told apart, the app's
own thread counted apart from the libraries' threads, and the benchmark suite's app
section kept out of the player's folders.  No time is asserted, only what is reported
and where files go."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _child_env() -> dict[str, str]:
    env = os.environ.copy()  # conftest's headless Kivy settings
    env.pop("FASTMINE_APP_DATA", None)
    env["FASTMINE_BENCH_PROFILE"] = "desktop"
    return env


def _bench(data: Path, cwd: Path) -> dict:
    out = subprocess.run([sys.executable, "-m", "fastmine.app", "--bench", "--bench-reveals", "1",
                          "--size", "320x480", "--data-dir", str(data)],
                         capture_output=True, text=True, timeout=300, env=_child_env(), cwd=cwd)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_bench_tells_a_first_start_from_a_later_one(kivy_window, tmp_path):
    """The first start with a data folder draws the tiles; the next one reads them
    from the cache, and says so.  The app's own thread is reported apart: never more
    than the whole process."""
    first = _bench(tmp_path / "data", tmp_path)
    # the tutorial of the first start was skipped, as a player would: not shown again
    assert "tutorial = done" in (tmp_path / "data" / "fastmine.ini").read_text(encoding="utf-8")
    later = _bench(tmp_path / "data", tmp_path)
    assert first["first_start"] is True
    assert later["first_start"] is False
    for got in (first, later):
        assert 0 < got["main_thread_cpu_to_first_frame_s"] <= got["process_cpu_to_first_frame_s"]


@pytest.fixture
def fake_home(tmp_path, monkeypatch):
    """HOME and the XDG folders in tmp_path: where a player's settings would go."""
    home = tmp_path / "home"
    home.mkdir()
    # the OpenGL driver's shader cache stays where it was: a cold one only costs CPU
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    monkeypatch.setenv("MESA_SHADER_CACHE_DIR",
                       os.environ.get("MESA_SHADER_CACHE_DIR") or os.path.join(cache, "mesa_shader_cache"))
    monkeypatch.setenv("HOME", str(home))
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(home / name.lower()))
    monkeypatch.delenv("FASTMINE_APP_DATA", raising=False)
    monkeypatch.setenv("FASTMINE_BENCH_PROFILE", "desktop")
    return home


def _files_under(folder: Path) -> list[str]:
    """The files in ``folder`` but the OpenGL driver's own shader cache (Mesa's)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if p.is_file() and "mesa_shader_cache" not in p.parts)


@pytest.mark.skipif(not (ROOT / "bench" / "app_bench.py").is_file(),
                    reason="bench/ is not here (tests run against an installed wheel)")
def test_the_bench_suites_app_section_never_writes_in_the_players_folders(kivy_window, fake_home):
    """Its start-up runs launch ``app/main.py`` without ``--data-dir``: they must keep
    the settings, the records and the tile cache in the bench's throwaway folder (they
    wrote the player's own settings file).  The app run reports a later start too."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from bench import app_bench

    main = ROOT / "app" / "main.py"
    started = app_bench.startup(main, timeout=180)
    assert started["status"] == "ok", started
    assert _files_under(fake_home) == []
    own = app_bench.app_bench(main, timeout=300, reveals=1)
    assert own["status"] == "ok", own
    assert own["first_start"] is True
    for key in app_bench.LATER_START_KEYS:
        assert own[f"later_start_{key}"] is not None, key
    assert _files_under(fake_home) == []


@pytest.mark.skipif(not (ROOT / "bench" / "app_bench.py").is_file(),
                    reason="bench/ is not here (tests run against an installed wheel)")
def test_the_bench_measures_a_bare_kivy_app_as_the_floor_and_reports_it(kivy_window, fake_home):
    """The floor the app's start-up is read against: a bare Kivy app with numpy at the
    same phone profile, timed to its first frame, and shown in the report."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from bench import app_bench, report_sections

    got = app_bench.floor(timeout=180)
    assert got["status"] == "ok", got
    assert 0 < got["main_thread_cpu_to_first_frame_s"] <= got["process_cpu_to_first_frame_s"]
    lines = report_sections.app_section({"app": {"floor": [got, {"status": "timeout", "error": "x"}]}})
    text = "\n".join(lines)
    assert f"{got['process_cpu_to_first_frame_s']:.3f} s of CPU" in text
    assert "median of 1" in text and "Bare Kivy app run: timeout" in text
    assert _files_under(fake_home) == []


def test_the_memory_bench_reports_every_step(kivy_window, tmp_path):
    """``--bench --bench-memory CLICKS``: the resident memory at the first frame,
    after the 50x50 game, on every other screen and back at the game after each
    (the screens left are released there: see test_app_released_screens.py)."""
    from fastmine.app.benchmark import MEMORY_SCREENS
    from fastmine.app.screens import screenloader

    out = subprocess.run([sys.executable, "-m", "fastmine.app", "--bench", "--bench-memory", "3",
                          "--data-dir", str(tmp_path / "data")],
                         capture_output=True, text=True, timeout=300, env=_child_env(), cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert set(MEMORY_SCREENS) == set(screenloader.SCREENS)
    steps = ["first_frame", "game", *(s + t for s in MEMORY_SCREENS for t in ("", "_then_game")),
             "every_screen_then_game"]
    assert list(got["rss_mb"]) == steps
    if sys.platform.startswith("linux"):
        assert all(v > 0 for v in got["rss_mb"].values())
    assert got["first_start"] is True and got["clicks"] == 3 and got["game_state"] == "playing"
