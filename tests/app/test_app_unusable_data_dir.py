"""``fastmine-app --data-dir`` naming something that cannot be a folder is one line.

A file, a path through a file, a loop of links or a link to nothing made the
app die at start with FileExistsError (or OSError) from ``mkdir`` after its
window opened.  Now the launcher says why in one line and exits 2 before any
window, and the same holds for ``FASTMINE_APP_DATA`` and ``FASTMINE_DATA_DIR``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def _cases(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "a-file").write_text("not a folder")
    (tmp_path / "loop-a").symlink_to(tmp_path / "loop-b")
    (tmp_path / "loop-b").symlink_to(tmp_path / "loop-a")
    (tmp_path / "to-nothing").symlink_to(tmp_path / "gone")
    return {"file": tmp_path / "a-file", "below a file": tmp_path / "a-file" / "sub",
            "link loop": tmp_path / "loop-a", "link to nothing": tmp_path / "to-nothing"}


def _start(tmp_path: Path, args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    full = dict(os.environ, SDL_VIDEODRIVER="offscreen", SDL_AUDIODRIVER="dummy",
                KIVY_NO_ARGS="1", KIVY_HOME=str(tmp_path / "kivy-home"),
                XDG_CONFIG_HOME=str(tmp_path / "cfg"), XDG_DATA_HOME=str(tmp_path / "xdg"),
                XDG_CACHE_HOME=str(tmp_path / "cache"), **env)
    import fastmine

    src = str(Path(fastmine.__file__).resolve().parents[1])     # this fastmine, not another
    full["PYTHONPATH"] = os.pathsep.join(p for p in (src, full.get("PYTHONPATH")) if p)
    for name in ("FASTMINE_APP_DATA", "FASTMINE_DATA_DIR"):
        if name not in env:
            full.pop(name, None)
    return subprocess.run([sys.executable, "-m", "fastmine.app", *args], capture_output=True,
                          text=True, timeout=180, env=full, cwd=tmp_path)


@pytest.mark.parametrize("case", ["file", "below a file", "link loop", "link to nothing"])
def test_a_data_dir_that_cannot_be_a_folder_is_one_line(tmp_path, case):
    path = _cases(tmp_path)[case]
    res = _start(tmp_path, ["--data-dir", str(path)])
    assert res.returncode == 2, res.stderr[-1500:]
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fastmine-app: --data-dir "), res.stderr
    assert "Traceback" not in res.stderr
    assert (tmp_path / "a-file").read_text() == "not a folder"


@pytest.mark.parametrize("variable", ["FASTMINE_APP_DATA", "FASTMINE_DATA_DIR"])
def test_the_environments_data_folder_is_checked_too(tmp_path, variable):
    from fastmine.app import launch

    path = _cases(tmp_path)["file"]
    problem = launch._data_folder_problem(None, {variable: str(path)})
    assert problem is not None and variable in problem and "\n" not in problem
    assert launch._data_folder_problem(str(tmp_path), {variable: str(path)}) is None
    assert launch.folder_problem(tmp_path / "new" / "deeper") is None    # can be made
