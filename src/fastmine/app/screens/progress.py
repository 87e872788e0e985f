"""The Progress screen: a board's times and 3BV/s over the last games, as charts.

Reached from the Records screen ("Progress").  Per board (a picker like the
Records screen's) and over the last 25, 50 or 100 games or all of them: the
time and the 3BV/s of each won game with their running median
(:mod:`fastmine.records.progress`, the series ``fastmine records --plot`` draws
too), and a line of played, won, win %, best and median.  Unassisted games
only, as on the Records screen.  Its layout is in ``progress.kv``; both load on
the screen's first use (:mod:`.screenloader`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.metrics import sp
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from fastmine import DIFFICULTIES
from fastmine.records.progress import MEDIAN_WINDOW, Progress, progress

from ..kvfiles import load_kv
from ..text.i18n import N_, _, board_name, fmt_number, fmt_percent, fmt_seconds, ngettext
from ..widgets import WordToggle
from .chart import Chart
from .records import BoardPicker, current_board, short_date, shown_label

if TYPE_CHECKING:
    from fastmine.records import GameRecord

    from ..playerdata import PlayerData

LAST_CHOICES = ("25", "50", "100", "all")
"""How many of the last games the screen offers to look at ("all": every one)."""
LAST_LABELS = {"all": N_("All")}


def _fmt(v: float | None, decimals: int) -> str:
    return "-" if v is None else fmt_number(v, decimals)


def _secs(v: float | None) -> str:
    return "-" if v is None else fmt_seconds(v, 1)


def summary_text(p: Progress, wide: bool = False) -> str:
    """The lines over the charts: played, won, win %, best and median
    (``wide``: the figures of both charts on one line).

    >>> from fastmine.records import GameRecord
    >>> games = [GameRecord.make(9, 9, 10, won=w, time=t, bbbv=20)
    ...          for w, t in ((True, 10.0), (False, 3.0), (True, 8.0))]
    >>> print(summary_text(progress(games)))
    3 games, 2 won (67%)
    Time: best 8.0 s, median 9.0 s
    3BV/s: best 2.50, median 2.25
    """
    head = ngettext("{n} game, {won} won", "{n} games, {won} won", p.played).format(
        n=p.played, won=p.won)
    if p.win_percent is not None:
        head += f" ({fmt_percent(p.win_percent / 100)})"
    if not p.won:
        return head
    times = _("Time: best {best}, median {median}").format(best=_secs(p.best_time),
                                                           median=_secs(p.median_time))
    rates = _("3BV/s: best {best}, median {median}").format(best=_fmt(p.best_rate, 2),
                                                            median=_fmt(p.median_rate, 2))
    return f"{head}\n{times}{'   ·   ' if wide else chr(10)}{rates}"


def picked_text(record: GameRecord, number: int) -> str:
    """The figures of a tapped point's game.

    >>> from fastmine.records import GameRecord
    >>> g = GameRecord.make(9, 9, 10, won=True, time=12.5, bbbv=25, date="2026-11-23T21:04:05Z")
    >>> picked_text(g, 7)
    'Win 7: 12.50 s, 3BV 25, 2.00 3BV/s, 23 Nov 26'
    """
    rate = f", {fmt_number(record.bbbv_per_second, 2)} 3BV/s" if record.bbbv_per_second else ""
    bbbv = f", 3BV {record.bbbv}" if record.bbbv is not None else ""
    return _("Win {number}: {time}").format(number=number, time=fmt_seconds(record.time)) + (
        f"{bbbv}{rate}, {short_date(record.date)}")


def empty_text(board: str, played: int, assisted: int) -> str:
    """What shows instead of the charts when a board has no unassisted win among
    the games looked at: ``played`` unassisted games there, ``assisted`` games
    played with help (a hint, the solver, the coach), which the charts leave out.

    >>> empty_text("Expert", 0, 0)[:24]
    'No games on Expert yet. '
    >>> empty_text("Expert", 0, 2)[:58]
    'No unassisted wins on Expert yet: your 2 games there were '
    """
    if played:
        return _("No unassisted wins among these games yet. Each win without help adds a "
                 "point to the charts: its time and its speed in 3BV per second.")
    board = board_name(board)
    if assisted:
        return ngettext("No unassisted wins on {board} yet: your {n} game there was assisted (a "
                        "hint, the solver or the coach helped), and the charts count games played "
                        "without help.",
                        "No unassisted wins on {board} yet: your {n} games there were assisted (a "
                        "hint, the solver or the coach helped), and the charts count games played "
                        "without help.", assisted).format(board=board, n=assisted)
    return _("No games on {board} yet. Win one and its time and speed show here, game after "
             "game.").format(board=board)


class ProgressScreen(BoardPicker, Screen):  # type: ignore[misc]  # Kivy has no type information
    """Charts of time and 3BV/s per won game over a board's last games."""

    difficulty = StringProperty("Beginner")
    """The board shown, as the Records screen names it ("Expert", "Custom 20x30/100")."""
    names = ListProperty([shown_label(n) for n in DIFFICULTIES])
    last = StringProperty("50")
    """How many of the last games: one of :data:`LAST_CHOICES`."""
    summary = StringProperty("")
    empty = StringProperty("")
    """What shows instead of the charts when there is nothing to draw ("" when there is)."""
    error = StringProperty("")
    picked = StringProperty("")
    """The figures of the game whose point was tapped last."""
    picked_record = ObjectProperty(None, allownone=True)
    progress = ObjectProperty(None, allownone=True)
    """The :class:`fastmine.records.progress.Progress` drawn."""
    landscape = BooleanProperty(False)
    legend = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        load_kv("screens/progress.kv")  # its rules before the screen is built
        super().__init__(**kwargs)

    def on_kv_post(self, _base: object) -> None:
        for value in LAST_CHOICES:
            # Words never cut: "All" is as wide as its word ("Semua", "Wszystkie" were
            # cut between two letters in a fifth of a 360-dp phone at large text) and
            # the numbers share the rest, each on one line ("100" wrapped as "10"/"0")
            btn = WordToggle(text=_(LAST_LABELS.get(value, value)), group="progress-last",
                             allow_no_selection=False, font_size=self.ids.back.font_size)
            if value not in LAST_LABELS:
                btn.size_hint_x = 1
            btn.value = value
            btn.state = "down" if value == self.last else "normal"
            btn.bind(on_release=lambda b: setattr(self, "last", b.value))
            self.bind(last=lambda _s, last, b=btn: setattr(b, "state", "down" if last == b.value else "normal"))
            self.ids.lasts.add_widget(btn)
            self.ids[f"last_{value}"] = btn
        for chart in self.charts:
            chart.bind(on_pick=self._on_pick)
        self.bind(size=self._check_orientation)

    @property
    def charts(self) -> tuple[Chart, Chart]:
        """The time chart and the 3BV/s chart."""
        return self.ids.time_chart, self.ids.rate_chart

    def _check_orientation(self, *_args: object) -> None:
        self.landscape = self.width > self.height * 1.05

    def on_landscape(self, *_args: object) -> None:
        if self.progress is not None and self.progress.played:
            self.summary = summary_text(self.progress, self.landscape)

    def on_pre_enter(self, *_args: object) -> None:
        app = App.get_running_app()
        th = app.theme
        big = int(sp(19))  # the dot and the dash about as big as the chart's own
        a_win = _("a win")  # outside the f-string: Babel extracts no call inside one
        self.legend = (f"[size={big}][color={_hex(th.accent)}]•[/color][/size] {a_win}    "
                       f"[size={big}][color={_hex(th.hint)}][b]—[/b][/color][/size] "
                       + _("median of the last {n} wins").format(n=MEDIAN_WINDOW))
        if app.root is not None and app.root.has_screen("records"):
            self.difficulty = app.root.get_screen("records").difficulty
        else:
            self.difficulty = current_board(app)
        self.refresh()

    def on_difficulty(self, *_args: object) -> None:
        self.refresh()

    def on_last(self, *_args: object) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Read the board's games again and redraw."""
        app = App.get_running_app()
        if app is None or getattr(app, "store", None) is None:
            return
        from ..playerdata import PlayerDataError, board_key

        self.picked, self.picked_record = "", None
        try:
            self.names = [shown_label(n) for n in app.store.board_labels()]
            games = app.store.games(board_key(self.difficulty.lower()))
        except PlayerDataError as exc:
            self.error = str(exc)
            self.summary, self.progress = "", None
            self.empty = _("The records cannot be read.")
            self._show(None)
            return
        self.error = ""
        p = progress(games, None if self.last == "all" else int(self.last))
        self.progress = p
        self.summary = summary_text(p, self.landscape) if p.played else ""
        self.empty = "" if p.won else empty_text(self.difficulty, p.played,
                                                  self._assisted(app.store))
        self._show(p if p.won else None)

    def _assisted(self, store: PlayerData) -> int:
        """Assisted games on the board shown (the charts leave them out)."""
        from ..playerdata import PlayerDataError, board_key

        try:
            return store.stats(board_key(self.difficulty.lower())).assisted
        except PlayerDataError:
            return 0

    def _show(self, p: Progress | None) -> None:
        t, r = self.charts
        t.picked = r.picked = None
        t.series = p.time if p else None
        r.series = p.rate if p else None

    def on_key(self, key: int, _text: str | None) -> bool:
        """Escape and Android back go where the Back button goes: the Records screen."""
        if key in (27, 1001):
            App.get_running_app().show_screen("records")
            return True
        return False

    def _on_pick(self, _chart: object, record: GameRecord) -> None:
        p = self.progress
        if p is None:
            return
        self.picked_record = record
        number = p.time.x[p.time.records.index(record)]
        self.picked = picked_text(record, number)
        for chart in self.charts:
            chart.picked = record


def _hex(rgba: Sequence[float]) -> str:
    return "".join(f"{round(c * 255):02x}" for c in rgba[:3])
