"""The Replays screen: the recorded games that have a replay, newest first
(layout in ``replays.kv``; both load on the screen's first use, see
:mod:`.screenloader`).

The end-of-game dialog's ways into the player are :mod:`.watching`; the player
itself is :mod:`.player`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from ..playerdata import PlayerDataError, ReplayEntry
from ..text.i18n import _, board_name, fmt_date
from .player import KEY_BACK, KEY_ESCAPE, Coaching, ReplayScreen, analyse, fmt_clock, load_kv

RECENT = 100
"""How many recorded games the Replays screen lists."""
KEEP_COACHED = 16
"""The coach's analyses kept for games watched again (the latest ones)."""


def when(iso: str) -> str:
    """A record's UTC date as local date and time, short enough for a phone.

    >>> when("not a date")
    'not a date'
    >>> len(when("2026-11-23T21:04:05Z").split())  # day, month, year, time
    4
    """
    try:
        t = datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone()
    except ValueError:
        return iso[:16]
    return fmt_date(t, "d MMM yy HH:mm")


def row_text(e: ReplayEntry) -> str:
    """A Replays row: board, result and time, then the date (markup).

    >>> e = ReplayEntry(3, "x", "custom 20x30/100", False, 75.5, True)
    >>> row_text(e).splitlines()[0]
    '[b]Custom 20x30/100[/b]   Lost at 1:15.50 (assisted)'
    """
    result = (_("Won in {time}") if e.won else _("Lost at {time}")).format(time=fmt_clock(e.time))
    extra = " " + _("(assisted)") if e.assisted else ""
    return f"[b]{board_name(e.label)}[/b]   {result}{extra}\n{when(e.date)}"


class ReplaysScreen(Screen):  # type: ignore[misc]  # Kivy has no type information
    """The recorded games that have a replay, newest first; a tap watches one."""

    error = StringProperty("")
    empty_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        load_kv()
        self._coached: dict[int, Coaching] = {}  # the coach runs once per game watched
        super().__init__(**kwargs)

    def on_pre_enter(self, *_args: object) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Read the list again from the records."""
        app = App.get_running_app()
        rows = self.ids.rows
        rows.clear_widgets()
        try:
            entries = app.store.replay_list(RECENT + 1)  # one more: are there older ones?
        except PlayerDataError as exc:
            self.error, self.empty_text = _("Records unavailable: {why}").format(why=exc), ""
            return
        self.error = ""
        if len(entries) > RECENT:  # say so, rather than let older games seem lost
            entries = entries[:RECENT]
            self.empty_text = _("The last {n} recorded games, newest first.").format(n=RECENT)
        else:
            self.empty_text = "" if entries else _("No recorded game to watch yet: finish a game first.")
        for e in entries:
            row = Factory.ReplayRow(text=row_text(e))
            row.record_id = e.id
            row.bind(on_release=lambda r: self.watch(r.record_id))
            rows.add_widget(row)

    def rows(self) -> list[Any]:
        """The row buttons, top one first."""
        return list(reversed(self.ids.rows.children))

    def watch(self, record_id: int) -> ReplayScreen | None:
        """Open the player on a recorded game; Back returns to this list."""
        app = App.get_running_app()
        try:
            replay = app.store.replay(record_id)
        except PlayerDataError as exc:
            self.error = _("That replay cannot be read: {why}").format(why=exc)
            return None
        if replay is None:
            self.error = _("That game has no replay any more.")
            return None
        coaching = self._coached.pop(record_id, None) or analyse(replay)
        self._coached[record_id] = coaching
        while len(self._coached) > KEEP_COACHED:
            del self._coached[next(iter(self._coached))]
        player: ReplayScreen = app.watch_replay(replay, coaching, back=lambda: app.show_screen("replays"),
                                                play=True)
        return player

    def on_key(self, key: int, _text: str | None) -> bool:
        """Escape and Android back return to the game."""
        if key in (KEY_ESCAPE, KEY_BACK):
            App.get_running_app().show_screen("game")
            return True
        return False
