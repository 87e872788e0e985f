"""A source tree nobody built says so, and what to run.

``import fastmine`` from a checkout's ``src/`` without the compiled kernels used to
end in Python's "cannot import name '_kernels' from partially initialized module
'fastmine' (most likely due to a circular import)", which sends a newcomer looking
for a circular import that does not exist."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def unbuilt(tmp_path) -> Path:
    """A copy of the checkout's sources and launcher, without any compiled module."""
    import fastmine

    here = Path(fastmine.__file__).resolve().parent
    src = ROOT / "src" / "fastmine" if (ROOT / "src" / "fastmine").is_dir() else here
    shutil.copytree(src, tmp_path / "src" / "fastmine",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.c", "__pycache__"))
    if (ROOT / "app" / "main.py").is_file():
        (tmp_path / "app").mkdir()
        shutil.copy(ROOT / "app" / "main.py", tmp_path / "app" / "main.py")
    return tmp_path


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-I", "-S", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env={"PATH": "/usr/bin:/bin", **env})


def test_importing_an_unbuilt_tree_says_what_to_run(unbuilt):
    # -I -S: neither the installed fastmine nor PYTHONPATH; the copy is put first by hand
    r = run(["-c", f"import sys; sys.path.insert(0, {str(unbuilt / 'src')!r}); import fastmine"],
            unbuilt)
    assert r.returncode == 1
    last = r.stderr.strip().splitlines()
    message = "\n".join(last[-6:])
    assert "circular import" not in r.stderr
    assert "not built" in message and "build_ext --inplace" in message
    assert "scripts/bootstrap.sh" in message


def test_the_launcher_from_an_unbuilt_tree_prints_the_same_in_a_line_or_two(unbuilt):
    if not (unbuilt / "app" / "main.py").is_file():
        pytest.skip("no app/main.py beside the tests (an installed package's test run)")
    r = run([str(unbuilt / "app" / "main.py"), "--help"], unbuilt)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert "not built" in r.stderr and "build_ext --inplace" in r.stderr
