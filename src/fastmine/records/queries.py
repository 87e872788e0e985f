"""The filters of the records store's queries: a board, a rule, assisted games, and
only rows of sound values; and the checks of the numbers a query passes to SQLite.

:mod:`fastmine.records.store` asks; this module builds the WHERE clauses, so every
query of a table filters the same way (a row another program stored with a time
of ``'fast'`` is left out of each of them, see :data:`~fastmine.records.schema.SOUND_ROW`).
"""

from __future__ import annotations

from typing import Any

from .._validate import as_int
from ..board import RULES
from ..difficulty import NAMED_BOARDS
from .gamerecord import SQLITE_INTEGERS, sqlite_int
from .schema import SOUND_ROW

BoardKey = str | tuple[int, int, int]
"""A board's name such as ``"expert"`` or ``"classic beginner"`` (see
:data:`fastmine.difficulty.NAMED_BOARDS`), ``"custom"`` (every other size), or
``(rows, cols, mines)``."""


def where(board: BoardKey | None, rule: str | None, include_assisted: bool,
          won_only: bool = False, table: str = "games") -> tuple[str, list[Any]]:
    """The WHERE clause (and its parameters) of a query of ``table``: the board,
    rule, assisted and won filters, and only rows of sound values (SOUND_ROW)."""
    clauses: list[str] = [SOUND_ROW[table]]
    params: list[Any] = []
    if board is not None:
        if isinstance(board, str):
            if board == "custom":
                # Every size without a name: a game stored before its size had
                # one (an 8x8/10 game filed as custom) is not custom now.
                clauses.append("difficulty = 'custom'")
                for size in NAMED_BOARDS.values():
                    clauses.append("NOT (rows = ? AND cols = ? AND mines = ?)")
                    params += list(size)
            elif board in NAMED_BOARDS:
                clauses.append("rows = ? AND cols = ? AND mines = ?")
                params += list(NAMED_BOARDS[board])
            else:
                raise ValueError(f"unknown difficulty {board!r}; expected one of "
                                 f"{', '.join(NAMED_BOARDS)}, 'custom' or (rows, cols, mines)")
        else:
            try:
                rows, cols, mines = board
            except (TypeError, ValueError):
                raise TypeError(f"a board is a preset name or (rows, cols, mines), "
                                f"got {board!r:.60}") from None
            clauses.append("rows = ? AND cols = ? AND mines = ?")
            params += [sqlite_int("rows", rows), sqlite_int("cols", cols),
                       sqlite_int("mines", mines)]
    if rule is not None:
        if rule not in RULES:
            raise ValueError(f"unknown rule {rule!r:.40}; expected one of {', '.join(RULES)}")
        clauses.append("rule = ?")
        params.append(rule)
    if not include_assisted:
        clauses.append("assisted = 0")
    if won_only:
        clauses.append("won = 1")
    return " WHERE " + " AND ".join(clauses), params


def count_arg(name: str, value: object) -> int:
    """A count argument (``limit``, ``top``): a whole number from 0 to SQLite's largest."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, got {value!r:.40}")
    return sqlite_int(name, value, 0)


def text(raw: bytes) -> str:
    """Text read from the database (the connections' ``text_factory``)."""
    # Text another program stored that is not UTF-8 reads with U+FFFD in its
    # place: a name is shown, not an OperationalError at the first bad byte.
    return raw.decode("utf-8", "replace")


def stored_id(record_id: object) -> int | None:
    """A game id to look up: None for one beyond the database's integers (no
    such game can exist); TypeError for anything but a whole number."""
    key = as_int("record_id", record_id)
    return key if key in SQLITE_INTEGERS else None
