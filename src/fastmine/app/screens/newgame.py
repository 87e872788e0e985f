"""The New game screen: presets, a custom board, the first-click rule, game codes.

Its layout is in ``newgame.kv``; both load on the screen's first use
(:mod:`.screenloader`).
"""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import ListProperty, StringProperty
from kivy.uix.screenmanager import Screen

from fastmine import DIFFICULTIES, Difficulty
from fastmine.difficulty import CUSTOM_MAX_SIDE, CUSTOM_MIN_SIDE

from ..settings import RULE_HELP, RULE_LABELS
from ..text.i18n import N_, _, board_name, ngettext
from ..widgets import FlatToggle


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


class NewGameScreen(Screen):  # type: ignore[misc]  # Kivy has no type information
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

    def on_rule(self, _inst: object, rule: str) -> None:
        self.rule_help = RULE_HELP.get(rule, "")

    def on_kv_post(self, _base: object) -> None:
        buttons: list[FlatToggle] = []

        def even(*_args: object) -> None:
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

    def on_pre_enter(self, *_args: object) -> None:
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
