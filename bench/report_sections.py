"""Report sections for the optional parts: solver and app."""

from __future__ import annotations

import statistics

from .analysis import fmt_ratio, fmt_us


def solver_section(doc: dict) -> list[str]:
    """Markdown for the solver results (or the note saying why they are missing)."""
    s = doc.get("solver") or {}
    out = ["## Solver", ""]
    if "skipped" in s:
        return out + [f"Skipped: {s['skipped']}.", ""]
    if s.get("probabilities"):
        out += _probabilities(s["probabilities"])
    if s.get("play"):
        out += _play(s["play"])
    if s.get("coach"):
        out += _coach(s["coach"])
    if s.get("no_guess"):
        out += _no_guess(s["no_guess"])
    return out


def _coach(r: dict) -> list[str]:
    out = ["### The coach on whole games", ""]
    if r.get("status") != "ok":
        return out + [f"`fastmine.coach.analyze`: {r.get('status', '').upper()} — {r.get('error', '')}", ""]
    return out + [
        f"`fastmine.coach.analyze(board, moves)` on {r['games']} Expert games played by "
        f"`solver.step(game, 'best')` (median {r['moves_per_game']:.0f} moves): "
        f"{r['ms_per_game']:.2f} ms a game (median; worst {r['max_ms']:.2f} ms), "
        f"{r['us_per_move']:.1f} µs a move.", ""]


def _probabilities(rows: list[dict]) -> list[str]:
    how = next((r["how"] for r in rows if "how" in r), "")
    out = ["### Mine probabilities on mid-game positions", "",
           "`fastmine.solver.probabilities(view, mines)` against ms-toollib "
           "`cal_probability_onboard(game_board, mines)` on the same positions "
           f"({how}). µs per position (one timed call walks every position; median of "
           "repeats). *max diff*: the largest difference between the two engines' "
           "probabilities on any hidden cell.", "",
           "| size | positions | hidden cells (median) | fastmine µs | ms-toollib µs | ratio | max diff |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        fm, ms = r.get("fastmine", {}), r.get("ms_toollib", {})
        fm_us = fm.get("us_per_call") if fm.get("status") == "ok" else None
        ms_us = ms.get("us_per_call") if ms.get("status") == "ok" else None
        ms_cell = fmt_us(ms_us) if ms_us is not None else ms.get("status", "—").upper()
        fm_cell = fmt_us(fm_us) if fm_us is not None else fm.get("status", "—").upper()
        ratio = ms_us / fm_us if fm_us and ms_us else None
        diff = f"{r['max_abs_diff']:.1e}" if "max_abs_diff" in r else "—"
        out.append(f"| {r['size']} | {r.get('positions', '')} | {r.get('hidden', 0):.0f} | "
                   f"{fm_cell} | {ms_cell} | {fmt_ratio(ratio)} | {diff} |")
    errors = [f"{r['size']} {p}: {r[p].get('error')}" for r in rows for p in ("fastmine", "ms_toollib")
              if r.get(p, {}).get("status") not in (None, "ok")]
    if errors:
        out += ["", "Failures: " + "; ".join(errors) + "."]
    return out + [""]


def _play(rows: list[dict]) -> list[str]:
    out = ["### Whole games per strategy", "",
           f"`{rows[0].get('function', 'solver.play')}(game, strategy)` from a fresh game (the solver makes the first click "
           "where the rule makes it best); time per game includes making the game. Win rate "
           "with its 95% Wilson interval; *stuck*: the strategy ran out of certain moves "
           "(deterministic, inference) and stopped, not a win.", "",
           "| rule | first click | difficulty | strategy | games | win rate | 95% CI | stuck | ms/game | games/s |",
           "|---|---|---|---|---:|---:|---|---:|---:|---:|"]
    for r in rows:
        click = tuple(r["click"]) if r.get("click") else "solver's"
        if r["status"] != "ok":
            out.append(f"| {r['rule']} | | {r['difficulty']} | {r['strategy']} | | "
                       f"{r['status'].upper()} | {r.get('error', '')} | | | |")
            continue
        lo, hi = r["ci95"]
        out.append(f"| {r['rule']} | {click} | {r['difficulty']} | {r['strategy']} | {r['games']} | "
                   f"{100 * r['win_rate']:.1f}% | {100 * lo:.1f}–{100 * hi:.1f}% | {r['stuck']} | "
                   f"{r['ms_per_game']:.2f} | {r['games_per_s']:,.0f} |")
    return out + [""]


def _no_guess(rows: list[dict]) -> list[str]:
    out = ["### No-guess generation", "",
           "`Board.generate(..., rule='no_guess')` against ms-toollib "
           "`laymine_solvable(rows, cols, mines, r, c, max_times=100000)`, first click at the "
           "centre, a different seed per call; each call differs, so this is the median and "
           "worst of single calls, not a loop.", "",
           "| size | peer | calls | median µs | worst µs | failures |", "|---|---|---:|---:|---:|---:|"]
    for r in rows:
        if r["status"] != "ok":
            out.append(f"| {r['size']} | {r['peer']} | | {r['status'].upper()} | "
                       f"{r.get('error', '')} | |")
            continue
        out.append(f"| {r['size']} | {r['peer']} | {r['calls']} | {fmt_us(r['us_per_call'])} | "
                   f"{fmt_us(r['max_us'])} | {r['failures']} |")
    return out + [""]


def _memory_lines(memory: dict) -> list[str]:
    """The memory bench's table: resident MB at each step, a first and a later start."""
    runs = {k: v for k, v in memory.items() if v.get("status") == "ok"}
    failed = [f"`python app/main.py --bench --bench-memory`, {k}: {v.get('status')} — "
              f"{v.get('error', '')}." for k, v in memory.items() if v.get("status") != "ok"]
    if not runs:
        return ["", *failed] if failed else []
    steps = list(next(iter(runs.values()))["rss_mb"])
    clicks = next(iter(runs.values())).get("clicks")
    out = ["", f"Resident memory, MB (`--bench --bench-memory {clicks}`: a 50x50 game of {clicks} "
           "clicks, then each screen from the game and back):", "",
           "| step | " + " | ".join(k.replace("_", " ") for k in runs) + " |",
           "|---|" + "---:|" * len(runs)]
    for step in steps:
        cells = [runs[k]["rss_mb"].get(step) for k in runs]
        out.append(f"| {step.replace('_', ' ')} | "
                   + " | ".join("" if c is None else f"{c:.1f}" for c in cells) + " |")
    return out + ([""] + failed if failed else [])


def app_section(doc: dict) -> list[str]:
    """Markdown for the app results (or the note saying why they are missing)."""
    a = doc.get("app") or {}
    out = ["## App", ""]
    if "skipped" in a:
        return out + [f"Skipped: {a['skipped']}.", ""]
    ok = [r for r in a.get("startup", []) if r["status"] == "ok"]
    if ok:
        launch = statistics.median(r["launch_to_first_frame_ms"] for r in ok)
        imports = statistics.median(r["imports_to_first_frame_ms"] for r in ok)
        out.append(f"Startup to first frame (headless, SDL offscreen, software OpenGL; median of "
                   f"{len(ok)}): {launch:,.0f} ms from process launch, {imports:,.0f} ms from "
                   "the first import of Kivy.")
    for r in a.get("startup", []):
        if r["status"] != "ok":
            out.append(f"Startup run: {r['status']} — {r.get('error', '')}")
    own = a.get("app_bench") or {}
    out.append("")
    if own.get("status") == "ok":
        out += ["The app's own measurement (`python app/main.py --bench`; 50x50 board, 500 "
                "mines; frame times from the move to the end of the frame that shows it):", ""]
        out += [f"- {k}: {v:,.3f}" if isinstance(v, float) else f"- {k}: {v}"
                for k, v in own.items() if k != "status"]
    elif own:
        out.append(f"`python app/main.py --bench`: {own.get('status')} — {own.get('error', '')}.")
    out += _memory_lines(a.get("memory") or {})
    floor = [r for r in a.get("floor", []) if r["status"] == "ok"]
    if floor:
        cpu = statistics.median(r["process_cpu_to_first_frame_s"] for r in floor)
        main = statistics.median(r["main_thread_cpu_to_first_frame_s"] for r in floor)
        out += ["", f"The machine's floor: a bare Kivy app (one Button, numpy imported) at the same "
                f"phone profile takes {cpu:.3f} s of CPU to its first frame ({main:.3f} s in its "
                f"main thread; median of {len(floor)})."]
    for r in a.get("floor", []):
        if r["status"] != "ok":
            out.append(f"Bare Kivy app run: {r['status']} — {r.get('error', '')}")
    return out + [""]
