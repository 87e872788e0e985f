"""What a stranger's pass over every flag found beyond issue 23's list, each fixed:

- ``solve --compare`` on a FIFO waited forever for a writer; an outcomes file
  is now read like every other file (regular, bounded, never blocking) and its
  arrays' unpacked sizes are checked before unpacking (a zip bomb);
- ``records --top -1`` / ``--top 2**64`` / ``-d 2**64x9/10``: ValueError
  tracebacks; now usage lines;
- ``bench --sizes 0x0`` ran for ever, ``--sizes 100000000x100000000`` tried to
  fill the memory, ``--from-json`` of a missing, non-JSON or device file was a
  traceback or a hang, and ``--name ../x`` wrote outside ``--out``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import fastmine
from fastmine.cli import main
from fastmine.errors import SaveFormatError
from fastmine.records import RecordsStore
from fastmine.solver import paired

ROOT = Path(__file__).resolve().parents[1]
SRC = Path(fastmine.__file__).resolve().parents[1]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_compare_never_waits_on_a_fifo(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    proc = subprocess.run([sys.executable, "-m", "fastmine", "solve", "--compare", str(fifo),
                           str(fifo)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(SRC)})
    assert proc.returncode == 2
    assert "is a FIFO, not a regular file" in proc.stderr and "Traceback" not in proc.stderr


def test_an_outcomes_file_that_unpacks_too_big_is_refused_before_unpacking(tmp_path, monkeypatch):
    from fastmine.solver.runs import Config, run_configs

    run = run_configs([Config("beginner", 9, 9, 10, "cell", (0, 0), "deterministic")], 2000,
                      jobs=1, progress=False)
    path = tmp_path / "a.npz"
    paired.save(run, str(path))
    assert paired.load(str(path))[1][0].size == 2000
    monkeypatch.setattr(paired, "MAX_OUTCOMES_BYTES", 1500)

    def unpacked(*args, **kwargs):
        raise AssertionError("unpacked before its size was checked")

    monkeypatch.setattr(paired.np, "load", unpacked)
    with pytest.raises(SaveFormatError, match="unpacks to more than a run's outcomes"):
        paired.load(str(path))
    with pytest.raises(SaveFormatError, match="device or special file"):
        paired.load("/dev/zero")


@pytest.fixture
def records_dir(tmp_path):
    g = fastmine.Game(9, 9, 10, seed=3)
    g.reveal(4, 4)
    while not g.state.is_over:
        g.reveal(*(int(v) for v in np.argwhere(g.view == fastmine.HIDDEN)[0]))
    with RecordsStore(data_dir=tmp_path) as store:
        store.record_game(g, name="Ann")
    return tmp_path


@pytest.mark.parametrize("argv, words", [
    (["--difficulty", "beginner", "--top", "-1"], "expected a whole number from 1 to 1,000,000"),
    (["--difficulty", "beginner", "--top", str(2**64)], "expected a whole number from 1 to 1,000,000"),
    (["--plot", "p.png", "--last", "0"], "expected a whole number from 1 to 1,000,000"),
])
def test_records_counts_out_of_range_are_usage_errors(records_dir, capsys, argv, words):
    with pytest.raises(SystemExit) as exc:
        main(["records", "--data-dir", str(records_dir), *argv])
    assert exc.value.code == 2 and words in capsys.readouterr().err


@pytest.mark.parametrize("board, words", [
    (f"{2**64}x9/10", "too large"),
    ("0x0/0", "at least 1 row"),
    ("9x9/100", "0 to 81 mines"),
])
def test_records_boards_no_game_can_have_are_one_line(records_dir, capsys, board, words):
    assert main(["records", "--data-dir", str(records_dir), "--difficulty", board]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1


bench_here = pytest.mark.skipif(not (ROOT / "bench" / "cli.py").is_file(),
                                reason="bench/ is not here (tests run against an installed wheel)")


@bench_here
@pytest.mark.parametrize("sizes, words", [
    ("0x0", "at least 1 row"), ("100000000x100000000", "too large"), ("9x9/81", "1 to 80 mines"),
])
def test_bench_refuses_sizes_no_board_can_have(capsys, sizes, words):
    with pytest.raises(SystemExit) as exc:
        main(["bench", "--sizes", sizes])
    assert exc.value.code == 2 and words in capsys.readouterr().err


@bench_here
def test_bench_from_json_and_name_are_checked_first(tmp_path, capsys):
    (tmp_path / "garbage.json").write_text('{"format": "nothing"}')
    out = tmp_path / "out"
    for source in (tmp_path / "missing.json", tmp_path / "garbage.json", Path("/dev/zero")):
        assert main(["bench", "--from-json", str(source), "--out", str(out)]) == 2
        assert "not the results of a run" in capsys.readouterr().err
    results = ROOT / "bench" / "results" / "full.json"
    if results.is_file():
        assert main(["bench", "--from-json", str(results), "--name", "../escaped",
                     "--out", str(out), "--no-plots"]) == 2
        assert "without a folder" in capsys.readouterr().err
        assert not (tmp_path / "escaped.json").exists()
    assert not out.exists()


@pytest.mark.parametrize("name", ["x" * 300 + ".json", "d/" * 2500 + "x.json"])
def test_an_output_name_the_system_cannot_take_is_one_line(records_dir, tmp_path, capsys,
                                                           monkeypatch, name):
    """A name too long for the file system was an OSError traceback from the
    output check (File name too long)."""
    monkeypatch.chdir(tmp_path)
    for argv in (["records", "--json", name], ["replay", "--export", "1", name],
                 ["replay", "1", "--verdicts", name],
                 ["solve", "-d", "beginner", "-n", "1", "-j", "1", "-q", "--json", name]):
        assert main([*argv, *(["--data-dir", str(records_dir)] if argv[0] != "solve" else [])]) == 2
        err = capsys.readouterr().err
        assert "File name too long" in err and len(err.strip().splitlines()) == 1, err[:300]
