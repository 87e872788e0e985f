"""Microseconds per probability call on mid-game Expert positions, fastmine vs ms-toollib.

    PYTHONPATH=src python bench/solver_probability.py [--positions 200] [--seed 1]
    PYTHONPATH=src python bench/solver_probability.py --board 100x100x2000 --positions 50
    PYTHONPATH=src python bench/solver_probability.py --scaling

Positions come from real games: Expert (16x30, 99 mines) unless ``--board``
says otherwise, first click opens in the centre, then every certain cell is
revealed and, when there is none, the cell with the lowest mine probability; a
position is kept whenever 15-75% of the safe cells are revealed.  Both libraries get the same boards (ms-toollib's
format: 0..8 revealed, 10 unknown).  Each call is timed over all positions,
best of ``--repeat`` rounds, in CPU time (``--wall`` for wall-clock time).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import fastmine
from fastmine import solver


def midgame_positions(n: int, seed: int, rows=16, cols=30, mines=99):
    """``n`` (view, mines) pairs from games played with exact probabilities."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        game = fastmine.Game(rows, cols, mines, rule="opening", seed=int(rng.integers(2**31)))
        game.reveal(rows // 2, cols // 2)
        safe_total = rows * cols - mines
        while game.state is fastmine.GameState.PLAYING and len(out) < n:
            a = solver.analyze(game.view, mines)
            done = int((game.view >= 0).sum()) / safe_total
            if 0.15 <= done <= 0.75 and rng.random() < 0.3:
                out.append(np.array(game.view))
            cells = a.safe_cells
            if len(cells):
                for r, c in cells:
                    if game.state is not fastmine.GameState.PLAYING:
                        break
                    game.reveal(int(r), int(c))
            else:
                p = np.where(np.isnan(a.probabilities), 2.0, a.probabilities)
                r, c = np.unravel_index(int(np.argmin(p)), p.shape)
                game.reveal(int(r), int(c))
    return out, mines


def scattered_position(n: int, density: float, revealed: float, seed: int):
    """(view, mines): an n x n board with a share of its safe cells revealed at
    random -- thousands of independent regions, the hardest case for combining."""
    board = fastmine.Board.generate(n, n, int(n * n * density), rule="none", seed=seed)
    pick = ~board.mines & (np.random.default_rng(seed).random((n, n)) < revealed)
    view = np.full((n, n), fastmine.HIDDEN, np.int8)
    view[pick] = board.counts[pick]
    return view, board.mine_count


SCALING_SIDES = (50, 100, 150, 200, 300, 1000)
"""Board sides of the scaling case (density and revealed share fixed)."""


def scaling(sides=SCALING_SIDES, density: float = 0.3, revealed: float = 0.5,
            seed: int = 1) -> list[dict]:
    """One ``solver.analyze`` call per side on a scattered position: its time,
    its Python-visible peak memory, how many regions it combined, or the
    refusal (a position over the budget is refused before anything is allocated)."""
    import tracemalloc

    def call(view, mines) -> dict:
        try:
            a = solver.analyze(view, mines)
            return {"status": "ok", "exact": a.exact, "blocks": a.blocks}
        except solver.PositionTooLargeError as exc:
            return {"status": "refused", "reason": str(exc)}

    rows = []
    for n in sides:
        view, mines = scattered_position(n, density, revealed, seed)
        t0 = time.perf_counter()
        row = {"side": n, **call(view, mines)}
        row["seconds"] = time.perf_counter() - t0
        tracemalloc.start()         # a second call for the memory (tracing slows it)
        call(view, mines)
        row["peak_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        rows.append(row)
    return rows


def time_calls(fn, args, repeat, clock=time.process_time):
    """Best of ``repeat`` rounds over all positions, in microseconds per call.

    CPU time by default: the machines this runs on are often shared, and CPU
    time is far steadier than wall time under load (--wall to change).
    """
    best = float("inf")
    for _ in range(repeat):
        t0 = clock()
        for a in args:
            fn(*a)
        best = min(best, clock() - t0)
    return best / len(args) * 1e6


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--wall", action="store_true", help="wall-clock time instead of CPU time")
    ap.add_argument("--board", default="16x30x99", metavar="ROWSxCOLSxMINES",
                    help="board size and mine count (default: Expert, 16x30x99)")
    ap.add_argument("--scaling", action="store_true",
                    help="instead: one call per board side on scattered positions "
                         f"(sides {', '.join(map(str, SCALING_SIDES))}, 30%% mines, half revealed)")
    args = ap.parse_args(argv)
    if args.scaling:
        for row in scaling(seed=args.seed):
            what = (f"{row['blocks']} blocks, exact={row['exact']}" if row["status"] == "ok"
                    else "refused: " + row["reason"].split(":")[0])
            print(f"{row['side']:5d}x{row['side']:<5d} {row['seconds'] * 1e3:9.1f} ms "
                  f"{row['peak_mb']:8.1f} MB  {what}")
        return 0
    rows, cols, mines = (int(x) for x in args.board.lower().split("x"))
    clock = time.perf_counter if args.wall else time.process_time
    views, mines = midgame_positions(args.positions, args.seed, rows, cols, mines)
    unknown = [int((v < 0).sum()) for v in views]
    frontier = [solver.analyze(v, mines).frontier_cells for v in views]
    exact = sum(solver.analyze(v, mines).exact for v in views)
    print(f"{len(views)} mid-game {rows}x{cols}/{mines} positions ({exact} computed exactly): unknown cells median {int(np.median(unknown))}, "
          f"frontier cells median {int(np.median(frontier))}, max {max(frontier)}")
    us = time_calls(solver.probabilities, [(v, mines) for v in views], args.repeat, clock)
    print(f"fastmine solver.probabilities      {us:8.1f} us/call")
    us_a = time_calls(solver.analyze, [(v, mines) for v in views], args.repeat, clock)
    print(f"fastmine solver.analyze            {us_a:8.1f} us/call")
    try:
        import ms_toollib
    except ImportError:
        print("ms-toollib not installed: no comparison")
        return 0
    boards = [np.where(v < 0, 10, v).astype(int).tolist() for v in views]
    ms_us = time_calls(ms_toollib.cal_probability_onboard, [(b, mines) for b in boards], args.repeat, clock)
    print(f"ms-toollib cal_probability_onboard {ms_us:8.1f} us/call   (fastmine is {ms_us / us:.2f}x)")
    # same answers?
    worst = 0.0
    for v, b in zip(views, boards, strict=True):
        ours = solver.probabilities(v, mines)
        theirs = np.array(ms_toollib.cal_probability_onboard(b, mines)[0])
        m = v < 0
        worst = max(worst, float(np.abs(ours[m] - theirs[m]).max()))
    print(f"largest difference from ms-toollib on unknown cells: {worst:.2e}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
