"""Every example in README.md and docs/ runs and does what it says.

``>>>`` sessions are doctests (their printed results are checked); every
```python block is run as it stands; the terminal page's piped game is played and
its board checked.  Links in the README and docs point at files that exist.
"""

from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
if not (ROOT / "README.md").is_file():
    pytest.skip("README.md and docs/ are not here (tests run against a wheel)",
                allow_module_level=True)

BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def _blocks(lang: str) -> list[tuple[str, str]]:
    out = []
    for md in DOCS:
        text = md.read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            if m.group(1) == lang and ">>>" not in m.group(2):
                line = text[:m.start()].count("\n") + 1
                out.append((f"{md.relative_to(ROOT)}:{line}", m.group(2)))
    return out


@pytest.mark.parametrize("md", [d for d in DOCS if ">>>" in d.read_text(encoding="utf-8")],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_doctest_sessions(md):
    result = doctest.testfile(str(md), module_relative=False, verbose=False, report=True,
                              optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0, f"{result.failed} failed in {md.name}"


@pytest.mark.parametrize(("where", "code"), _blocks("python"), ids=lambda v: v if ":" in v else "")
def test_python_blocks_run(where, code, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    # the examples run from the root of a checkout: tests/data/ is where they read
    (tmp_path / "tests").symlink_to(ROOT / "tests", target_is_directory=True)
    monkeypatch.setenv("FASTMINE_DATA_DIR", str(tmp_path / "data"))
    exec(compile(code, where, "exec"), {"__name__": "__docs__"})


def test_readme_engine_example_changes_what_it_says():
    """The README's moves each change the board: the flag lands, the chord opens a cell."""
    import fastmine

    game = fastmine.Game(*fastmine.DIFFICULTIES["beginner"], rule="opening", seed=7)
    game.reveal(4, 4)
    assert game.view[1, 1] == fastmine.HIDDEN and game.view[0, 1] == fastmine.HIDDEN
    assert game.toggle_mark(1, 1).tolist() == [[1, 1]]
    assert game.view[1, 1] == fastmine.FLAG
    assert game.chord(0, 2).tolist() == [[0, 1]]
    assert game.view[0, 1] == 1


def _fastmine_command() -> list[str]:
    exe = shutil.which("fastmine", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "fastmine"]


def test_terminal_page_piped_game(tmp_path):
    """docs/terminal.md: ``r 5 5``, ``f 2 2``, ``c 1 3`` -- the chord opens (1, 2)."""
    text = (ROOT / "docs" / "terminal.md").read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if ln.startswith("printf '"))
    moves, command = re.fullmatch(r"printf '(.*)' \| fastmine (.*)", line).groups()
    stdin = moves.replace("\\n", "\n")
    assert stdin == "r 5 5\nf 2 2\nc 1 3\n"
    env = dict(os.environ, FASTMINE_DATA_DIR=str(tmp_path))
    proc = subprocess.run([*_fastmine_command(), *command.split(), "--no-records"], input=stdin,
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 3, proc.stderr        # unfinished game at the end of input
    assert "error" not in proc.stderr
    boards = [b for b in proc.stdout.split("    1 2 3 4 5 6 7 8 9\n")[1:]]
    assert len(boards) == 4                         # the start and one per move
    last = [row.split()[1:] for row in boards[-1].splitlines()[:9]]
    before = [row.split()[1:] for row in boards[-2].splitlines()[:9]]
    assert last[1][1] == "F"                        # (2, 2) flagged
    assert before[0][1] == "#" and last[0][1] == "1"  # the chord opened (1, 2)


LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("md", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_resolve_inside_the_repository(md):
    text = md.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (md.parent / target.split("#")[0]).resolve()
        assert path.exists(), f"{md.name} links {target}, which does not exist"
        assert ROOT in path.parents, f"{md.name} links {target}, outside the repository"


def test_user_facing_text_names_features_not_sources():
    """No "seed 002"-style references where a user reads them: the README, the
    docs, and the sources whose docstrings a developer reads in help()."""
    offenders = []
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for folder in (ROOT / "src" / "fastmine", ROOT / "app"):
        files += [p for ext in ("py", "pyx", "kv") for p in sorted(folder.rglob(f"*.{ext}"))]
    for md in files:
        for n, line in enumerate(md.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\bseeds? 00\d", line, re.I):
                offenders.append(f"{md.name}:{n}: {line.strip()}")
    assert offenders == []


# Documents that are not in the repository: a file that cites one sends its reader
# nowhere. The facts belong in the file itself or in a page of docs/.
OUTSIDE_DOCUMENTS = re.compile(r"DESIGN\.md|KIVY_NOTES|STYLE\.md|\.\./shared\b|\bshared/[A-Za-z]")


def test_no_file_cites_a_document_outside_the_repository():
    import subprocess

    if not (ROOT / ".git").exists():
        pytest.skip("needs the source checkout's file list (git)")
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    offenders = []
    for name in names:
        path = ROOT / name
        if name in ("", "CHANGELOG.md") or not path.is_file() or path.suffix in (
                ".png", ".npz", ".npy", ".avf", ".rmv", ".mvf", ".evf", ".wav", ".ttf", ".otf"):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if OUTSIDE_DOCUMENTS.search(line) and path != Path(__file__):
                offenders.append(f"{name}:{n}: {line.strip()}")
    assert offenders == []


def test_the_front_end_example_records_a_game_it_shows(tmp_path, monkeypatch, capsys):
    """docs/terminal.md's records example shows a recorded game: it once recorded a game
    the solver finished, which counts as assisted, and printed [] and played=0."""
    text = (ROOT / "docs" / "terminal.md").read_text(encoding="utf-8")
    start = text.index("## For other front ends")
    code = BLOCK.search(text, start).group(2)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "docs/terminal.md", "exec"), {"__name__": "__docs__"})
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("[GameRecord(") and "won=True" in out[0]
    assert "played=1, won=1" in out[1]
