"""How the coach judges the guesses of real Expert games.

    python scripts/coach_guesses.py                 # the videos of tests/data/videos
    python scripts/coach_guesses.py DIR_OR_FILE...  # other videos (.avf .rmv .mvf .evf), folders walked
    python scripts/coach_guesses.py --quiet DIR     # the totals only, for a large collection
    python scripts/coach_guesses.py --time          # and what the coach and safe play cost

For every Expert video (16x30, 99 mines) it counts the reveals and chords the
coach calls needless (``avoidable_risk``), early (``early_guess``) and early but
fair (``forced_early``): the guesses taken while a proven-safe cell existed (see
docs/coach.md); and, for comparison, the guesses taken with no safe cell on the
board: forced (``forced_guess``) and worse than the best on offer
(``worse_guess``).  The totals also say how many of each were chords, and how
many moves the coach could not weigh (``not_analysed``).  ``--time`` runs the
coach on each game several times and gives the median over the games of its CPU
time, and of the part spent in safe play.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUFFIXES = (".avf", ".rmv", ".mvf", ".evf")

try:  # the installed fastmine, or the work tree's (its kernels built in place)
    import fastmine  # noqa: F401
except ImportError:
    sys.path.insert(0, str(ROOT / "src"))

from fastmine.coach import (  # noqa: E402
    Category,
    analyze,
    safeplay,  # noqa: E402
)
from fastmine.videos import play_video, read_video  # noqa: E402
from fastmine.videos.rebuild import rebuild  # noqa: E402

KINDS = (Category.AVOIDABLE_RISK, Category.EARLY_GUESS, Category.FORCED_EARLY)
OTHERS = (Category.FORCED_GUESS, Category.WORSE_GUESS)


def videos(names: list[str]) -> list[Path]:
    """The video files named, folders walked."""
    out: list[Path] = []
    for name in names:
        p = Path(name)
        out += sorted(f for f in p.rglob("*") if f.suffix.lower() in SUFFIXES) if p.is_dir() else [p]
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the counts (and with ``--time`` the costs); returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=[str(ROOT / "tests" / "data" / "videos")])
    parser.add_argument("--time", action="store_true", help="also time the coach and safe play")
    parser.add_argument("--repeat", type=int, default=7, help="runs per game for --time (the fastest counts)")
    parser.add_argument("--quiet", action="store_true", help="the totals only, no line a game")
    args = parser.parse_args(argv)
    spent = [0.0]
    play = safeplay.SafePlayer.play

    def timed(self: safeplay.SafePlayer, *a: object, **k: object) -> object:
        t = time.process_time()
        try:
            return play(self, *a, **k)  # type: ignore[arg-type]
        finally:
            spent[0] += time.process_time() - t

    safeplay.SafePlayer.play = timed  # type: ignore[method-assign]
    total: Counter[str] = Counter()
    chords: Counter[str] = Counter()
    coach_ms, safe_ms = [], []
    games = skipped = 0
    for f in videos(args.paths):
        try:
            video = read_video(f)
            game = rebuild(video, play_video(video))
        except (OSError, ValueError) as exc:
            print(f"{f.name}: skipped ({exc})", file=sys.stderr)
            skipped += 1
            continue
        if (game.rows, game.cols, game.mine_count) != (16, 30, 99) or game.board is None:
            continue
        games += 1
        runs = []
        for _ in range(args.repeat if args.time else 1):
            spent[0] = 0.0
            t = time.process_time()
            verdicts = analyze(game.board, game.moves, rule=game.rule,
                               question_marks=game.question_marks)
            runs.append((time.process_time() - t, spent[0]))
        counts = Counter(v.category.value for v in verdicts)
        total.update(counts)
        chords.update(v.category.value for v in verdicts if v.kind == "chord")
        line = f"{f.name}: " + ", ".join(f"{k.value} {counts[k.value]}" for k in KINDS)
        if args.time:
            best = min(runs)
            coach_ms.append(best[0] * 1000)
            safe_ms.append(best[1] * 1000)
            line += f"; coach {best[0] * 1000:.2f} ms, safe play {best[1] * 1000:.2f} ms"
        if not args.quiet:
            print(line)
    print(f"{games} Expert games ({skipped} files skipped): "
          + ", ".join(f"{k.value} {total[k.value]}" for k in KINDS))
    early = sum(total[k.value] for k in KINDS)
    if early:
        print(f"of the {early} guesses taken while a safe cell existed: " + ", ".join(
            f"{k.value} {100 * total[k.value] / early:.0f}%" for k in KINDS))
    print("with no safe cell on the board: " + ", ".join(
        f"{k.value} {total[k.value]}" for k in OTHERS)
          + f"; not_analysed {total[Category.NOT_ANALYSED.value]}")
    print("of them chords: " + ", ".join(f"{k.value} {chords[k.value]}" for k in KINDS + OTHERS))
    if args.time and games:
        print(f"median per game: coach {statistics.median(coach_ms):.2f} ms, "
              f"safe play {statistics.median(safe_ms):.3f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
