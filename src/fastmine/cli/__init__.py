"""The ``fastmine`` command: one entry point, a sub-command per front end.

Each sub-command lives in its own module exposing ``configure(parser)`` and
``run(args) -> int``; this module only wires them up, importing each lazily so
``fastmine --help`` stays fast and a missing optional dependency only affects
the command that needs it.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any

from .._blas import one_blas_thread
from ..children import clean_children
from .options import EXIT_USAGE, WidthFormatter
from .stdio import OutputError, guarded_stdout, open_standard_descriptors, silence_stdout

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


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked for
    (``importlib.metadata`` and its scan of the installed distributions cost
    every command's start tens of milliseconds)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                 help: str = "show program's version number and exit") -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        from .. import __version__

        parser._print_message(f"fastmine {__version__}\n", sys.stdout)
        parser.exit()


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser, with every sub-command configured, or ``only`` alone.

    Without ``only`` every command is listed (its help line is in
    :data:`COMMANDS`) and configured.  A run of one command parses with that
    one alone: configuring a command imports its module, and the others'
    imports (asyncio for ``solve``, SQLite for ``records``...) would cost every
    start of ``fastmine analyze`` a tenth of a second; even their empty parsers
    cost it a millisecond.  Its usage and error lines are the same either way.
    """
    parser = argparse.ArgumentParser(prog="fastmine", description="Minesweeper, done properly.",
                                     formatter_class=WidthFormatter)
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_) in COMMANDS.items():
        if only is not None and name != only:
            continue    # the others only list themselves in the help, never shown then
        p = sub.add_parser(name, help=help_, description=help_, formatter_class=WidthFormatter)
        try:
            mod = importlib.import_module(module)
        except ImportError as exc:
            p.set_defaults(_missing=f"'fastmine {name}' is unavailable: {exc}")
            continue
        mod.configure(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``fastmine`` command line; returns the exit status.

    Standard output that is closed or cannot be written (a full disk) is one
    line on standard error and status 1, for every command
    (:mod:`fastmine.cli.stdio`); a reader that went away is status 141 and
    Ctrl-C 130, both without a traceback.  Every process a command starts
    starts without the working folder on its import path
    (:func:`fastmine.children.clean_children`, for the whole command: the
    resource tracker starts with a progress bar's first lock).
    """
    _one_blas_thread(sys.argv[1:] if argv is None else argv)
    with clean_children():
        return _main_guarded(argv)


def _one_blas_thread(argv: list[str]) -> None:
    """OpenBLAS starts no thread of its own (:mod:`fastmine._blas`) for every
    command but ``bench``, the one that multiplies matrices."""
    if not (argv and argv[0] == "bench"):
        one_blas_thread()


def _main_guarded(argv: list[str] | None) -> int:
    open_standard_descriptors()
    argv = sys.argv[1:] if argv is None else list(argv)
    name = "fastmine" + (f" {argv[0]}" if argv and argv[0] in COMMANDS else "")
    with guarded_stdout() as out:
        try:
            status = _main(argv)
        except SystemExit:          # argparse: --help, --version, a usage error
            # (argparse itself drops a failed write of its help silently)
            failed = out.failed
            if not _flush_quietly(out, name, say=failed is None) or failed is not None:
                if failed is not None:
                    print(f"{name}: {failed}", file=sys.stderr)
                silence_stdout()
                sys.exit(EXIT_OUTPUT)
            raise
        except OutputError as exc:
            print(f"{name}: {exc}", file=sys.stderr)
            silence_stdout()
            return EXIT_OUTPUT
        except BrokenPipeError:
            # The reader went away (``fastmine solve | head``): not an error worth a
            # traceback.  Point stdout at devnull so the flush at exit stays quiet.
            silence_stdout()
            return 141      # what a shell reports for a process killed by SIGPIPE
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            return 130
        # A command that caught a failure of standard output has said so itself.
        said = out.failed is not None
        if not _flush_quietly(out, name, say=not said) or said:
            silence_stdout()
            return status or EXIT_OUTPUT
        return status


EXIT_OUTPUT = 1
"""Exit status when standard output cannot be written (closed, a full disk)."""


def _flush_quietly(out: Any, name: str, say: bool = True) -> bool:
    """Flush standard output; on failure say so in one line (if ``say``) and
    silence it.  False then."""
    try:
        out.flush()
    except OutputError as exc:
        if say:
            print(f"{name}: {exc}", file=sys.stderr)
        silence_stdout()
        return False
    except BrokenPipeError:
        silence_stdout()
        return False
    return True


def _main(argv: list[str]) -> int:
    if argv[:1] == ["bench"]:
        # The suite's options are its own (read from the checkout only now that
        # the command runs); argparse cannot hand a sub-command every argument
        # that follows it, '--help' included.
        from . import bench

        return int(bench.main(argv[1:]) or 0)
    parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
    args = parser.parse_args(argv)
    if args.command is None:        # a command is needed: the help, and a usage error
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    if getattr(args, "_missing", None):
        print(args._missing, file=sys.stderr)
        return 2
    return int(args._run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
