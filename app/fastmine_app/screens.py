"""The screens: game, new game, records, about (layouts in ``fastmine.kv``)."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from fastmine import DIFFICULTIES, Difficulty
from fastmine.difficulty import CUSTOM_MAX_SIDE, CUSTOM_MIN_SIDE

from .boardview import BoardView
from .controller import GameController
from .settings import RULE_LABELS
from .widgets import FlatToggle, TLabel

KEY_UP, KEY_DOWN, KEY_RIGHT, KEY_LEFT = 273, 274, 275, 276
KEY_SPACE, KEY_ENTER, KEY_ESCAPE, KEY_BACK = 32, 13, 27, 1001


class GameScreen(Screen):
    """The board, the top bar and the assist bar."""

    ctrl = ObjectProperty(None)

    def __init__(self, clock, **kwargs) -> None:
        self.board = BoardView(pos_hint={"x": 0, "y": 0})
        self.ctrl = GameController(self.board, clock=clock)
        super().__init__(**kwargs)
        self.ids.board_area.add_widget(self.board, index=len(self.ids.board_area.children))

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
        return False


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
    for label, text in (("Rows", rows), ("Columns", cols)):
        try:
            v = int(str(text).strip())
        except ValueError:
            v = None
        if v is None or not lo <= v <= hi:
            return None, f"{label} must be a whole number from {lo} to {hi}."
        values.append(v)
    r, c = values
    try:
        m = int(str(mines).strip())
    except ValueError:
        m = None
    if m is None or not 1 <= m <= r * c - 1:
        return None, f"Mines must be from 1 to {r * c - 1} on a {r} x {c} board."
    return Difficulty(r, c, m), ""


class NewGameScreen(Screen):
    """Presets, a custom size, and the first-click rule."""

    choice = StringProperty("beginner")
    rule = StringProperty("opening")
    error = StringProperty("")
    presets = ListProperty(list(DIFFICULTIES))
    rule_labels = RULE_LABELS

    def on_kv_post(self, _base) -> None:
        for name in DIFFICULTIES:
            btn = FlatToggle(text=self.preset_label(name), group="difficulty")
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

    def preset_label(self, name: str) -> str:
        d = DIFFICULTIES[name]
        return f"[b]{name.capitalize()}[/b]\n{d.rows} x {d.cols}, {d.mines} mines"

    def selected(self) -> tuple[str, Difficulty | None]:
        """(difficulty name, size) of the current choice; size None if invalid."""
        if self.choice in DIFFICULTIES:
            self.error = ""
            return self.choice, DIFFICULTIES[self.choice]
        d, self.error = validate_custom(self.ids.rows.text, self.ids.cols.text, self.ids.mines.text)
        return "custom", d

    def start(self) -> bool:
        """The Start button: validate and start, or show why not."""
        name, d = self.selected()
        if d is None:
            return False
        app = App.get_running_app()
        cfg = app.config
        if name == "custom":
            cfg.set("game", "custom_rows", d.rows)
            cfg.set("game", "custom_cols", d.cols)
            cfg.set("game", "custom_mines", d.mines)
        cfg.set("game", "first_click", self.rule)
        app.start_game(d, name=name, rule=self.rule)
        return True


class RecordsScreen(Screen):
    """Best times and statistics per difficulty, from the records store."""

    difficulty = StringProperty("beginner")
    """The board shown: a preset name or "custom RxC/M"."""
    names = ListProperty(list(DIFFICULTIES))
    summary = StringProperty("")
    error = StringProperty("")
    rows = ListProperty([])
    """Best-times table: (rank, name, time, 3BV/s, date) strings."""

    def on_pre_enter(self, *_args) -> None:
        app = App.get_running_app()
        name, d = app.current_difficulty()
        from fastmine.records import board_label
        self.difficulty = name if name != "custom" else board_label(*d)
        self.refresh()

    def on_rows(self, _inst, rows) -> None:
        table = self.ids.table
        table.clear_widgets()
        if not rows:
            return
        for text in ("#", "Name", "Time", "3BV/s", "Date"):
            table.add_widget(TLabel(text=f"[b]{text}[/b]", markup=True))
        for row in rows:
            for text in row:
                table.add_widget(TLabel(text=text, shorten=True, text_size=(None, None)))

    def on_difficulty(self, *_args) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        if app is None or getattr(app, "store", None) is None:
            return
        from .store import StoreError, board_key

        try:
            self.names = app.store.board_labels()
            board = board_key(self.difficulty)
            st = app.store.stats(board)
            best = app.store.best_times(board, limit=10)
        except StoreError as exc:
            self.error = str(exc)
            self.summary, self.rows = "", []
            return
        self.error = ""
        assisted = f"   (+{st.assisted} assisted)" if st.assisted else ""
        self.summary = (f"Played {st.played}   Won {st.won} ({st.win_percent:.0f}%){assisted}\n"
                        f"Current streak {st.streak}   Best streak {st.best_streak}")
        self.rows = [(str(i + 1), b.name or "-", f"{b.time:.2f} s",
                      f"{b.bbbv_per_second:.2f}" if b.bbbv_per_second else "-", b.date[:10])
                     for i, b in enumerate(best)]


class AboutScreen(Screen):
    """What fastmine is and how to play it."""

    text = StringProperty("")

    def on_pre_enter(self, *_args) -> None:
        from fastmine import __version__

        from . import assist
        solver = "available" if assist.available() else "not installed (assist buttons are off)"
        self.text = ABOUT.format(version=__version__, solver=solver)


ABOUT = """[size=22sp][b]fastmine[/b][/size]   version {version}

Minesweeper done properly: a Cython engine, an exact solver and this Kivy app.

[b]Touch[/b]
Tap a cell to reveal it. Hold a finger on a cell to flag it (it flags while your finger is still down). Tap a number whose flags are all placed to open its other neighbours (chord). The flag button switches to flag mode: tap flags, hold reveals. Pinch to zoom, drag to pan: neither ever reveals anything.

[b]Mouse[/b]
Left click reveals, right click cycles flag / question mark, middle click or a double click on a number chords. Drag to pan, ctrl + wheel zooms, the wheel scrolls.

[b]Keyboard[/b]
Arrows move the cursor, space reveals or chords, F marks, H hints, N starts a new game, P pauses.

[b]Assist[/b]
Auto, Deter, Infer, Proba and Random each let the solver make one move with that strategy. Hint shows a cell that is certainly safe, or the safest guess and its odds. Odds shades every unknown cell by its chance of holding a mine. Games where you used any of these are marked as assisted and do not count for best times. Solver: {solver}.

[b]Credits[/b]
Rules and features follow the project's seed write-ups: a Haskell terminal and GUI game with five assist strategies, a C game with best times and a player's name, and the classic algorithms explained. Tiles and sounds are drawn and synthesised by the app itself. MIT licence.
"""
