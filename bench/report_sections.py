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
    for part, why in (s.get("notes") or {}).items():
        out.append(f"- {part}: skipped — {why}.")
    if s.get("notes"):
        out.append("")
    if s.get("probabilities"):
        out += _probabilities(s["probabilities"])
    if s.get("play"):
        out += _play(s["play"])
    if s.get("no_guess"):
        out += _no_guess(s["no_guess"])
    return out


def _probabilities(rows: list[dict]) -> list[str]:
    out = ["### Mine probabilities on mid-game positions", "",
           "`fastmine.solver.probabilities(view, mines)` against ms-toollib "
           "`cal_probability_onboard(game_board, mines)` on the same positions (first click "
           "opened, then safe cells next to the open region revealed at random until 35% of "
           "the safe cells are open). µs per call, median over positions; *max diff* is the "
           "largest difference between the two engines' probabilities on a hidden cell.", "",
           "| size | positions | hidden cells | fastmine µs | ms-toollib µs | ratio | max diff |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    by: dict[str, list[dict]] = {}
    for r in rows:
        by.setdefault(r["size"], []).append(r)
    for size, rs in by.items():
        fm = [r["fastmine"]["us_per_call"] for r in rs if r.get("fastmine", {}).get("status") == "ok"]
        ms = [r["ms_toollib"]["us_per_call"] for r in rs
              if r.get("ms_toollib", {}).get("status") == "ok"]
        bad = [r["ms_toollib"]["status"] for r in rs
               if r.get("ms_toollib", {}).get("status") not in (None, "ok")]
        fm_med = statistics.median(fm) if fm else None
        ms_med = statistics.median(ms) if ms else None
        ratio = ms_med / fm_med if fm_med and ms_med else None
        diffs = [r["max_abs_diff"] for r in rs if "max_abs_diff" in r]
        hidden = statistics.median([r["hidden"] for r in rs if "hidden" in r] or [0])
        ms_cell = fmt_us(ms_med) + (f" ({len(bad)} {'/'.join(sorted(set(bad)))})" if bad else "")
        out.append(f"| {size} | {len(rs)} | {hidden:.0f} | {fmt_us(fm_med)} | {ms_cell} | "
                   f"{fmt_ratio(ratio)} | {max(diffs):.1e} |" if diffs else
                   f"| {size} | {len(rs)} | {hidden:.0f} | {fmt_us(fm_med)} | {ms_cell} | "
                   f"{fmt_ratio(ratio)} | — |")
    return out + [""]


def _play(rows: list[dict]) -> list[str]:
    out = ["### Whole games per strategy", "",
           "`solver.play(game, strategy)` after the first reveal; games per second include "
           "making each game. Win rate with its 95% Wilson interval.", "",
           "| rule, first click | difficulty | strategy | games | win rate | 95% CI | ms/game | games/s |",
           "|---|---|---|---:|---:|---|---:|---:|"]
    for r in rows:
        where = f"{r['rule']} at ({r['click'][0]}, {r['click'][1]})"
        if r["status"] != "ok":
            out.append(f"| {where} | {r['difficulty']} | {r['strategy']} | | "
                       f"{r['status'].upper()} | {r.get('error', '')} | | |")
            continue
        lo, hi = r["ci95"]
        out.append(f"| {where} | {r['difficulty']} | {r['strategy']} | {r['games']} | "
                   f"{100 * r['win_rate']:.1f}% | {100 * lo:.1f}–{100 * hi:.1f}% | "
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
    hook = a.get("hook") or {}
    out.append("")
    if hook.get("status") == "ok":
        out += ["Measured by `app/bench_hook.py` (50x50, 500 mines):", ""]
        out += [f"- {k}: {v:,.1f}" if isinstance(v, (int, float)) else f"- {k}: {v}"
                for k, v in hook.items() if k != "status"]
    elif hook:
        out.append(f"Frame time after a reveal: {hook.get('status')} — {hook.get('error', '')}.")
    return out + [""]
