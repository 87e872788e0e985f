"""No ``fastmine`` command runs code from the folder it is started in.

A folder may hold a ``bench/`` package of its own (a download, someone else's
project).  ``fastmine bench`` runs only the suite of the checkout this
fastmine was installed from, and the other commands never look for it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fastmine.cli import bench as bench_command

HOSTILE = """\
import os, pathlib
pathlib.Path(os.environ["FASTMINE_TEST_MARKER"]).write_text(__name__)
"""

COMMANDS = [
    ["records"],
    ["records", "--json"],
    ["play", "--help"],
    ["solve", "--help"],
    ["replay", "--help"],
    ["bench", "--help"],
    ["--help"],
]


def _hostile_folder(tmp_path: Path) -> Path:
    """A folder holding a ``bench/`` whose every module writes the marker file when run."""
    folder = tmp_path / "downloads" / "project"
    pkg = folder / "bench"
    pkg.mkdir(parents=True)
    for name in ("__init__.py", "__main__.py", "cli.py"):
        (pkg / name).write_text(HOSTILE)
    # and a parent holding one too (the old lookup climbed the parents)
    (tmp_path / "downloads" / "bench").mkdir()
    for name in ("__init__.py", "__main__.py", "cli.py"):
        (tmp_path / "downloads" / "bench" / name).write_text(HOSTILE)
    return folder


@pytest.mark.parametrize("launcher", ["script", "module"])
def test_no_command_imports_a_bench_from_the_working_folder(tmp_path, launcher):
    folder = _hostile_folder(tmp_path)
    marker = tmp_path / "ran"
    env = dict(os.environ, FASTMINE_TEST_MARKER=str(marker),
               FASTMINE_DATA_DIR=str(tmp_path / "data"))
    env.pop("PYTHONPATH", None)
    script = Path(sys.executable).with_name("fastmine")
    if launcher == "script" and not script.exists():
        pytest.skip("no fastmine script beside this Python")
    # 'python -m' puts the working folder first on sys.path: the hardest case
    start = [str(script)] if launcher == "script" else [sys.executable, "-m", "fastmine"]
    for argv in COMMANDS:
        proc = subprocess.run([*start, *argv], cwd=folder, env=env, capture_output=True,
                              text=True, timeout=120)
        assert not marker.exists(), (argv, marker.read_text(), proc.stderr)
        assert proc.returncode in (0, 2), (argv, proc.stderr)
        assert "Traceback" not in proc.stderr, (argv, proc.stderr)


def test_other_commands_do_not_look_for_the_suite(monkeypatch):
    """Building every command's options never calls the suite's lookup."""
    from fastmine import cli

    def boom() -> None:
        raise AssertionError("looked for the benchmark suite")

    monkeypatch.setattr(bench_command, "find_root", boom)
    monkeypatch.setattr(bench_command, "checkout_candidates", boom)
    cli.build_parser()
    with pytest.raises(SystemExit):
        cli.main(["records", "--help"])


def test_suite_is_looked_for_only_where_the_package_came_from(tmp_path, monkeypatch):
    folder = _hostile_folder(tmp_path)
    monkeypatch.chdir(folder)
    for root in bench_command.checkout_candidates():
        assert folder != root and folder.resolve() not in root.resolve().parents
        assert Path.cwd().resolve() != root.resolve()
    # a fastmine that is not in a checkout and was not installed from one: no suite
    monkeypatch.setattr(bench_command, "checkout_candidates", lambda: [])
    assert bench_command.find_root() is None
    assert bench_command.main([]) == 2


def test_a_bench_module_from_elsewhere_is_not_run(tmp_path, monkeypatch, capsys):
    """With the checkout found, a ``bench`` imported earlier from another folder
    (for instance through the working folder on sys.path) is refused, not run."""
    root = bench_command.find_root()
    if root is None:
        pytest.skip("not running from a checkout with bench/")
    folder = _hostile_folder(tmp_path)
    marker = tmp_path / "ran"
    monkeypatch.setenv("FASTMINE_TEST_MARKER", str(marker))
    for name in [m for m in sys.modules if m == "bench" or m.startswith("bench.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.syspath_prepend(str(folder))
    import bench  # noqa: F401  (the hostile one: it writes the marker)

    marker.unlink()
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p != str(root)])
    assert bench_command._load() is None
    assert not marker.exists()
    assert "already loaded" in capsys.readouterr().err
