"""The markdown report of one run (bench/results/<name>.md)."""

from __future__ import annotations

from . import analysis as an
from .kernels import WHOLE_BOARD

STATUS_WORD = {"crash": "CRASH", "timeout": "TIMEOUT", "error": "ERROR", "skipped": "skipped"}


def _sizes(rows: list[dict]) -> list[str]:
    seen: dict[str, int] = {}
    for r in rows:
        seen.setdefault(r["size"], r["cells"])
    return sorted(seen, key=seen.get)


def _cell(row: dict | None) -> str:
    if row is None:
        return ""
    if row["status"] == "ok":
        return an.fmt_us(row["us_per_call"])
    return STATUS_WORD.get(row["status"], row["status"])


def _ns(row: dict | None, key: str) -> str:
    """ns per cell of a fastmine row's time (``us_per_call``) or its memory floor."""
    if row is None or row["status"] != "ok" or row.get(key) is None:
        return ""
    return f"{1000 * row[key] / row['cells']:.2f}"


def floor_lines(doc: dict) -> list[str]:
    """What the memory floor is, and where fastmine stands against it at the largest size."""
    rows = [r for r in doc["rows"] if r["peer"] == "fastmine" and r["status"] == "ok"
            and r.get("floor_us")]
    if not rows:
        return []
    out = ["*ns per cell* (whole-board kernels): fastmine's time divided by the cells. "
           "*Memory floor*: NumPy moving, in the same worker and interleaved with the peers, "
           "the bytes the kernel must move at least (`bench.tasks.memory_floor`: for a reveal "
           "a memset of the (n, 2) changed-cells array it returns plus a memcpy of the counts "
           "into the view, 18 bytes a cell; for 3BV a read of the mines and the counts, 2 "
           "bytes a cell; for the counts two 1-byte copies, 4 bytes a cell). No engine can go "
           "below it on this machine.", ""]
    largest = max(r["cells"] for r in rows)
    parts = []
    for r in sorted((r for r in rows if r["cells"] == largest), key=lambda r: r["kernel"]):
        gbs = r["floor_bytes"] / (r["floor_us"] * 1e-6) / 1e9
        parts.append(f"{doc['kernels'][r['kernel']]['title']} {an.fmt_us(r['us_per_call'])} µs "
                     f"against a floor of {an.fmt_us(r['floor_us'])} µs "
                     f"({r['us_per_call'] / r['floor_us']:.1f}x; {gbs:.0f} GB/s moved)")
    label = next(r["size"] for r in rows if r["cells"] == largest)
    out += [f"Bandwidth bound at {label}: " + "; ".join(parts) + ".", ""]
    return out


def headline(doc: dict) -> list[str]:
    """The headline table: fastmine µs per call and each peer's ratio, per kernel and size.

    One line per kernel and peer; the columns are the sizes.
    """
    rows = doc["rows"]
    idx = an.index(rows)
    rat = an.ratios(rows)
    sizes = _sizes(rows)
    peers = [p for p in doc["peers"] if p != "fastmine"]
    labels = {p: doc["peers"][p]["label"] for p in doc["peers"]}
    out = ["| kernel | | " + " | ".join(sizes) + " |",
           "|---|---|" + "---:|" * len(sizes)]
    for k in doc["kernels"]:
        title = doc["kernels"][k]["title"]
        out.append(f"| **{title}** | fastmine µs | "
                   + " | ".join(_cell(idx.get((k, "fastmine", s))) for s in sizes) + " |")
        if k in WHOLE_BOARD:
            fm = [idx.get((k, "fastmine", s)) for s in sizes]
            out.append("| | fastmine ns per cell | " + " | ".join(_ns(r, "us_per_call") for r in fm) + " |")
            out.append("| | memory floor ns per cell | " + " | ".join(_ns(r, "floor_us") for r in fm) + " |")
        for p in peers:
            cells = []
            for s in sizes:
                r = idx.get((k, p, s))
                if r is None:
                    cells.append("")
                elif r["status"] != "ok":
                    cells.append(STATUS_WORD.get(r["status"], r["status"]))
                else:
                    cells.append(an.fmt_ratio(an.ratio_of(rat, k, p, s)))
            out.append(f"| | vs {labels[p]} | " + " | ".join(cells) + " |")
    return out


def _details(doc: dict) -> list[str]:
    rows = doc["rows"]
    idx = an.index(rows)
    rat = an.ratios(rows)
    peers = list(doc["peers"])
    labels = {p: doc["peers"][p]["label"] for p in peers}
    out = []
    for k, meta in doc["kernels"].items():
        out += [f"### {meta['title']}", "", meta["what"] + ".", ""]
        whole = k in WHOLE_BOARD
        out.append("| size | mines | " + " | ".join(f"{labels[p]} µs" for p in peers)
                   + (" | fastmine ns/cell | memory floor µs" if whole else "") + " | check |")
        out.append("|---|---:|" + "---:|" * (len(peers) + 2 * whole) + "---|")
        for s in _sizes([r for r in rows if r["kernel"] == k]):
            cells, checks = [], set()
            mines = ""
            for p in peers:
                r = idx.get((k, p, s))
                if r is None:
                    cells.append("")
                    continue
                mines = r["mines"]
                c = _cell(r)
                ratio = an.ratio_of(rat, k, p, s)
                if ratio is not None:
                    c += f" ({an.fmt_ratio(ratio)})"
                cells.append(c)
                if r["status"] == "ok":
                    checks.add(str(r.get("check")))
            check = ("all ok" if checks == {"ok"} else
                     (f"agree: {checks.pop()}" if len(checks) == 1 else
                      ("**DISAGREE** " + ", ".join(sorted(checks)) if checks else "")))
            if whole:
                fm = idx.get((k, "fastmine", s))
                floor = fm.get("floor_us") if fm and fm["status"] == "ok" else None
                cells += [_ns(fm, "us_per_call"), an.fmt_us(floor) if floor else ""]
            out.append(f"| {s} | {mines} | " + " | ".join(cells) + f" | {check} |")
        out.append("")
    return out


def _failures(doc: dict) -> list[str]:
    bad = [r for r in doc["rows"] + doc.get("memory", []) if r["status"] not in ("ok", "skipped")]
    if not bad:
        return ["None: every measurement finished.", ""]
    out = ["| section | kernel | peer | size | status | what happened |",
           "|---|---|---|---|---|---|"]
    for r in bad:
        out.append(f"| {r.get('section', 'timing')} | {r['kernel']} | {r['peer']} | {r['size']} | "
                   f"{STATUS_WORD[r['status']]} | {r.get('error', '')} |")
    return out + [""]


def _targets(doc: dict) -> list[str]:
    t = an.targets(doc["rows"])
    if not t:
        return ["No target applies to this run's sizes and peers.", ""]
    misses = [r for r in t if r["ok"] is False]
    na = [r for r in t if r["ok"] is None]
    out = [f"{len(t) - len(misses) - len(na)} of {len(t)} target comparisons met "
           f"(>= {an.PURE_TARGET:g}x plain Python from 50x50 up; faster than ms-toollib "
           f"from 9x9 to 1000x1000; kernels: {', '.join(an.TARGET_KERNELS)}).", ""]
    if misses:
        out += ["**Missed:**", "", "| kernel | vs | size | ratio | needed |", "|---|---|---|---:|---:|"]
        out += [f"| {r['kernel']} | {r['peer']} | {r['size']} | {an.fmt_ratio(r['ratio'])} | "
                f">= {r['need']:g}x |" for r in misses]
        out.append("")
    if na:
        out.append("Not comparable (the peer did not finish): "
                   + ", ".join(f"{r['kernel']} {r['size']} vs {r['peer']} ({r['status']})"
                               for r in na) + ".")
        out.append("")
    return out


def _scaling(doc: dict) -> list[str]:
    sl = an.slopes(doc["rows"])
    peers = list(doc["peers"])
    labels = {p: doc["peers"][p]["label"] for p in peers}
    out = [f"Slope of log(time) against log(cells), fitted from {an.FIT_FROM_CELLS} cells "
           "(50x50) up: 1 means time grows in proportion to the board, 0 means it does not "
           "grow. (* = fewer than two sizes that large, fitted over all sizes.)", "",
           "| kernel | " + " | ".join(labels[p] for p in peers) + " |",
           "|---|" + "---:|" * len(peers)]
    for k, meta in doc["kernels"].items():
        cells = []
        for p in peers:
            f = sl.get(k, {}).get(p)
            cells.append("—" if f is None else
                         f"{f['slope']:.2f}" + ("*" if f["from_cells"] < an.FIT_FROM_CELLS else ""))
        out.append(f"| {meta['title']} | " + " | ".join(cells) + " |")
    return out + [""]


def _equivalence(doc: dict) -> list[str]:
    out = []
    for meta in doc["peers"].values():
        out += [f"**{meta['label']}**" + (f" — skipped: {meta['skipped']}" if meta["skipped"] else ""),
                ""]
        out += [f"- {doc['kernels'][k]['title']}: {meta['does'].get(k, '?')}"
                for k in doc["kernels"] if k in meta["does"]]
        out.append("")
    return out


def _breakdown(doc: dict) -> list[str]:
    blocks = doc.get("breakdown") or []
    if not blocks:
        return []
    sizes = [f"{b['size']}/{b['mines']}" for b in blocks]
    keys = [k for k in blocks[0] if k not in ("size", "mines")]
    out = ["## Where fastmine's time goes on small boards", "",
           "Public calls next to the private kernels under them (µs per call). The "
           "difference is the Python layer: argument checks, array allocation, object creation. "
           "The calls rotate through a pool of boards, as every figure does. "
           "The ms-toollib rows are its game object on the same boards and click, for the cost "
           "of a new game and its first reveal (`MinesweeperBoard(board)`, then `step('lc')` and "
           "`step('lr')`, a press and a release).",
           "", "| call | " + " | ".join(sizes) + " |", "|---|" + "---:|" * len(sizes)]
    for k in keys:
        out.append(f"| {k} | " + " | ".join(
            an.fmt_us(b.get(k)) if isinstance(b.get(k), (int, float)) else str(b.get(k, ""))
            for b in blocks) + " |")
    return out + [""]


def _memory(doc: dict) -> list[str]:
    mem = doc.get("memory") or []
    if not mem:
        return []
    out = ["## Peak memory at each peer's largest size", "",
           "A fresh process per figure. *RSS*: how far the resident set peaked above its level before "
           "the call (sees every allocation, a compiled library's own included). *traced*: "
           "tracemalloc's peak during a second call (Python objects and NumPy arrays only). "
           "The input board (and a reveal's new game) is built before and not counted.", "",
           "| peer | size | kernel | RSS MiB | traced MiB | one call s |", "|---|---|---|---:|---:|---:|"]
    for r in mem:
        if r["status"] == "ok":
            out.append(f"| {doc['peers'][r['peer']]['label']} | {r['size']} | {r['kernel']} | "
                       f"{r['rss_mb']:,.1f} | {r['traced_mb']:,.1f} | {r['seconds']:.3f} |")
        else:
            out.append(f"| {doc['peers'][r['peer']]['label']} | {r['size']} | {r['kernel']} | "
                       f"{STATUS_WORD[r['status']]} | | |")
    return out + [""]


def _load(m: dict) -> str:
    a, b = m.get("load_average"), m.get("load_average_end")
    if not a:
        return ""
    s = f" Load average at the start {a[0]:.1f}"
    if b:
        s += f", at the end {b[0]:.1f}"
    return s + f" (on {m['cpus']} CPUs: above that, other work competed for the CPU)."


def render(doc: dict, plots: dict[str, str]) -> str:
    """The whole report as markdown; ``plots`` maps plot name -> file name beside it."""
    from .coach_bench import videos_section
    from .report_env import env_section
    from .report_sections import app_section, solver_section

    m = doc["machine"]
    cfg = doc["config"]
    clock = ("wall-clock time (perf_counter)" if cfg.get("clock", "wall") == "wall"
             else "process CPU time (steadier on a shared machine)")
    out = [f"# fastmine benchmarks: {doc['name']}", "",
           f"Produced by `{doc['command']}` on {doc['created']}.", "",
           f"Python {m['python']} ({m['implementation']}), {m['platform']}, {m['cpu']} "
           f"({m['cpus']} CPUs); fastmine {m['fastmine']} (commit {m['git_commit'] or '?'}), "
           f"NumPy {m['numpy']}, SciPy {m['scipy']}, ms-toollib {m['ms_toollib']}."
           + _load(m), "",
           f"Each figure is the median of up to {cfg['repeats']} repeats of a timeit-style loop "
           f"(loop count autoranged to >= {cfg['min_time']:g} s, garbage collector off), in µs per "
           f"call, {clock}. The peers of one kernel and size run in the same worker process "
           "with their repeats interleaved (fastmine, peer, peer, ..., then again), so a change "
           "in the machine's load hits them alike. If a peer crashes the worker, each peer of "
           "that group is timed again alone and the crash is recorded as that peer's row. "
           "Ratios are peer time / fastmine time: above 1, fastmine is that many times faster. "
           "The calls of a figure rotate through a pool of different boards built beforehand, "
           "the same pool for every peer (up to 64 boards, fewer on large boards; the JSON's "
           "`boards` field gives the count), each call on the next board, so the CPU's branch "
           "predictor cannot learn one board, nor a large board stay in the caches (a user "
           "playing game after game never meets a board twice); the generation kernels lay a "
           "new board on every call.",
           ""]
    if doc.get("worker_restarts"):
        out += [f"The worker was restarted {doc['worker_restarts']} time(s) after a crash or "
                "timeout.", ""]
    out += ["## Headline", ""] + headline(doc) + [""] + floor_lines(doc)
    if "scaling" in plots:
        out += [f"![time against cells]({plots['scaling']})", ""]
    if "speedup" in plots:
        out += [f"![fastmine's speed-up over each peer]({plots['speedup']})", ""]
    out += ["## Speed targets", ""] + _targets(doc)
    out += ["## Crashes, timeouts and errors", ""] + _failures(doc)
    dis = an.disagreements(doc["rows"])
    out += ["## Do the peers compute the same thing?", "",
            "Every output is checked: generated boards for the mine count, the safe first-click "
            "area and correct counts; the other kernels must agree across peers (sum of counts "
            "over safe cells, 3BV, number of cells revealed).", "",
            ("All outputs agree." if not dis else
             "**Disagreements:** " + "; ".join(f"{d['kernel']} {d['size']}: {d['checks']}"
                                                for d in dis)), "",
            "What exactly each peer's timed call does:", ""] + _equivalence(doc)
    out += ["## Scaling", ""] + _scaling(doc)
    out += ["## All figures", ""] + _details(doc)
    out += _breakdown(doc) + _memory(doc)
    out += solver_section(doc) + app_section(doc) + env_section(doc) + videos_section(doc)
    return "\n".join(out).rstrip() + "\n"
