"""Run the suite: every kernel on every peer and size, then the optional sections.

All measurements run in one worker process (restarted after a crash), peer
after peer for the same kernel and size, so the figures compared with each
other are taken seconds apart under the same conditions.
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import subprocess
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import peers
from .kernels import KERNELS, Size
from .worker import Worker, run_isolated

RESULTS_DIR = Path(__file__).resolve().parent / "results"
SCHEMA = 1


@dataclass
class Config:
    """Everything that decides what a run measures (recorded in the JSON)."""

    name: str
    quick: bool
    sizes: list[Size]
    fastmine_only_sizes: list[Size]
    peers: list[str]
    kernels: list[str]
    min_time: float
    repeats: int
    clock: str
    budget: float
    timeout: float
    seed: int = 12345
    memory: bool = True
    breakdown: bool = True
    solver: bool = True
    app: bool = True
    env: bool = True
    videos: bool = True
    plots: bool = True
    out: Path = RESULTS_DIR
    command: str = ""
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        """The config as plain JSON values."""
        d = asdict(self)
        d["sizes"] = [s.label + f"/{s.mines}" for s in self.sizes]
        d["fastmine_only_sizes"] = [s.label + f"/{s.mines}" for s in self.fastmine_only_sizes]
        d["out"] = str(self.out)
        return d


def _version(dist: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def machine() -> dict:
    """Where the numbers come from: interpreter, libraries, CPU, commit, load."""
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), cpu)
    except OSError:
        pass
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, cwd=Path(__file__).parent, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    try:
        import fastmine
        fm_version = fastmine.__version__
    except ImportError:
        fm_version = None
    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpu": cpu,
        "cpus": os.cpu_count(),
        "fastmine": fm_version,
        "numpy": _version("numpy"),
        "scipy": _version("scipy"),
        "ms_toollib": _version("ms_toollib"),
        "gymnasium": _version("gymnasium"),
        "gym_minesweeper": _version("gym-minesweeper"),
        "jumanji": _version("jumanji"),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "git_commit": commit,
    }


def plan(cfg: Config) -> list[tuple[Size, str, list[str]]]:
    """The (size, kernel, peers) groups of the kernel section, in run order."""
    tasks = [(s, k, list(cfg.peers)) for s in cfg.sizes for k in cfg.kernels]
    if "fastmine" in cfg.peers:
        tasks += [(s, k, ["fastmine"]) for s in cfg.fastmine_only_sizes for k in cfg.kernels]
    return tasks


def _row(s: Size, kernel: str, peer: str, res: dict) -> dict:
    row = {"kernel": kernel, "peer": peer, "size": s.label, "rows": s.rows, "cols": s.cols,
           "mines": 1 if kernel.endswith("_empty") else s.mines, "cells": s.cells,
           "status": res["status"]}
    if res["status"] == "ok":
        row.update(res["result"])
    else:
        row["error"] = res.get("error", "")
    return row


def run_kernels(cfg: Config, worker: Worker, skipped: dict[str, str], progress) -> list[dict]:
    """Time every planned kernel, size and peer; unavailable peers get a skipped row.

    The peers of one kernel and size are timed together, their repeats
    interleaved (``bench.tasks.time_group``).  If that worker crashes or times
    out, each peer is timed again alone, so the crash is pinned on its peer and
    the others still get their figures.
    """
    rows = []
    for s, kernel, group in plan(cfg):
        progress.set_postfix_str(f"{kernel} {s.label}", refresh=False)
        run = [p for p in group if p not in skipped]
        args = {"kernel": kernel, "rows": s.rows, "cols": s.cols, "mines": s.mines,
                "seed": cfg.seed, "min_time": cfg.min_time, "repeats": cfg.repeats,
                "budget": cfg.budget, "clock": cfg.clock}
        results: dict[str, dict] = {}
        if run:
            res = worker.call("bench.tasks:time_group", {"peers_": run, **args},
                              timeout=cfg.timeout * len(run))
            if res["status"] == "ok":
                for peer, r in res["result"].items():
                    results[peer] = ({"status": "ok", "result": r} if r["status"] == "ok"
                                     else {"status": r["status"], "error": r["error"]})
            else:
                for peer in run:
                    progress.set_postfix_str(f"{kernel} {s.label} {peer} (alone)", refresh=False)
                    results[peer] = worker.call("bench.tasks:time_kernel", {"peer": peer, **args},
                                                timeout=cfg.timeout)
        for peer in group:
            if peer in skipped:
                rows.append(_row(s, kernel, peer, {"status": "skipped", "error": skipped[peer]}))
            else:
                r = results[peer]
                if r["status"] == "ok":
                    r = {**r, "result": {k: v for k, v in r["result"].items() if k != "status"}}
                rows.append(_row(s, kernel, peer, r))
            progress.update()
    return rows


def run_memory(cfg: Config, skipped: dict[str, str], progress) -> list[dict]:
    """Peak memory of each kernel at each peer's largest size, a fresh process each."""
    out = []
    for peer in memory_peers(cfg, skipped):
        pool = cfg.sizes + (cfg.fastmine_only_sizes if peer == "fastmine" else [])
        s = max(pool, key=lambda z: z.cells)
        for kernel in cfg.kernels:
            progress.set_postfix_str(f"memory {kernel} {s.label} {peer}", refresh=False)
            res = run_isolated("bench.tasks:memory_kernel", {
                "peer": peer, "kernel": kernel, "rows": s.rows, "cols": s.cols,
                "mines": s.mines, "seed": cfg.seed}, timeout=cfg.timeout)
            out.append({**_row(s, kernel, peer, res), "section": "memory"})
            progress.update()
    return out


def memory_peers(cfg: Config, skipped: dict[str, str]) -> list[str]:
    """Peers in the memory section: all available ones (fastmine alone with --quick)."""
    return [p for p in cfg.peers if p not in skipped and (p == "fastmine" or not cfg.quick)]


def run(cfg: Config) -> dict:
    """Run everything ``cfg`` asks for; returns the results document (not yet written)."""
    from tqdm.auto import tqdm

    from . import app_bench, coach_bench, env_bench, solver_bench

    skipped = {p: why for p in cfg.peers if (why := peers.unavailable(p))}
    n_mem = len(cfg.kernels) * len(memory_peers(cfg, skipped)) if cfg.memory else 0
    n_break = 2 if cfg.breakdown and "fastmine" not in skipped else 0
    doc: dict = {
        "schema": SCHEMA,
        "name": cfg.name,
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "command": cfg.command,
        "config": cfg.to_json(),
        "machine": machine(),
        "peers": {p: {"label": getattr(_safe_load(p), "LABEL", p),
                      "skipped": skipped.get(p),
                      "does": getattr(_safe_load(p), "DOES", {})} for p in cfg.peers},
        "kernels": {k: {"title": KERNELS[k].title, "what": KERNELS[k].what} for k in cfg.kernels},
    }
    total = sum(len(g) for _, _, g in plan(cfg)) + n_mem + n_break
    # disable=None: the bar only on a terminal (a log of a run stays lines, not \r frames).
    with tqdm(total=total, desc="bench", unit="task", dynamic_ncols=True, disable=None) as progress, \
            Worker() as worker:
        doc["rows"] = run_kernels(cfg, worker, skipped, progress)
        if n_break:
            doc["breakdown"] = []
            for s in sorted(cfg.sizes, key=lambda z: z.cells)[:2]:
                progress.set_postfix_str(f"breakdown {s.label}", refresh=False)
                res = worker.call("bench.breakdown:breakdown", {
                    "rows": s.rows, "cols": s.cols, "mines": s.mines, "seed": cfg.seed,
                    "min_time": cfg.min_time, "repeats": cfg.repeats, "clock": cfg.clock},
                    timeout=cfg.timeout)
                if res["status"] == "ok":
                    doc["breakdown"].append({"size": s.label, "mines": s.mines, **res["result"]})
                else:
                    doc["breakdown"].append({"size": s.label, "mines": s.mines,
                                             "error": f"{res['status']}: {res.get('error')}"})
                progress.update()
        doc["memory"] = run_memory(cfg, skipped, progress) if cfg.memory else []
        doc["solver"] = (solver_bench.run(cfg, worker, progress) if cfg.solver
                         else {"skipped": "not requested (--no-solver)"})
        doc["app"] = (app_bench.run(cfg, progress) if cfg.app
                      else {"skipped": "not requested (--no-app)"})
        doc["env"] = (env_bench.run(cfg, worker, progress) if cfg.env
                      else {"skipped": "not requested (--no-env)"})
        if cfg.videos:
            progress.set_postfix_str("videos", refresh=False)
            # whole runs of 100 Expert files (20 and one round with --quick)
            doc["videos"] = coach_bench.run(copies=20 if cfg.quick else 100,
                                            rounds=1 if cfg.quick else 5)
        else:
            doc["videos"] = {"skipped": "not requested (--no-videos)"}
    doc["worker_restarts"] = worker.restarts
    if hasattr(os, "getloadavg"):
        doc["machine"]["load_average_end"] = list(os.getloadavg())
    return doc


def _safe_load(name: str):
    try:
        return peers.load(name)
    except ImportError:
        return None
