"""One player's sitting at the terminal: the game, its settings, assists, records and saves.

Both terminal front ends (curses and ``--plain``) drive a :class:`Session`;
it never prints or draws.  Every action returns a short message for the
status line (or None), and the front end shows it.  Coordinates are 0-based
here, as in :class:`fastmine.Game`; the front ends show them 1-based.
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from ... import records
from ...board import Board, Rule
from ...difficulty import DIFFICULTIES, difficulty_name
from ...errors import (
    FutureVersionError,
    GameOverError,
    GamePausedError,
    NoGuessTimeoutError,
    SaveFormatError,
)
from ...files import savedgame
from ...game import Game, GameStats
from ...viewcodes import FLAG, HIDDEN, QUESTION, GameState
from . import coaching

STRATEGIES = ("auto", "deterministic", "inference", "probability", "random", "best")
"""Solver strategies a player can ask for one step of (the five classic assists, and ``best``)."""


def cell_text(r: int, c: int) -> str:
    """A cell as the player sees it: 1-based row and column."""
    return f"row {r + 1}, col {c + 1}"


@dataclass(frozen=True)
class GameOptions:
    """How new games are made: size, mines, first-click rule, seed, question marks.

    ``board``: a fixed board (from a board game code); every new game is played
    on it, and size, mines, rule and seed are then the board's.
    """

    rows: int = 9
    cols: int = 9
    mines: int = 10
    rule: Rule = "opening"
    seed: int | None = None
    question_marks: bool = True
    board: Board | None = None

    @property
    def label(self) -> str:
        """``"beginner 9x9, 10 mines"`` or ``"custom 12x20, 40 mines"``."""
        return f"{difficulty_name(self.rows, self.cols, self.mines)} " \
               f"{self.rows}x{self.cols}, {self.mines} mines"

    def new_game(self, clock: Callable[[], float] = time.monotonic) -> Game:
        """A fresh game with these options (raises ValueError on a bad size or rule)."""
        if self.board is not None:
            return Game.from_board(self.board, question_marks=self.question_marks, clock=clock)
        return Game(self.rows, self.cols, self.mines, rule=self.rule, seed=self.seed,
                    question_marks=self.question_marks, clock=clock)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, for the win or loss message."""

    won: bool
    stats: GameStats
    assisted: bool
    best: bool  # a new best time on this board (ask for the player's name)
    coach: tuple[str, ...] = ()  # the coach's skill/luck line, and the losing move

    def lines(self) -> list[str]:
        """The result line (:meth:`summary`) and the coach's lines under it."""
        return [self.summary(), *self.coach]

    def summary(self) -> str:
        """``"You won in 12.34 s: 3BV 23, 3BV/s 1.86, clicks 25, efficiency 0.92"`` or a
        loss line, whose 3BV reads solved of the board's (``3BV 11/180``), as its
        3BV/s and efficiency count only what was solved."""
        s = self.stats
        solved = s.bbbv_solved if not self.won and s.bbbv_solved is not None else None
        parts = [(f"3BV {s.bbbv}" if solved is None else f"3BV {solved}/{s.bbbv}")
                 if s.bbbv is not None else None,
                 f"3BV/s {s.bbbv_per_second:.2f}" if s.bbbv_per_second is not None else None,
                 f"clicks {s.clicks}",
                 f"efficiency {s.efficiency:.2f}" if s.efficiency is not None else None]
        detail = ", ".join(p for p in parts if p)
        head = f"You won in {s.time:.2f} s" if self.won else f"Boom! You lost after {s.time:.2f} s"
        tail = " (assisted)" if self.assisted else ""
        return f"{head}{tail}: {detail}"


class Session:
    """The game being played plus everything around it.

    ``data_dir`` is where saves and records go (see :mod:`fastmine.files.storage`);
    ``use_records=False`` keeps finished games out of the records store.
    ``coach``: the live coach is on (see :meth:`toggle_coach`).
    """

    def __init__(self, options: GameOptions, *, data_dir: str | os.PathLike[str] | None = None,
                 use_records: bool = True, coach: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.options = options
        self.data_dir = data_dir
        self.use_records = use_records
        self.clock = clock
        self.coach = coach
        self.game = options.new_game(clock)
        self.outcome: Outcome | None = None
        self.resumed = False
        self.save_blocked: str | None = None  # why quitting cannot save (an unreadable save)
        self.notes: list[str] = []  # details for the player, printed when the game ends
        self._recorded = False
        # The records store opened for a finished win (its best time), kept open
        # for the name's default and the record: opened once per finished game,
        # since each open checks the whole file (quick_check).
        self._store: records.RecordsStore | None = None
        self._solver: ModuleType | bool | None = None     # False: looked, not there

    # ------------------------------------------------------------ new / resume

    def new_game(self, options: GameOptions | None = None) -> str:
        """Start a new game.  A finished game is recorded (once); one in progress
        (a reveal made) is recorded as abandoned; one not started yet leaves no trace."""
        self.finish_record()
        trouble = self._abandon(self.game)
        if options is not None:
            self.options = options
        if self.resumed:  # the resumed game is gone now; don't offer it again
            self._discard_save()
            self.resumed = False
        self.game = self.options.new_game(self.clock)
        self.outcome = None
        self._recorded = False
        return f"New game: {self.options.label}" + (f" ({trouble})" if trouble else "")

    def _abandon(self, game: Game) -> str | None:
        """Record ``game`` as abandoned if it is in progress; a short message on trouble
        (the details go to :attr:`notes`: the new game starts all the same)."""
        if not self.use_records or game.state is not GameState.PLAYING:
            return None
        try:
            with records.RecordsStore(data_dir=self.data_dir) as store:
                store.record_abandoned(game)
        except (records.RecordsError, OSError) as exc:
            self.notes.append(f"The abandoned game was not recorded: {exc}")
            return "the abandoned game was not recorded"
        return None

    def code(self) -> str:
        """The current game's code, to share (see :mod:`fastmine.gamecode`), as a message."""
        from ...gamecode import code_of

        code = code_of(self.game)
        if code is None:
            if self.game.board is None:
                return "No code yet: the mines are laid at the first click (or play with --seed)"
            return "This board is too big for a board code; play it with --seed to share it"
        return f"Game code: {code}"

    def check_save(self) -> tuple[Game | None, str | None]:
        """The saved game if there is a readable one, and a message if there was trouble.

        An unreadable save is moved aside (its bytes kept) and the message says
        where; a save from a newer fastmine is left alone, and quitting will not
        overwrite it.  The short message suits a status line; the details go to
        :attr:`notes`.
        """
        try:
            game = savedgame.load_game(data_dir=self.data_dir, clock=self.clock)
            if game is not None and game.state is GameState.PLAYING and not game.paused:
                # The clock runs only while the board is shown and playable, not
                # while the player reads the resume question: resume() restarts it.
                game.pause()
            return game, None
        except FutureVersionError as exc:
            self.save_blocked = str(exc)
            self.notes.append(f"{exc}; it was left as it is and this game will not be saved.")
            return None, "Saved game is from a newer fastmine: left as it is, not resumed"
        except SaveFormatError as exc:
            try:
                moved = savedgame.move_aside(data_dir=self.data_dir)
            except OSError as err:
                self.save_blocked = str(exc)
                self.notes.append(f"{exc}; could not move it aside: {err}")
                return None, "Saved game is unreadable and could not be moved aside"
            self.notes.append(f"{exc}; moved it to {moved}")
            return None, f"Saved game was unreadable; kept it as {moved.name}"

    def resume(self, game: Game) -> str:
        """Continue a saved game (from :meth:`check_save`)."""
        self.game = game
        self.options = GameOptions(game.rows, game.cols, game.mine_count, game.rule,
                                   self.options.seed, game.question_marks)
        self.resumed = True
        self.outcome = None
        self._recorded = False
        if game.paused:
            game.resume()
        return f"Resumed: {savedgame.describe(game)}"

    def discard_save(self, game: Game | None = None) -> str | None:
        """Delete the saved game (the player chose a new game instead).

        ``game``, the saved game from :meth:`check_save`, is recorded as
        abandoned, as starting a new game over it would; returns a short
        message if that could not be done.
        """
        trouble = self._abandon(game) if game is not None else None
        self._discard_save()
        return trouble

    def _discard_save(self) -> None:
        if self.save_blocked is not None:
            return
        try:
            savedgame.delete_save(data_dir=self.data_dir)
        except (OSError, SaveFormatError) as exc:
            # A read-only folder, or another of fastmine's files in its place: the
            # game goes on; the player learns why the old save stays.
            self.notes.append(f"Could not delete the saved game: {exc}")

    # ------------------------------------------------------------ moves

    def _move(self, fn: Callable[[int, int], object], r: int, c: int,
              kind: str | None = None) -> str | None:
        # kind: "reveal", "chord" or "mark" for a move the live coach judges first.
        said = coaching.judge(self.game, kind, r, c) if self.coach and kind else None
        try:
            fn(r, c)
        except GamePausedError:
            return "Paused: resume first"
        except GameOverError:
            return "The game is over: n for a new game"
        except (ValueError, TypeError) as exc:
            g = self.game
            if kind == "reveal" and g.rule == "no_guess" and g.state is GameState.READY:
                # No no-guess board from this first click (checked by trying them
                # all): said with the cell as the player names it (1-based).
                why = str(exc).split(": ", 1)[-1]
                return (f"No board that logic alone clears starts at {cell_text(r, c)} ({why}): "
                        "try another first click, fewer mines or another rule")
            return str(exc)
        except NoGuessTimeoutError:
            # A no-guess game the up-front check could not rule out: the mines
            # are not laid, the game waits for another first click or a new game.
            g = self.game
            return (f"No {g.rows}x{g.cols} board with {g.mine_count} mines that logic alone "
                    "clears from that first click was found in time (there may be none): "
                    "try another first click, fewer mines or another rule")
        return self._after_move() or said

    def reveal(self, r: int, c: int) -> str | None:
        """Reveal a cell; on a revealed number (a 0 too), chord, as a tap on a
        number does in the app."""
        v = int(self.game.view[r, c]) if self._inside(r, c) else HIDDEN
        if v == FLAG and not self.game.state.is_over:
            return f"{cell_text(r, c)} is flagged: f to unmark it first"
        if v >= 0:
            return self._move(self.game.chord, r, c, "chord")
        return self._move(self.game.reveal, r, c, "reveal")

    def chord(self, r: int, c: int) -> str | None:
        """Chord on a revealed number whose adjacent flags match it."""
        return self._move(self.game.chord, r, c, "chord")

    def mark(self, r: int, c: int) -> str | None:
        """Cycle the mark of a hidden cell (flag, question mark, none)."""
        return self._move(self.game.toggle_mark, r, c, "mark")

    def unmark(self, r: int, c: int) -> str | None:
        """Remove a flag or question mark (the plain mode's ``unflag``)."""
        if not self._inside(r, c):
            return self._move(self.game.toggle_mark, r, c)  # reports the range error
        for _ in range(3):
            if int(self.game.view[r, c]) not in (FLAG, QUESTION):
                return None
            msg = self._move(self.game.toggle_mark, r, c)
            if msg:
                return msg
        return None

    def _inside(self, r: int, c: int) -> bool:
        return 0 <= r < self.game.rows and 0 <= c < self.game.cols

    def _after_move(self) -> str | None:
        g = self.game
        if not g.state.is_over or self.outcome is not None:
            return None
        best = False
        if self.use_records and g.state is GameState.WON and not g.assisted:
            store = None
            try:
                store = records.RecordsStore(data_dir=self.data_dir)
                # No name asked for a best time that cannot be stored (read-only).
                best = not store.read_only and store.is_best_time(g)
            except records.RecordsError:
                best = False  # reported when the game is recorded
                if store is not None:
                    store.close()
                    store = None
            self._store = store     # used and closed by finish_record
        self.outcome = Outcome(g.state is GameState.WON, g.stats(), bool(g.assisted), best,
                               coaching.review(g))
        if self.resumed:
            self._discard_save()
            self.resumed = False
        return self.outcome.summary()

    # ------------------------------------------------------------ live coach

    def toggle_coach(self) -> str:
        """Turn the live coach on or off; says what it does."""
        self.coach = not self.coach
        if self.coach:
            return ("Coach on: a risky click is named after it "
                    "(like a hint, the coach's word marks the game assisted)")
        return "Coach off"

    # ------------------------------------------------------------ pause

    def toggle_pause(self) -> str | None:
        """Pause or resume the clock (a finished or unstarted game does not pause)."""
        g = self.game
        if g.paused:
            g.resume()
            return "Resumed"
        if g.state is not GameState.PLAYING:
            return "Nothing to pause yet" if g.state is GameState.READY else None
        g.pause()
        return "Paused"

    # ------------------------------------------------------------ records

    def finish_record(self, name: str | None = None) -> str | None:
        """Store the finished game in the records (once); returns a message on trouble."""
        if self.outcome is None or self._recorded or not self.use_records:
            return None
        self._recorded = True
        store, self._store = self._store, None
        try:
            with store or records.RecordsStore(data_dir=self.data_dir) as store:
                store.record_game(self.game, name)
        except (records.RecordsError, OSError) as exc:
            return f"Records not saved: {exc}"
        return f"Best time saved for {name}" if name and self.outcome.best else None

    def last_name(self) -> str:
        """The most recent player name in the records, to offer as a default."""
        if not self.use_records:
            return ""
        try:
            if self._store is not None:     # open for the game just won
                return self._store.last_name() or ""
            with records.RecordsStore(data_dir=self.data_dir) as store:
                return store.last_name() or ""
        except (records.RecordsError, OSError):
            return ""

    # ------------------------------------------------------------ saving

    def save_on_quit(self) -> str | None:
        """Save a game in progress; returns what happened, for the player."""
        self.finish_record()
        g = self.game
        if g.state is not GameState.PLAYING:
            if self.resumed:
                self._discard_save()
            return None
        if self.save_blocked is not None:
            return f"Game not saved: {self.save_blocked}"
        try:
            path = savedgame.save_game(g, data_dir=self.data_dir)
        except (SaveFormatError, OSError) as exc:
            return f"Game not saved: {exc}"
        return f"Game saved to {path}; `fastmine play` offers to resume it."

    # ------------------------------------------------------------ assists

    def solver(self) -> ModuleType | None:
        """The solver module, or None if it is not available (imported on first use)."""
        if self._solver is None:
            mod: ModuleType | bool
            try:
                mod = importlib.import_module("fastmine.solver")
            except ImportError:
                mod = False
            self._solver = mod if mod and hasattr(mod, "step") else False
        return self._solver if isinstance(self._solver, ModuleType) else None

    def assist(self, strategy: str) -> str | None:
        """One move of a solver strategy (the assist buttons); marks the game assisted."""
        if strategy not in STRATEGIES:
            return f"unknown strategy {strategy!r}; choose from {', '.join(STRATEGIES)}"
        g = self.game
        if g.state.is_over:
            return "The game is over: n for a new game"
        if g.paused:
            return "Paused: resume first"
        solver = self.solver()
        if solver is None:
            return "solver not available"
        before = g.view.copy()
        try:
            solver.step(g, strategy)
        except (GameOverError, GamePausedError):
            return "The game is over: n for a new game"
        except (ValueError, TypeError, RuntimeError) as exc:
            return f"{strategy}: {exc}"
        changed = int(np.count_nonzero(before != g.view))
        if changed == 0 and g.state is not GameState.LOST:
            return f"{strategy}: no move"
        g.assisted = True
        end = self._after_move()
        return end or f"{strategy}: {changed} cell{'s' if changed != 1 else ''} changed"

    def hint(self) -> tuple[tuple[int, int] | None, str]:
        """A cell to play next and why: a certain-safe cell, else the safest guess."""
        g = self.game
        if g.state.is_over:
            return None, "The game is over: n for a new game"
        if g.state is GameState.READY:
            if g.rule == "none":
                return None, "Hint: nothing is known before the first click"
            return None, "Hint: the first click is always safe"
        solver = self.solver()
        if solver is None:
            return None, "solver not available"
        view = np.asarray(g.view)
        try:
            safe = _cells(solver.safe_cells(view, g.mine_count), view.shape)
            unknown = (view == HIDDEN) | (view == QUESTION)
            safe = [cell for cell in safe if unknown[cell]]
            if safe:
                g.assisted = True
                return safe[0], f"Hint: {cell_text(*safe[0])} is safe"
            p = np.array(solver.probabilities(view, g.mine_count), dtype=float)
        except (ValueError, TypeError, RuntimeError) as exc:
            return None, f"hint: {exc}"
        p[~unknown] = np.inf
        if not np.isfinite(p).any():
            return None, "Hint: no unknown cell left"
        r, c = np.unravel_index(int(np.argmin(p)), p.shape)
        g.assisted = True
        return (int(r), int(c)), (f"Hint: no certain move; safest guess {cell_text(int(r), int(c))} "
                                  f"({100 * p[r, c]:.0f}% mine)")


def _cells(result: object, shape: tuple[int, ...]) -> list[tuple[int, int]]:
    # safe_cells may return a boolean mask or a list of (row, col) pairs.
    arr = np.asarray(result)
    if arr.dtype == bool and arr.shape == shape:
        return [(int(r), int(c)) for r, c in np.argwhere(arr)]
    if arr.size == 0:
        return []
    return [(int(r), int(c)) for r, c in arr.reshape(-1, 2)]


def options_from(difficulty: str | None, rows: int | None, cols: int | None,
                 mines: int | None, **kw: Any) -> GameOptions:
    """Options from command-line style values: a preset, overridden by any explicit size.

    A size given without ``mines`` keeps the preset's mine density.

    >>> options_from("expert", None, None, None).mines
    99
    >>> options_from("beginner", 20, 20, None).mines
    49
    """
    name = difficulty or "beginner"
    if name not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {name!r}; choose from {', '.join(DIFFICULTIES)}")
    base = DIFFICULTIES[name]
    r = base.rows if rows is None else rows
    c = base.cols if cols is None else cols
    if mines is None:
        mines = base.mines if (r, c) == (base.rows, base.cols) else \
            max(1, int(r * c * base.density + 0.5))
    opts = GameOptions(r, c, mines, **kw)
    opts.new_game()  # validates size, mines, rule and seed with the engine's messages
    return opts
