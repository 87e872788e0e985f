"""The ``fastmine`` command: one entry point, a sub-command per front end.

Each sub-command lives in its own module exposing ``configure(parser)`` and
``run(args) -> int``; this module only wires them up, importing each lazily so
``fastmine --help`` stays fast and a missing optional dependency only affects
the command that needs it.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable
from typing import Any

from .. import __version__

#: name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("fastmine.cli.play", "play in the terminal (curses, or --plain for scripted play)"),
    "solve": ("fastmine.cli.solve", "let a solver play many games and report win rates"),
    "records": ("fastmine.cli.records", "show best times and statistics"),
    "replay": ("fastmine.cli.replay", "watch a recorded game again, or export/import a replay file"),
    "bench": ("fastmine.cli.bench", "run the benchmark suite (python -m bench)"),
    "analyze": ("fastmine.cli.analyze",
                "metrics and the coach's verdict on recorded games (videos, replays)"),
}


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every sub-command configured."""
    parser = argparse.ArgumentParser(prog="fastmine", description="Minesweeper, done properly.")
    parser.add_argument("--version", action="version", version=f"fastmine {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_) in COMMANDS.items():
        p = sub.add_parser(name, help=help_, description=help_)
        try:
            mod = importlib.import_module(module)
        except ImportError as exc:
            p.set_defaults(_missing=f"'fastmine {name}' is unavailable: {exc}")
            continue
        mod.configure(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``fastmine`` command line; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["bench"]:
        # The suite's options are its own (read from the checkout only now that
        # the command runs); argparse cannot hand a sub-command every argument
        # that follows it, '--help' included.
        from . import bench

        return _run(bench.main, argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    if getattr(args, "_missing", None):
        print(args._missing, file=sys.stderr)
        return 2
    return _run(args._run, args)


def _run(command: Callable[[Any], int], arg: Any) -> int:
    """Run one command's ``run``; a reader that went away or Ctrl-C end it quietly."""
    try:
        return int(command(arg) or 0)
    except BrokenPipeError:
        # The reader went away (``fastmine solve | head``): not an error worth a
        # traceback.  Point stdout at devnull so the flush at exit stays quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141      # what a shell reports for a process killed by SIGPIPE
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
