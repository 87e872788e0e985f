"""What a ``fastmine`` command loads at start: the command it runs, not the others.

Each check runs in a fresh interpreter, where nothing else was imported before.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

VIDEO = Path(__file__).resolve().parent / "data" / "videos" / "meta_v3_beg.evf"

PROBE = """
import contextlib, io, json, sys
from fastmine import cli
with contextlib.redirect_stdout(io.StringIO()) as out:
    status = cli.main(sys.argv[1:])
print(json.dumps({"status": status, "out": out.getvalue(),
                  "loaded": sorted(m for m in sys.modules if m in NAMES)}))
"""

OTHERS = ("asyncio", "sqlite3", "fastmine.records", "fastmine.solver.runs", "fastmine.cli.play",
          "fastmine.cli.solve", "fastmine.cli.records",
          "numpy.ma",  # np.unique imports it: ~6 ms for one count of the 3BV solved
          "tqdm",      # only for a progress bar on a terminal: ~20 ms
          "statistics",  # and decimal, fractions: only for --summary, --csv, --plot
          # a replay's reader and the output files' guard: only for a .fmreplay, and
          # for --json/--csv/--plot to a file (~10 ms of a start, with json and tempfile)
          "fastmine.replay", "fastmine.files.outputs", "fastmine.files.figures",
          # only for a glob pattern, an unseeded board, a worker pool
          "glob", "random", "threading",
          # argparse's way to the terminal's width (with bz2, lzma, zlib: 4 ms)
          "shutil",
          # a file's name is read as given (with urllib.parse: 7 ms of CPU)
          "pathlib")
NO_COACH = (
    # a video's game is rebuilt in the engine only when asked for (Analysis.game),
    # and only the coach plays positions in it
    "fastmine.game", "fastmine.gameplay", "fastmine.timedmoves", "fastmine.coach",
    "fastmine.solver")


def _run(*argv: str, names: tuple[str, ...] = OTHERS) -> dict:
    code = PROBE.replace("NAMES", repr(set(names)))
    out = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                         timeout=120, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_analyze_loads_no_other_command() -> None:
    """``fastmine analyze`` configures only itself: the other commands' modules
    (asyncio for ``solve``, SQLite for ``records``) cost every start ~0.1 s."""
    got = _run("analyze", str(VIDEO))
    assert got["status"] == 0 and "meta_v3_beg.evf" in got["out"]
    assert got["loaded"] == []


def test_analyze_without_the_coach_loads_no_game_engine() -> None:
    got = _run("analyze", "--no-coach", str(VIDEO), names=OTHERS + NO_COACH)
    assert got["status"] == 0 and "meta_v3_beg.evf" in got["out"]
    assert got["loaded"] == []


def test_version_is_still_given() -> None:
    proc = subprocess.run([sys.executable, "-m", "fastmine", "--version"], capture_output=True,
                          text=True, timeout=120)
    import fastmine

    assert proc.returncode == 0
    assert proc.stdout == f"fastmine {fastmine.__version__}\n"


def test_every_command_is_still_listed_and_configured() -> None:
    """The full parser (no command chosen) still configures every command."""
    from fastmine import cli

    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert set(sub.choices) == set(cli.COMMANDS)  # type: ignore[arg-type]
    for name, p in sub.choices.items():  # type: ignore[union-attr]
        assert p.get_default("_run") is not None or p.get_default("_missing"), name


def test_a_command_parsed_alone_reads_and_refuses_as_in_the_whole_parser(capsys) -> None:
    """A run builds its own command's parser alone: the same help, the same
    arguments read, the same usage error as with every command listed."""
    from fastmine import cli

    for name in cli.COMMANDS:
        if name == "bench":
            continue
        whole, alone = cli.build_parser(), cli.build_parser(name)
        helps = []
        for parser in (whole, alone):
            sub = next(a for a in parser._actions if a.dest == "command")
            helps.append(sub.choices[name].format_help())  # type: ignore[index]
        assert helps[0] == helps[1], name
        errors = []
        for parser in (whole, alone):
            try:
                parser.parse_args([name, "--no-such-option"])
            except SystemExit as exc:
                assert exc.code == 2
            errors.append(capsys.readouterr().err)
        assert errors[0] == errors[1] and errors[0].startswith("usage: fastmine"), name
    args = cli.build_parser("analyze").parse_args(["analyze", "--no-coach", "x.avf"])
    assert (args.command, args.coach, args.files) == ("analyze", False, ["x.avf"])


def test_the_json_entries_are_made_only_for_what_reads_them(monkeypatch, capsys) -> None:
    """A game's JSON entry (ZiNi and HZiNi: about a millisecond) is made for
    --json, --summary, --csv and --plot, not for the lines alone."""
    from fastmine import cli
    from fastmine.cli import analyze as analyze_cli

    calls = []
    real = analyze_cli.zini
    monkeypatch.setattr(analyze_cli, "zini", lambda b: calls.append(1) or real(b))
    assert cli.main(["analyze", str(VIDEO), str(VIDEO)]) == 0
    assert calls == [] and capsys.readouterr().out.count("meta_v3_beg.evf") == 2
    assert cli.main(["analyze", "--json", "-", str(VIDEO)]) == 0
    assert calls == [1] and '"zini"' in capsys.readouterr().out
