"""``fastmine records --json`` and ``--plot``: every game out as JSON, time and 3BV/s drawn."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest

from fastmine import records
from fastmine.cli import main as cli_main
from fastmine.cli.records import plot_series
from fastmine.files import writing
from fastmine.records import GameRecord, RecordsStore


def records_main(argv):
    return cli_main(["records", *argv])


def _fill(tmp_path):
    with RecordsStore(data_dir=tmp_path) as s:
        s.add(GameRecord.make(9, 9, 10, won=True, time=12.25, bbbv=20, clicks=25, name="Ann"))
        s.add(GameRecord.make(9, 9, 10, won=False, time=3.0))
        s.add(GameRecord.make(9, 9, 10, won=True, time=9.0, bbbv=18, assisted=True))
        s.add(GameRecord.make(16, 30, 99, won=True, time=95.5, bbbv=150, name="Cy \u5c71"))
        return s.games()


def test_json_to_stdout_holds_every_game(tmp_path, capsys):
    stored = _fill(tmp_path)
    assert records_main(["--data-dir", str(tmp_path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "fastmine-records" and doc["version"] == 1
    assert doc["games"] == [dataclasses.asdict(r) for r in stored]
    assert [g["won"] for g in doc["games"]] == [True, False, True, True]
    assert doc["games"][2]["assisted"] is True and doc["games"][3]["name"] == "Cy \u5c71"
    assert records_main(["--data-dir", str(tmp_path), "--json", "-", "-d", "expert"]) == 0
    (only,) = json.loads(capsys.readouterr().out)["games"]
    assert only["mines"] == 99


def test_json_to_a_file_and_bad_paths(tmp_path, capsys):
    _fill(tmp_path)
    out = tmp_path / "all.json"
    assert records_main(["--data-dir", str(tmp_path), "--json", str(out)]) == 0
    assert "4 games written" in capsys.readouterr().err
    assert len(json.loads(out.read_text(encoding="utf-8"))["games"]) == 4
    assert records_main(["--data-dir", str(tmp_path), "--json", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert records_main(["--data-dir", str(tmp_path), "--json",
                         str(tmp_path / "nowhere" / "x.json")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_json_with_no_records_is_an_empty_list(tmp_path, capsys):
    assert records_main(["--data-dir", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == []
    assert not (tmp_path / records.RECORDS_FILE).exists()     # nothing created


def test_plot_draws_a_png(tmp_path, capsys, monkeypatch):
    pytest.importorskip("matplotlib")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    _fill(tmp_path)
    out = tmp_path / "stats.png"
    assert records_main(["--data-dir", str(tmp_path), "--plot", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "plotted 2 games of 2 boards" in capsys.readouterr().err   # no loss, no assisted
    assert records_main(["--data-dir", str(tmp_path), "--plot", str(out), "--assisted"]) == 0
    assert "plotted 3 games" in capsys.readouterr().err


def test_plot_with_nothing_won_says_so(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    with RecordsStore(data_dir=tmp_path) as s:
        s.add(GameRecord.make(9, 9, 10, won=False, time=3.0))
    assert records_main(["--data-dir", str(tmp_path), "--plot", str(tmp_path / "p.png")]) == 1
    assert "no won games to plot yet" in capsys.readouterr().err
    assert not (tmp_path / "p.png").exists()


def test_plot_without_matplotlib_fails_first_and_friendly(tmp_path, capsys, monkeypatch):
    # A broken database would give status 1 if it were opened: 2 shows nothing was read.
    (tmp_path / records.RECORDS_FILE).write_bytes(b"garbage" * 100)
    monkeypatch.setitem(sys.modules, "matplotlib", None)    # import matplotlib -> ImportError
    assert records_main(["--data-dir", str(tmp_path), "--plot", str(tmp_path / "p.png")]) == 2
    err = capsys.readouterr().err
    assert "--plot needs matplotlib: pip install '" in err and "[plot]'" in err
    assert "Traceback" not in err


def test_plot_series_keeps_the_last_won_games_per_board():
    recs = [GameRecord.make(9, 9, 10, won=i % 3 != 0, time=10.0 + i, bbbv=20) for i in range(30)]
    recs.append(GameRecord.make(9, 9, 10, won=True, time=1.0, assisted=True))
    series = plot_series(recs, last=5)
    (label,) = series
    assert [r.time for r in series[label]] == [33.0, 35.0, 36.0, 38.0, 39.0]
    assert len(plot_series(recs, last=100, include_assisted=True)[label]) == 21


def test_plot_format_and_write_errors_are_messages_not_tracebacks(tmp_path, capsys, monkeypatch):
    pytest.importorskip("matplotlib")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    _fill(tmp_path)
    assert records_main(["--data-dir", str(tmp_path), "--plot", str(tmp_path / "p.xyz")]) == 2
    err = capsys.readouterr().err
    assert "cannot draw a xyz file" in err and ".png" in err and "Traceback" not in err
    assert not (tmp_path / "p.xyz").exists()

    def full_disk(path, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(writing, "atomic_write_bytes", full_disk)
    for option, name in (("--json", "all.json"), ("--plot", "p.png")):
        assert records_main(["--data-dir", str(tmp_path), option, str(tmp_path / name)]) == 1
        err = capsys.readouterr().err
        assert f"cannot write {tmp_path / name}: No space left on device" in err
        assert not (tmp_path / name).exists()


@pytest.mark.parametrize("end", ["", "-wal"])
def test_json_never_replaces_the_records_database(tmp_path, capsys, end):
    _fill(tmp_path)
    db = records.default_path(tmp_path)
    target = str(db) + end
    if end:
        Path(target).touch()
    before = Path(target).read_bytes()
    assert records_main(["--data-dir", str(tmp_path), "--json", target]) == 2
    err = capsys.readouterr().err
    assert "records database" in err and "Traceback" not in err
    assert Path(target).read_bytes() == before
    with RecordsStore(data_dir=tmp_path) as s:
        assert s.count() == 4
