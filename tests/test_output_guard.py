"""No output option of any command replaces a file fastmine owns.

Every path option that writes (``solve --json/--plot/--outcomes``, ``records
--json/--plot``, ``replay --export/--verdicts``, ``bench --out/--name``) goes
through one guard (:func:`fastmine.files.storage.owner_of` behind
:func:`fastmine.files.outputs.check_output`).  Each is tried against fastmine's
files named directly, through a relative path, a symbolic link (to the file and
to its folder) and a hard link: refused with exit status 2 before any work,
and the file byte-identical afterwards.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import numpy as np
import pytest

import fastmine
from fastmine import cli
from fastmine.files import outputs, storage
from fastmine.records import RecordsStore

ROOT = Path(__file__).resolve().parents[1]

# option -> (argv before the path, argv after it, the file suffix it needs)
OUTPUTS: dict[str, tuple[list[str], list[str], str]] = {
    "solve --json": (["solve", "-d", "beginner", "-n", "1", "-j", "1", "-q", "--json"], [], ".json"),
    "solve --plot": (["solve", "-d", "beginner", "-n", "1", "-j", "1", "-q", "--plot"], [], ".png"),
    "solve --outcomes": (["solve", "-d", "beginner", "-n", "1", "-j", "1", "-q", "--outcomes"], [],
                         ".npz"),
    "records --json": (["records", "--json"], [], ".json"),
    "records --plot": (["records", "--plot"], [], ".png"),
    "replay --export": (["replay", "--export", "1"], [], ".json"),
    "replay --verdicts": (["replay", "1", "--verdicts"], [], ".json"),
    "replay --import --verdicts": (["replay", "--import", "{replay}", "--verdicts"], [], ".json"),
}

OWNED = ["records.sqlite3", "records.sqlite3-wal", "records.sqlite3-journal", "saved-game.json",
         "fastmine.ini", "board_views.json", "abandoned.json", "cache/atlas-classic-0.npy",
         "sounds/flag.wav", "saved-game.json.corrupt-20260101-120000"]

WAYS = ["direct", "relative", "symlink", "folder symlink", "hard link"]


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A data folder with a record that has a replay and every owned file, the
    platform's folders under tmp_path, and a work folder as the working folder."""
    for var, sub in (("XDG_DATA_HOME", "xdg-data"), ("XDG_CONFIG_HOME", "xdg-config"),
                     ("XDG_CACHE_HOME", "xdg-cache")):
        monkeypatch.setenv(var, str(tmp_path / sub))
    data = tmp_path / "data"
    monkeypatch.setenv("FASTMINE_DATA_DIR", str(data))
    monkeypatch.delenv("FASTMINE_APP_DATA", raising=False)
    game = fastmine.Game(9, 9, 10, seed=3)
    game.reveal(4, 4)
    while not game.state.is_over:
        r, c = (int(v) for v in np.argwhere(game.view == fastmine.HIDDEN)[0])
        game.reveal(r, c)
    with RecordsStore(data_dir=data) as store:
        store.record_game(game, name="Ann")
    for name in OWNED:
        p = data / name
        p.parent.mkdir(parents=True, exist_ok=True)
        if not p.exists():
            p.write_bytes(f"player's {name}\n".encode())
    replay = tmp_path / "in.replay.json"
    fastmine.replay.Replay.from_game(game).save(replay)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return data, replay


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _path_to(target: Path, way: str, suffix: str, work: Path) -> str:
    if way == "direct":
        return str(target)
    if way == "relative":
        return os.path.relpath(target, work)
    if way == "symlink":
        link = work / f"link{suffix}"
        link.symlink_to(target)
        return link.name
    if way == "folder symlink":
        (work / "datalink").symlink_to(target.parent, target_is_directory=True)
        return str(Path("datalink") / target.name)
    link = work / f"hard{suffix}"
    os.link(target, link)
    return link.name


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("option", list(OUTPUTS))
def test_every_output_refuses_every_owned_file(home, option, way, capsys):
    data, replay = home
    before = _snapshot(data)
    work = Path.cwd()
    head, tail, suffix = OUTPUTS[option]
    head = [str(replay) if a == "{replay}" else a for a in head]
    for name in OWNED:
        for p in list(work.iterdir()):
            p.unlink()
        path = _path_to(data / name, way, suffix, work)
        status = cli.main([*head, path, *tail])
        err = capsys.readouterr().err
        assert status == 2, (option, way, name, err)
        assert "fastmine does not write an output over it" in err, (option, way, name, err)
        assert _snapshot(data) == before, (option, way, name)


@pytest.mark.parametrize("way", ["direct", "symlink", "hard link"])
def test_records_and_replay_guard_their_data_dir_too(tmp_path, home, way, capsys):
    """With --data-dir, that folder's files are fastmine's as well as the usual ones."""
    data, _ = home
    other = tmp_path / "other"
    other.mkdir()
    for p in data.iterdir():
        if p.is_file():
            (other / p.name).write_bytes(p.read_bytes())
    before = _snapshot(other)
    for argv in (["records", "--data-dir", str(other), "--json"],
                 ["replay", "--data-dir", str(other), "--export", "1"],
                 ["replay", "1", "--data-dir", str(other), "--verdicts"]):
        for name in ("records.sqlite3", "saved-game.json"):
            for p in list(Path.cwd().iterdir()):
                p.unlink()
            assert cli.main([*argv, _path_to(other / name, way, ".json", Path.cwd())]) == 2
            assert "does not write an output over it" in capsys.readouterr().err
    assert _snapshot(other) == before


def test_bench_refuses_an_owned_file(home, capsys):
    if not (ROOT / "bench" / "cli.py").is_file():
        pytest.skip("bench/ is not here (tests run against an installed wheel)")
    data, _ = home
    before = _snapshot(data)
    for out, name in ((data, "saved-game"), (data / "cache", "quick"), (data, "board_views")):
        status = cli.main(["bench", "--quick", "--out", str(out), "--name", name])
        assert status == 2
        assert "does not write an output over it" in capsys.readouterr().err
    assert _snapshot(data) == before


def test_the_platform_folders_are_owned_whole(home, tmp_path):
    config = tmp_path / "xdg-config" / "fastmine"
    cache = tmp_path / "xdg-cache" / "fastmine"
    for folder in (config, cache):
        (folder / "sub").mkdir(parents=True)
        assert storage.owner_of(folder / "anything.json") is not None
        assert storage.owner_of(folder / "sub" / "x.png") is not None
        assert storage.owner_of(folder) is not None


def test_outputs_elsewhere_are_written(home, capsys):
    """Nothing else is refused: an output beside fastmine's files, or named like
    one of them elsewhere, is written (atomically, through a link to a plain file)."""
    data, _ = home
    work = Path.cwd()
    assert storage.owner_of(work / "records.sqlite3") is None
    assert storage.owner_of(data / "export.json") is None
    assert storage.owner_of(data / "fastmine.ini.png") is None
    assert cli.main(["records", "--json", "records.sqlite3"]) == 0
    assert b'"fastmine-records"' in (work / "records.sqlite3").read_bytes()
    (work / "mine.json").write_text("old")
    (work / "link.json").symlink_to(work / "mine.json")
    assert cli.main(["replay", "--export", "1", "link.json"]) == 0
    assert (work / "link.json").is_symlink()
    assert b"fastmine-replay" in (work / "mine.json").read_bytes()
    capsys.readouterr()


def test_write_output_checks_again_at_the_end(home):
    """A path that became one of fastmine's files during a run is still refused."""
    data, _ = home
    work = Path.cwd()
    outputs.check_output("late.json", "--json")
    (work / "late.json").symlink_to(data / "saved-game.json")
    before = (data / "saved-game.json").read_bytes()
    with pytest.raises(ValueError, match="your saved game"):
        outputs.write_output("late.json", "x", "--json")
    assert (data / "saved-game.json").read_bytes() == before


def test_api_writers_refuse_owned_files(home):
    data, replay_path = home
    rep = fastmine.replay.Replay.load(replay_path)
    before = (data / "records.sqlite3").read_bytes()
    with pytest.raises(ValueError, match="records database"):
        rep.save(data / "records.sqlite3")
    import argparse

    from fastmine.cli.solve import build_configs, configure
    from fastmine.solver import paired
    from fastmine.solver.runs import run_configs

    parser = argparse.ArgumentParser()
    configure(parser)
    run = run_configs(build_configs(parser.parse_args(["-d", "beginner", "-r", "cell"])), 2,
                      jobs=1, progress=False)
    with pytest.raises(ValueError, match="records database"):
        paired.save(run, str(data / "records.sqlite3"))
    assert (data / "records.sqlite3").read_bytes() == before


def _string_constants(module: Path, pattern: str) -> set[str]:
    tree = ast.parse(module.read_text(encoding="utf-8"))
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
            and isinstance(n.value, str) and re.fullmatch(pattern, n.value)}


def test_every_file_the_program_keeps_is_listed_as_owned():
    """The list behind the guard names every file and folder the package keeps in
    the data folder: a new one must be added there (this test reads the code)."""
    from fastmine.files import savedgame
    from fastmine.records import store

    assert store.RECORDS_FILE == storage.RECORDS_FILE
    assert savedgame.SAVE_FILE == storage.SAVE_FILE
    app = Path(storage.__file__).resolve().parents[1] / "app"
    names = set()
    for module in app.rglob("*.py"):
        text = module.read_text(encoding="utf-8")
        names |= set(re.findall(r'^[A-Z_]+_FILE = "([^"/]+\.(?:json|ini|sqlite3))"', text, re.M))
        names |= set(re.findall(r'os\.path\.join\(self\.user_data_dir, "([^"]+)"\)', text))
    assert names, "found none of the app's files: the search above needs updating"
    listed = set(storage.OWNED_FILES) | set(storage.OWNED_FOLDERS)
    assert names <= listed, names - listed
