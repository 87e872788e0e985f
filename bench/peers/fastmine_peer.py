"""fastmine itself, through its public API (what a user's code pays, Python overhead included)."""

from __future__ import annotations

NAME = "fastmine"
LABEL = "fastmine"

DOES = {
    "gen_cell": "Board.generate(rows, cols, mines, first_click, rule='cell'): lays the mines "
                "and counts (unseeded, a fresh board per call)",
    "gen_opening": "Board.generate(..., rule='opening')",
    "count": "Board.from_mines(mask): validates the bool mask, pads it and counts",
    "bbbv": "bbbv() of a fresh Board object over the same arrays (Board caches 3BV per "
            "object, so each call builds a new one: the kernel plus ~1 us of Python)",
    "reveal_opening": "game.reveal(r, c) on a new game (Game.from_board, built untimed): "
                      "flood fill, win check, and the changed cells returned as an (n, 2) array",
    "bbbv_empty": "as bbbv, on a board with one mine",
    "reveal_empty": "as reveal_opening, on a board with one mine",
}


def unavailable() -> str | None:
    """Why fastmine cannot run here (its extension is not built), or None."""
    try:
        import fastmine  # noqa: F401
    except ImportError as exc:
        return f"cannot import fastmine ({exc}); build it: python setup.py build_ext --inplace"
    return None


def prepare(kernel: str, case):
    """The timed call (and its input) for ``kernel`` on ``case``; see bench.peers."""
    from fastmine import Board, Game

    from . import Prepared

    rows, cols, m, click = case.rows, case.cols, case.mines, case.click
    if kernel in ("gen_cell", "gen_opening"):
        rule = "cell" if kernel == "gen_cell" else "opening"
        return Prepared(lambda: Board.generate(rows, cols, m, first_click=click, rule=rule),
                        check=lambda b: (b.mines, b.counts))
    mask = case.mask
    if kernel == "count":
        return Prepared(lambda: Board.from_mines(mask), check=lambda b: b.counts)
    board = Board.from_mines(mask)
    if kernel in ("bbbv", "bbbv_empty"):
        pm, pc, n = board._pm, board._pc, board.mine_count
        fresh = Board._from_padded
        return Prepared(lambda: fresh(pm, pc, rows, cols, n).bbbv(), check=int)
    if kernel in ("reveal_opening", "reveal_empty"):
        r, c = click

        def call(game):
            game.reveal(r, c)
            return game

        return Prepared(call, check=lambda g: g.revealed_count,
                        setup=lambda: Game.from_board(board))
    raise KeyError(kernel)
