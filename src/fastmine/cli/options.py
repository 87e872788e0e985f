"""The conventions every ``fastmine`` sub-command follows, in one place.

docs/cli.md writes them down and ``tests/test_cli_conventions.py`` checks every
sub-command's parser against them:

- ``--data-dir DIR``: the folder of records, saves and settings, worded the same
  everywhere (:func:`add_data_dir`).
- ``--json PATH``, ``--csv PATH``, ``--verdicts PATH``: ``-`` is standard output,
  instead of the command's lines; where the command takes no file names PATH may be
  left out, meaning ``-`` (:func:`add_json`).  A command that takes file names needs
  the PATH: a bare ``--json`` would take the next file name for its own.
- ``-q``/``--quiet``: less on the terminal: no progress bar, and the board only when
  asked for in ``play --plain`` (:func:`add_quiet`).
- Exit status: :data:`EXIT_OK`, :data:`EXIT_FAILED`, :data:`EXIT_USAGE` (and 130 for
  Ctrl-C, 141 when the reader of standard output went away).
- Help: descriptions wrap to the terminal; lists and examples keep their lines, each
  under 80 columns (:class:`HelpFormatter`).
"""

from __future__ import annotations

import argparse
import os
import re
import sys

__all__ = ["DATA_DIR_HELP", "EXIT_FAILED", "EXIT_OK", "EXIT_USAGE", "HelpFormatter",
           "WidthFormatter", "add_data_dir", "add_json", "add_quiet", "terminal_columns"]

EXIT_OK = 0
"""Done."""
EXIT_FAILED = 1
"""The work failed in part: a file named could not be read or is not a game (the
others were done), an output could not be written, a run stopped early."""
EXIT_USAGE = 2
"""The command line asks for something that cannot be done: an unknown option, a
bad value, options that do not go together, an output over a file fastmine keeps,
a game ID or board that is not there."""

DATA_DIR_HELP = ("the folder of records, saves and settings (default: $FASTMINE_DATA_DIR, "
                 "else the user data folder)")
"""``--data-dir``'s help, the same for every command."""


def add_data_dir(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """Add ``--data-dir DIR`` (:data:`DATA_DIR_HELP`) to ``parser``.

    Parameters
    ----------
    parser : argparse.ArgumentParser or argument group
        Where the option goes.
    """
    parser.add_argument("--data-dir", metavar="DIR", help=DATA_DIR_HELP)


def add_json(parser: argparse.ArgumentParser | argparse._ArgumentGroup, what: str, *,
             takes_files: bool, option: str = "--json", also: bool = True) -> None:
    """Add ``--json PATH`` (or another output ``option``) whose ``-`` is standard output.

    Parameters
    ----------
    parser : argparse.ArgumentParser or argument group
        Where the option goes.
    what : str
        What is written, e.g. ``"the results"``.
    takes_files : bool
        Whether the command takes file names: then PATH is required; else a bare
        option means standard output.
    option : str
        The option's name.
    also : bool
        Whether the output comes besides the command's lines (to a file), which
        ``-`` replaces.
    """
    fmt = option.lstrip("-").upper() if option in ("--json", "--csv") else "JSON"
    where = "standard output" if takes_files else "standard output (also when PATH is left out)"
    help_ = (f"{'also ' if also else ''}write {what} as {fmt} to PATH ('-': {where}"
             f"{', instead of the lines' if also else ''})")
    if takes_files:
        parser.add_argument(option, metavar="PATH", default=None, help=help_)
    else:
        parser.add_argument(option, metavar="PATH", nargs="?", const="-", default=None,
                            help=help_)


def add_quiet(parser: argparse.ArgumentParser | argparse._ArgumentGroup, what: str) -> None:
    """Add ``-q``/``--quiet``: less on the terminal (``what`` says what is left out).

    Parameters
    ----------
    parser : argparse.ArgumentParser or argument group
        Where the option goes.
    what : str
        What the option leaves out, e.g. ``"no progress bar"``.
    """
    parser.add_argument("-q", "--quiet", action="store_true", help=what)


def jobs(text: str) -> int:
    """``-j``/``--jobs``'s value: worker processes, 1 to
    :data:`fastmine.solver.workers.MAX_JOBS` (an argparse type)."""
    from .._validate import whole_number
    from ..solver.workers import check_jobs

    try:
        n = check_jobs(whole_number(1)(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    assert n is not None
    return n


def add_jobs(parser: argparse.ArgumentParser | argparse._ArgumentGroup, help: str,
             default: int | None = None) -> None:
    """Add ``-j``/``--jobs N``: how many worker processes share the work.

    Parameters
    ----------
    parser : argparse.ArgumentParser or argument group
        Where the option goes.
    help : str
        What the number means for this command, and its default.
    default : int or None
        The default (None: the command decides, e.g. one a core).
    """
    parser.add_argument("-j", "--jobs", type=jobs, default=default, metavar="N", help=help)


def terminal_columns() -> int:
    """The terminal's width, as :func:`shutil.get_terminal_size` finds it.

    ``$COLUMNS`` when it is a positive number, else the width of the terminal
    standard output is, else 80.  Found without importing :mod:`shutil`, which
    brings bz2, lzma and zlib: argparse imports it for every parser it makes,
    4 ms of CPU at every start of every command.

    Returns
    -------
    int
    """
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):   # none, closed, not a terminal
            columns = 0
    return columns or 80


class WidthFormatter(argparse.HelpFormatter):
    """argparse's help, as wide as :func:`terminal_columns` says (argparse's own
    way imports :mod:`shutil`)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         terminal_columns() - 2 if width is None else width)


class HelpFormatter(WidthFormatter, argparse.RawDescriptionHelpFormatter):
    """Help whose description paragraphs wrap to the terminal while lists and
    examples (lines that start with a space, and the epilog's lines) keep their
    shape: argparse's raw formatter kept a 330-character description on one line.
    Long choice lists are shown by their metavar."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out = []
        for paragraph in re.split(r"\n\s*\n", text):
            lines = paragraph.splitlines()
            if any(line.startswith(" ") for line in lines) or any(line.endswith(":") for line in lines):
                out.append("\n".join(indent + line for line in lines))
            else:
                out.append(argparse.HelpFormatter._fill_text(self, " ".join(lines), width, indent))
        return "\n\n".join(out)
