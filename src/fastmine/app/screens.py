"""The screens: game, new game, records, about.

Their layouts are in ``game.kv``, ``newgame.kv`` and ``records.kv``.
"""

from __future__ import annotations

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from fastmine import DIFFICULTIES, Difficulty
from fastmine.difficulty import CUSTOM_MAX_SIDE, CUSTOM_MIN_SIDE

from .boardview import BoardView
from .controller import GameController
from .i18n import N_, _, board_name, fmt_date, fmt_number, fmt_percent, fmt_seconds, ngettext
from .settings import RULE_HELP, RULE_LABELS
from .widgets import FlatToggle, TLabel

KEY_UP, KEY_DOWN, KEY_RIGHT, KEY_LEFT = 273, 274, 275, 276
KEY_SPACE, KEY_ENTER, KEY_ESCAPE, KEY_BACK = 32, 13, 27, 1001


# The game screen's controls, in the order the landscape side column shows them
# (two a row); in portrait the counters, face and menu go in the top bar and
# the play controls in the bar at the bottom, under the thumb.
TOP_CONTROLS = ("mines_left", "spacer_left", "face", "spacer_right", "timer", "menu_button")
TOOL_CONTROLS = ("flag_mode", "pause", "hint", "odds", "solver")
SIDE_ROWS = (("mines_left", "timer"), ("face", "menu_button"), ("flag_mode", "pause"),
             ("hint", "odds"), ("solver",))


class GameScreen(Screen):
    """The board with a top bar and a tool bar (portrait) or a side column (landscape)."""

    ctrl = ObjectProperty(None)
    landscape = BooleanProperty(False)
    """Wider than tall: the controls are in a column beside the board."""

    def __init__(self, clock, **kwargs) -> None:
        self.board = BoardView(pos_hint={"x": 0, "y": 0})
        self.ctrl = GameController(self.board, clock=clock)
        self._side = None
        super().__init__(**kwargs)
        self.ids.board_area.add_widget(self.board, index=len(self.ids.board_area.children))
        # ids are weak references: the parts moved between layouts are kept here,
        # or a bar out of the window's tree in landscape would be collected
        self._parts = {n: self.ids[n].__self__ for n in (*TOP_CONTROLS, *TOOL_CONTROLS,
                                                          "top_bar", "tool_bar", "board_area")}
        self.bind(size=self._check_orientation)

    def _check_orientation(self, *_args) -> None:
        landscape = self.width > self.height * 1.05
        if landscape != self.landscape:
            self.landscape = landscape

    def on_landscape(self, _inst, landscape: bool) -> None:
        """Move the controls between the bars and the side column."""
        ids = self._parts
        frame = self.ids.frame
        for name in (*TOP_CONTROLS, *TOOL_CONTROLS):
            w = ids[name]
            if w.parent is not None:
                w.parent.remove_widget(w)
        frame.clear_widgets()
        if self._side is not None:
            for row in self._side.children:
                row.clear_widgets()
            self._side.clear_widgets()
        if not landscape:
            frame.orientation = "vertical"
            for name in TOP_CONTROLS:
                ids["top_bar"].add_widget(ids[name])
            for name in TOOL_CONTROLS:
                ids["tool_bar"].add_widget(ids[name])
            for bar in ("top_bar", "board_area", "tool_bar"):
                frame.add_widget(ids[bar])
            return
        frame.orientation = "horizontal"
        side = self._side = self._side or Factory.SideColumn()
        for names in SIDE_ROWS:
            row = Factory.SideRow()
            icons = all(ids[n].size_hint_x is None for n in names)
            if icons:  # fixed-size controls are centred, the others share the row
                row.add_widget(Widget())
            for n in names:
                row.add_widget(ids[n])
            if icons:
                row.add_widget(Widget())
            side.add_widget(row)
        side.add_widget(Widget())  # the rest of the column stays empty
        frame.add_widget(ids["board_area"])
        frame.add_widget(side)

    @property
    def controls(self) -> list[Widget]:
        """Every button and counter of the game screen (not the spacers)."""
        return [self.ids[n] for n in (*TOP_CONTROLS, *TOOL_CONTROLS) if not n.startswith("spacer")]

    def on_key(self, key: int, text: str | None) -> bool:
        """Keyboard play: arrows move a cursor, space reveals or chords, f
        marks, n starts a new game, p pauses, h hints."""
        ctrl, board = self.ctrl, self.board
        if ctrl.game is None:
            return False
        if key in (KEY_UP, KEY_DOWN, KEY_LEFT, KEY_RIGHT):
            r, c = board.cursor or (board.rows // 2, board.cols // 2)
            if board.cursor is not None:
                dr = {KEY_UP: -1, KEY_DOWN: 1}.get(key, 0)
                dc = {KEY_LEFT: -1, KEY_RIGHT: 1}.get(key, 0)
                if board.transposed:  # the arrows move on the screen, not in the game
                    dr, dc = dc, dr
                r = min(max(r + dr, 0), board.rows - 1)
                c = min(max(c + dc, 0), board.cols - 1)
            board.cursor = (r, c)
            board.show_cell(r, c)
            return True
        text = (text or "").lower()
        if key in (KEY_SPACE, KEY_ENTER) or text == " ":
            if board.cursor is not None:
                ctrl.open(*board.cursor)
            return True
        if text == "f":
            if board.cursor is not None:
                ctrl.mark(*board.cursor)
            return True
        if text == "n":
            App.get_running_app().new_game()
            return True
        if text == "p":
            ctrl.toggle_pause()
            return True
        if text == "h":
            ctrl.hint()
            return True
        if text == "u" or text == "z":
            App.get_running_app().undo_loss()
            return True
        return False


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


def validate_custom(rows: str, cols: str, mines: str) -> tuple[Difficulty | None, str]:
    """Check a custom board typed by the player: (difficulty, "") or (None, why).

    >>> validate_custom("20", "30", "100")
    (Difficulty(rows=20, cols=30, mines=100), '')
    >>> validate_custom("4", "30", "10")[1]
    'Rows must be a whole number from 5 to 50.'
    >>> validate_custom("10", "10", "100")[1]
    'Mines must be from 1 to 99 on a 10 x 10 board.'
    """
    lo, hi = CUSTOM_MIN_SIDE, CUSTOM_MAX_SIDE
    values = []
    for what, text in ((N_("Rows must be a whole number from {lo} to {hi}."), rows),
                       (N_("Columns must be a whole number from {lo} to {hi}."), cols)):
        try:
            v = int(str(text).strip())
        except ValueError:
            v = None
        if v is None or not lo <= v <= hi:
            return None, _(what).format(lo=lo, hi=hi)
        values.append(v)
    r, c = values
    try:
        m = int(str(mines).strip())
    except ValueError:
        m = None
    if m is None or not 1 <= m <= r * c - 1:
        return None, _("Mines must be from 1 to {most} on a {rows} x {cols} board.").format(
            most=r * c - 1, rows=r, cols=c)
    return Difficulty(r, c, m), ""


class NewGameScreen(Screen):
    """Presets, a custom size, and the first-click rule."""

    choice = StringProperty("beginner")
    rule = StringProperty("opening")
    error = StringProperty("")
    presets = ListProperty(list(DIFFICULTIES))
    rule_labels = RULE_LABELS
    rule_help = StringProperty(RULE_HELP["opening"])
    """What the chosen first-click rule does, in a line."""
    code_error = StringProperty("")
    """Why the typed game code cannot be played ("" when it can)."""

    def on_rule(self, _inst, rule: str) -> None:
        self.rule_help = RULE_HELP.get(rule, "")

    def on_kv_post(self, _base) -> None:
        buttons: list[FlatToggle] = []

        def even(*_args) -> None:
            # one height for all: a label that wraps onto three lines makes
            # its whole row taller, and ragged rows read as misplaced buttons
            h = max(max(dp(56), b.texture_size[1] + dp(16)) for b in buttons)
            for b in buttons:
                b.height = h

        for name in DIFFICULTIES:
            # the state now, not only on a change of choice: the first visit sets
            # the choice it already has (Beginner) and no preset showed chosen
            btn = FlatToggle(text=self.preset_label(name), group="difficulty", size_hint_y=None,
                             state="down" if name == self.choice else "normal")
            buttons.append(btn)
            btn.bind(texture_size=even)
            btn.preset = name
            btn.bind(on_release=lambda b: self._pick(b.preset))
            self.bind(choice=lambda _s, choice, b=btn: setattr(
                b, "state", "down" if choice == b.preset else "normal"))
            self.ids.presets.add_widget(btn)
            self.ids[f"preset_{name}"] = btn

    def _pick(self, name: str) -> None:
        self.choice = name
        self.error = ""
        self.property("choice").dispatch(self)  # re-sync toggles even if unchanged

    def on_pre_enter(self, *_args) -> None:
        app = App.get_running_app()
        cfg = app.config
        self.choice = cfg.get("game", "difficulty")
        if self.choice not in DIFFICULTIES:
            self.choice = "custom"
        self.rule = cfg.get("game", "first_click")
        self.ids.rows.text = str(cfg.get("game", "custom_rows"))
        self.ids.cols.text = str(cfg.get("game", "custom_cols"))
        self.ids.mines.text = str(cfg.get("game", "custom_mines"))
        self.error = ""
        self.code_error = ""

    def preset_label(self, name: str) -> str:
        d = DIFFICULTIES[name]
        mines = ngettext("{n} mine", "{n} mines", d.mines).format(n=d.mines)
        return f"[b]{board_name(name)}[/b]\n{d.rows} x {d.cols}, {mines}"

    def selected(self) -> tuple[str, Difficulty | None]:
        """(difficulty name, size) of the current choice; size None if invalid."""
        if self.choice in DIFFICULTIES:
            self.error = ""
            return self.choice, DIFFICULTIES[self.choice]
        d, self.error = validate_custom(self.ids.rows.text, self.ids.cols.text, self.ids.mines.text)
        return "custom", d

    def play_code(self) -> bool:
        """The Play code button: play the typed game code, or show why not."""
        self.code_error = App.get_running_app().play_code(self.ids.game_code.text)
        return not self.code_error

    def start(self) -> bool:
        """The Start button: validate and start, or show why not."""
        name, d = self.selected()
        if d is None:
            # the words under the size fields say why; Start sits at the bottom of
            # the screen and the fields may be scrolled out of view (a phone with
            # large text): bring them in (scroll_to waits for the layout)
            self.ids.error.texture_update()
            self.ids.scroll.scroll_to(self.ids.error, padding=dp(12), animate=False)
            return False
        app = App.get_running_app()
        cfg = app.config
        if name == "custom":
            cfg.set("game", "custom_rows", d.rows)
            cfg.set("game", "custom_cols", d.cols)
            cfg.set("game", "custom_mines", d.mines)
        cfg.set("game", "first_click", self.rule)
        rule = self.rule
        app.confirm_abandon(lambda: app.start_game(d, name=name, rule=rule))
        return True


class RecordsScreen(Screen):
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

    @staticmethod
    def board_name(label: str) -> str:
        """A board's label as the picker shows it, in the player's language."""
        return board_name(label)

    def pick(self, shown: str) -> None:
        """The picker chose ``shown`` (a board's name in the player's language)."""
        self.difficulty = next((n for n in self.names if board_name(n) == shown), shown)

    def on_pre_enter(self, *_args) -> None:
        came_from = getattr(self.manager.transition, "screen_out", None) if self.manager else None
        if came_from is not None and came_from.name == "progress":
            # back from Progress (opened on this screen's board): the board looked
            # at there, not the current game's (a custom board chosen here was lost)
            self.difficulty = came_from.difficulty
        else:
            app = App.get_running_app()
            name, d = app.current_difficulty()
            from fastmine.records import board_label
            self.difficulty = shown_label(name if name != "custom" else board_label(*d))
        self.refresh()

    def on_rows(self, _inst, rows) -> None:
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

    def on_difficulty(self, *_args) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        if app is None or getattr(app, "store", None) is None:
            return
        from .store import StoreError, board_key

        try:
            self.names = [shown_label(n) for n in app.store.board_labels()]
            board = board_key(self.difficulty.lower())
            st = app.store.stats(board)
            best = app.store.best_times(board, limit=10)
            note = app.store.read_only_note()
        except StoreError as exc:
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


class AboutScreen(Screen):
    """What fastmine is and how to play it."""

    text = StringProperty("")

    def on_pre_enter(self, *_args) -> None:
        from fastmine import __version__

        from . import assist
        solver = _("available") if assist.available() else _("not installed (assist buttons are off)")
        self.text = about_text(__version__, solver)


ABOUT: tuple[tuple[str, str], ...] = (
    (N_("Touch"), N_("Tap a cell to reveal it. Hold a finger on a cell to flag it (it flags while your "
                     "finger is still down). Tap a number whose flags are all placed to open its other "
                     "neighbours (chord). The flag button switches to flag mode: tap flags, hold "
                     "reveals. Pinch to zoom, drag to pan: neither ever reveals anything.")),
    (N_("Mouse"), N_("Left click reveals, right click flags (with question marks on in Settings: flag, "
                     "?, none), middle click or a double click on a number chords. Drag to pan, ctrl + "
                     "wheel zooms, the wheel scrolls.")),
    (N_("Keyboard"), N_("Arrows move the cursor, space reveals or chords, F marks, H hints, U undoes a "
                        "loss, N starts a new game, P pauses, Escape asks before quitting.")),
    (N_("Assist"), N_("Hint shows a cell that is certainly safe, or the safest guess and its odds. Odds "
                      "shades every unknown cell by its chance of holding a mine. Solver lets the "
                      "solver play one move for you: a safe move, an obvious move, the best guess, one "
                      "move of any kind, or a random cell. After a loss, Undo takes the losing move "
                      "back and the game goes on. With Coach while playing on (Settings), a line names "
                      "each risky move or wrong flag after you make it. Games where you used any of "
                      "these are marked as assisted and do not count for best times. Solver: {solver}.")),
    (N_("Replays and records"), N_("A recorded game keeps its replay: Watch replay at the end of a game "
                                   "(and, after a loss, Why did I lose?, which opens it at the losing "
                                   "move) or Replays in the menu. The player steps through the moves or "
                                   "plays them at 0.5x to 8x, marks each risky move on its timeline and "
                                   "says what was known before it. Records shows the best times and "
                                   "statistics of each board; its Progress charts your time and speed, "
                                   "win after win.")),
    (N_("Credits"), N_("Tiles and sounds are drawn and synthesised by the app itself. MIT licence.")),
)
"""The About screen's sections: (title, text), in English (:func:`about_text` translates them)."""


def about_text(version: str, solver: str) -> str:
    """The About screen in the player's language (markup)."""
    head = "[size=22sp][b]fastmine[/b][/size]   " + _("version {version}").format(version=version)
    intro = _("Minesweeper done properly: a Cython engine, an exact solver and this Kivy app.")
    body = [f"[b]{_(title)}[/b]\n{_(text).format(solver=solver)}" for title, text in ABOUT]
    return "\n\n".join([head, intro, *body]) + "\n"
