"""``fastmine play``: Minesweeper in the terminal.

By default a full-screen curses game (:mod:`fastmine.cli.tui.loop`); with
``--plain`` a prompt-driven mode that reads commands from
standard input (:mod:`fastmine.cli.tui.plain`), for scripts and pipes.  Both save
an unfinished game, record finished ones in the records store and take the
same options.  See ``docs/terminal.md`` for the keys and the plain grammar.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..board import RULES
from ..difficulty import DIFFICULTIES
from .options import HelpFormatter, add_data_dir, add_quiet

if TYPE_CHECKING:
    from .tui.session import GameOptions, Session


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``fastmine play`` options to an argparse parser."""
    parser.formatter_class = HelpFormatter
    parser.epilog = (
        "keys (curses):\n"
        "  arrows/hjkl move, space/enter reveal (chord on a number), f mark,\n"
        "  mouse left reveals, right marks, p pause, n new game, q quit (saves),\n"
        "  assists: a auto, d deterministic, i inference, o probability, r random,\n"
        "  b best; t or ? hint, w live coach on/off, s game code (to share it:\n"
        "  fastmine play --code CODE)\n"
        "plain mode:\n"
        "  type 'help' for the commands (e.g. 'r 3 4' reveals row 3, col 4)\n"
        "exit status with --plain:\n"
        "  0 won, 1 lost, 3 unfinished, 2 usage error")
    g = parser.add_argument_group("board")
    g.add_argument("--difficulty", "-d", choices=list(DIFFICULTIES), default=None,
                   metavar="NAME",
                   help=f"preset board: {', '.join(DIFFICULTIES)} (default beginner)")
    g.add_argument("--rows", type=int, help="custom number of rows")
    g.add_argument("--cols", type=int, help="custom number of columns")
    g.add_argument("--mines", type=int,
                   help="custom number of mines (default: the preset's mine density)")
    g.add_argument("--rule", choices=list(RULES), default="opening",
                   help="first-click rule: cell (safe), opening (opens; default), "
                        "no_guess (solvable by logic), none")
    g.add_argument("--seed", type=int, help="random seed, for a reproducible board")
    share = g.add_mutually_exclusive_group()
    share.add_argument("--code", metavar="CODE",
                       help="play the game of a game code (from 's' in the game or 'code' "
                            "with --plain): the code sets size, mines, rule and seed")
    share.add_argument("--daily", action="store_true",
                       help="play today's daily board (UTC date; the same for everyone): "
                            "the --difficulty preset, Expert unless given")
    g.add_argument("--no-question-marks", dest="question_marks", action="store_false",
                   help="marking cycles hidden <-> flag only")
    m = parser.add_argument_group("mode")
    m.add_argument("--plain", action="store_true",
                   help="no curses: print the board and read commands from standard input")
    m.add_argument("--coach", action="store_true",
                   help="live coach: after a risky click, say what it was (a guess and its odds, "
                        "or a risk while a safe cell existed); marks the game assisted, like a hint")
    add_quiet(m, "--plain: print the board only at the start and on 'view'")
    m.add_argument("--strict", action="store_true",
                   help="--plain: stop with status 2 at the first bad command")
    res = m.add_mutually_exclusive_group()
    res.add_argument("--resume", action="store_true",
                     help="resume the saved game without asking")
    res.add_argument("--new", action="store_true",
                     help="start a new game without asking (the saved game stays until a game is saved over it)")
    d = parser.add_argument_group("records and saves")
    d.add_argument("--name", help="player name stored with a best time (else asked for)")
    d.add_argument("--no-records", dest="records", action="store_false",
                   help="do not store finished games in the records")
    add_data_dir(d)


def run(args: argparse.Namespace) -> int:
    """Play; returns the exit status (see the module docstring and ``--help``)."""
    from .tui.session import Session, options_from

    try:
        if args.code is not None or args.daily:
            options = _options_from_code(args)
        else:
            options = options_from(args.difficulty, args.rows, args.cols, args.mines,
                                   rule=args.rule, seed=args.seed,
                                   question_marks=args.question_marks)
    except (ValueError, TypeError) as exc:
        print(f"fastmine play: {exc}", file=sys.stderr)
        return 2
    if not args.plain:
        if not (sys.stdin is not None and sys.stdin.isatty() and sys.stdout.isatty()):
            print("fastmine play: the curses game needs a terminal; use --plain to pipe "
                  "commands", file=sys.stderr)
            return 2
        try:
            import curses  # noqa: F401  (not built into Python on Windows)
        except ImportError:
            print("fastmine play: the full-screen game needs curses: pip install "
                  "windows-curses (on Windows), or play with --plain", file=sys.stderr)
            return 2
    session = Session(options, data_dir=args.data_dir, use_records=args.records, coach=args.coach)
    if args.plain:
        return _run_plain(session, args)
    from .tui.loop import run_curses

    return run_curses(session, resume=True if args.resume else False if args.new else None,
                      name=args.name)


def _options_from_code(args: argparse.Namespace) -> GameOptions:
    """The options of ``--code`` or ``--daily`` (a bad code raises ValueError)."""
    from .. import gamecode
    from .tui.session import GameOptions

    given = [f"--{o}" for o in ("rows", "cols", "mines", "seed") if getattr(args, o) is not None]
    if given:
        raise ValueError(f"{'--daily' if args.daily else '--code'} sets the board: "
                         f"leave out {', '.join(given)}")
    code = gamecode.daily(difficulty=args.difficulty or "expert") if args.daily else args.code
    spec = gamecode.decode(code)
    options = GameOptions(spec.rows, spec.cols, spec.mines, rule=spec.rule, seed=spec.seed,
                          question_marks=args.question_marks, board=spec.board)
    options.new_game()  # a game the code cannot give (an impossible no-guess size): ValueError
    return options


def _run_plain(session: Session, args: argparse.Namespace) -> int:
    from .tui.plain import PlainGame

    if args.resume:
        game, trouble = session.check_save()
        for note in session.notes or ([trouble] if trouble else []):
            print(note, file=sys.stderr)
        if game is None:
            print("No saved game to resume; starting a new one.", file=sys.stderr)
        else:
            print(session.resume(game))
    shown = len(session.notes)
    status = PlainGame(session, name=args.name, quiet=args.quiet, strict=args.strict).run()
    for note in session.notes[shown:]:    # e.g. a finished resumed game's save not deleted
        print(note, file=sys.stderr)
    return status
