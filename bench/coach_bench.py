"""``fastmine analyze`` and the coach against ms-toollib's parse + analyse, side by side.

``python -m bench.coach_bench [--copies 100] [--rounds 5] [--json OUT]`` measures,
in one run, in CPU time, on the real videos of ``tests/data/videos``:

* per file, in one process (the median of ``--rounds`` interleaved rounds):
  ms-toollib ``parse()`` + ``analyse()``; fastmine's read (what ``fastmine
  analyze --no-coach`` does for a file: read, moves, game, metrics, its JSON
  entry); the same with the coach; the coach alone (``fastmine.coach.analyze``
  on the game), whose per-game median over the Expert games is the coach's
  figure;
* whole runs, each a fresh process over ``--copies`` Expert files (the ones
  ms-toollib reads, repeated): a Python loop of ms-toollib parse + analyse,
  ``fastmine analyze --no-coach`` and ``fastmine analyze``; the CPU of each
  child process (user + system, every thread), the median of the rounds,
  and the ratios to ms-toollib.

The children get a bytecode cache (``PYTHONPYCACHEPREFIX`` in a temporary
folder, filled by one warm-up run) as an installed package has, even where
``PYTHONDONTWRITEBYTECODE`` is set: without it every start compiles fastmine's
sources again.  ms-toollib aborts the process on files it cannot read, so it is
given only the formats it reads (all but Clone's releases other than 0.97).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "videos"
EXPERT = (16, 30, 99)

MS_LOOP = """
import sys
import ms_toollib as ms
kinds = {"avf": ms.AvfVideo, "rmv": ms.RmvVideo, "mvf": ms.MvfVideo, "evf": ms.EvfVideo}
for name in sys.argv[1:]:
    v = kinds[name.rsplit(".", 1)[1].lower()](name)
    v.parse()
    v.analyse()
"""


def videos() -> list[dict[str, Any]]:
    """The test videos: path, level, whether ms-toollib reads them."""
    from fastmine.videos import read_video

    out = []
    for p in sorted(DATA.iterdir()):
        if p.suffix.lower() not in (".avf", ".rmv", ".mvf", ".evf") or "invalid" in p.name:
            continue
        v = read_video(p)
        size = (v.rows, v.cols, v.mines)
        ms_reads = not (v.format == "mvf" and v.format_version != "0.97")
        out.append({"path": p, "expert": size == EXPERT, "size": size, "ms_toollib": ms_reads})
    return out


def _cpu(fn: Callable[[Path], object], path: Path) -> float:
    t0 = time.process_time()
    fn(path)
    return time.process_time() - t0


def per_file(files: list[dict[str, Any]], rounds: int) -> list[dict[str, Any]]:
    """Seconds of CPU per file for each way of reading it (medians of interleaved rounds)."""
    from fastmine.cli.analyze import analyze_file
    from fastmine.coach import analyze as coach
    from fastmine.videos import play_video, read_video
    from fastmine.videos.rebuild import rebuild

    try:
        import ms_toollib as ms
    except ImportError:
        ms = None

    def theirs(path: Path) -> None:
        kind = {"avf": ms.AvfVideo, "rmv": ms.RmvVideo, "mvf": ms.MvfVideo,
                "evf": ms.EvfVideo}[path.suffix[1:].lower()]
        v = kind(str(path))
        v.parse()
        v.analyse()

    games = {}
    for f in files:
        video = read_video(f["path"])
        games[f["path"]] = rebuild(video, play_video(video))
    ways: dict[str, Callable[[Path], object]] = {
        "read": lambda p: analyze_file(str(p), coach=False).line(),   # type: ignore[call-arg]
        "read+coach": lambda p: analyze_file(str(p)).line(),
        "coach": lambda p: coach(games[p].board, games[p].moves, rule=games[p].rule,
                                 question_marks=games[p].question_marks),
    }
    if ms is not None:
        ways["ms-toollib"] = theirs
    try:
        analyze_file(str(files[0]["path"]), coach=False)   # type: ignore[call-arg]
    except TypeError:               # an older fastmine, without --no-coach
        del ways["read"]
    times: dict[tuple[Path, str], list[float]] = {}
    for f in files:                 # warm-up: first imports, first allocations
        for name, fn in ways.items():
            if name != "ms-toollib" or f["ms_toollib"]:
                fn(f["path"])
    for _ in range(rounds):
        for f in files:
            for name, fn in ways.items():
                if name != "ms-toollib" or f["ms_toollib"]:
                    times.setdefault((f["path"], name), []).append(_cpu(fn, f["path"]))
    rows = []
    for f in files:
        row = {"file": f["path"].name, "expert": f["expert"], "moves": len(games[f["path"]].moves)}
        for name in ways:
            t = times.get((f["path"], name))
            row[name] = statistics.median(t) if t else None
        rows.append(row)
    return rows


def _child_cpu(cmd: list[str], env: dict[str, str]) -> float | None:
    """User + system CPU seconds of one child process (all its threads); None if it failed
    (an older fastmine without ``--no-coach``)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        return None
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def whole_runs(files: list[dict[str, Any]], copies: int, rounds: int) -> dict[str, Any]:
    """CPU of whole processes over ``copies`` Expert files, each way, interleaved."""
    expert = [f["path"] for f in files if f["expert"] and f["ms_toollib"]]
    with tempfile.TemporaryDirectory(prefix="fastmine-coach-bench-") as tmp:
        folder = Path(tmp) / "videos"
        folder.mkdir()
        names = []
        for i in range(copies):
            src = expert[i % len(expert)]
            dst = folder / f"{i:04d}_{src.name}"
            shutil.copyfile(src, dst)
            names.append(str(dst))
        env = dict(os.environ)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        import fastmine  # the children run the fastmine this process imported

        src_dir = str(Path(fastmine.__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join([src_dir, env["PYTHONPATH"]]) \
            if env.get("PYTHONPATH") else src_dir
        blas1 = {**env, "OPENBLAS_NUM_THREADS": "1"}
        ways: dict[str, tuple[list[str], dict[str, str]]] = {
            "ms-toollib": ([sys.executable, "-c", MS_LOOP, *names], env),
            "fastmine analyze --no-coach": ([sys.executable, "-m", "fastmine", "analyze",
                                             "--no-coach", *names], env),
            "fastmine analyze": ([sys.executable, "-m", "fastmine", "analyze", *names], env),
            "fastmine analyze, OPENBLAS_NUM_THREADS=1": (
                [sys.executable, "-m", "fastmine", "analyze", *names], blas1),
            "start: fastmine analyze, one Beginner file": (
                [sys.executable, "-m", "fastmine", "analyze", str(DATA / "meta_v3_beg.evf")], env),
            "start: python -c 'import numpy'": ([sys.executable, "-c", "import numpy"], env),
        }
        try:
            import ms_toollib  # noqa: F401
        except ImportError:
            del ways["ms-toollib"]
        for cmd, e in ways.values():        # warm-up: fills the bytecode cache
            _child_cpu(cmd, e)
        times: dict[str, list[float]] = {k: [] for k in ways}
        for _ in range(rounds):
            for name, (cmd, e) in ways.items():
                t = _child_cpu(cmd, e)
                if t is not None:
                    times[name].append(t)
        times = {k: v for k, v in times.items() if v}
    out: dict[str, Any] = {"files": copies, "distinct": sorted(p.name for p in expert),
                           "cpu_s": {k: statistics.median(v) for k, v in times.items()},
                           "all_s": times}
    ms_cpu = out["cpu_s"].get("ms-toollib")
    if ms_cpu:
        out["ratio_to_ms_toollib"] = {k: v / ms_cpu for k, v in out["cpu_s"].items()
                                      if not k.startswith("start")}
    return out


def run(copies: int = 100, rounds: int = 5) -> dict[str, Any]:
    """Every measurement of this section (see the module docstring)."""
    files = videos()
    rows = per_file(files, rounds)
    expert = [r for r in rows if r["expert"]]
    coach_ms = [1e3 * r["coach"] for r in expert]
    doc: dict[str, Any] = {
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "per_file": rows,
        "coach_ms_median_expert": statistics.median(coach_ms) if coach_ms else None,
        "expert_games": len(expert),
    }
    both = [r for r in expert if r.get("ms-toollib") is not None]
    if both:
        ms = sum(r["ms-toollib"] for r in both)
        doc["per_file_ratio_expert"] = {
            k: sum(r[k] for r in both) / ms for k in ("read", "read+coach", "coach")
            if all(r.get(k) is not None for r in both)}
    doc["whole_runs"] = whole_runs(files, copies, rounds)
    if hasattr(os, "getloadavg"):
        doc["load_average_end"] = list(os.getloadavg())
    return doc


def report(doc: dict[str, Any]) -> str:
    """The results as markdown tables."""
    out = ["| file | Expert | moves | ms-toollib parse+analyse | fastmine read | "
           "fastmine read+coach | coach |", "|---|---|---|---|---|---|---|"]
    cell = lambda v: "-" if v is None else f"{1e3 * v:.2f} ms"  # noqa: E731
    for r in doc["per_file"]:
        out.append(f"| {r['file']} | {'yes' if r['expert'] else ''} | {r['moves']} | "
                   f"{cell(r.get('ms-toollib'))} | {cell(r.get('read'))} | {cell(r['read+coach'])} "
                   f"| {cell(r['coach'])} |")
    out += ["", f"Coach per real Expert game, median of {doc['expert_games']}: "
            f"{doc['coach_ms_median_expert']:.2f} ms."]
    if "per_file_ratio_expert" in doc:
        rt = doc["per_file_ratio_expert"]
        out.append("In one process, summed over the Expert files ms-toollib reads, to "
                   "ms-toollib's parse+analyse: " + ", ".join(
                       f"{k} {v:.2f}x" for k, v in rt.items()) + ".")
    w = doc["whole_runs"]
    out += ["", f"Whole runs over {w['files']} Expert files ({', '.join(w['distinct'])}, "
            "repeated), CPU of the process:", "", "| run | CPU | ratio to ms-toollib |",
            "|---|---|---|"]
    ratios = w.get("ratio_to_ms_toollib", {})
    for k, v in w["cpu_s"].items():
        rt = f"{ratios[k]:.2f}x" if k in ratios else ""
        out.append(f"| {k} | {v:.3f} s | {rt} |")
    return "\n".join(out)


def videos_section(doc: dict[str, Any]) -> list[str]:
    """The suite report's section (``doc["videos"]``), or the note saying why it is missing."""
    v = doc.get("videos") or {}
    out = ["## Recorded games: fastmine analyze and the coach against ms-toollib", ""]
    if "per_file" not in v:
        return out + [f"Not measured: {v.get('skipped', 'no results')}.", ""]
    return out + [__doc__.split("\n\n", 1)[1].strip(), "", report(v), ""]


def main(argv: list[str] | None = None) -> None:
    """Time fastmine analyze and its coach against ms-toollib on the test videos."""
    parser = argparse.ArgumentParser(prog="python -m bench.coach_bench", description=main.__doc__)
    parser.add_argument("--copies", type=int, default=100,
                        help="Expert files in each whole run (default 100)")
    parser.add_argument("--rounds", type=int, default=5,
                        help="interleaved rounds; medians are reported (default 5)")
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    args = parser.parse_args(argv)
    doc = run(args.copies, args.rounds)
    doc["command"] = "python -m bench.coach_bench " + " ".join(argv or sys.argv[1:])
    print(report(doc))
    if args.json:
        args.json.write_text(json.dumps(doc, indent=1, default=str) + "\n")


if __name__ == "__main__":
    main()
