"""Report section for the environment benchmark (bench/env_bench.py)."""

from __future__ import annotations

TARGET_STEPS = 1_000_000
TARGET_RATIO = 10.0
TARGET_LABELS_RATIO = 5.0     # labelled batch over the labelled one-game loop


def _label(doc_env: dict, row: dict) -> str:
    label = doc_env["peers"][row["peer"]]["label"]
    if row["peer"].startswith("fastmine"):
        label += f", rule {row['rule']}"
        if row["peer"] == "fastmine_batch":
            label += ", copy=True" if row.get("copy") else ", preallocated"
    return label


def _cell(row: dict | None) -> str:
    if row is None:
        return ""
    if row.get("status") != "ok":
        return row.get("status", "—").upper()
    return f"{row['steps_per_s']:,.0f}"


def _find(rows: list[dict], peer: str, size: str, rule: str, copy: bool = False) -> dict | None:
    for r in rows:
        if (r["peer"], r["size"], r["rule"], bool(r.get("copy"))) == (peer, size, rule, copy):
            return r
    return None


def _rate(row: dict | None) -> float | None:
    return row["steps_per_s"] if row and row.get("status") == "ok" else None


def env_table(env: dict) -> list[str]:
    """The steps-per-second table and the ratios under it (markdown lines)."""
    rows = env["rows"]
    sizes = list(dict.fromkeys(r["size"] for r in rows))
    keys = list(dict.fromkeys((r["peer"], r["rule"], bool(r.get("copy"))) for r in rows))
    out = ["| environment | " + " | ".join(f"{s} steps/s" for s in sizes)
           + " | steps per episode |",
           "|---|" + "---:|" * (len(sizes) + 1)]
    for peer, rule, copy in keys:
        cells = [_find(rows, peer, s, rule, copy) for s in sizes]
        first = next((c for c in cells if c), None)
        assert first is not None
        spe = next((f"{c['steps_per_episode']:.1f}" for c in reversed(cells)
                    if c and c.get("status") == "ok"), "—")
        out.append(f"| {_label(env, first)} | " + " | ".join(_cell(c) for c in cells)
                   + f" | {spe} |")
    out.append("")
    notes = []
    for s in sizes:
        single = _rate(_find(rows, "fastmine_single", s, "opening"))
        batch = _rate(_find(rows, "fastmine_batch", s, "opening"))
        none_b = _rate(_find(rows, "fastmine_batch", s, "none"))
        parts = []
        if single and batch:
            parts.append(f"batched/one game {batch / single:.1f}x")
        for peer, name in (("gym_minesweeper", "gym-minesweeper"), ("jumanji", "Jumanji"),
                           ("jumanji_tuned", "Jumanji tuned")):
            other = _rate(_find(rows, peer, s, "none"))
            if other and none_b:
                parts.append(f"vs {name} {none_b / other:,.0f}x")
        if parts:
            notes.append(f"{s}: " + ", ".join(parts))
    if notes:
        out += ["Ratios (batched at the rule each peer plays; the peers' first click is not "
                "safe, as with rule `none`): " + "; ".join(notes) + ".", ""]
    return out


def target_lines(env: dict) -> list[str]:
    """Whether the batched environment met its targets at 16x16/40."""
    rows = env["rows"]
    batch = _rate(_find(rows, "fastmine_batch", "16x16/40", "opening"))
    single = _rate(_find(rows, "fastmine_single", "16x16/40", "opening"))
    if batch is None or single is None:
        return []
    ok = batch >= TARGET_STEPS and batch / single >= TARGET_RATIO
    return [f"Targets at 16x16/40, B={env['batch']}, auto-reset, random valid reveals, one core: "
            f"at least {TARGET_STEPS:,} env-steps/s and at least {TARGET_RATIO:.0f}x the "
            f"one-game loop. Measured {batch:,.0f} steps/s, {batch / single:.1f}x: "
            + ("**met**." if ok else "**not met**."), ""]


def sweep_lines(env: dict) -> list[str]:
    """The batch-size table (steps/s and the ratio to the one-game loop) and the
    labels' line, when the run measured them (markdown lines)."""
    out: list[str] = []
    sweep = [r for r in env.get("sweep") or [] if r.get("status") == "ok"]
    single = next((r for r in sweep if r["peer"] == "fastmine_single"), None)
    batches = [r for r in sweep if r["peer"] == "fastmine_batch"]
    if single and batches:
        out += [f"Batch size at {single['size']} (rule opening, `copy=True`, the default; "
                "the one-game loop beside it):", "",
                "| B | steps/s | per step of a game | x one game |", "|---:|---:|---:|---:|"]
        for r in batches:
            out.append(f"| {r['num_envs']:,} | {r['steps_per_s']:,.0f} | "
                       f"{1e9 / r['steps_per_s']:,.0f} ns | "
                       f"{r['steps_per_s'] / single['steps_per_s']:.1f}x |")
        out += [f"| one game | {single['steps_per_s']:,.0f} | "
                f"{1e9 / single['steps_per_s']:,.0f} ns | 1.0x |", ""]
        out += _sweep_targets(batches, single)
    labelled = {r["peer"]: r for r in env.get("labels") or [] if r.get("status") == "ok"}
    if len(labelled) == 2:
        one, many = labelled["fastmine_single"], labelled["fastmine_batch"]
        ratio = many["steps_per_s"] / one["steps_per_s"]
        out += [f"Exact labels (`labels=True`, {one['size']}, random valid reveals): one game "
                f"{one['steps_per_s']:,.0f} steps/s, a batch of {many['num_envs']} "
                f"{many['steps_per_s']:,.0f} ({ratio:.1f}x; target: at least "
                f"{TARGET_LABELS_RATIO:.0f}x, " + ("**met**)." if ratio >= TARGET_LABELS_RATIO
                                                  else "**not met**)."), ""]
    return out


def _sweep_targets(batches: list[dict], single: dict) -> list[str]:
    """The batch-size table's verdicts: the targets at B=1,024 with the default
    settings, and how much the speed per step changes from B=1,024 up."""
    out: list[str] = []
    at = next((r for r in batches if r["num_envs"] == 1024), None)
    if at:
        rate, ratio = at["steps_per_s"], at["steps_per_s"] / single["steps_per_s"]
        ok = rate >= TARGET_STEPS and ratio >= TARGET_RATIO
        out += [f"Targets at {single['size']}, B=1,024, `copy=True`: at least "
                f"{TARGET_STEPS:,} env-steps/s and {TARGET_RATIO:.0f}x the one-game loop. "
                f"Measured {rate:,.0f} steps/s, {ratio:.1f}x: "
                + ("**met**." if ok else "**not met**."), ""]
    large = [r["steps_per_s"] for r in batches if r["num_envs"] >= 1024]
    if len(large) > 1:
        out += [f"From B=1,024 up the speed per step of a game varies by "
                f"{max(large) / min(large) - 1:.0%} (slowest to fastest).", ""]
    return out


def env_section(doc: dict) -> list[str]:
    """Markdown for the environment section (or the note saying why it is missing)."""
    env = doc.get("env") or {}
    out = ["## Gymnasium environments", ""]
    if "skipped" in env:
        return out + [f"Skipped: {env['skipped']}.", ""]
    if not env.get("rows"):
        return out + ["Not measured in this run.", ""]
    clock = "process CPU time" if env.get("clock") == "cpu" else "wall time"
    out += ["Random valid reveals, a new episode whenever one ends; environment steps per "
            f"second on one core (median of {env['repeats']} runs of {env['seconds']} s, "
            f"{clock}; a batched step of B games counts B, less the games whose step is "
            "their auto-reset: only steps that play an action count). How each peer is driven "
            "and why: bench/env_bench.py.", ""]
    out += env_table(env) + target_lines(env) + sweep_lines(env)
    rules = [f"{v['label']}: {v['rules']}" + (f" (skipped: {v['skipped']})" if v.get("skipped") else "")
             for v in env["peers"].values()]
    out += ["Rules: " + "; ".join(rules) + ".", ""]
    d = env.get("dataset") or {}
    if d.get("status") == "ok":
        out += [f"Labelled positions (`fastmine.env.dataset`, {d['size']}, policy `safe`, exact "
                f"probabilities of every cell): {d['positions_per_s']:,.0f} positions/s "
                f"({d['positions']} positions).", ""]
    elif d:
        out += [f"Labelled positions: {d.get('status', '').upper()} {d.get('error', '')}", ""]
    return out
