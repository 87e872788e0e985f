"""One command line: every ``fastmine`` sub-command follows the conventions of
:mod:`fastmine.cli.options` (written down in docs/cli.md).

Before they were kept in one place, ``--data-dir`` had two metavars and three
wordings, JSON to standard output was ``--json`` with an optional PATH in one command
and ``--json -`` in another and impossible in ``solve``, ``-q`` existed in one
command only, a missing file exited 1 in ``analyze`` and 2 in ``replay --import``,
a bare ``fastmine`` printed its help and exited 0, and ``solve --help`` had a
330-character line."""

from __future__ import annotations

import argparse
import json

import pytest

from fastmine import cli
from fastmine.cli.options import DATA_DIR_HELP, EXIT_FAILED, EXIT_USAGE


def subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser()
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return {name: p for name, p in action.choices.items() if name != "bench"}  # bench: the suite's own


COMMANDS = sorted(subparsers())


def options(name: str) -> dict[str, argparse.Action]:
    return {o: a for a in subparsers()[name]._actions for o in a.option_strings}


def test_every_command_is_checked():
    assert {"play", "solve", "records", "replay", "analyze"} <= set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_data_dir_is_one_option(name):
    action = options(name).get("--data-dir")
    if action is None:
        pytest.skip(f"fastmine {name} reads no data folder")
    assert action.metavar == "DIR" and action.help == DATA_DIR_HELP


@pytest.mark.parametrize("name", COMMANDS)
def test_every_output_takes_a_path_and_dash_is_standard_output(name):
    outputs = [a for o, a in options(name).items() if o in ("--json", "--csv", "--verdicts")]
    for action in outputs:
        assert action.metavar == "PATH", action.option_strings
        assert "'-': standard output" in action.help, action.option_strings
        if action.nargs == "?":                  # PATH may be left out: standard output
            assert action.const == "-"
            positional = [a for a in subparsers()[name]._actions if not a.option_strings
                          and a.nargs in ("+", "*")]
            assert positional == [], "a bare option would take a file name for its PATH"


@pytest.mark.parametrize("name", COMMANDS)
def test_quiet_is_dash_q_everywhere(name):
    action = options(name).get("--quiet")
    if action is None:
        pytest.skip(f"fastmine {name} has nothing to keep quiet")
    assert "-q" in action.option_strings


@pytest.mark.parametrize("name", COMMANDS)
def test_help_fits_an_80_column_terminal(name, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    text = subparsers()[name].format_help()
    long = [line for line in text.splitlines() if len(line) > 80]
    assert long == []


def test_a_bare_fastmine_is_a_usage_error_with_the_help_on_stderr(capsys):
    assert cli.main([]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == "" and "COMMAND" in err and "analyze" in err


@pytest.mark.parametrize("argv", [["analyze"], ["replay", "--import"]])
def test_a_missing_file_is_the_same_failure_everywhere(argv, tmp_path, capsys):
    code = cli.main([*argv, str(tmp_path / "nope.avf"), *(
        ["--data-dir", str(tmp_path)] if "replay" in argv else [])])
    assert code == EXIT_FAILED
    assert "nope.avf" in capsys.readouterr().err


def test_solve_writes_json_to_standard_output_instead_of_the_table(capsys):
    assert cli.main(["solve", "-d", "beginner", "-n", "3", "-q", "-j", "1", "--json", "-"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out)["format"] == "fastmine-solve"


@pytest.mark.parametrize("columns", [None, "120", "0", "-5", "wide", "33"])
def test_help_is_as_wide_as_shutil_finds_the_terminal(monkeypatch, columns):
    """The help's width is found without importing shutil (4 ms of every start),
    as shutil finds it: $COLUMNS, else standard output's terminal, else 80."""
    import shutil

    from fastmine.cli.options import WidthFormatter, terminal_columns

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.delenv("LINES", raising=False)
    assert terminal_columns() == shutil.get_terminal_size().columns
    assert WidthFormatter("fastmine")._width == argparse.HelpFormatter("fastmine")._width


@pytest.mark.skipif(not hasattr(__import__("os"), "openpty"), reason="no pseudo-terminals here")
def test_help_is_as_wide_as_the_terminal_standard_output_is(monkeypatch):
    import fcntl
    import os
    import shutil
    import struct
    import sys
    import termios

    from fastmine.cli.options import terminal_columns

    master, slave = os.openpty()
    try:
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 97, 0, 0))
        with os.fdopen(os.dup(slave), "w") as tty:
            monkeypatch.setattr(sys, "__stdout__", tty)
            monkeypatch.delenv("COLUMNS", raising=False)
            monkeypatch.delenv("LINES", raising=False)
            assert terminal_columns() == shutil.get_terminal_size().columns == 97
    finally:
        os.close(master)
        os.close(slave)
