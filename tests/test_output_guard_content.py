"""Outputs are guarded by what a file is, not only by where it is.

A records database copied to a folder used with ``--data-dir``, a saved game,
the app's settings or a replay kept in a folder of the player's own are
fastmine's files wherever they lie: every output option, the dataset writer
(``overwrite=True`` too), the API writers and the app's own writers (through
a link) refuse to replace them, and leave them byte-identical.  Anything else
is still written, atomically.  The check reads at most a header
(:data:`fastmine.files.kinds.SNIFF_BYTES`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

import fastmine
from fastmine import cli
from fastmine.errors import SaveFormatError
from fastmine.files import kinds, owned, savedgame, writing
from fastmine.records import APPLICATION_ID, RecordsStore
from fastmine.replay import Replay

OPTIONS = [
    ["solve", "-d", "beginner", "-n", "1", "-j", "1", "-q", "--json"],
    ["solve", "-d", "beginner", "-n", "1", "-j", "1", "-q", "--outcomes"],
    ["solve", "-d", "beginner", "-n", "1", "-j", "1", "-q", "--plot"],
    ["records", "--json"],
    ["records", "--plot"],
    ["replay", "--export", "1"],
    ["replay", "1", "--verdicts"],
]

KINDS = ["records", "save", "settings", "replay"]


def _won_game(seed: int = 3) -> fastmine.Game:
    game = fastmine.Game(9, 9, 10, seed=seed)
    game.reveal(4, 4)
    while not game.state.is_over:
        r, c = (int(v) for v in np.argwhere(game.view == fastmine.HIDDEN)[0])
        game.reveal(r, c)
    return game


@pytest.fixture
def files(tmp_path, monkeypatch):
    """The data folder in use (a record with a replay) and, in a folder of the
    player's own that no setting names, one file of each kind."""
    for var, sub in (("XDG_DATA_HOME", "xdg-data"), ("XDG_CONFIG_HOME", "xdg-config"),
                     ("XDG_CACHE_HOME", "xdg-cache")):
        monkeypatch.setenv(var, str(tmp_path / sub))
    data = tmp_path / "data"
    monkeypatch.setenv("FASTMINE_DATA_DIR", str(data))
    monkeypatch.delenv("FASTMINE_APP_DATA", raising=False)
    game = _won_game()
    with RecordsStore(data_dir=data) as store:
        store.record_game(game, name="Ann")
    mine = tmp_path / "mine"
    mine.mkdir()
    with RecordsStore(data_dir=mine) as store:       # played with --data-dir mine
        store.record_game(_won_game(5), name="Bo")
    unfinished = fastmine.Game(9, 9, 10, seed=8)
    unfinished.reveal(4, 4)
    savedgame.save_game(unfinished, path=mine / "saved-game.json")
    (mine / "fastmine.ini").write_text("[game]\nfirst_click = opening\nquestion_marks = 1\n"
                                       "theme = dark\n\n[window]\nwidth = 0\n")
    Replay.from_game(game).save(mine / "best.replay.json")
    paths = {"records": mine / "records.sqlite3", "save": mine / "saved-game.json",
             "settings": mine / "fastmine.ini", "replay": mine / "best.replay.json"}
    # copies under names no list knows
    for kind, path in list(paths.items()):
        other = mine / f"kept-{kind}.dat"
        other.write_bytes(path.read_bytes())
        paths[f"{kind} renamed"] = other
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return data, paths


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("way", ["direct", "symlink", "folder symlink"])
@pytest.mark.parametrize("argv", OPTIONS, ids=lambda a: " ".join(a[:1] + a[-1:]))
def test_every_output_option_refuses_fastmine_files_anywhere(files, argv, way, capsys):
    _, paths = files
    folder = next(iter(paths.values())).parent
    before = _snapshot(folder)
    work = Path.cwd()
    for kind, target in paths.items():
        for p in list(work.iterdir()):
            p.unlink()
        if way == "direct":
            path = str(target)
        elif way == "symlink":
            (work / "out.png").symlink_to(target)
            path = "out.png"
        else:
            (work / "dir").symlink_to(target.parent, target_is_directory=True)
            path = str(Path("dir") / target.name)
        status = cli.main([*argv, path])
        err = capsys.readouterr().err
        assert status == 2, (argv, kind, err)
        assert "fastmine does not write an output over it" in err, (argv, kind, err)
        assert _snapshot(folder) == before, (argv, kind)


def test_solve_json_does_not_replace_the_records_of_a_data_dir(files, capsys):
    """The issue's case: ``solve --json DIR/records.sqlite3`` of a folder used with
    ``play --data-dir DIR`` replaced its records."""
    _, paths = files
    before = paths["records"].read_bytes()
    assert cli.main(["solve", "-d", "beginner", "-n", "1", "-j", "1", "-q", "--json",
                     str(paths["records"])]) == 2
    assert "a fastmine records database" in capsys.readouterr().err
    assert paths["records"].read_bytes() == before


@pytest.mark.parametrize("overwrite", [False, True])
def test_dataset_never_replaces_fastmine_files(files, overwrite):
    pytest.importorskip("gymnasium")
    from fastmine.env import dataset

    data, paths = files
    targets = [data / "records.sqlite3", *paths.values()]
    before = {p: p.read_bytes() for p in targets}
    for target in targets:
        with pytest.raises(ValueError, match="does not write an output over it"):
            dataset(target, 4, rows=5, cols=5, mines=3, seed=1, progress=False,
                    overwrite=overwrite)
    assert {p: p.read_bytes() for p in targets} == before
    plain = Path.cwd() / "plain.npz"
    plain.write_bytes(b"not a dataset yet")
    dataset(plain, 4, rows=5, cols=5, mines=3, seed=1, progress=False, overwrite=True)
    assert plain.read_bytes()[:2] == b"PK"


def test_writers_replace_only_their_own_kind_through_any_link(files, tmp_path):
    """The app's and the API's writers (atomic_write_bytes): a link from a cache,
    the board views or an export to a fastmine file is refused; the saved game's
    and the settings' own writers still replace their own file."""
    _, paths = files
    before = {p: p.read_bytes() for p in paths.values()}
    for kind, target in paths.items():
        link = tmp_path / f"board_views-{kind.replace(' ', '-')}.json"
        link.symlink_to(target)
        with pytest.raises(FileExistsError, match="does not write another file over it"):
            writing.atomic_write_text(link, "{}")
        assert link.is_symlink()
        bare = kind.split()[0]
        for other in KINDS:
            if other != bare:
                with pytest.raises(FileExistsError):
                    writing.atomic_write_bytes(link, b"x", replaces=other)
    assert {p: p.read_bytes() for p in paths.values()} == before
    rep = Replay.load(paths["replay"])
    with pytest.raises(ValueError, match="a fastmine replay"):
        rep.save(paths["replay renamed"])
    with pytest.raises(SaveFormatError):
        savedgame.save_game(_won_game(), path=paths["records"])
    game = fastmine.Game(9, 9, 10, seed=9)
    game.reveal(0, 0)
    savedgame.save_game(game, path=paths["save"])          # its own kind: replaced
    assert json.loads(paths["save"].read_text())["seed"] == 9
    writing.atomic_write_text(paths["settings"], "[game]\nfirst_click = cell\ncell_size = 9\n",
                              replaces="settings")
    assert "first_click = cell" in paths["settings"].read_text()


def test_other_files_are_still_written(files, capsys):
    """A plain file, a records export (fastmine-records JSON), an SQLite database of
    another program, a JSON with fastmine words inside: replaced atomically."""
    work = Path.cwd()
    assert cli.main(["records", "--json", "export.json"]) == 0
    assert cli.main(["records", "--json", "export.json"]) == 0     # an export: again
    import sqlite3

    other_db = work / "other.sqlite3"
    with sqlite3.connect(other_db) as conn:
        conn.execute("CREATE TABLE t (x)")
    (work / "note.json").write_text('{"name": "x", "format": "fastmine-replay"}')
    (work / "plain.ini").write_text("[game]\ntheme = dark\n")
    for name in ("other.sqlite3", "note.json", "plain.ini"):
        assert owned.owner_of(work / name) is None, name
        assert cli.main(["records", "--json", name]) == 0
        assert b'"fastmine-records"' in (work / name).read_bytes()
    capsys.readouterr()


def test_the_header_read_is_bounded(files, tmp_path, monkeypatch):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (10 << 20) + b'{"format":"fastmine-replay"}')
    read = []
    real = os.read

    def counted(fd, n):
        out = real(fd, n)
        read.append(len(out))
        return out

    monkeypatch.setattr(kinds.os, "read", counted)
    assert kinds.fastmine_kind(big) is None
    assert sum(read) <= kinds.SNIFF_BYTES
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert kinds.fastmine_kind(fifo) is None      # never waits for a writer


def test_kinds_match_what_fastmine_writes(files):
    _, paths = files
    for kind in KINDS:
        assert kinds.fastmine_kind(paths[kind]) == kind
        assert kinds.fastmine_kind(paths[f"{kind} renamed"]) == kind
    assert kinds.RECORDS_APPLICATION_ID == APPLICATION_ID
    from fastmine.gameformat import SAVE_FORMAT
    from fastmine.replay.fileformat import REPLAY_FORMAT

    assert kinds.kind_of_bytes(json.dumps({"format": SAVE_FORMAT}).encode()) == "save"
    assert kinds.kind_of_bytes(json.dumps({"format": REPLAY_FORMAT}, indent=2).encode()) == "replay"
    wal = paths["records"].with_name("records.sqlite3-wal")
    wal.write_bytes(b"\x37\x7f\x06\x82" + bytes(28))
    assert kinds.fastmine_kind(wal) == "records"


def test_bench_plots_and_page_go_through_the_guard(files, tmp_path):
    """The benchmark's plots were drawn with savefig straight to the path (and shrunk in
    place): through a link they replaced whatever it led to."""
    root = Path(__file__).resolve().parents[1]
    if not (root / "bench" / "plots.py").is_file():
        pytest.skip("bench/ is not here (tests run against an installed wheel)")
    pytest.importorskip("matplotlib")
    import sys

    sys.path.insert(0, str(root))
    try:
        from bench.plots import _save
    finally:
        sys.path.remove(str(root))
    from matplotlib.figure import Figure

    _, paths = files
    before = paths["records"].read_bytes()
    link = tmp_path / "run-scaling.png"
    link.symlink_to(paths["records"])
    fig = Figure(figsize=(1, 1))
    fig.add_subplot().plot([0, 1], [1, 0])
    for shrink in (False, True):
        with pytest.raises(ValueError, match="does not write an output over it"):
            _save(fig, link, 40, shrink=shrink)
    assert paths["records"].read_bytes() == before
    _save(fig, tmp_path / "plain.png", 40, shrink=True)
    assert (tmp_path / "plain.png").read_bytes()[:4] == b"\x89PNG"


def test_removing_the_saved_game_never_removes_another_fastmine_file(files):
    _, paths = files
    for kind in ("records", "replay", "settings"):
        before = paths[kind].read_bytes()
        with pytest.raises(SaveFormatError, match="not a saved game"):
            savedgame.delete_save(paths[kind])
        assert paths[kind].read_bytes() == before
    assert savedgame.delete_save(paths["save"]) is True
    assert not paths["save"].exists()
