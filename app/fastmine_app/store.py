"""The app's only door to the records store and to saved games.

It uses ``fastmine.records`` and ``fastmine.saves`` (the shared store the
terminal game uses too) when they are importable, and otherwise a small
JSON fallback in the app's data directory with the same behaviour: files
written atomically, a corrupt or newer file reported and never overwritten.
Everything the app needs is the :class:`Store` methods below, so wiring a
different backend is a change to this module only.
"""

from __future__ import annotations

import datetime as _dt
import importlib
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass

from fastmine import Game, SaveFormatError, difficulty_name

RECORDS_FILE = "records.json"
SAVE_FILE = "saved_game.json"
FALLBACK_FORMAT = "fastmine-app-records"
FALLBACK_VERSION = 1


class StoreError(ValueError):
    """A records or save file cannot be read; it is left untouched."""


@dataclass(frozen=True)
class BestTime:
    """One line of a best-times table."""

    name: str
    time: float
    date: str
    bbbv_per_second: float | None


@dataclass(frozen=True)
class Stats:
    """Statistics of one difficulty."""

    played: int
    won: int
    streak: int
    best_streak: int

    @property
    def win_percent(self) -> float:
        """Wins as a percentage of games played (0 with no games)."""
        return 100.0 * self.won / self.played if self.played else 0.0


def atomic_write(path: str, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file and ``os.replace``."""
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file and ``os.replace``."""
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _import(name: str):
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def game_row(game: Game, name: str) -> dict:
    """The record of a finished game, as the records store keeps it."""
    st = game.stats()
    return {
        "difficulty": difficulty_name(game.rows, game.cols, game.mine_count),
        "rows": game.rows, "cols": game.cols, "mines": game.mine_count, "rule": game.rule,
        "won": game.state.name == "WON", "time": round(st.time, 3), "bbbv": st.bbbv,
        "bbbv_per_second": st.bbbv_per_second, "clicks": st.clicks, "efficiency": st.efficiency,
        "assisted": bool(game.assisted),
        "date": _dt.datetime.now().isoformat(timespec="seconds"), "name": name,
    }


class Store:
    """Records and the saved game, under ``data_dir`` (None: the shared default)."""

    def __init__(self, data_dir: str | None = None) -> None:
        self.data_dir = data_dir
        self._records = _import("fastmine.records")
        self._saves = _import("fastmine.saves")
        self._fallback_dir = data_dir or _default_dir()

    # ------------------------------------------------------------ records

    @property
    def backend(self) -> str:
        """Which store is in use: "fastmine.records" or "json"."""
        return "fastmine.records" if self._records is not None else "json"

    def _rows(self) -> list[dict]:
        path = os.path.join(self._fallback_dir, RECORDS_FILE)
        if not os.path.exists(path):
            return []
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as exc:
            raise StoreError(f"the records file {path} cannot be read ({exc}); it was left as it is") from None
        if not isinstance(doc, dict) or doc.get("format") != FALLBACK_FORMAT:
            raise StoreError(f"{path} is not a fastmine records file; it was left as it is")
        if not isinstance(doc.get("version"), int) or doc["version"] > FALLBACK_VERSION:
            raise StoreError(f"{path} was written by a newer fastmine; upgrade to use it")
        rows = doc.get("games")
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise StoreError(f"the records file {path} is corrupt; it was left as it is")
        return rows

    def record_game(self, game: Game, name: str = "") -> None:
        """Store a finished game (won or lost) with the player's name."""
        row = game_row(game, name)
        if self._records is not None:
            self._records.add_game(row, data_dir=self.data_dir)
            return
        rows = self._rows()
        rows.append(row)
        doc = {"format": FALLBACK_FORMAT, "version": FALLBACK_VERSION, "games": rows}
        atomic_write(os.path.join(self._fallback_dir, RECORDS_FILE), json.dumps(doc, indent=1))

    def best_times(self, difficulty: str, limit: int = 10) -> list[BestTime]:
        """Fastest unassisted wins of a difficulty, fastest first."""
        if self._records is not None:
            return [BestTime(b.name, b.time, b.date, b.bbbv_per_second)
                    for b in self._records.best_times(difficulty, limit=limit, data_dir=self.data_dir)]
        wins = [r for r in self._rows()
                if r.get("difficulty") == difficulty and r.get("won") and not r.get("assisted")]
        wins.sort(key=lambda r: r.get("time", float("inf")))
        return [BestTime(r.get("name", ""), float(r["time"]), r.get("date", ""), r.get("bbbv_per_second"))
                for r in wins[:limit]]

    def best_time(self, difficulty: str) -> BestTime | None:
        """The record to beat, or None."""
        best = self.best_times(difficulty, limit=1)
        return best[0] if best else None

    def stats(self, difficulty: str) -> Stats:
        """Games, wins and streaks of a difficulty (assisted games included)."""
        if self._records is not None:
            s = self._records.stats(difficulty, data_dir=self.data_dir)
            return Stats(s.played, s.won, s.streak, s.best_streak)
        games = [r for r in self._rows() if r.get("difficulty") == difficulty]
        streak = best = 0
        for r in games:
            streak = streak + 1 if r.get("won") else 0
            best = max(best, streak)
        return Stats(len(games), sum(1 for r in games if r.get("won")), streak, best)

    # ------------------------------------------------------------ saved game

    def _save_path(self) -> str:
        return os.path.join(self._fallback_dir, SAVE_FILE)

    def save_game(self, game: Game) -> None:
        """Keep an unfinished game for the next start (a finished one clears it)."""
        if game.state.is_over or game.state.name == "READY":
            self.clear_saved()
            return
        if self._saves is not None:
            self._saves.save(game, data_dir=self.data_dir)
            return
        atomic_write(self._save_path(), json.dumps(game.to_dict()))

    def load_game(self, clock: Callable[[], float]) -> Game | None:
        """The saved game, or None.  A corrupt file raises :class:`StoreError`."""
        if self._saves is not None:
            try:
                return self._saves.load(clock=clock, data_dir=self.data_dir)
            except SaveFormatError as exc:
                raise StoreError(str(exc)) from None
        path = self._save_path()
        if not os.path.exists(path):
            return None
        try:
            with open(path, encoding="utf-8") as f:
                return Game.from_dict(json.load(f), clock=clock)
        except (OSError, ValueError) as exc:  # SaveFormatError is a ValueError
            raise StoreError(f"the saved game {path} cannot be read ({exc}); it was left as it is") from None

    def clear_saved(self) -> None:
        """Forget the saved game."""
        if self._saves is not None:
            self._saves.clear(data_dir=self.data_dir)
            return
        try:
            os.unlink(self._save_path())
        except FileNotFoundError:
            pass


def _default_dir() -> str:
    try:
        import platformdirs
        return platformdirs.user_data_dir("fastmine", appauthor=False)
    except ImportError:
        return os.path.join(os.path.expanduser("~"), ".fastmine")
