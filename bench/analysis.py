"""Numbers derived from the raw rows: ratios, scaling slopes, targets, agreement."""

from __future__ import annotations

import math

import numpy as np

#: Fit scaling slopes only from this many cells up: below it a fixed per-call
#: cost dominates and the slope says nothing about how the work grows.
FIT_FROM_CELLS = 2500
#: fastmine must be this many times faster than plain Python from 50x50 up ...
PURE_TARGET = 100.0
PURE_TARGET_FROM_CELLS = 2500
#: ... and faster than ms-toollib at every size up to 1000x1000.
MS_TARGET = 1.0
MS_TARGET_UP_TO_CELLS = 1_000_000
#: The kernels the speed targets name (counting alone is reported, not targeted).
TARGET_KERNELS = ("gen_cell", "gen_opening", "bbbv", "bbbv_empty", "reveal_opening",
                  "reveal_empty")


def index(rows: list[dict]) -> dict[tuple[str, str, str], dict]:
    """(kernel, peer, size) -> row."""
    return {(r["kernel"], r["peer"], r["size"]): r for r in rows}


def ratios(rows: list[dict]) -> list[dict]:
    """peer time / fastmine time for every kernel, size and peer with both figures.

    Above 1: fastmine is that many times faster.
    """
    idx = index(rows)
    out = []
    for (kernel, peer, size), r in idx.items():
        if peer == "fastmine" or r["status"] != "ok":
            continue
        fm = idx.get((kernel, "fastmine", size))
        if fm is None or fm["status"] != "ok":
            continue
        out.append({"kernel": kernel, "peer": peer, "size": size, "cells": r["cells"],
                    "ratio": r["us_per_call"] / fm["us_per_call"]})
    return out


def ratio_of(ratio_rows: list[dict], kernel: str, peer: str, size: str) -> float | None:
    """The ratio for one cell of a table, or None."""
    for r in ratio_rows:
        if (r["kernel"], r["peer"], r["size"]) == (kernel, peer, size):
            return r["ratio"]
    return None


def fit_slope(cells: list[int], us: list[float]) -> tuple[float, float] | None:
    """Least-squares slope and intercept of log10(us) against log10(cells)."""
    if len(cells) < 2 or len(set(cells)) < 2:
        return None
    slope, intercept = np.polyfit(np.log10(cells), np.log10(us), 1)
    return float(slope), float(intercept)


def slopes(rows: list[dict]) -> dict[str, dict[str, dict]]:
    """kernel -> peer -> {"slope", "intercept", "points", "from_cells"}.

    Fitted over the sizes from :data:`FIT_FROM_CELLS` cells up when there are
    at least two; otherwise over every size (and ``from_cells`` says so).
    """
    out: dict[str, dict[str, dict]] = {}
    series: dict[tuple[str, str], list[tuple[int, float]]] = {}
    for r in rows:
        if r["status"] == "ok":
            series.setdefault((r["kernel"], r["peer"]), []).append((r["cells"], r["us_per_call"]))
    for (kernel, peer), pts in series.items():
        pts.sort()
        big = [p for p in pts if p[0] >= FIT_FROM_CELLS]
        use = big if len(big) >= 2 else pts
        fit = fit_slope([p[0] for p in use], [p[1] for p in use])
        if fit is None:
            continue
        out.setdefault(kernel, {})[peer] = {"slope": fit[0], "intercept": fit[1],
                                            "points": len(use), "from_cells": use[0][0]}
    return out


def targets(rows: list[dict]) -> list[dict]:
    """Every (kernel, size, peer) the speed targets cover, with pass/fail.

    Rows where the peer crashed or timed out are kept with ``ok`` None.
    """
    idx = index(rows)
    rat = {(r["kernel"], r["peer"], r["size"]): r["ratio"] for r in ratios(rows)}
    out = []
    for (kernel, peer, size), r in idx.items():
        if kernel not in TARGET_KERNELS:
            continue
        if peer == "pure_python" and r["cells"] >= PURE_TARGET_FROM_CELLS:
            need = PURE_TARGET
        elif peer == "ms_toollib" and r["cells"] <= MS_TARGET_UP_TO_CELLS:
            need = MS_TARGET
        else:
            continue
        ratio = rat.get((kernel, peer, size))
        ok = None if ratio is None else (ratio >= need if need > 1 else ratio > need)
        out.append({"kernel": kernel, "peer": peer, "size": size, "cells": r["cells"],
                    "need": need, "ratio": ratio, "ok": ok, "status": r["status"]})
    return out


def disagreements(rows: list[dict]) -> list[dict]:
    """Kernel/size pairs where the peers' outputs do not agree.

    Generation rows must each check ``"ok"``; the other kernels must all give
    the same value (counts checksum, 3BV, cells revealed) on the first board
    and, summed, over the pool of boards their calls rotated through.
    """
    groups: dict[tuple[str, str], dict[str, object]] = {}
    for r in rows:
        if r["status"] == "ok":
            check = r.get("check")
            if r.get("check_boards") is not None:
                check = f"{check} (all {r.get('boards')} boards: {r['check_boards']})"
            groups.setdefault((r["kernel"], r["size"]), {})[r["peer"]] = check
    out = []
    for (kernel, size), checks in groups.items():
        if kernel.startswith("gen_"):
            bad = {p: c for p, c in checks.items() if c != "ok"}
            if bad:
                out.append({"kernel": kernel, "size": size, "checks": bad})
        elif len(set(map(str, checks.values()))) > 1:
            out.append({"kernel": kernel, "size": size, "checks": checks})
    return out


def fmt_us(us: float | None) -> str:
    """µs with three significant figures and thousands separators."""
    if us is None or not math.isfinite(us):
        return "—"
    if us >= 100:
        return f"{us:,.0f}"
    if us >= 10:
        return f"{us:.1f}"
    return f"{us:.2f}"


def fmt_ratio(ratio: float | None) -> str:
    """``12x``, ``1.3x``, ``0.85x`` (the last marked: fastmine is slower)."""
    if ratio is None or not math.isfinite(ratio):
        return "—"
    if ratio >= 100:
        s = f"{ratio:,.0f}x"
    elif ratio >= 10:
        s = f"{ratio:.0f}x"
    elif ratio >= 1:
        s = f"{ratio:.1f}x"
    else:
        s = f"{ratio:.2f}x"
    return s if ratio >= 1 else f"**{s}**"
