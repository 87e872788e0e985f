"""``fastmine analyze`` on collections as players keep them: folders walked, glob
patterns, ``--summary`` (table, CSV, JSON, plot) against a plain reference,
``--no-coach``, an output that cannot encode a name, and text from a file
printed with its control characters escaped."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastmine
import fastmine.cli.analyze as analyze_cli
from fastmine.cli import main
from fastmine.cli.stdio import printable

sys.path.insert(0, str(Path(__file__).parent / "videos"))
from video_files import PLAYED, path  # noqa: E402

SRC = Path(fastmine.__file__).resolve().parents[1]
COUNTS = ["forced_guess", "avoidable_risk", "worse_guess", "wrong_flag", "not_analysed"]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["analyze", *args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def collection(tmp_path: Path) -> Path:
    """A player's folder: videos at three depths, other files beside them."""
    top = tmp_path / "videos"
    (top / "2024" / "expert").mkdir(parents=True)
    (top / "2025").mkdir()
    (top / "empty").mkdir()
    shutil.copy(path("meta_v3_beg.evf"), top / "b.evf")
    shutil.copy(path("arbiter_beg.avf"), top / "2024" / "A.AVF")          # any case
    shutil.copy(path("arbiter_exp_lost.avf"), top / "2024" / "expert" / "lost.avf")
    shutil.copy(path("vienna2_beg_24px.rmv"), top / "2025" / "v.rmv")
    shutil.copy(path("clone_097.mvf"), top / "2025" / "c.mvf")
    (top / "2025" / "notes.txt").write_text("not a video")
    (top / "2025" / "cover.png").write_bytes(b"\x89PNG")
    return top


def test_a_folder_is_walked_in_a_stable_order(
        capsys: pytest.CaptureFixture[str], collection: Path) -> None:
    status, out, err = _run(capsys, str(collection), "--no-coach")
    assert status == 0, err
    names = [line.split(": ", 1)[0] for line in out.splitlines()]
    top = str(collection)
    assert names == [os.path.join(top, "b.evf"), os.path.join(top, "2024", "A.AVF"),
                     os.path.join(top, "2024", "expert", "lost.avf"),
                     os.path.join(top, "2025", "c.mvf"), os.path.join(top, "2025", "v.rmv")]


def test_a_folder_without_videos_and_a_pattern_matching_nothing_are_one_line_each(
        capsys: pytest.CaptureFixture[str], collection: Path) -> None:
    status, out, err = _run(capsys, str(collection / "empty"), str(collection / "x*.avf"),
                            str(collection / "b.evf"), "--no-coach")
    assert status == 1
    assert len(out.splitlines()) == 1
    lines = err.splitlines()
    assert len(lines) == 2 and "no video" in lines[0] and "matches" in lines[1]


def test_a_glob_pattern_the_shell_did_not_expand_is_expanded(
        capsys: pytest.CaptureFixture[str], collection: Path) -> None:
    status, out, err = _run(capsys, str(collection / "2025" / "*.*v*"), "--no-coach")
    assert status == 0, err
    assert [x.split(": ", 1)[0] for x in out.splitlines()] == [
        str(collection / "2025" / "c.mvf"), str(collection / "2025" / "v.rmv")]


def _reference_summary(games: list[dict]) -> dict[tuple, dict]:
    """Per player and level, by the plainest means: the won games' figures."""
    out: dict[tuple, dict] = {}
    for key in {(g["player"], g["level"]) for g in games}:
        mine = [g for g in games if (g["player"], g["level"]) == key]
        won = [g for g in mine if g["outcome"] == "won"]

        def med(name: str, won: list = won) -> float | None:
            xs = [g[name] for g in won if g[name] is not None]
            return statistics.median(xs) if xs else None

        out[key] = {"games": len(mine), "wins": len(won),
                    "best_time": min((g["time"] for g in won), default=None),
                    "best_bbbv_per_second": max((g["bbbv_per_second"] for g in won),
                                                default=None),
                    "median_bbbv_per_second": med("bbbv_per_second"),
                    "median_ioe": med("ioe"), "median_rqp": med("rqp"),
                    "median_stnb": med("stnb"),
                    **{c: sum(g[c] for g in mine) for c in COUNTS}}
    return out


def test_summary_table_csv_and_json_agree_with_a_plain_reference(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    files = [str(path(n)) for n in sorted(PLAYED)]
    status, out, err = _run(capsys, *files, "--summary", "--json", str(tmp_path / "a.json"),
                            "--csv", str(tmp_path / "a.csv"))
    assert status == 0, err
    doc = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    reference = _reference_summary(doc["games"])
    rows = doc["summary"]
    assert len(rows) == len(reference)
    for row in rows:
        expected = reference[(row["player"], row["level"])]
        assert {k: row[k] for k in expected} == pytest.approx(expected)
    assert sum(r["games"] for r in rows) == len(files)
    # the table: a header and a line a row, players in order, no per-game line
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["player", "level", "games", "wins"]
    assert len(lines) == 1 + len(rows)
    assert not any(f in out for f in files)
    players = [r["player"] for r in rows]
    assert players == sorted(players, key=lambda p: (p.casefold(), p))
    # the CSV: the same rows, numbers in full
    table = list(csv.DictReader(io.StringIO((tmp_path / "a.csv").read_text(encoding="utf-8"))))
    assert [(r["player"], r["level"], int(r["games"])) for r in table] == [
        (r["player"], r["level"], r["games"]) for r in rows]
    for got, row in zip(table, rows, strict=True):
        assert (float(got["median_ioe"]) if got["median_ioe"] else None) == row["median_ioe"]


def test_summary_to_standard_output_as_csv_and_the_coach_left_out(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def no_coach(*args: object, **kw: object) -> None:
        raise AssertionError("the coach ran under --no-coach")

    import fastmine.coach

    monkeypatch.setattr(fastmine.coach, "analyze", no_coach)
    files = [str(path("arbiter_beg.avf")), str(path("arbiter_exp_lost.avf"))]
    status, out, err = _run(capsys, *files, "--summary", "--csv", "-", "--no-coach")
    assert status == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["player"], r["level"], r["games"], r["wins"]) for r in rows] == [
        ("Flop", "expert", "1", "0"), ("Tommy", "beginner", "1", "1")]
    assert not set(COUNTS) & set(rows[0])
    status, out, err = _run(capsys, *files, "--no-coach", "--json", "-")
    games = json.loads(out)["games"]
    assert all(g[c] is None and g["coach"] is None for g in games for c in COUNTS)
    status, out, err = _run(capsys, *files, "--no-coach")
    assert status == 0 and len(out.splitlines()) == 2 and "coach:" not in out


def test_summary_options_are_checked_before_any_work(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    video = str(path("arbiter_beg.avf"))
    for args, words in ((["--csv", str(tmp_path / "a.csv")], "--summary"),
                        (["--summary", "--csv", "-", "--json", "-"], "standard output"),
                        (["--summary", "--plot", str(tmp_path / "a.xyz")], "cannot draw"),
                        (["--summary", "--csv", str(tmp_path)], "is a folder")):
        status, out, err = _run(capsys, video, *args)
        assert status == 2 and words in err and out == "", (args, err)


def test_plot_of_the_collections_dates(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    files = [str(path(n)) for n in sorted(PLAYED)]
    target = tmp_path / "speed.png"
    status, out, err = _run(capsys, *files, "--summary", "--no-coach", "--plot", str(target))
    assert status == 0, err
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    won_with_date = sum(1 for n in PLAYED if PLAYED[n][0] == "won" and n != "clone_096.mvf")
    assert f"plot of {won_with_date} won games written to {target}" in err


def test_an_output_that_cannot_encode_a_name_gets_a_replacement_character() -> None:
    """A Chinese name on a cp1252 output: '?', and every file is still analysed (the
    old code stopped at the first name: "standard output: it is closed", exit 1)."""
    env = dict(os.environ, PYTHONPATH=str(SRC), PYTHONIOENCODING="cp1252")
    files = [str(path("arbiter_beg_gbk_name.avf")), str(path("arbiter_beg.avf")),
             str(path("meta_v3_beg.evf"))]
    res = subprocess.run([sys.executable, "-m", "fastmine", "analyze", "--no-coach", *files],
                         capture_output=True, env=env, timeout=120)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.decode("cp1252").splitlines()
    assert [x.split(": ", 1)[0] for x in lines] == files
    assert "Minesweeper Arbiter 0.52.3, ???;" in lines[0]
    res = subprocess.run([sys.executable, "-m", "fastmine", "analyze", "--no-coach", *files,
                          "--summary"], capture_output=True, env=env, timeout=120)
    assert res.returncode == 0 and b"???" in res.stdout


def _hostile_copies(tmp_path: Path) -> dict[str, str]:
    """Videos whose player names carry terminal control: file -> the name as printed."""
    avf = path("arbiter_beg.avf").read_bytes()
    assert avf.count(b"\rTommy\r") == 1
    (tmp_path / "esc.avf").write_bytes(avf.replace(b"\rTommy\r", b"\r\x1b[2JT\r"))
    rmv = path("vienna2_utf8_nonascii.rmv").read_bytes()
    name = "aaȑaa Kolar".encode()
    assert rmv.count(name) == 1 and len("\u202e".encode()) == len("aȑ".encode())
    (tmp_path / "bidi.rmv").write_bytes(rmv.replace(name, "a\u202eaa Kolar".encode()))
    return {"esc.avf": "\\x1b[2JT", "bidi.rmv": "a\\u202eaa Kolar"}


def test_text_from_a_file_is_printed_with_its_control_characters_escaped(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    shown = _hostile_copies(tmp_path)
    files = [str(tmp_path / n) for n in shown]
    for extra in ([], ["--summary"], ["--summary", "--csv", "-"], ["--json", "-"]):
        status, out, err = _run(capsys, *files, "--no-coach", *extra)
        assert status == 0, err
        assert "\x1b" not in out + err and "\u202e" not in out + err, extra
        if extra != ["--json", "-"]:
            assert all(s in out for s in shown.values()), (extra, out)
    games = json.loads(out)["games"]          # JSON keeps the names, as JSON escapes
    assert [g["player"] for g in games] == ["\x1b[2JT", "a\u202eaa Kolar"]
    assert "\\u001b[2JT" in out and "\\u202e" in out


def test_a_file_name_found_in_a_folder_is_escaped_too(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    shutil.copy(path("arbiter_beg.avf"), tmp_path / "in" / "a\x1b]0;x\x07.avf")
    (tmp_path / "in" / "b\x1b[2J.rmv").write_bytes(b"garbage")
    status, out, err = _run(capsys, str(tmp_path / "in"), "--no-coach")
    assert status == 1
    assert "\x1b" not in out + err and "\x07" not in out
    assert "a\\x1b]0;x\\x07.avf: " in out and "b\\x1b[2J.rmv" in err


@pytest.mark.parametrize("text", ["plain", "王嘉宁", "Müller", "a\tb", "x\x1by", "\x9b2J",
                                  "\u202eevil", "\u2066iso\u2069", "line\u2028two", "\x7f"])
def test_printable_leaves_nothing_a_terminal_acts_on(text: str) -> None:
    out = printable(text)
    assert all(ch.isprintable() or ch == " " for ch in out), repr(out)
    if text.isprintable():
        assert out == text


def test_every_character_escaped_is_one_isprintable_refuses() -> None:
    """printable() returns text str.isprintable() accepts without searching it:
    exact only while every character it escapes is one isprintable refuses."""
    import re

    from fastmine.cli import stdio

    for source in (stdio._CONTROL, stdio._JSON_CONTROL):
        pattern = re.compile(source)
        hits = [chr(c) for c in range(0x110000) if pattern.fullmatch(chr(c))]
        assert len(hits) >= 60 and not any(ch.isprintable() for ch in hits)


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(codec="utf-8"), max_size=40))
def test_printable_is_the_search_and_escape_of_every_control(text: str) -> None:
    import re

    from fastmine.cli import stdio

    def esc(m: re.Match[str]) -> str:
        code = ord(m.group())
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

    assert printable(text) == re.sub(stdio._CONTROL, esc, text)
    assert stdio.json_printable(text) == re.sub(
        stdio._JSON_CONTROL, lambda m: f"\\u{ord(m.group()):04x}", text)


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pseudo-terminals here")
def test_a_progress_bar_on_a_terminal_only(collection: Path) -> None:
    """A folder's walk shows tqdm's bar when standard error is a terminal; in a
    pipe, none (tests/test_analyze.py checks that side for files)."""
    import fcntl
    import select
    import struct
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))   # 100 columns
    env = dict(os.environ, PYTHONPATH=str(SRC))
    seen = b""
    try:
        child = subprocess.Popen([sys.executable, "-m", "fastmine", "analyze", str(collection),
                                  "--no-coach"], stdout=subprocess.PIPE, stderr=slave, env=env)
        os.close(slave)
        while True:        # read while it runs: a closed terminal's last bytes may be lost
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
            elif child.poll() is not None:
                break
        out, _ = child.communicate(timeout=120)
    finally:
        os.close(master)
    assert child.returncode == 0
    assert len(out.splitlines()) == 5
    assert b"0/5 [" in seen, seen[:200]
    res = subprocess.run([sys.executable, "-m", "fastmine", "analyze", str(collection),
                          "--no-coach"], capture_output=True, env=env, timeout=120)
    assert res.returncode == 0 and res.stderr == b""


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run([sys.executable, "-m", "fastmine", "analyze", *args],
                          capture_output=True, text=True, timeout=300, env=env)


def test_workers_give_what_one_process_gives(tmp_path: Path) -> None:
    """``-j 2`` analyses the files on two worker processes: the same lines, JSON,
    notes and errors, in the order the files were named."""
    folder = tmp_path / "videos"
    shutil.copytree(path("arbiter_beg.avf").parent, folder)
    (folder / "empty.avf").write_bytes(b"")
    (folder / "junk.rmv").write_bytes(b"not a video")
    one = _cli(str(folder))
    two = _cli("-j", "2", str(folder))
    assert len(one.stdout.splitlines()) > analyze_cli.CHUNK + 1       # more than one task
    assert (two.returncode, two.stdout, two.stderr) == (one.returncode, one.stdout, one.stderr)
    assert one.returncode == 1 and "junk.rmv" in one.stderr
    doc_one = _cli("--json", "-", str(folder)).stdout
    assert _cli("-j", "2", "--json", "-", str(folder)).stdout == doc_one
    summary = _cli("-j", "2", "--summary", "--csv", "-", str(folder))
    assert summary.stdout == _cli("--summary", "--csv", "-", str(folder)).stdout


def test_jobs_are_checked_and_capped(tmp_path: Path) -> None:
    for bad in ("0", "-1", "x", "1.5"):
        got = _cli("-j", bad, str(path("arbiter_beg.avf")))
        assert got.returncode == 2 and "-j/--jobs" in got.stderr, bad
    many = _cli("-j", "4096", str(path("arbiter_beg.avf").parent))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert many.returncode == 0, many.stderr
    assert ("not 4096" in many.stderr) == (cores is not None and cores > 1)
