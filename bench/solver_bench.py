"""Solver section: exact probabilities, whole games per strategy, no-guess generation.

The ``*_task`` functions run in the worker process; :func:`run` drives them.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from .timing import measure

PROB_SIZES = ("9x9/10", "16x16/40", "16x30/99", "30x30/150", "50x50/500")
QUICK_PROB_SIZES = ("9x9/10", "16x30/99")
DIFFICULTIES = ("beginner", "intermediate", "expert")
STRATEGIES = ("best", "auto", "deterministic", "inference", "probability", "random")
NOGUESS_SIZES = ("9x9/10", "16x16/40", "16x30/99", "50x50/500")
MS_HIDDEN = 10


def positions(rows: int, cols: int, mines: int, n: int, seed: int) -> tuple[list, str]:
    """``n`` mid-game views met while playing real games with exact probabilities."""
    from .solver_probability import midgame_positions

    views, _ = midgame_positions(n, seed, rows, cols, mines)
    return views, "met while playing games with exact probabilities, 15-75% of safe cells open"


def prob_task(peer: str, rows: int, cols: int, mines: int, positions_n: int, seed: int,
              min_time: float, repeats: int, budget: float) -> dict:
    """Time one peer's mine probabilities over the same ``positions_n`` mid-game views.

    One timed call walks all positions; the figure is per position.
    """
    views, how = positions(rows, cols, mines, positions_n, seed)
    if peer == "fastmine":
        from fastmine import solver

        args = [np.ascontiguousarray(v) for v in views]

        def call():
            return [solver.probabilities(v, mines) for v in args]

        def probs(out):
            return [np.asarray(o, float) for o in out]
    else:
        import ms_toollib as ms

        args = [np.where(v < 0, MS_HIDDEN, v).astype(int).tolist() for v in views]

        def call():
            return [ms.cal_probability_onboard(b, mines) for b in args]

        def probs(out):
            return [np.asarray(o[0], float) for o in out]
    ps = probs(call())
    t = measure(call, min_time=min_time, repeats=repeats, budget=budget)
    n = len(views)
    return {"us_per_call": t["us_per_call"] / n, "samples_us": [x / n for x in t["samples_us"]],
            "repeats": t["repeats"], "positions": n, "how": how,
            "hidden": float(np.median([int((v < 0).sum()) for v in views])),
            "probs": [np.where(v < 0, p, np.nan).tolist() for v, p in zip(views, ps, strict=True)]}


def scaling_task(sides: list[int], density: float, revealed: float, seed: int) -> dict:
    """Exact probabilities on scattered positions of growing size (one call each):
    the time and memory grow with the board, or the call is refused up front."""
    from .solver_probability import scaling

    return {"rows": scaling(tuple(sides), density, revealed, seed),
            "how": f"{density:.0%} mines, {revealed:.0%} of the safe cells revealed at random"}


def play_task(strategy: str, difficulty: str, rule: str, games: int, seconds: float,
              seed: int) -> dict:
    """Play up to ``games`` games (stopping after ``seconds``) from a fresh game each.

    ``solver.play`` makes the first click itself (where the rule makes it
    best).  A strategy that runs out of certain moves stops with the game
    still in play: counted as *stuck*, not won.
    """
    from fastmine import DIFFICULTIES as PRESETS
    from fastmine import Game, GameState, solver

    d = PRESETS[difficulty]
    won = lost = played = 0
    t_start = time.perf_counter()
    while played < games and time.perf_counter() - t_start < seconds:
        g = Game(d.rows, d.cols, d.mines, rule=rule, seed=seed + played)
        state = solver.play(g, strategy=strategy, rng=seed + played)
        won += state is GameState.WON
        lost += state is GameState.LOST
        played += 1
    total = time.perf_counter() - t_start
    return {"games": played, "wins": won, "losses": lost, "stuck": played - won - lost,
            "seconds": total, "ms_per_game": 1e3 * total / max(played, 1),
            "click": list(solver.first_click_for(d.rows, d.cols, rule, d.mines)),
            "function": "solver.play"}


def coach_task(games: int, seconds: float, seed: int) -> dict:
    """Time :func:`fastmine.coach.analyze` on whole Expert games the solver played.

    Each game is played by ``solver.step(game, "best")`` until it ends; its
    move log (:attr:`fastmine.Game.moves`) is analysed, and only that is timed.
    """
    from fastmine import Game, solver
    from fastmine.coach import analyze

    times, moves_n = [], []
    t_start = time.perf_counter()
    for i in range(games):
        if times and time.perf_counter() - t_start > seconds:
            break
        game = Game(16, 30, 99, rule="opening", seed=seed + i)
        while not game.state.is_over:
            solver.step(game, "best", rng=seed + i)
        moves = game.moves
        t0 = time.perf_counter()
        analyze(game.board, moves, rule="opening")
        times.append(time.perf_counter() - t0)
        moves_n.append(len(moves))
    return {"games": len(times), "ms_per_game": statistics.median(times) * 1e3,
            "max_ms": max(times) * 1e3, "moves_per_game": statistics.median(moves_n),
            "us_per_move": 1e6 * sum(times) / max(sum(moves_n), 1)}


def noguess_task(peer: str, rows: int, cols: int, mines: int, calls: int, seed: int,
                 max_times: int, seconds: float = 60.0) -> dict:
    """Time up to ``calls`` no-guess generations with different seeds (each call
    differs), stopping early once ``seconds`` have passed."""
    click = (rows // 2, cols // 2)
    times, failures = [], 0
    t_start = time.perf_counter()
    for i in range(calls):
        if times and time.perf_counter() - t_start > seconds:
            break
        t0 = time.perf_counter()
        if peer == "fastmine":
            from fastmine import Board

            try:
                Board.generate(rows, cols, mines, first_click=click, rule="no_guess", seed=seed + i)
            except ValueError:
                failures += 1
        else:
            import ms_toollib as ms

            _, ok = ms.laymine_solvable(rows, cols, mines, click[0], click[1], max_times)
            failures += not ok
        times.append(time.perf_counter() - t0)
    return {"us_per_call": statistics.median(times) * 1e6, "max_us": max(times) * 1e6,
            "calls": len(times), "failures": failures}


def run(cfg, worker, progress) -> dict:
    """The solver section of the results document."""
    from fastmine.solver.runs import wilson

    from .kernels import size
    from .peers import unavailable

    ms_missing = unavailable("ms_toollib") if "ms_toollib" in cfg.peers else "not requested"
    out: dict = {}
    games = 10 if cfg.quick else 300
    seconds = 1.0 if cfg.quick else 60.0

    out["probabilities"] = []
    labels = QUICK_PROB_SIZES if cfg.quick else PROB_SIZES
    npos = 10 if cfg.quick else 50
    peers = ["fastmine"] + ([] if ms_missing else ["ms_toollib"])
    progress.total += len(labels) * len(peers)
    for lab in labels:
        s = size(lab)
        res = {}
        for peer in peers:
            progress.set_postfix_str(f"probabilities {lab} {peer}", refresh=False)
            res[peer] = worker.call("bench.solver_bench:prob_task", {
                "peer": peer, "rows": s.rows, "cols": s.cols, "mines": s.mines,
                "positions_n": npos, "seed": cfg.seed, "min_time": cfg.min_time,
                "repeats": cfg.repeats, "budget": cfg.budget}, timeout=cfg.timeout)
            progress.update()
        out["probabilities"].append(_prob_row(lab, res))
    # Scaling: thousands of independent regions (see bench/solver_probability.py).
    progress.total += 1
    progress.set_postfix_str("probabilities scaling", refresh=False)
    res = worker.call("bench.solver_bench:scaling_task", {
        "sides": [50, 100, 300] if cfg.quick else [50, 100, 150, 200, 300, 1000],
        "density": 0.3, "revealed": 0.5, "seed": cfg.seed}, timeout=cfg.timeout)
    out["probability_scaling"] = (res["result"] if res["status"] == "ok"
                                  else {"status": res["status"], "error": res.get("error")})
    progress.update()
    out["play"] = []
    rules = ("opening",) if cfg.quick else ("opening", "cell")
    progress.total += len(STRATEGIES) * len(DIFFICULTIES) * len(rules)
    for rule in rules:
        for diff in DIFFICULTIES:
            for strat in STRATEGIES:
                progress.set_postfix_str(f"play {strat} {diff} {rule}", refresh=False)
                res = worker.call("bench.solver_bench:play_task", {
                    "strategy": strat, "difficulty": diff, "rule": rule, "games": games,
                    "seconds": seconds, "seed": cfg.seed}, timeout=seconds * 3 + 60)
                row = {"strategy": strat, "difficulty": diff, "rule": rule,
                       "status": res["status"]}
                if res["status"] == "ok":
                    r = res["result"]
                    lo, hi = wilson(r["wins"], r["games"])
                    row.update(r, win_rate=r["wins"] / max(r["games"], 1), ci95=[lo, hi],
                               games_per_s=r["games"] / max(r["seconds"], 1e-9))
                else:
                    row["error"] = res.get("error")
                out["play"].append(row)
                progress.update()
    progress.set_postfix_str("coach expert", refresh=False)
    res = worker.call("bench.solver_bench:coach_task", {
        "games": 5 if cfg.quick else 50, "seconds": 5.0 if cfg.quick else 30.0,
        "seed": cfg.seed}, timeout=cfg.timeout)
    out["coach"] = (dict(res["result"], status="ok") if res["status"] == "ok"
                    else {"status": res["status"], "error": res.get("error")})
    out["no_guess"] = []
    labels = NOGUESS_SIZES[:3] if cfg.quick else NOGUESS_SIZES
    peers = ["fastmine"] + ([] if ms_missing else ["ms_toollib"])
    progress.total += len(labels) * len(peers)
    for lab in labels:
        s = size(lab)
        for peer in peers:
            progress.set_postfix_str(f"no-guess {lab} {peer}", refresh=False)
            res = worker.call("bench.solver_bench:noguess_task", {
                "peer": peer, "rows": s.rows, "cols": s.cols, "mines": s.mines,
                "calls": 3 if cfg.quick else 20, "seed": cfg.seed,
                "max_times": 100_000, "seconds": 5.0 if cfg.quick else 60.0},
                timeout=cfg.timeout)
            row = {"size": lab, "peer": peer, "status": res["status"]}
            row.update(res["result"] if res["status"] == "ok" else {"error": res.get("error")})
            out["no_guess"].append(row)
            progress.update()
    return out


def _prob_row(label: str, res: dict) -> dict:
    row: dict = {"size": label}
    probs = {}
    for peer, r in res.items():
        if r["status"] == "ok":
            got = r["result"]
            row[peer] = {k: got[k] for k in ("us_per_call", "samples_us", "repeats")}
            row[peer]["status"] = "ok"
            row.update(positions=got["positions"], hidden=got["hidden"], how=got["how"])
            probs[peer] = [np.asarray(p, float) for p in got["probs"]]
        else:
            row[peer] = {"status": r["status"], "error": r.get("error")}
    if len(probs) == 2:
        a, b = probs.values()
        row["max_abs_diff"] = max((float(np.nanmax(np.abs(x - y))) if np.isfinite(x).any()
                                   else 0.0) for x, y in zip(a, b, strict=True))
    return row
