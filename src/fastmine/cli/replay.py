"""``fastmine replay``: watch a recorded game again in the terminal.

``fastmine replay`` plays the last recorded game that has a replay;
``fastmine replay ID`` a given one (ids as ``--list`` shows them).  By default
a full-screen curses player (space pauses, left/right arrows step a move,
+/- change the speed, q quits); ``--plain`` prints the board after every move
with its time, for pipes, and ``--timeline`` only one line a move.
``--export ID FILE`` writes a replay file (``docs/replays.md``) and
``--import FILE`` plays one (it is not added to the records) or a video of
another client (``.avf``, ``.rmv``, ``.mvf``, ``.evf``): it says what it read,
records the game with the player's name, the software and the date, and plays
it back (:mod:`fastmine.replay.fromvideo`).  ``--import A B C`` (or a
folder) records many videos in one run and plays none of them (``--plain``
and ``--timeline`` print each); without a terminal a video is recorded and
not played, and the exit status is 0.  Text from a file is printed with its
control characters escaped (:func:`fastmine.cli.stdio.printable`).

The coach (:mod:`fastmine.coach`) marks every move (safe, a guess and its
odds, a risk while a safe cell existed, ...) and sums the game up in one
line; ``--no-coach`` leaves the marks out, ``--verdicts FILE`` writes them as
JSON instead of playing (:mod:`fastmine.replay.verdicts`).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any

from ..errors import SaveFormatError
from .options import EXIT_FAILED, add_data_dir
from .stdio import printable

if TYPE_CHECKING:
    from ..replay import Replay


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``fastmine replay`` options to an argparse parser."""
    parser.epilog = ("keys (full screen): space pause, left/right step, home/end, + - speed, "
                     "n/N next/previous risky move, f the move that lost, q quit. "
                     "Each move carries the coach's mark (safe, guess 33%, "
                     "RISK 20% (3 safe), ...).")
    parser.add_argument("id", nargs="?", help="the recorded game to play (default: the last one)")
    src = parser.add_mutually_exclusive_group()
    src.add_argument("--list", action="store_true", help="list the recorded games that have a replay")
    src.add_argument("--export", nargs=2, metavar=("ID", "FILE"),
                     help="write the replay of game ID to FILE (use 'last' for the last game); "
                          "a FILE ending in .evf is written as a Metasweeper video")
    src.add_argument("--import", dest="import_file", metavar="FILE", nargs="+",
                     help="play a replay file (not added to your records) or a video of "
                          "another client (.avf, .rmv, .mvf, .evf: recorded with its "
                          "player, software and date, then played); several files or a "
                          "folder: every video is recorded, none played")
    parser.add_argument("--plain", action="store_true",
                        help="no curses: print the board after every move, with its time")
    parser.add_argument("--timeline", action="store_true",
                        help="print one line a move (time, kind, cell, the coach's mark), no boards")
    parser.add_argument("--no-coach", dest="coach", action="store_false",
                        help="leave out the coach's mark on each move and its summary")
    parser.add_argument("--verdicts", metavar="PATH",
                        help="write the coach's verdict on every move as JSON to PATH "
                             "('-': standard output) instead of playing")
    parser.add_argument("--speed", type=float, default=None,
                        help="playback speed: 1 real time, 2 twice as fast, 0 no waiting "
                             "(default: 1, or 0 with --plain/--timeline when not a terminal)")
    add_data_dir(parser)


def run(args: argparse.Namespace) -> int:
    """Run ``fastmine replay``; returns the exit status (0; 1 when a file to import could
    not be read or is not a game; 2 for a usage error or a game that is not there)."""
    from ..files.folders import existing_data_dir
    from ..records import RECORDS_FILE, RecordsError, RecordsStore

    if args.speed is not None and not (args.speed >= 0):
        print("fastmine replay: --speed must be 0 or more", file=sys.stderr)
        return 2
    verdicts_to = getattr(args, "verdicts", None)
    if verdicts_to is not None:
        if args.list or args.export:
            print("fastmine replay: --verdicts goes with a game ID or --import FILE, "
                  "not --list or --export", file=sys.stderr)
            return 2
        if args.import_file and len(args.import_file) > 1:
            print("fastmine replay: --verdicts writes one game's verdicts: --import "
                  "one file with it", file=sys.stderr)
            return 2
        if not getattr(args, "coach", True):
            print("fastmine replay: --verdicts writes the coach's verdicts: it cannot go "
                  "with --no-coach", file=sys.stderr)
            return 2
    # Before any work: an output over one of fastmine's files (or a mistyped
    # folder) is refused, not written (and the folder not made).
    for option, out in (("--verdicts", verdicts_to),
                        ("--export", args.export[1] if args.export else None)):
        if out is None or option == "--verdicts" and out == "-":    # none, or stdout
            continue
        from ..files.outputs import check_output

        try:
            check_output(out, option, _keep(args), data_dir=args.data_dir)
        except ValueError as exc:
            print(f"fastmine replay: {exc}", file=sys.stderr)
            return 2
    try:
        if args.import_file:
            if args.id is not None:
                print("fastmine replay: give either a game ID or --import FILE, not both", file=sys.stderr)
                return 2
            try:
                return _import(args)
            except FileNotFoundError as exc:      # a file named that cannot be read:
                print(printable(f"fastmine replay: no such file: {exc.filename}"),
                      file=sys.stderr)
                return EXIT_FAILED                # as fastmine analyze says of it
            except (SaveFormatError, OSError, ValueError) as exc:
                print(printable(f"fastmine replay: {exc}"), file=sys.stderr)
                return EXIT_FAILED
        # Only reads: a mistyped --data-dir is said, and no folder or database made.
        path = existing_data_dir(args.data_dir) / RECORDS_FILE
        if not path.exists() and not path.is_symlink():
            print("no recorded game has a replay yet" if args.list else
                  "fastmine replay: no recorded game has a replay yet: play one with "
                  "'fastmine play'", file=sys.stdout if args.list else sys.stderr)
            return 0 if args.list else 2
        with RecordsStore(path, create=False) as store:
            if args.list:
                return _list(store)
            ident = args.export[0] if args.export else args.id
            replay = _find(store, ident)
            if replay is None:
                return 2
            as_evf = bool(args.export) and args.export[1].lower().endswith(".evf")
            if as_evf:
                payload = _evf(store, replay, ident)
        if args.export:
            from ..files.outputs import write_output

            try:        # checked again as it is written
                path = write_output(args.export[1], payload if as_evf else replay.to_bytes(),
                                    "--export", _keep(args), data_dir=args.data_dir)
            except ValueError as exc:
                print(f"fastmine replay: {exc}", file=sys.stderr)
                return 2
            print(f"replay written to {path}")
            return 0
        return _play(replay, args)
    except BrokenPipeError:
        raise                   # the command line handles a reader that went away
    except FileNotFoundError as exc:
        print(printable(f"fastmine replay: no such file: {exc.filename}"), file=sys.stderr)
        return 2
    except (SaveFormatError, RecordsError, OSError, ValueError) as exc:
        print(printable(f"fastmine replay: {exc}"), file=sys.stderr)
        return 2


def _import(args: argparse.Namespace) -> int:
    """``--import FILE...``: a replay is played; a video is read, recorded, then played.

    Each file is read and checked whole before the records are opened, so a
    bad file leaves them untouched.  Several files (or a folder): every video
    is recorded in one run, a bad file is one line and the others go on;
    none is played but with ``--plain``/``--timeline``, which print each.
    """
    from .collection import expand

    found = expand(args.import_file)
    names = found.files
    if len(names) == 1 and not found.empty:
        return _import_one(args, names[0])
    text_mode = args.plain or args.timeline
    status = 0
    recorded = 0
    for name in names:
        if name in found.empty:
            print(printable(f"fastmine replay: {name}: {found.empty[name]}"), file=sys.stderr)
            status = EXIT_FAILED
            continue
        try:
            done = _read_and_record(args, name, play_replay=text_mode)
        except FileNotFoundError as exc:
            print(printable(f"fastmine replay: no such file: {exc.filename}"), file=sys.stderr)
            status = EXIT_FAILED
            continue
        except (SaveFormatError, OSError, ValueError) as exc:
            said = str(exc) if name in str(exc) else f"{name}: {exc}"
            print(printable(f"fastmine replay: {said}"), file=sys.stderr)
            status = EXIT_FAILED
            continue
        if done is None:
            continue
        kind, replay = done
        recorded += kind == "recorded"
        if text_mode:
            _play(replay, args)
    print(f"{recorded} of {len(names)} files recorded", file=sys.stderr)
    return status


def _read_and_record(args: argparse.Namespace, name: str,
                     play_replay: bool) -> tuple[str, Replay] | None:
    """Read one file; record a video's finished game.  ``("recorded" | "read",
    replay)``, or None for a fastmine replay not to be played (``play_replay``)."""
    from ..files.reading import read_regular_file
    from ..records import RecordsStore, default_path
    from ..replay import Replay
    from ..replay.fileformat import MAX_REPLAY_BYTES
    from ..replay.fromvideo import import_video, is_replay_file
    from ..videos.model import MAX_FILE_BYTES

    data = read_regular_file(name, max(MAX_FILE_BYTES, MAX_REPLAY_BYTES))
    if is_replay_file(name, data):
        replay = Replay.from_bytes(data)        # checked whole, even when not played
        if not play_replay:
            print(printable(f"{name}: a fastmine replay, not added to your records (fastmine "
                            f"replay --import {name} plays it)"), file=sys.stderr)
            return None
        return "read", replay
    imported = import_video(data, name)
    print(printable(imported.describe()), file=sys.stderr)
    for note in imported.video.notes:
        print(printable(f"note: {name}: {note}"), file=sys.stderr)
    record = imported.record()
    if record is None:
        print("not added to your records: the video's game is unfinished", file=sys.stderr)
        return "read", imported.replay
    with RecordsStore(default_path(args.data_dir)) as store:
        stored = store.add(record, imported.replay)
    print(f"recorded as game {stored.id} (fastmine replay {stored.id} plays it again)",
          file=sys.stderr)
    return "recorded", imported.replay


def _import_one(args: argparse.Namespace, name: str) -> int:
    """``--import FILE``: one file, played after it is read (and recorded).

    Without a terminal (and without ``--plain``, ``--timeline``, ``--verdicts``)
    a video is recorded and not played: that is all it was asked to do there.
    """
    text_mode = args.plain or args.timeline or getattr(args, "verdicts", None) is not None
    trouble = None if text_mode else _no_full_screen()
    done = _read_and_record(args, name, play_replay=True)
    assert done is not None
    kind, replay = done
    if trouble and kind == "recorded":
        print("not played: the full-screen player needs a terminal (--plain or --timeline "
              "print it)", file=sys.stderr)
        return 0
    return _play(replay, args)


def _evf(store: Any, replay: Replay, ident: str | None) -> bytes:
    """The replay of game ``ident`` (found already) as a Metasweeper video, with
    the stored game's player, date (in the zone its source gave) and the
    program that recorded an imported game (whose click counts it keeps)."""
    from ..replay.toevf import to_evf

    key = store.replay_ids()[-1] if ident in (None, "last") else int(str(ident))
    record = next((g for g in store.games() if g.id == key), None)
    if record is None:
        return to_evf(replay)
    return to_evf(replay, player=record.name or "", date=record.date, software=record.software)


def _no_full_screen() -> str | None:
    """Why the full-screen player cannot run here (no terminal, no curses), or None."""
    if not (sys.stdin is not None and sys.stdin.isatty() and sys.stdout.isatty()):
        return ("the full-screen player needs a terminal; use --plain (the boards) or "
                "--timeline (a line a move) to print the replay")
    try:
        import curses  # noqa: F401  (not built into Python on Windows)
    except ImportError:
        return ("the full-screen player needs curses: pip install windows-curses (on "
                "Windows), or use --plain")
    return None


def _keep(args: argparse.Namespace) -> tuple[tuple[str, str], ...]:
    """The file an output of this command must not replace besides fastmine's own
    (:func:`fastmine.files.outputs.check_output` knows those): the replay read."""
    if args.import_file:
        return tuple((name, "the replay being read") for name in args.import_file)
    return ()


def _find(store: Any, ident: str | None) -> Replay | None:
    ids = store.replay_ids()
    if ident is None or ident == "last":
        if not ids:
            print("fastmine replay: no recorded game has a replay yet: play one with 'fastmine play'",
                  file=sys.stderr)
            return None
        return store.replay(ids[-1])  # type: ignore[no-any-return]
    try:
        n = int(ident)
    except ValueError:
        print(f"fastmine replay: a game ID is a number (see 'fastmine replay --list'), got {ident!r}",
              file=sys.stderr)
        return None
    replay = store.replay(n)
    if replay is None:
        print(f"fastmine replay: game {n} has no replay (see 'fastmine replay --list')", file=sys.stderr)
    return replay  # type: ignore[no-any-return]


def _list(store: Any) -> int:
    for note in (store.read_only_note, store.unsound_note):  # on standard error: the
        if note:                                              # list itself stays plain
            print(f"fastmine replay: note: {note}", file=sys.stderr)
    ids = set(store.replay_ids())
    games = [g for g in store.games() if g.id in ids]
    if not games:
        print("no recorded game has a replay yet")
        return 0
    for g in games:
        result = "won " if g.won else "lost"
        print(f"{g.id:6d}  {g.date[:16].replace('T', ' ')}  {g.board_label:22s} "
              f"{result} {g.time:8.2f} s{'  (assisted)' if g.assisted else ''}")
    return 0


def _play(replay: Replay, args: argparse.Namespace) -> int:
    from ..replay.verdicts import to_json, verdicts_of

    if getattr(args, "verdicts", None) is not None:
        from ..coach import Category
        from ..replay import verdicts as coach_marks

        verdicts, note = verdicts_of(replay, budget=coach_marks.FILE_BUDGET)
        if verdicts is None:
            print(f"fastmine replay: --verdicts: {note}", file=sys.stderr)
            return 2
        skipped = sum(v.category is Category.NOT_ANALYSED for v in verdicts)
        if skipped:
            print(f"fastmine replay: --verdicts: the coach's {coach_marks.FILE_BUDGET:g} s "
                  f"were spent: {skipped} of {len(verdicts)} moves are marked not analysed",
                  file=sys.stderr)
        if args.verdicts == "-":
            sys.stdout.write(to_json(replay, verdicts))
        else:
            from ..files.outputs import write_output

            try:
                path = write_output(args.verdicts, to_json(replay, verdicts), "--verdicts",
                                    _keep(args), data_dir=args.data_dir)
            except ValueError as exc:
                print(f"fastmine replay: {exc}", file=sys.stderr)
                return 2
            print(f"verdicts written to {path}")
        return 0
    text_mode = args.plain or args.timeline
    trouble = None if text_mode else _no_full_screen()
    if trouble:         # said before the coach's work (the replay was found: its errors first)
        print(f"fastmine replay: {trouble}", file=sys.stderr)
        return 2
    coached: tuple[list[Any] | None, str] | None = (
        verdicts_of(replay) if getattr(args, "coach", True) else None)
    speed = args.speed
    if speed is None:
        speed = 1.0 if (not text_mode or sys.stdout.isatty()) else 0.0
    if text_mode:
        return play_text(replay, speed=speed, boards=not args.timeline, out=sys.stdout,
                         coached=coached)
    from .replayplayer import play_curses

    return play_curses(replay, speed=speed, coached=coached)


def play_text(replay: Replay, *, speed: float, boards: bool, out: Any,
              sleep: Any = time.sleep, coached: tuple[list[Any] | None, str] | None = None) -> int:
    """Print the replay: its header, then each move (and the board after it).

    ``speed`` > 0 waits between moves as the player did (divided by ``speed``).
    ``coached``: the coach's verdicts and note (:func:`fastmine.replay.verdicts.verdicts_of`):
    each move then carries its mark, and the coach's line ends the output.
    """
    from .tui.text import board_lines, replay_header

    verdicts, note = coached if coached is not None else (None, "")
    tags: list[str] = []
    lost = None
    if verdicts is not None:
        from ..coach import describe, fatal, tag

        tags = [f"  [{tag(v)}]" for v in verdicts]
        lost = fatal(verdicts)

    print(replay_header(replay), file=out)
    times = replay.moves[:, 3].tolist()
    before = 0
    for k, game in enumerate(replay.frames()):
        if k == 0:
            if boards:
                print("\n".join(board_lines(game.view)), file=out)
            continue
        if speed > 0 and times[k - 1] > before:
            out.flush()
            sleep((times[k - 1] - before) / 1000.0 / speed)
        before = times[k - 1]
        mark = tags[k - 1] if tags else ""
        print(f"move {k}/{len(replay)}  {replay.describe_move(k - 1)}{mark}", file=out)
        if boards:
            print("\n".join(board_lines(game.view)), file=out)
    print(f"{replay.state.value} at {replay.time:.3f} s", file=out)
    if lost is not None:
        print(describe(lost), file=out)
    if coached is not None:
        print(f"coach: {note}", file=out)
    return 0
