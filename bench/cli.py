"""Command line of the suite: ``python -m bench`` (and ``fastmine bench``)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from fastmine.files.outputs import write_output
from fastmine.files.storage import read_regular_file, refuse_owned
from fastmine.limits import check_board_size

from .kernels import FASTMINE_ONLY_SIZES, FULL_SIZES, KERNELS, QUICK_SIZES, size
from .peers import PEERS
from .suite import RESULTS_DIR, Config

MAX_RESULTS_BYTES = 64 * 2**20
"""The largest results file --from-json reads (a full run's is about 1 MB)."""


def _csv(choices):
    def parse(text: str) -> list[str]:
        items = [t.strip() for t in text.split(",") if t.strip()]
        bad = [t for t in items if t not in choices]
        if bad:
            raise argparse.ArgumentTypeError(f"unknown {bad}; choose from {', '.join(choices)}")
        return items
    return parse


def _sizes(text: str):
    try:
        sizes = [size(t.strip()) for t in text.split(",") if t.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"sizes are ROWSxCOLS or ROWSxCOLS/MINES, comma-separated: {text!r}") from None
    for s in sizes:     # a board fastmine cannot have would only fail (or fill memory) later
        try:
            check_board_size(s.rows, s.cols)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        if not 1 <= s.mines < s.rows * s.cols:
            raise argparse.ArgumentTypeError(
                f"a {s.rows}x{s.cols} board has 1 to {s.rows * s.cols - 1} mines, not {s.mines}")
    return sizes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The suite's options (shared by ``python -m bench`` and ``fastmine bench``)."""
    parser.add_argument("--quick", action="store_true",
                        help="small sizes, short loops: a smoke run in well under a minute")
    parser.add_argument("--name", help="results are written as <out>/<name>.{json,md} and "
                        "<name>-*.png (default: 'quick' or 'full')")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR,
                        help="output directory (default: bench/results)")
    parser.add_argument("--sizes", type=_sizes, metavar="RxC[/M],...",
                        help=f"sizes for every peer (default {','.join(FULL_SIZES)}; quick: "
                        f"{','.join(QUICK_SIZES)}); no mine count means 20%%")
    parser.add_argument("--fastmine-only-sizes", type=_sizes, metavar="RxC[/M],...",
                        help=f"extra sizes for fastmine alone (default {','.join(FASTMINE_ONLY_SIZES)};"
                        " quick: none)")
    parser.add_argument("--peers", type=_csv(list(PEERS)), default=list(PEERS),
                        help=f"comma-separated (default all: {','.join(PEERS)})")
    parser.add_argument("--kernels", type=_csv(list(KERNELS)), default=list(KERNELS),
                        help=f"comma-separated (default all: {','.join(KERNELS)})")
    parser.add_argument("--repeats", type=int, help="repeats per figure; the median is "
                        "reported (default 7; quick 3)")
    parser.add_argument("--min-time", type=float, help="seconds each timed loop lasts at "
                        "least (default 0.1; quick 0.01)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall: perf_counter, as timeit (default); cpu: process CPU time, "
                        "steadier when other work shares the machine")
    parser.add_argument("--timeout", type=float, help="seconds before one measurement is "
                        "stopped and recorded as a timeout (default 600; quick 60)")
    parser.add_argument("--seed", type=int, default=12345, help="seed of the input boards")
    for part, what in (("memory", "peak-memory section"), ("breakdown", "small-board profile"),
                       ("solver", "solver section"), ("app", "app section"),
                       ("env", "Gymnasium environment section"),
                       ("videos", "video section (fastmine analyze and its coach against "
                                  "ms-toollib on the test videos, or $FASTMINE_BENCH_VIDEOS)"),
                       ("plots", "PNG plots")):
        parser.add_argument(f"--no-{part}", dest=part, action="store_false",
                            help=f"skip the {what}")
    parser.add_argument("--from-json", type=Path, metavar="RESULTS.json",
                        help="measure nothing: re-render the report, plots (and --docs) of an "
                        "earlier run")
    parser.add_argument("--docs", action="store_true",
                        help="also write docs/benchmarks.md and docs/benchmarks-scaling.png")


def config(args: argparse.Namespace, argv: list[str] | None = None) -> Config:
    """A :class:`Config` from parsed arguments."""
    quick = args.quick
    argv = sys.argv[1:] if argv is None else argv
    return Config(
        name=args.name or ("quick" if quick else "full"),
        quick=quick,
        sizes=args.sizes or [size(s) for s in (QUICK_SIZES if quick else FULL_SIZES)],
        fastmine_only_sizes=(args.fastmine_only_sizes if args.fastmine_only_sizes is not None
                             else [] if quick else [size(s) for s in FASTMINE_ONLY_SIZES]),
        peers=args.peers,
        kernels=args.kernels,
        min_time=args.min_time if args.min_time is not None else (0.01 if quick else 0.1),
        clock=args.clock,
        repeats=args.repeats or (3 if quick else 7),
        budget=3.0 if quick else 30.0,
        timeout=args.timeout or (60.0 if quick else 600.0),
        seed=args.seed,
        memory=args.memory, breakdown=args.breakdown, solver=args.solver, app=args.app,
        env=args.env, videos=args.videos, plots=args.plots, out=args.out,
        command=" ".join(["python -m bench", *map(shlex.quote, argv)]),
    )


#: what each optional module of the ``bench`` extra is for in a run
OPTIONAL = {
    "scipy": ("SciPy", "the NumPy/SciPy peer"),
    "ms_toollib": ("ms-toollib", "the ms-toollib peer"),
    "matplotlib": ("matplotlib", "the plots"),
}


def missing_extras(cfg: Config) -> list[str]:
    """What this run will go without, as ``"SciPy (the NumPy/SciPy peer)"``; [] if nothing."""
    wanted = {"scipy": "numpy" in cfg.peers, "ms_toollib": "ms_toollib" in cfg.peers,
              "matplotlib": cfg.plots}
    return [f"{OPTIONAL[mod][0]} ({OPTIONAL[mod][1]})" for mod, want in wanted.items()
            if want and not _importable(mod)]


def _importable(module: str) -> bool:
    import importlib

    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def fastmine_failures(doc: dict) -> list[str]:
    """fastmine's own measurements that did not come back: a failed run, not a missing peer."""
    rows = doc.get("rows", []) + doc.get("memory", [])
    return [f"{r['kernel']} {r['size']}: {r['status']} {r.get('error', '')}".rstrip()
            for r in rows if r["peer"] == "fastmine" and r["status"] not in ("ok", "skipped")]


def run(args: argparse.Namespace, argv: list[str] | None = None) -> int:
    """Run the suite as ``args`` says and write the results; returns the exit status.

    Before measuring, it says which optional packages are missing and what the
    run goes without (install the ``bench`` extra for all of them).  The status
    is 1 when any of fastmine's own measurements failed, 0 otherwise.
    """
    from . import report, suite

    cfg = config(args, argv)
    doc = None
    if args.from_json:
        try:
            doc = json.loads(read_regular_file(args.from_json, MAX_RESULTS_BYTES))
            cfg.name = args.name or doc["name"]
            if not isinstance(cfg.name, str) or not isinstance(doc.get("rows"), list):
                raise ValueError("not the JSON of a run")
        except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
            print(f"bench: --from-json {args.from_json}: not the results of a run "
                  f"({exc.strerror if isinstance(exc, OSError) and exc.strerror else exc})",
                  file=sys.stderr)
            return 2
    try:        # before any work: a plain name, never over a file of fastmine's
        if cfg.name in ("", ".", "..") or Path(cfg.name).name != cfg.name:
            raise ValueError(f"--name {cfg.name!r}: give a file name without a folder "
                             "(--out says where)")
        for path in (cfg.out, cfg.out / f"{cfg.name}.json", cfg.out / f"{cfg.name}.md"):
            refuse_owned(path, "--out/--name")
    except ValueError as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 2
    missing = [] if args.from_json else missing_extras(cfg)
    if missing:
        print("bench: not installed, so this run goes without: " + ", ".join(missing)
              + ". pip install '.[bench]' in fastmine's checkout "
              "adds them.", file=sys.stderr)
    cfg.out.mkdir(parents=True, exist_ok=True)
    if doc is None:
        doc = suite.run(cfg)
    plots = {}
    if cfg.plots:
        try:
            from . import plots as _plots
            plots = _plots.write_all(doc, cfg.out, cfg.name)
        except ImportError as exc:
            print(f"bench: no plots, matplotlib is missing ({exc})", file=sys.stderr)
    doc["plots"] = plots
    js = cfg.out / f"{cfg.name}.json"
    md = cfg.out / f"{cfg.name}.md"
    write_output(js, json.dumps(doc, indent=1, default=str) + "\n", "--out/--name")
    write_output(md, report.render(doc, plots), "--out/--name")
    print(f"bench: wrote {js}, {md}" + "".join(f", {cfg.out / p}" for p in plots.values()))
    if args.docs:
        from . import docs_page
        print(f"bench: wrote {docs_page.write(doc, md)}")
    failed = [] if args.from_json else fastmine_failures(doc)
    if failed:
        print("bench: fastmine's own measurements failed:\n  " + "\n  ".join(failed),
              file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m bench``."""
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="fastmine benchmark suite: fastmine side by side with plain Python, "
                    "NumPy/SciPy and ms-toollib; writes JSON, a markdown report and plots.")
    add_arguments(parser)
    argv = sys.argv[1:] if argv is None else argv
    return run(parser.parse_args(argv), argv)
