"""Without Gymnasium, ``import fastmine.env`` names the extra to install, and the
rest of fastmine works (nothing outside fastmine.env imports Gymnasium)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import fastmine


def _without_gymnasium(tmp_path: Path) -> dict[str, str]:
    pkg = tmp_path / "hidden" / "gymnasium"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(
        "raise ImportError(\"No module named 'gymnasium'\", name='gymnasium')\n")
    src = Path(fastmine.__file__).resolve().parent.parent
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(tmp_path / "hidden"), str(src),
                                                    env.get("PYTHONPATH")) if p)
    return env


def test_import_names_the_extra(tmp_path):
    code = "import fastmine.env"
    proc = subprocess.run([sys.executable, "-c", code], env=_without_gymnasium(tmp_path),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert "pip install '" in proc.stderr and "[env]'" in proc.stderr


def test_fastmine_needs_no_gymnasium(tmp_path):
    code = ("import fastmine, fastmine.solver; g = fastmine.Game(9, 9, 10, seed=1); "
            "g.reveal(4, 4); print(g.state.name)")
    proc = subprocess.run([sys.executable, "-c", code], env=_without_gymnasium(tmp_path),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "PLAYING"
