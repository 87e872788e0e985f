"""The end-of-game dialog: the game's numbers, the best-time name prompt, Undo
the losing move, and the ways into the replay player.

The module is imported, and its layout (``endgame.kv``) loaded, when the first
game ends (:class:`.messages.RulesOnFirstUse`): a start needs neither.  The app
listens to its events and does the work (:mod:`fastmine.app.play.ending`:
records, new games), so the dialog only shows and asks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.modalview import ModalView

from ..text.i18n import _, fmt_number, fmt_percent, fmt_seconds
from ..widgets import LetsGoWhenClosing
from .messages import RulesOnFirstUse

if TYPE_CHECKING:
    from fastmine.metrics import GameStats

    from ..widgets import TLabel


def fmt_time(t: float | None) -> str:
    """Seconds as shown in dialogs and tables.

    >>> fmt_time(3.14159), fmt_time(None)
    ('3.14 s', '-')
    """
    return "-" if t is None else fmt_seconds(t)


def end_lines(stats: GameStats, won: bool = True, cleared: tuple[int, int] | None = None) -> list[tuple[str, str]]:
    """The (label, value) lines of a finished game's :class:`fastmine.GameStats`.

    A win shows time, 3BV, 3BV/s and efficiency; a loss shows how much of
    the board was cleared instead (rates of an unfinished board mean little).
    """
    lines = [(_("Time"), fmt_time(stats.time))]
    if won:
        lines.append(("3BV", "-" if stats.bbbv is None else str(stats.bbbv)))
        lines.append(("3BV/s", "-" if stats.bbbv_per_second is None else fmt_number(stats.bbbv_per_second, 2)))
        eff = stats.efficiency
        lines.append((_("Efficiency"), "-" if eff is None else fmt_percent(eff)))
    elif cleared is not None:
        done, total = cleared
        lines.append((_("Cleared"), _("{done} of {total} safe cells ({percent})").format(
            done=done, total=total, percent=fmt_percent(done / max(1, total)))))
    lines.append((_("Clicks (L/R/chord)"), f"{stats.clicks} ({stats.left_clicks}/{stats.right_clicks}/"
                                           f"{stats.chord_clicks})"))
    return lines


class EndDialog(RulesOnFirstUse, LetsGoWhenClosing, ModalView):  # type: ignore[misc]  # Kivy has no type information
    """Win or loss: the game's numbers, and a name prompt for a best time."""

    KV_FILES = ("dialogs/endgame.kv",)

    title = StringProperty("")
    won = BooleanProperty(False)
    lines = ListProperty([])
    note = StringProperty("")
    ask_name = BooleanProperty(False)
    name = StringProperty("")
    can_undo = BooleanProperty(False)
    """Offer to take back the losing move."""
    summary = StringProperty("")
    """The coach's line on the game (risks taken, mistakes, the loss)."""
    can_replay = BooleanProperty(False)
    """Offer "Watch replay" (the game has an exact replay)."""
    can_why = BooleanProperty(False)
    """Offer "Why did I lose?" (a lost game with a replay)."""
    wide = BooleanProperty(False)
    """A landscape window: the dialog is wider and its buttons share one row."""

    __events__ = ("on_new_game", "on_name_entered", "on_undo", "on_watch_replay", "on_why_lost")

    ROW_BUTTONS = ("why", "watch_replay", "view_board", "new_game")
    """The buttons laid in one row on a wide screen (two rows of two upright)."""

    def on_kv_post(self, _base: object) -> None:
        from kivy.clock import Clock

        # One height for the row's buttons: with large text "Why did I lose?"
        # wraps onto two lines in a turned phone's row, and buttons of ragged
        # heights (each sitting at its own top) read as misplaced.  Set a frame
        # later, after each button's own rule has sized it to its words.
        self._even = Clock.create_trigger(self._even_buttons, 0)
        for name in self.ROW_BUTTONS:
            self.ids[name].bind(texture_size=self._even)
        self.bind(wide=self._even, width=self._even)
        # the buttons go in rows of two from the start: the kv file lists them flat
        self._buttons = {name: self.ids[name].__self__ for name in self.ROW_BUTTONS}
        for b in self._buttons.values():
            b.bind(height=self._fit_rows)
        self.bind(wide=self.arrange_buttons, can_replay=self.arrange_buttons,
                  can_why=self.arrange_buttons)
        self.arrange_buttons()

    def button_rows(self) -> list[list[str]]:
        """The buttons shown, by row (names of :data:`ROW_BUTTONS`): one row on a
        wide screen, else rows of two where a lone button has its row to itself
        ("New game" under "Watch replay" and "View board", never a half-empty row).

        >>> d = EndDialog.__new__(EndDialog)
        >>> d.wide, d.can_replay, d.can_why = False, True, False   # a win with its replay
        >>> d.button_rows()
        [['watch_replay', 'view_board'], ['new_game']]
        """
        shown = [n for n in self.ROW_BUTTONS
                 if (n != "why" or self.can_why) and (n != "watch_replay" or self.can_replay)]
        if self.wide:
            return [shown]
        return [shown[i:i + 2] for i in range(0, len(shown), 2)]

    def arrange_buttons(self, *_args: object) -> None:
        """Lay the buttons in :meth:`button_rows` (a hidden one leaves the tree)."""
        from kivy.metrics import dp
        from kivy.uix.boxlayout import BoxLayout

        box = self.ids.actions
        for b in self._buttons.values():
            if b.parent is not None:
                b.parent.remove_widget(b)
        box.clear_widgets()
        for names in self.button_rows():
            row = BoxLayout(size_hint_y=None, spacing=dp(8))
            for name in names:
                row.add_widget(self._buttons[name])
            box.add_widget(row)
        self._fit_rows()
        self._even()

    def _fit_rows(self, *_args: object) -> None:
        # a row is as high as its buttons (one height for all: _even_buttons)
        for row in self.ids.actions.children:
            row.height = max((b.height for b in row.children), default=0)

    def _even_buttons(self, *_args: object) -> None:
        from kivy.metrics import dp

        # the buttons shown only: a hidden one (out of the tree, at Kivy's default
        # 100 px width) wraps its words a few letters a line, and its texture made
        # every button of a win's dialog 85 dp high on a turned phone, pushing the
        # coach's line under the scrolled numbers' fold
        shown = [b for b in self._buttons.values() if b.parent is not None]
        height = max((max(dp(48), b.texture_size[1] + dp(14)) for b in shown), default=dp(48))
        for b in self._buttons.values():
            b.height = height

    def on_lines(self, _inst: object, lines: list[tuple[str, str]]) -> None:
        from ..text.cjkbreak import has_cjk, pieces
        from ..widgets import TLabel

        grid = self.ids.lines
        grid.clear_widgets()
        self._keys: list[TLabel] = []
        self._widest = (0.0, 0.0, 0.0)  # the widest label word, label and value, on one line
        for label, value in lines:
            key = TLabel(text=label, halign="left", valign="middle", bold=True, size_hint=(None, None))
            val = TLabel(text=value, halign="right", valign="middle", size_hint_y=None)
            word = 0.0
            # a label wraps between words, never inside one; Chinese and Japanese
            # between characters too (a label without a space was all one
            # "word": half the row, and the value beside it wrapped four times)
            for w, _spaces in pieces(label):
                key.text = w
                key.texture_update()
                word = max(word, key.texture_size[0])
            key.text = label
            for lbl in (key, val):
                lbl.texture_update()  # its width on one line, before any wrapping
            if has_cjk(label):
                # and a short one ("タイム", "开局") whole, a long one five characters a line
                word = max(word, min(key.texture_size[0], 5 * key.font_size))
            self._widest = (max(self._widest[0], word), max(self._widest[1], key.texture_size[0]),
                            max(self._widest[2], val.texture_size[0]))
            self._keys.append(key)

            def row_height(*_args: object, key: TLabel = key, val: TLabel = val) -> None:
                # the row grows with its text (large fonts, narrow phones): never
                # clipped; label and value share its height, so a one-line label
                # sits level with a value on two lines (it sat on the second line)
                key.height = val.height = max(lbl.texture_size[1] + lbl.font_size * 0.4
                                              for lbl in (key, val))

            for lbl in (key, val):
                lbl.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                         texture_size=row_height)
                grid.add_widget(lbl)
        grid.unbind(width=self._fit_columns)
        grid.bind(width=self._fit_columns)
        self._fit_columns()

    def _fit_columns(self, *_args: object) -> None:
        # The values get the width they need ("63 of 71 safe cells (89%)" on one
        # line) and the labels the rest, up to their own width: a label wraps
        # (between words) before a value does; where even that leaves too little
        # room (a narrow phone, large text) the values wrap too.
        keys = getattr(self, "_keys", [])
        if not keys:
            return
        grid = self.ids.lines
        word_w, key_w, value_w = self._widest
        # the padding too: the right one keeps the values clear of the scroll bar
        inner = grid.width - grid.padding[0] - grid.padding[2]
        room = inner - grid.spacing[0] - value_w - 2
        width = max(1.0, min(key_w + 2, max(room, word_w + 2), inner / 2))
        for key in keys:
            key.width = width

    def whole_rows(self, room: float, full: float) -> float:
        """The height of the scrolled part (the title, the numbers, the coach's
        line): ``full`` where ``room`` holds it all; else, if ``room`` holds the
        title and every row of numbers, those and the coach's whole lines that
        fit (the rest scrolls); else the title and as many whole rows as ``room``
        holds (at least one): a row or a line is never cut at the fold."""
        if room >= full or "lines" not in self.ids:
            return room
        grid = self.ids.lines
        spacing = self.ids.numbers.spacing
        shown = self.ids.title.height + spacing
        rows = list(reversed(grid.children))[::2]  # each row's label
        if not rows:
            return room
        if shown + grid.height <= room:
            summary = self.ids.summary
            # its text sits in the middle of the label's height, under a margin
            height = shown + grid.height + spacing + max(0.0, summary.height - summary.texture_size[1]) / 2
            for line in getattr(summary._label, "_cached_lines", None) or []:
                if height + line.h > room:
                    break
                height += line.h
            return float(min(room, height))
        height = shown + rows[0].height
        for key in rows[1:]:
            if height + key.height > room:
                break
            height += key.height
        return float(height)

    def submit_name(self, name: str) -> None:
        """The Save button of the best-time prompt."""
        self.ask_name = False
        self.dispatch("on_name_entered", name.strip())

    def new_game(self) -> None:
        """The New game button."""
        self.dismiss()
        self.dispatch("on_new_game")

    def undo(self) -> None:
        """The Undo button (after a loss)."""
        self.dismiss()
        self.dispatch("on_undo")

    def watch_replay(self) -> None:
        """The Watch replay button (a name typed for a best time is saved first)."""
        self._leave_for("on_watch_replay")

    def why_lost(self) -> None:
        """The Why did I lose? button."""
        self._leave_for("on_why_lost")

    def _leave_for(self, event: str) -> None:
        if self.ask_name:
            self.submit_name(self.ids.name_input.text)
        self.dismiss()
        self.dispatch(event)

    def on_watch_replay(self) -> None:
        """Open the replay player at the start."""

    def on_why_lost(self) -> None:
        """Open the replay player at the losing move."""

    def on_new_game(self) -> None:
        """Start another game."""

    def on_undo(self) -> None:
        """Take back the losing move."""

    def on_name_entered(self, name: str) -> None:
        """The player typed a name for a best time."""
