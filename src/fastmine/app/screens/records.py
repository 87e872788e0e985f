"""The Records screen: best times and statistics per board.

Its layout is in ``records.kv``; both load on the screen's first use
(:mod:`.screenloader`).  Its board names and short dates serve the Progress
screen too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import ListProperty, StringProperty
from kivy.uix.screenmanager import Screen

from fastmine import DIFFICULTIES

from ..text.i18n import _, board_name, fmt_date, fmt_number, fmt_percent, fmt_seconds
from ..widgets import TLabel

if TYPE_CHECKING:
    from ..application import FastmineApp


def shown_label(label: str) -> str:
    """A board's records label as the records screen shows it.

    >>> shown_label("beginner"), shown_label("custom 20x30/100")
    ('Beginner', 'Custom 20x30/100')
    """
    return label[:1].upper() + label[1:]


def short_date(iso: str) -> str:
    """A record's date, short enough for a phone's table.

    >>> short_date("2026-11-23T21:04:05Z")
    '23 Nov 26'
    """
    from datetime import datetime

    try:
        y, m, d = (int(v) for v in iso[:10].split("-"))
        return fmt_date(datetime(y, m, d))
    except (ValueError, IndexError):
        return iso[:10]


class BoardPicker:
    """The board picker of the Records and Progress screens: ``names`` (the
    boards' labels) and ``difficulty`` (the one shown) are the screen's."""

    # the screen's Kivy properties (annotations only: nothing here shadows them)
    names: list[str]
    difficulty: str

    @staticmethod
    def board_name(label: str) -> str:
        """A board's label as the picker shows it, in the player's language."""
        return board_name(label)

    def pick(self, shown: str) -> None:
        """The picker chose ``shown`` (a board's name in the player's language)."""
        self.difficulty = next((n for n in self.names if board_name(n) == shown), shown)


def current_board(app: FastmineApp) -> str:
    """The label of the board new games use ("Expert", "Custom 20x30/100")."""
    from fastmine.records import board_label

    name, d = app.current_difficulty()
    return shown_label(name if name != "custom" else board_label(*d))


class RecordsScreen(BoardPicker, Screen):  # type: ignore[misc]  # Kivy has no type information
    """Best times and statistics per difficulty, from the records store."""

    difficulty = StringProperty("Beginner")
    """The board shown: a preset name or "Custom RxC/M", capitalised."""
    names = ListProperty([shown_label(n) for n in DIFFICULTIES])
    summary = StringProperty("")
    error = StringProperty("")
    note = StringProperty("")
    """Why new games cannot be recorded ("" when they can): the records are read-only."""
    rows = ListProperty([])
    """Best-times table: (rank, name, time, 3BV/s, date) strings."""

    def on_pre_enter(self, *_args: object) -> None:
        came_from = getattr(self.manager.transition, "screen_out", None) if self.manager else None
        if came_from is not None and came_from.name == "progress":
            # back from Progress (opened on this screen's board): the board looked
            # at there, not the current game's (a custom board chosen here was lost)
            self.difficulty = came_from.difficulty
        else:
            self.difficulty = current_board(App.get_running_app())
        self.refresh()

    def on_rows(self, _inst: object, rows: list[tuple[str, str, str, str, str]]) -> None:
        table = self.ids.table
        table.clear_widgets()
        if not rows:
            return
        for i, row in enumerate([("#", _("Name"), _("Time"), "3BV/s", _("Date")), *rows]):
            for j, text in enumerate(row):
                if j == 1:  # the name takes what is left; a long one ends in "..."
                    # (cut at its end, not its middle: "Maximilian" read "M...n")
                    lbl = TLabel(text=text, bold=i == 0, size_hint_y=None, shorten=True,
                                 shorten_from="right", halign="center")
                    lbl.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                             texture_size=lambda w, ts: setattr(w, "height", ts[1] + dp(6)))
                else:  # numbers and dates are never cut: their column fits the widest
                    lbl = TLabel(text=text, bold=i == 0, size_hint=(None, None))
                    lbl.bind(texture_size=lambda w, ts: setattr(w, "size", (ts[0] + dp(8), ts[1] + dp(6))))
                    lbl.texture_update()
                table.add_widget(lbl)

    def on_difficulty(self, *_args: object) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        if app is None or getattr(app, "store", None) is None:
            return
        from ..playerdata import PlayerDataError, board_key

        try:
            self.names = [shown_label(n) for n in app.store.board_labels()]
            board = board_key(self.difficulty.lower())
            st = app.store.stats(board)
            best = app.store.best_times(board, limit=10)
            note = app.store.read_only_note()
        except PlayerDataError as exc:
            self.error = str(exc)
            self.summary, self.rows, self.note = "", [], ""
            return
        self.error = ""
        self.note = note[:1].upper() + note[1:] + "." if note else ""
        extra = []
        if st.assisted:
            extra.append(_("+{n} assisted").format(n=st.assisted))
        if st.abandoned:
            extra.append(_("{n} abandoned").format(n=st.abandoned))
        more = f"\n({', '.join(extra)})" if extra else ""
        self.summary = (_("Played {played}   Won {won} ({percent})").format(
                            played=st.played, won=st.won, percent=fmt_percent(st.win_percent / 100))
                        + "\n" + _("Current streak {streak}   Best streak {best}").format(
                            streak=st.streak, best=st.best_streak) + more)
        self.rows = [(str(i + 1), b.name or "-", fmt_seconds(b.time),
                      fmt_number(b.bbbv_per_second, 2) if b.bbbv_per_second else "-",
                      short_date(b.date))
                     for i, b in enumerate(best)]
