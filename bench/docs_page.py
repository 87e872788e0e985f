"""docs/benchmarks.md and its plot, generated from a run (``python -m bench --docs``)."""

from __future__ import annotations

import statistics
from pathlib import Path

from . import analysis as an
from . import report

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PLOT = "benchmarks-scaling.png"


def write(doc: dict, result_md: Path, docs: Path = DOCS) -> Path:
    """Write ``docs/benchmarks.md`` and a small copy of the scaling plot."""
    from . import plots

    docs.mkdir(parents=True, exist_ok=True)
    plots.scaling(doc, docs / PLOT, dpi=72, width=15.0, small=True)
    m = doc["machine"]
    t = an.targets(doc["rows"])
    misses = [r for r in t if r["ok"] is False]
    crashes = [r for r in doc["rows"] if r["status"] in ("crash", "timeout")]
    try:
        rel = result_md.resolve().relative_to(ROOT)
    except ValueError:
        rel = result_md
    lines = [
        "# Benchmarks", "",
        "fastmine side by side with a plain-Python engine, a NumPy/SciPy engine and "
        "[ms-toollib](https://pypi.org/project/ms-toollib/) (a Rust Minesweeper library), in one "
        "run on one machine. Reproduce (from a source checkout, extensions built):", "",
        "```sh",
        "python setup.py build_ext --inplace",
        "pip install ms-toollib scipy matplotlib   # or: pip install '.[bench]'",
        f"PYTHONPATH=src {doc['command'].replace('PYTHONPATH=src ', '')}",
        "```", "",
        f"Machine: {m['cpu']} ({m['cpus']} CPUs, shared), Python {m['python']}, "
        f"NumPy {m['numpy']}, SciPy {m['scipy']}, ms-toollib {m['ms_toollib']}, "
        f"fastmine {m['fastmine']} at commit {m['git_commit'] or '?'}; {doc['created']}.", "",
        "Each row gives fastmine's time per call (µs, median of repeats) and, below it, how "
        "many times longer each peer takes for the same work (**bold**: fastmine is slower). "
        "CRASH: the peer killed its process (ms-toollib overflows its stack on large open "
        "boards); the suite records it and goes on.", "",
    ]
    lines += report.headline(doc)
    lines += [""] + report.floor_lines(doc)
    lines += _new_game_line(doc)
    lines += [f"![time per call against board size, log-log, with fitted slopes]({PLOT})", "",
              f"Speed targets: {len(t) - len(misses)} of {len(t)} comparisons met "
              f"(>= {an.PURE_TARGET:g}x plain Python from 50x50 up, faster than ms-toollib from "
              "9x9 to 1000x1000)."]
    if misses:
        lines.append("Missed: " + "; ".join(
            f"{r['kernel']} {r['size']} vs {r['peer']} at {an.fmt_ratio(r['ratio'])}"
            for r in misses) + ".")
    if crashes:
        lines.append("Crashes/timeouts: " + "; ".join(
            f"{r['peer']} {r['kernel']} {r['size']} ({r['status']}: {r.get('error', '')})"
            for r in crashes) + ".")
    lines += _solver_lines(doc)
    lines += _env_lines(doc)
    lines += _videos_lines(doc)
    lines += ["", "What is timed (each peer does the same work in its own format; the full "
              f"report, [{rel.name}]({_link(rel, docs)}), lists every call). The calls of a "
              "figure rotate through a pool of different boards built beforehand, the same for "
              "every peer (up to 64; 8 at 1000x1000, 2 at 5000x5000), so the CPU cannot learn one "
              "board:", "",
              "- **generate**: lay the mines (first click safe, or its 3x3 block safe for "
              "*opening*) *and* count the neighbours — fastmine `Board.generate`, ms-toollib "
              "`laymine`/`laymine_op` (both return counted boards).",
              "- **neighbour counts**: a board from a given mask — `Board.from_mines` vs "
              "`cal_board_numbers`.",
              "- **3BV**: `bbbv()` on a fresh `Board` object each call (Board caches it) vs "
              "`cal_bbbv`; *near-empty*: one mine, one flood over the whole board.",
              "- **reveal**: the first reveal of a new game (built untimed), in the board's "
              "largest opening — `game.reveal(r, c)` vs `refresh_board(board, hidden, "
              "[(r, c)])` (ms-toollib keeps no game state: its call converts the board and game "
              "lists both ways); *near-empty*: one mine, so the reveal opens every other cell.",
              "", "The plain-Python peer (`bench/peers/pure_python.py`) is a fair, "
              "performance-minded plain-Python engine (lists of lists, `random.sample`, a FIFO "
              "flood fill). The slow, obviously-correct reference engine in `tests/reference.py` "
              "is kept for the differential tests, not as a baseline: it is about 5x slower "
              "still (counting a 50x50 board: 4.8 ms against 0.87 ms), so every ratio above "
              "would be about five times larger against it.",
              "", "Full method, scaling slopes, memory, and where fastmine's time goes on small "
              "boards: see the report. The suite: `bench/` (`python -m bench --help`)."]
    page = docs / "benchmarks.md"
    from fastmine.files.outputs import write_output

    write_output(page, "\n".join(lines) + "\n", "the benchmarks page")   # atomic, guarded
    return page


def _videos_lines(doc: dict) -> list[str]:
    """fastmine analyze and the coach against ms-toollib (bench/coach_bench.py)."""
    v = doc.get("videos") or {}
    w = v.get("whole_runs") or {}
    ratios = w.get("ratio_to_ms_toollib") or {}
    if not ratios or v.get("coach_ms_median_expert") is None:
        return []
    return ["", f"Recorded games: `fastmine analyze` on {w['files']} Expert videos takes "
            f"{ratios.get('fastmine analyze', float('nan')):.1f}x the CPU of ms-toollib's "
            f"parse + analyse ({ratios.get('fastmine analyze --no-coach', float('nan')):.1f}x "
            f"with --no-coach, process start included); the coach "
            f"{v['coach_ms_median_expert']:.2f} ms per real Expert game (median of "
            f"{v['expert_games']}); details in `bench/coach_bench.py` and "
            "[coach.md](coach.md#speed)."]


def _env_lines(doc: dict) -> list[str]:
    """The Gymnasium environments' steps per second (bench/env_bench.py)."""
    from .report_env import env_table, sweep_lines, target_lines

    env = doc.get("env") or {}
    if not env.get("rows"):
        return []
    clock = "CPU time" if env.get("clock") == "cpu" else "wall time"
    lines = ["", "Gymnasium environments ([env.md](env.md)): random valid reveals, a new "
             "episode whenever one ends, steps per second on one core (median of "
             f"{env['repeats']} runs of {env['seconds']} s, {clock}; a batched step counts "
             "the games it plays an action in). How each peer is driven: "
             "`bench/env_bench.py`."]
    measured = env.get("measured")
    if measured:
        m = measured["machine"]
        lines[-1] += (f" Measured apart from the tables above, on {measured['created'][:10]} at "
                      f"commit {m.get('git_commit') or '?'} (`{measured['command']}`; "
                      f"Gymnasium {m.get('gymnasium')}, gym-minesweeper "
                      f"{m.get('gym_minesweeper')}, Jumanji {m.get('jumanji')}).")
    return lines + [""] + env_table(env) + target_lines(env) + sweep_lines(env)


def _new_game_line(doc: dict) -> list[str]:
    """A new game and its first reveal, fastmine against ms-toollib's game object."""
    out = []
    for b in doc.get("breakdown") or []:
        fm = b.get("Game.from_board(board).reveal(r, c)")
        ms = b.get("ms-toollib step lc, lr alone (board built untimed)")
        ms_new = b.get("ms-toollib MinesweeperBoard(board) + step lc, lr")
        if isinstance(fm, float) and isinstance(ms, float) and isinstance(ms_new, float):
            out.append(f"{b['size']}/{b['mines']}: {an.fmt_us(fm)} µs, against "
                       f"{an.fmt_us(ms)} µs for ms-toollib's reveal alone on a board built "
                       f"beforehand and {an.fmt_us(ms_new)} µs with its construction")
    if not out:
        return []
    return ["A new game and its first reveal, `Game.from_board(board).reveal(r, c)` (the "
            "whole cost of a game: construction, the reveal, the changed cells returned): "
            + "; ".join(out) + ".", ""]


def _link(rel: Path, docs: Path) -> str:
    if rel.is_absolute():
        return rel.as_uri()
    try:
        return str(Path("..") / rel) if docs.resolve() == DOCS.resolve() else str(ROOT / rel)
    except OSError:
        return str(rel)


def _solver_lines(doc: dict) -> list[str]:
    s = doc.get("solver") or {}
    out = []
    for r in s.get("probabilities") or []:
        fm, ms = r.get("fastmine", {}), r.get("ms_toollib", {})
        if fm.get("status") == "ok" and ms.get("status") == "ok":
            out.append(f"{r['size']}: {an.fmt_us(fm['us_per_call'])} µs vs "
                       f"{an.fmt_us(ms['us_per_call'])} µs "
                       f"({an.fmt_ratio(ms['us_per_call'] / fm['us_per_call'])})")
        elif fm.get("status") == "ok":
            out.append(f"{r['size']}: {an.fmt_us(fm['us_per_call'])} µs (ms-toollib: "
                       f"{ms.get('status', 'n/a')})")
    lines = []
    if out:
        lines += ["", "Exact mine probabilities on mid-game positions, µs per position, "
                  "`solver.probabilities` vs ms-toollib `cal_probability_onboard`: "
                  + "; ".join(out) + "."]
    best = [r for r in s.get("play") or [] if r["status"] == "ok" and r["strategy"] == "best"]
    if best:
        lines += ["", "Strategy `best`, whole games (win rate, ms per game): " + "; ".join(
            f"{r['difficulty']} {r['rule']}"
            + (f" at ({r['click'][0]}, {r['click'][1]})" if r.get("click") else "")
            + f" {100 * r['win_rate']:.1f}% of {r['games']}, {r['ms_per_game']:.1f} ms"
            for r in best) + ". A few hundred games each, so a check that it plays, not a "
            "measurement of strength (the 95% interval is several points wide): the "
            "100,000-game win rates are in [solver.md](solver.md)."]
    ng = [r for r in s.get("no_guess") or [] if r["status"] == "ok"]
    if ng:
        lines += ["", "No-guess generation, median per board: " + "; ".join(
            f"{r['size']} {r['peer']} {an.fmt_us(r['us_per_call'])} µs" for r in ng) + "."]
    app = doc.get("app") or {}
    own = app.get("app_bench") or {}
    if own.get("status") == "ok":
        rss = own.get("peak_rss_mb")
        lines += ["", f"App (headless, software OpenGL): first frame {own.get('startup_s', 0):.2f} s "
                  f"after start ({own.get('process_cpu_to_first_frame_s') or 0:.2f} s of CPU"
                  + (f"; {rss:.0f} MB peak memory with 50x50 games" if rss else "")
                  + "); a reveal on 50x50 is on screen "
                  f"{own.get('reveal_frame_ms_median', 0):.1f} ms later (median; "
                  f"{own.get('reveal_cpu_ms_median', 0):.1f} ms of it the game and the mesh update, "
                  f"the rest drawing; an unchanged redraw takes "
                  f"{own.get('redraw_frame_ms_median', 0):.1f} ms)."]
        later = own.get("later_start_process_cpu_to_first_frame_s")
        floor = [r["process_cpu_to_first_frame_s"] for r in app.get("floor") or [] if r["status"] == "ok"]
        if later is not None and floor:
            lines[-1] += (f" A later start (tiles from the cache) takes {later:.2f} s of CPU, against "
                          f"{statistics.median(floor):.2f} s for a bare Kivy app with numpy at the "
                          "same size.")
    return lines
