"""Reading a video and turning its events into moves, against ms-toollib.

``python -m bench.videos_bench [FILE ...]`` (the test videos by default) times,
for each file, on one CPU core and in CPU time (the median of repeats):

* fastmine: ``read_video`` alone, and ``play_video(read_video(...))``: the
  board, every event, the moves, the clicks, the outcome, the time;
* ms-toollib: ``parse()`` + ``analyse()`` (the same ground: board, events,
  clicks, solved 3BV, time), and that plus
  ``analyse_for_features(["high_risk_guess", "needless_guess"])``, its
  probability-based analysis, once.

ms-toollib aborts the process on files it cannot read, so it is given only the
formats it reads (all but Clone's releases other than 0.97).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastmine.videos import play_video, read_video

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "videos"


def _cpu(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return statistics.median(times)


def measure(path: Path, repeats: int = 9) -> dict[str, float | None]:
    """Seconds of CPU time for each way of reading ``path`` (None: not measured)."""
    data = path.read_bytes()
    row: dict[str, float | None] = {
        "read": _cpu(lambda: read_video(data, name=str(path)), repeats),
        "read+moves": _cpu(lambda: play_video(read_video(data, name=str(path))), repeats),
        "ms-toollib": None, "ms-toollib+features": None}
    video = read_video(data, name=str(path))
    if video.format == "mvf" and video.format_version != "0.97":
        return row
    try:
        import ms_toollib as ms
    except ImportError:
        return row
    cls: Any = {"avf": ms.AvfVideo, "rmv": ms.RmvVideo, "mvf": ms.MvfVideo,
           "evf": ms.EvfVideo}[video.format]

    def theirs(features: bool = False) -> None:
        v = cls(str(path))
        v.parse()
        v.analyse()
        if features:
            v.analyse_for_features(["high_risk_guess", "needless_guess"])

    row["ms-toollib"] = _cpu(theirs, max(1, repeats // 3))
    theirs(True)        # its first analysis loads a model: not counted
    row["ms-toollib+features"] = _cpu(lambda: theirs(True), 1)
    return row


def main(argv: list[str] | None = None) -> None:
    """Time fastmine's video reading and move conversion against ms-toollib."""
    parser = argparse.ArgumentParser(prog="python -m bench.videos_bench", description=main.__doc__)
    parser.add_argument("files", nargs="*", type=Path, help="videos (default: the test videos)")
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args(argv)
    files = args.files or sorted(p for p in DATA.iterdir()
                                 if p.suffix in (".avf", ".rmv", ".mvf", ".evf")
                                 and "invalid" not in p.name)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cols = ("read", "read+moves", "ms-toollib", "ms-toollib+features")
    print(f"{'file':34} {'board':>6} {'events':>7} " + " ".join(f"{c:>20}" for c in cols))
    for f in files:
        video = read_video(f)
        row = measure(f, args.repeats)
        cells = " ".join(f"{'-' if (v := row[c]) is None else f'{1e3 * v:.2f} ms':>20}"
                         for c in cols)
        print(f"{f.name:34} {video.rows:>3}x{video.cols:<3} {len(video.events):>7} {cells}",
              flush=True)


if __name__ == "__main__":
    main()
