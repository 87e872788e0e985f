"""The game screen: the board, its bars or side column, the Solver menu,
keyboard play.

Its layout is in ``game.kv`` (the Main menu's and the Solver menu's too).  The
other screens load on first use (:mod:`.screenloader`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ObjectProperty
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from .. import settings as S
from ..board import controls
from ..board.boardview import BoardView
from ..kvfiles import RulesOnFirstUse
from ..play.controller import GameController
from ..text.i18n import _
from ..widgets import MENUS_KV, LetsGoWhenClosing

KEY_UP, KEY_DOWN, KEY_RIGHT, KEY_LEFT = 273, 274, 275, 276
KEY_SPACE, KEY_ENTER, KEY_ESCAPE, KEY_BACK = 32, 13, 27, 1001


# The game screen's controls, in the order the landscape side column shows them
# (two a row); in portrait the counters, face and menu go in the top bar and
# the play controls in the bar at the bottom, under the thumb.
TOP_CONTROLS = ("mines_left", "spacer_left", "face", "spacer_right", "timer", "menu_button")
TOOL_CONTROLS = ("flag_mode", "pause", "hint", "odds", "solver")
SIDE_ROWS = (("mines_left", "timer"), ("face", "menu_button"), ("flag_mode", "pause"),
             ("hint", "odds"), ("solver",))


class GameScreen(Screen):  # type: ignore[misc]  # Kivy has no type information
    """The board with a top bar and a tool bar (portrait) or a side column (landscape)."""

    ctrl = ObjectProperty(None)
    landscape = BooleanProperty(False)
    """Wider than tall: the controls are in a column beside the board."""

    def __init__(self, clock: Callable[[], float], **kwargs: Any) -> None:
        self.board = BoardView(pos_hint={"x": 0, "y": 0})
        self.ctrl = GameController(self.board, clock=clock)
        self._side: Widget | None = None  # the landscape column, made when first needed
        super().__init__(**kwargs)
        self.ids.board_area.add_widget(self.board, index=len(self.ids.board_area.children))
        # ids are weak references: the parts moved between layouts are kept here,
        # or a bar out of the window's tree in landscape would be collected
        self._parts = {n: self.ids[n].__self__ for n in (*TOP_CONTROLS, *TOOL_CONTROLS,
                                                          "top_bar", "tool_bar", "board_area")}
        self.bind(size=self._check_orientation)

    def _check_orientation(self, *_args: object) -> None:
        landscape = self.width > self.height * 1.05
        if landscape != self.landscape:
            self.landscape = landscape

    def on_landscape(self, _inst: object, landscape: bool) -> None:
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

    GAME_SETTINGS = ("question_marks", "long_press_delay", "first_click", "coach", "controls",
                     "tap_number", "double_tap_delay", "touch_slop", "cell_size")
    """The settings this screen's board and controller follow (:meth:`apply_settings`)."""

    def apply_settings(self, config: Any, key: str | None = None) -> bool:
        """Give the board and the controller the setting ``key`` from ``config``, or
        every one of :data:`GAME_SETTINGS` (``key`` None, when the app is built);
        False when ``key`` is not one of them."""
        if key is not None and key not in self.GAME_SETTINGS:
            return False
        ctrl, board, every = self.ctrl, self.board, key is None
        if every or key == "question_marks":
            if every:
                ctrl.question_marks = S.flag(config, "question_marks")
            else:
                ctrl.set_question_marks(S.flag(config, "question_marks"))
        if every or key == "long_press_delay":
            board.long_press_delay = S.long_press_delay(config)
        if every or key == "first_click":
            ctrl.rule = S.first_click(config)
        if every or key == "coach":
            ctrl.coach = S.flag(config, "coach")
        if every or key in ("controls", "tap_number", "double_tap_delay", "touch_slop"):
            self.apply_controls(config)
        if key == "cell_size":
            board.apply_cell_size()  # the game on screen, and the next ones
        return True

    def apply_controls(self, config: Any) -> None:
        """The control scheme, tap on a number, double-tap delay and touch tolerance
        settings, from ``config``."""
        ctrl, board = self.ctrl, self.board
        ctrl.scheme = S.control_scheme(config)
        ctrl.tap_number = S.tap_number(config)
        double = controls.uses_double_tap(ctrl.scheme)
        board.double_tap_delay = S.double_tap_delay(config) if double else 0.0
        board.gestures.slop = dp(S.touch_slop(config))

    def open_menu(self, button: Any) -> Any:
        """The Menu button's drop-down (its entries are in ``menus.kv``)."""
        menu = Factory.MainMenu()
        menu.open(button)
        return menu

    def open_solver_menu(self, button: Any) -> SolverMenu:
        """The Solver control: the five strategies in plain words, one move each."""
        menu = SolverMenu()
        menu.bind(on_choose=lambda _m, strategy: self.ctrl.assist(strategy))
        menu.open(button)
        return menu

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


class SolverMenu(RulesOnFirstUse, LetsGoWhenClosing, ModalView):  # type: ignore[misc]  # Kivy has no type information
    """The Solver control's sheet: each strategy with its plain name and a line
    on what it does; a tap plays one move (``on_choose``), a tap outside closes it."""

    KV_FILES = MENUS_KV

    __events__ = ("on_choose",)
    wide = BooleanProperty(False)
    """Entries in two columns (a landscape screen is too low for one)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        from ..play.assist import SOLVER_MOVES
        from ..widgets import MenuEntry

        for move in SOLVER_MOVES:
            btn = MenuEntry(title=_(move.title), line=_(move.line))
            btn.strategy = move.strategy
            btn.bind(on_release=self._pick)
            self.ids.container.add_widget(btn)

    @property
    def container(self) -> Any:
        """The layout holding the entries, top one last (Kivy's order)."""
        return self.ids.container

    def _pick(self, btn: Any) -> None:
        self.dismiss()
        self.dispatch("on_choose", btn.strategy)

    def on_choose(self, strategy: str) -> None:
        """A strategy was picked."""
