"""Commands that need an optional extra say which one, before doing any work.

``python app/main.py`` without Kivy, ``python -m bench`` without SciPy, and the
app on a machine with no sound device.  A missing package is simulated with a
folder on PYTHONPATH whose package of that name raises ImportError on import,
so subprocesses (the bench's worker too) see it missing as well.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
HAVE_CHECKOUT = (ROOT / "app" / "main.py").is_file() and (ROOT / "bench" / "cli.py").is_file()
pytestmark = pytest.mark.skipif(not HAVE_CHECKOUT,
                                reason="app/ and bench/ are not here (tests run against a wheel)")


def _hide(tmp_path: Path, *modules: str) -> dict[str, str]:
    """An environment in which importing each of ``modules`` fails as if not installed."""
    for mod in modules:
        pkg = tmp_path / "hidden" / mod
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text(
            f"raise ImportError(\"No module named {mod!r}\", name={mod!r})\n")
    import fastmine

    src = ROOT / "src"
    ours = Path(fastmine.__file__).resolve().parent.parent == src.resolve()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(tmp_path / "hidden"), str(src) if ours else None, str(ROOT),
                    env.get("PYTHONPATH")) if p)
    return env


def test_app_without_kivy_names_the_extra(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "app" / "main.py")], cwd=tmp_path,
                          env=_hide(tmp_path, "kivy"), capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 1
    assert "pip install '" in proc.stderr and "[app]'" in proc.stderr   # quoted, for zsh
    assert "Traceback" not in proc.stderr


def test_app_help_works_without_kivy(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "app" / "main.py"), "--help"],
                          cwd=tmp_path, env=_hide(tmp_path, "kivy"), capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0 and "--data-dir" in proc.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sound check is Linux's")
def test_no_critical_log_line_without_a_sound_device(tmp_path):
    """With no sound device the app's sounds load silently: no CRITICAL mixer line."""
    pytest.importorskip("kivy")
    from fastmine.app import launch

    if not launch._no_sound_device():
        pytest.skip("this machine has a sound device")
    script = (
        "import sys, wave\n"
        "from fastmine.app import launch\n"
        "launch._quiet_audio()\n"
        "from kivy.core.audio import SoundLoader\n"
        f"path = {str(tmp_path / 'click.wav')!r}\n"
        "with wave.open(path, 'wb') as w:\n"
        "    w.setnchannels(1); w.setsampwidth(2); w.setframerate(22050)\n"
        "    w.writeframes(bytes(4410))\n"
        "snd = SoundLoader.load(path)\n"
        "snd.play()\n"
        "print('loaded', snd is not None)\n")
    env = {k: v for k, v in os.environ.items() if k != "SDL_AUDIODRIVER"}
    env["KIVY_NO_ARGS"] = "1"
    env["KIVY_HOME"] = str(tmp_path / "kivy-home")
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-2000:]
    assert "loaded True" in out
    assert "CRITICAL" not in out and "Unable to open mixer" not in out, out[-2000:]


def test_bench_opening_click_needs_no_scipy(monkeypatch):
    """The suite picks the reveal's click with NumPy alone, the cell SciPy's labels pick."""
    scipy_ndimage = pytest.importorskip("scipy.ndimage")
    sys.path.insert(0, str(ROOT))
    from bench.kernels import _largest_opening
    from bench.peers.numpy_peer import count

    def with_scipy(mask):
        labels, n = scipy_ndimage.label(~mask & (count(mask) == 0), structure=np.ones((3, 3), bool))
        sizes = np.bincount(labels.ravel(), minlength=n + 1)
        sizes[0] = 0
        return divmod(int(np.argmax(labels.ravel() == np.argmax(sizes))), mask.shape[1])

    rng = np.random.default_rng(5)
    boards = [rng.random((int(rng.integers(1, 30)), int(rng.integers(1, 30)))) < rng.random() * 0.4
              for _ in range(150)]
    boards += [np.zeros((20, 20), bool), np.ones((4, 4), bool)]
    expected = [with_scipy(m) for m in boards]
    monkeypatch.setitem(sys.modules, "scipy", None)
    monkeypatch.setitem(sys.modules, "scipy.ndimage", None)
    assert [tuple(_largest_opening(m)) for m in boards] == [tuple(e) for e in expected]


def test_bench_without_scipy_names_the_extra_and_fastmine_rows_run(tmp_path):
    cmd = [sys.executable, "-m", "bench", "--sizes", "9x9", "--fastmine-only-sizes", "",
           "--peers", "fastmine,numpy", "--kernels", "reveal_opening,count",
           "--repeats", "1", "--min-time", "0.0005", "--timeout", "120", "--no-memory",
           "--no-breakdown", "--no-solver", "--no-app", "--no-env", "--no-plots",
           "--out", str(tmp_path / "out"), "--name", "noscipy"]
    proc = subprocess.run(cmd, cwd=ROOT, env=_hide(tmp_path, "scipy"), capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    first = proc.stderr.lstrip().splitlines()[0]
    assert "SciPy (the NumPy/SciPy peer)" in first and ".[bench]" in first
    rows = json.loads((tmp_path / "out" / "noscipy.json").read_text())["rows"]
    status = {(r["kernel"], r["peer"]): r["status"] for r in rows}
    assert status == {("reveal_opening", "fastmine"): "ok", ("count", "fastmine"): "ok",
                      ("reveal_opening", "numpy"): "skipped", ("count", "numpy"): "skipped"}


def test_bench_fails_when_fastmine_rows_fail():
    sys.path.insert(0, str(ROOT))
    from bench.cli import fastmine_failures

    doc = {"rows": [{"kernel": "count", "size": "9x9", "peer": "fastmine", "status": "ok"},
                    {"kernel": "count", "size": "9x9", "peer": "numpy", "status": "skipped"},
                    {"kernel": "bbbv", "size": "9x9", "peer": "ms_toollib", "status": "crash"}],
           "memory": []}
    assert fastmine_failures(doc) == []
    doc["rows"].append({"kernel": "bbbv", "size": "9x9", "peer": "fastmine", "status": "error",
                        "error": "boom"})
    assert fastmine_failures(doc) == ["bbbv 9x9: error boom"]


def test_the_install_hint_names_the_folder_fastmine_was_installed_from(tmp_path, monkeypatch):
    """Hints named a package index fastmine is not on ('pip install fastmine[env]');
    pip records the folder a copy came from (PEP 610), and the hint uses it."""
    import json

    from fastmine import extras

    class Dist:
        def __init__(self, text):
            self.text = text

        def read_text(self, name):
            assert name == "direct_url.json"
            return self.text

    cases = {json.dumps({"url": "file:///home/me/fast%20mine", "dir_info": {}}):
             "pip install '/home/me/fast mine[env]'",
             json.dumps({"url": "https://example.org/f.whl", "archive_info": {}}):
             "pip install '.[env]' (in fastmine's checkout)",
             None: "pip install '.[env]' (in fastmine's checkout)",
             "not json": "pip install '.[env]' (in fastmine's checkout)"}
    import importlib.metadata as md

    for text, hint in cases.items():
        monkeypatch.setattr(md, "distribution", lambda name, text=text: Dist(text))
        assert extras.install_hint("env") == hint
