"""``fastmine play --plain``: the prompt-driven text mode, made scriptable.

The board is printed as text, then one command per line is read from
standard input, so a game can be typed or piped::

    printf 'r 5 5\\nf 2 2\\nc 1 3\\n' | fastmine play --plain --seed 7

Grammar (one command per line; case does not matter; ``#`` starts a comment;
row and column are 1-based and may be separated by spaces or a comma)::

    ROW COL                      reveal (same as r)
    r|reveal|m|mine ROW COL      reveal a cell; on a revealed number, chord
    f|flag ROW COL               cycle the mark: flag -> question mark -> none
    u|unflag ROW COL             remove a flag or question mark
    c|chord ROW COL              chord: open the neighbours of a satisfied number
    a|auto [N]                   one solver step (N steps) of a strategy:
    d|deterministic [N]            a auto, d deterministic (single-cell rules),
    i|inference [N]                i inference (multi-cell), p probability,
    p|o|probability [N]            x random, b best (fastmine's strongest)
    x|random [N]
    b|best [N]
    h|hint|?                     show a safe cell (or the safest guess)
    w|coach                      live coach on/off: names a risky click after it
    n|new                        start a new game with the same options
    v|view|board                 print the board again
    code                         show the game's code, to share (fastmine play --code)
    s|save                       save the game (`fastmine play` offers to resume it)
    help                         this list
    q|quit|e|exit                leave

A move letter alone on its line (``m``, ``f``, ``u``, ``r`` or ``c``) asks
for the row and then the column on the next lines.

Exit status: 0 if the game on the board at the end was won, 1 if it was lost,
3 if it was not finished (quit or end of input), 2 for bad command-line
options or, with ``--strict``, the first bad command.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TextIO

from ...viewcodes import GameState
from .session import Session
from .text import LEGEND, board_lines

EXIT_WON, EXIT_LOST, EXIT_USAGE, EXIT_UNFINISHED = 0, 1, 2, 3

_MOVES = {"r": "reveal", "reveal": "reveal", "m": "reveal", "mine": "reveal",
          "f": "flag", "flag": "flag", "u": "unflag", "unflag": "unflag",
          "c": "chord", "chord": "chord"}
_ASSISTS = {"a": "auto", "auto": "auto", "d": "deterministic", "deterministic": "deterministic",
            "i": "inference", "inference": "inference", "p": "probability", "o": "probability",
            "probability": "probability", "x": "random", "random": "random",
            "b": "best", "best": "best"}
_OTHER = {"h": "hint", "hint": "hint", "?": "hint", "w": "coach", "coach": "coach", "n": "new", "new": "new",
          "v": "view", "view": "view", "board": "view", "code": "code", "s": "save", "save": "save",
          "help": "help", "q": "quit", "quit": "quit", "e": "quit", "exit": "quit"}
_MAX_REPEAT = 100_000


class CommandError(ValueError):
    """A line of input that is not a valid command; the message says why."""


@dataclass(frozen=True)
class Command:
    """A parsed command: ``verb`` (reveal, flag, unflag, chord, an assist strategy,
    hint, coach, new, view, code, save, help, quit) and its numbers (a 0-based cell, or a repeat count).
    ``cell is None`` for a move means "ask for the coordinates" (a letter alone)."""

    verb: str
    cell: tuple[int, int] | None = None
    count: int = 1
    assist: bool = False


def _int(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise CommandError(f"{what} must be a whole number, got {word!r}") from None


def parse(line: str, rows: int, cols: int) -> Command | None:
    """Parse one line; None for a blank line or a comment.  Raises :class:`CommandError`.

    >>> parse("r 3 4", 9, 9)
    Command(verb='reveal', cell=(2, 3), count=1, assist=False)
    >>> parse("3,4", 9, 9).cell
    (2, 3)
    >>> parse("auto 5", 9, 9)
    Command(verb='auto', cell=None, count=5, assist=True)
    >>> parse("r 10 1", 9, 9)
    Traceback (most recent call last):
    ...
    fastmine.cli.tui.plain.CommandError: row must be 1 to 9, got 10
    """
    line = line.split("#", 1)[0].strip()
    if not line:
        return None
    words = [w for w in re.split(r"[\s,]+", line) if w]
    if not words:       # only separators, e.g. ","
        raise CommandError(f"no command in {line!r} (type help for the list)")
    if words[0].lstrip("+-").isdigit():
        words.insert(0, "r")
    verb, args = words[0].lower(), words[1:]
    if verb in _MOVES:
        if not args:
            return Command(_MOVES[verb])
        if len(args) != 2:
            raise CommandError(f"{verb} needs ROW COL (two numbers), got {' '.join(args)!r}")
        return Command(_MOVES[verb], check_cell(_int(args[0], "row"), _int(args[1], "col"),
                                                rows, cols))
    if verb in _ASSISTS:
        if len(args) > 1:
            raise CommandError(f"{verb} takes at most a repeat count")
        n = _int(args[0], "the repeat count") if args else 1
        if not 1 <= n <= _MAX_REPEAT:
            raise CommandError(f"the repeat count must be 1 to {_MAX_REPEAT}, got {n}")
        return Command(_ASSISTS[verb], count=n, assist=True)
    if verb in _OTHER:
        if args:
            raise CommandError(f"{verb} takes no arguments")
        return Command(_OTHER[verb])
    raise CommandError(f"unknown command {words[0]!r} (type help for the list)")


def check_cell(row: int, col: int, rows: int, cols: int) -> tuple[int, int]:
    """1-based (row, col) as typed -> 0-based cell; CommandError when off the board."""
    if not 1 <= row <= rows:
        raise CommandError(f"row must be 1 to {rows}, got {row}")
    if not 1 <= col <= cols:
        raise CommandError(f"col must be 1 to {cols}, got {col}")
    return row - 1, col - 1


HELP = __doc__.split("Grammar", 1)[1].split("\n\n", 1)[1].split("\n\nExit status")[0]


class PlainGame:
    """The read-a-command, print-the-board loop over a :class:`Session`."""

    def __init__(self, session: Session, *, stdin: TextIO | None = sys.stdin,
                 stdout: TextIO = sys.stdout, stderr: TextIO = sys.stderr,
                 name: str | None = None, quiet: bool = False, strict: bool = False) -> None:
        self.session = session
        self.stdout, self.stderr = stdout, stderr
        self.name = name
        self.quiet = quiet
        self.strict = strict
        # A closed standard input (``fastmine play --plain <&-``) leaves sys.stdin
        # None: that is simply no input.
        self.interactive = stdin is not None and stdin.isatty()
        self._lines: Iterator[str] = iter(stdin.readline, "") if stdin is not None else iter(())

    # ------------------------------------------------------------ output

    def say(self, text: str | None) -> None:
        """Print a line (nothing for None)."""
        if text:
            print(text, file=self.stdout, flush=True)

    def error(self, text: str) -> None:
        """Report bad input on standard error."""
        print(f"error: {text}", file=self.stderr, flush=True)

    def show(self) -> None:
        """Print the board with its legend and status."""
        g = self.session.game
        self.say(f"fastmine {self.session.options.label}, first click: {g.rule}")
        self.say(LEGEND)
        self.say("\n".join(board_lines(g.view)))
        self.say(self.status())

    def status(self) -> str:
        """``Mines left: 10  Time: 3 s  playing``."""
        g = self.session.game
        extra = " (assisted)" if g.assisted else ""
        return f"Mines left: {g.mines_left}  Time: {int(g.elapsed)} s  {g.state.value}{extra}"

    def read(self, prompt: str) -> str | None:
        """The next input line (None at the end of input); prompts only on a terminal."""
        if self.interactive:
            print(prompt, end="", file=self.stdout, flush=True)
        return next(self._lines, None)

    # ------------------------------------------------------------ loop

    def run(self) -> int:
        """Play until ``quit`` or the end of input; returns the exit status."""
        self.show()
        self.say("Type help for the commands.")
        while True:
            line = self.read("> ")
            if line is None:
                break
            try:
                cmd = parse(line, self.session.game.rows, self.session.game.cols)
                if cmd is not None and cmd.verb in ("reveal", "flag", "unflag", "chord") \
                        and cmd.cell is None:
                    cmd = Command(cmd.verb, self._ask_cell())
            except CommandError as exc:
                self.error(str(exc))
                if self.strict:
                    return EXIT_USAGE
                continue
            if cmd is None:
                continue
            if cmd.verb == "quit":
                break
            self.do(cmd)
        g = self.session.game
        self.session.finish_record(self.name)
        if g.state is GameState.WON:
            return EXIT_WON
        if g.state is GameState.LOST:
            return EXIT_LOST
        return EXIT_UNFINISHED

    def _ask_cell(self) -> tuple[int, int]:
        g = self.session.game
        row = self.read(f"row (1 -> {g.rows}): ")
        col = self.read(f"col (1 -> {g.cols}): ") if row is not None else None
        if row is None or col is None:
            raise CommandError("input ended before the row and column")
        return check_cell(_int(row.strip(), "row"), _int(col.strip(), "col"), g.rows, g.cols)

    def do(self, cmd: Command) -> None:
        """Carry out one parsed command and print what changed."""
        s = self.session
        msg: str | None
        was_over = s.game.state.is_over
        before = s.game.view.copy()
        if cmd.verb == "help":
            self.say(HELP)
            return
        if cmd.verb == "view":
            self.show()
            return
        if cmd.verb == "code":
            self.say(s.code())
            return
        if cmd.verb == "new":
            self.say(s.new_game())
            self.show()
            return
        if cmd.verb == "save":
            self.say(self._save())
            return
        if cmd.verb == "hint":
            _, msg = s.hint()
            self.say(msg)
            return
        if cmd.verb == "coach":
            self.say(s.toggle_coach())
            return
        if cmd.assist:
            msg = None
            for _ in range(cmd.count):
                msg = s.assist(cmd.verb)
                if s.game.state.is_over or msg in ("solver not available",) \
                        or (msg or "").endswith("no move"):
                    break
        else:
            act: Callable[[int, int], str | None] = {
                "reveal": s.reveal, "flag": s.mark, "unflag": s.unmark, "chord": s.chord}[cmd.verb]
            if cmd.cell is None:
                raise CommandError(f"{cmd.verb} needs a row and a column")
            msg = act(*cmd.cell)
        if not self.quiet and (before != s.game.view).any():
            self.say("\n".join(board_lines(s.game.view)))
            self.say(self.status())
        if s.outcome is not None and not was_over:
            self.say("\n".join(s.outcome.lines()))
            self._finish()
        elif msg:
            self.say(msg)

    def _save(self) -> str:
        s = self.session
        if s.game.state is not GameState.PLAYING:
            return "Nothing to save: the game has not started or is over"
        msg = s.save_on_quit()
        return msg or "Saved"

    def _finish(self) -> None:
        s = self.session
        name = self.name
        if s.outcome is not None and s.outcome.best and s.use_records:
            self.say(f"New best time on {s.options.label}!")
            if name is None and self.interactive:
                typed = self.read("Your name: ")
                name = typed.strip() if typed else None
        msg = s.finish_record(name)
        self.say(msg)
        self.say("Type n for a new game or q to quit.")

