"""The test suite collects whatever subset of it a run names.

Test folders are not packages: pytest puts each test file's folder on
``sys.path`` and imports every folder's ``conftest.py`` as a module named
``conftest``.  So ``from conftest import x`` finds whichever conftest was
imported last (``pytest tests/solver tests/env`` once gave the solver tests the
environment's), and two helper modules of the same name in two folders shadow
each other the same way.  Helpers live in modules named for their folder
(``records_fixtures``, ``solver_fixtures``, ``kivydriver``), imported by name.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_no_test_imports_from_a_conftest():
    offenders = sorted(str(p.relative_to(TESTS)) for p in TESTS.rglob("*.py")
                       if "conftest" in _imported_modules(p))
    assert offenders == [], f"import these helpers from a named module instead: {offenders}"


def test_every_helper_module_has_a_name_of_its_own():
    by_name: dict[str, list[str]] = defaultdict(list)
    for p in TESTS.rglob("*.py"):
        if p.name != "conftest.py" and "__pycache__" not in p.parts:
            by_name[p.stem].append(str(p.relative_to(TESTS)))
    clashes = {name: paths for name, paths in by_name.items() if len(paths) > 1}
    assert clashes == {}, f"modules shadowing each other on sys.path: {clashes}"


def test_the_long_tests_are_handed_out_first(tmp_path):
    """tests/conftest.py puts the tests marked ``slow`` before the others, in any
    run: pytest-xdist hands them out in that order (a long test collected last kept
    one worker busy alone at the end of the run)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                          "-p", "no:randomly", str(TESTS / "test_files_killed.py")],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    ids = [line for line in out.stdout.splitlines() if "::" in line]
    slow = [i for i, line in enumerate(ids) if line.endswith("[25]")]
    assert slow == [0], ids
