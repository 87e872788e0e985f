"""``fastmine analyze`` and the coach against ms-toollib's parse + analyse, side by side.

``python -m bench.coach_bench [--copies 100] [--rounds 5] [--videos DIR] [--json OUT]``
measures, in one run, in CPU time, on the real videos of ``tests/data/videos``, or
on ``--copies`` Expert videos of a folder of one's own (``--videos DIR``, or the
``FASTMINE_BENCH_VIDEOS`` environment variable, which the suite's video section
reads too; folders are walked, and the Expert files are taken evenly spread over
the folder's sorted names):

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
  and the ratios to ms-toollib. With a folder holding that many Expert files
  ms-toollib reads, each is there once.

The children get a bytecode cache (``PYTHONPYCACHEPREFIX`` in a temporary
folder, filled by one warm-up run) as an installed package has, even where
``PYTHONDONTWRITEBYTECODE`` is set: without it every start compiles fastmine's
sources again.  ms-toollib aborts the process on files it cannot read, so each
file is first tried in a child process (restarted after an abort), and ms-toollib
is given only those it read there; files fastmine refuses are left out.
"""

from __future__ import annotations

import argparse
import contextlib
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

try:  # the children never import from the working folder (PYTHONSAFEPATH=1)
    from fastmine.children import clean_env
except ImportError:     # an older fastmine measured beside: the same one rule
    def clean_env(env: Any = None) -> dict[str, str]:
        return {**(os.environ if env is None else env), "PYTHONSAFEPATH": "1"}

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "videos"
EXPERT = (16, 30, 99)
SUFFIXES = (".avf", ".rmv", ".mvf", ".evf")
ENV_FOLDER = "FASTMINE_BENCH_VIDEOS"

MS_LOOP = """
import sys
import ms_toollib as ms
kinds = {"avf": ms.AvfVideo, "rmv": ms.RmvVideo, "mvf": ms.MvfVideo, "evf": ms.EvfVideo}
for name in sys.argv[1:]:
    v = kinds[name.rsplit(".", 1)[1].lower()](name)
    v.parse()
    v.analyse()
"""

# One child tries files with ms-toollib and prints each it read; it aborts on some.
MS_TRY = """
import sys
import ms_toollib as ms
kinds = {"avf": ms.AvfVideo, "rmv": ms.RmvVideo, "mvf": ms.MvfVideo, "evf": ms.EvfVideo}
for name in sys.stdin:
    name = name.rstrip("\\n")
    try:
        v = kinds[name.rsplit(".", 1)[1].lower()](name)
        v.parse()
        v.analyse()
        print("ok", flush=True)
    except Exception:
        print("no", flush=True)
"""


def ms_toollib_reads(paths: list[Path]) -> list[bool]:
    """Whether ms-toollib parses and analyses each file, each tried in a child process
    that is started again after a file aborts it (all False without ms-toollib)."""
    try:
        import ms_toollib  # noqa: F401
    except ImportError:
        return [False] * len(paths)
    out: list[bool] = []
    # The children run in a folder of their own: ms-toollib's panic handler writes
    # crash.log into the working folder (it was left in the checkout's root).
    with tempfile.TemporaryDirectory(prefix="fastmine-ms-toollib-") as scratch:
        while len(out) < len(paths):
            out += _ms_toollib_try(paths[len(out):], scratch)
    return out


def _ms_toollib_try(paths: list[Path], cwd: str) -> list[bool]:
    """One child's answers for ``paths``, up to and including the file that aborts it."""
    out: list[bool] = []
    proc = subprocess.Popen([sys.executable, "-c", MS_TRY], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=clean_env(), cwd=cwd)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        while len(out) < len(paths):
            proc.stdin.write(f"{Path(paths[len(out)]).resolve()}\n")
            proc.stdin.flush()
            answer = proc.stdout.readline()
            out.append(answer.strip() == "ok")   # nothing: the file aborted it
            if not answer:
                break
    except BrokenPipeError:
        out.append(False)
    finally:
        for stream in (proc.stdin, proc.stdout):
            with contextlib.suppress(BrokenPipeError):
                stream.close()
        proc.wait()
    return out


def _spread(items: list[Any], n: int) -> list[Any]:
    """``n`` of ``items`` evenly spaced over the list (all of them if fewer)."""
    if len(items) <= n:
        return list(items)
    return [items[i * len(items) // n] for i in range(n)]


def videos(folder: Path | None = None, expert: int | None = None) -> list[dict[str, Any]]:
    """The videos measured: path, level, whether ms-toollib reads them.

    Without ``folder``, the test videos; with one, ``expert`` of its Expert files
    (folders walked) that both readers read, evenly spread over their sorted paths
    (fewer if it has fewer).  Files fastmine refuses are left out.
    """
    from fastmine.videos import read_video

    root = DATA if folder is None else folder
    paths = sorted(p for p in (root.rglob("*") if root.is_dir() else [root])
                   if p.suffix.lower() in SUFFIXES and p.is_file())
    out: list[dict[str, Any]] = []
    for p in paths:
        try:
            v = read_video(p)
        except (OSError, ValueError):
            continue            # the test videos' one meant to be refused, or a broken file
        size = (v.rows, v.cols, v.mines)
        if folder is None or size == EXPERT:
            out.append({"path": p, "expert": size == EXPERT, "size": size})
    if folder is not None and expert is not None:
        # the evenly spread ones first, the rest in reserve for any ms-toollib refuses
        picked = _spread(out, expert)
        order = picked + [f for f in out if f not in picked]
        chosen: list[dict[str, Any]] = []
        for i in range(0, len(order), expert):
            batch = order[i:i + expert]
            for f, ok in zip(batch, ms_toollib_reads([f["path"] for f in batch]), strict=True):
                if ok and len(chosen) < expert:
                    chosen.append({**f, "ms_toollib": True})
            if len(chosen) == expert:
                break
        return sorted(chosen, key=lambda f: f["path"])
    for f, ok in zip(out, ms_toollib_reads([f["path"] for f in out]), strict=True):
        f["ms_toollib"] = ok
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
    if not expert:
        return {"files": 0, "distinct": [], "cpu_s": {}, "all_s": {},
                "skipped": "no Expert file that ms-toollib reads"}
    with tempfile.TemporaryDirectory(prefix="fastmine-coach-bench-") as tmp:
        folder = Path(tmp) / "videos"
        folder.mkdir()
        names = []
        for i in range(copies):
            src = expert[i % len(expert)]
            dst = folder / f"{i:04d}_{src.name}"
            shutil.copyfile(src, dst)
            names.append(str(dst))
        env = clean_env()
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
            "start: fastmine analyze --no-coach, one Beginner file": (
                [sys.executable, "-m", "fastmine", "analyze", "--no-coach",
                 str(DATA / "meta_v3_beg.evf")], env),
            # The floors under each start: Python's own, NumPy's import (on one
            # OpenBLAS thread, as the fastmine command sets), ms-toollib's import.
            "start: python -c pass": ([sys.executable, "-c", "pass"], env),
            "start: python -c 'import numpy', one OpenBLAS thread": (
                [sys.executable, "-c", "import numpy"], blas1),
            "start: python -c 'import ms_toollib'": (
                [sys.executable, "-c", "import ms_toollib"], env),
        }
        try:
            import ms_toollib  # noqa: F401
        except ImportError:
            del ways["ms-toollib"], ways["start: python -c 'import ms_toollib'"]
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


def run(copies: int = 100, rounds: int = 5, folder: Path | None = None) -> dict[str, Any]:
    """Every measurement of this section (see the module docstring); ``folder``
    defaults to ``$FASTMINE_BENCH_VIDEOS``, and without either to the test videos."""
    if folder is None and os.environ.get(ENV_FOLDER):
        folder = Path(os.environ[ENV_FOLDER])
    files = videos(folder, copies)
    if not files:
        return {"skipped": f"no video fastmine reads in {folder or DATA}"}
    rows = per_file(files, rounds)
    expert = [r for r in rows if r["expert"]]
    coach_ms = [1e3 * r["coach"] for r in expert]
    doc: dict[str, Any] = {
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "per_file": rows,
        "coach_ms_median_expert": statistics.median(coach_ms) if coach_ms else None,
        "expert_games": len(expert),
        "folder": str(folder) if folder is not None else None,
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


MAX_ROWS = 30
"""Above this many files the report gives the per-file medians, not a row a file."""


def report(doc: dict[str, Any]) -> str:
    """The results as markdown tables."""
    cell = lambda v: "-" if v is None else f"{1e3 * v:.2f} ms"  # noqa: E731
    ways = ("ms-toollib", "read", "read+coach", "coach")
    rows = doc["per_file"]
    if len(rows) > MAX_ROWS:                # a collection: the medians, not a row a file
        out = [f"{len(rows)} files of {doc.get('folder')}, per file, median over the files:",
               "", "| moves | ms-toollib parse+analyse | fastmine read | fastmine read+coach "
               "| coach |", "|---|---|---|---|---|"]
        med = {k: statistics.median(v) if (v := [r[k] for r in rows if r.get(k) is not None])
               else None for k in ("moves", *ways)}
        out.append(f"| {med['moves']:.0f} | " + " | ".join(cell(med[k]) for k in ways) + " |")
    else:
        out = ["| file | Expert | moves | ms-toollib parse+analyse | fastmine read | "
               "fastmine read+coach | coach |", "|---|---|---|---|---|---|---|"]
        for r in rows:
            out.append(f"| {r['file']} | {'yes' if r['expert'] else ''} | {r['moves']} | "
                       + " | ".join(cell(r.get(k)) for k in ways) + " |")
    out += ["", f"Coach per real Expert game, median of {doc['expert_games']}: "
            f"{doc['coach_ms_median_expert']:.2f} ms."]
    if "per_file_ratio_expert" in doc:
        rt = doc["per_file_ratio_expert"]
        out.append("In one process, summed over the Expert files ms-toollib reads, to "
                   "ms-toollib's parse+analyse: " + ", ".join(
                       f"{k} {v:.2f}x" for k, v in rt.items()) + ".")
    w = doc["whole_runs"]
    if "skipped" in w:
        return "\n".join(out + ["", f"Whole runs not measured: {w['skipped']}."])
    which = (f"{len(w['distinct'])} distinct files, each once" if len(w["distinct"]) >= w["files"]
             else f"{', '.join(w['distinct'])}, repeated")
    out += ["", f"Whole runs over {w['files']} Expert files ({which}), CPU of the process:",
            "", "| run | CPU | ratio to ms-toollib |", "|---|---|---|"]
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
    parser.add_argument("--videos", type=Path, metavar="DIR",
                        help=f"a folder of videos (walked) to take the Expert files from "
                             f"(default: ${ENV_FOLDER}, else the test videos)")
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    args = parser.parse_args(argv)
    doc = run(args.copies, args.rounds, args.videos)
    if "per_file" not in doc:
        raise SystemExit(f"python -m bench.coach_bench: {doc['skipped']}")
    doc["command"] = "python -m bench.coach_bench " + " ".join(argv or sys.argv[1:])
    print(report(doc))
    if args.json:
        args.json.write_text(json.dumps(doc, indent=1, default=str) + "\n")


if __name__ == "__main__":
    main()
