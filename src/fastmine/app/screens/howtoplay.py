"""The How to play screen: the rules on one screen, and the way into the tutorial.

Its layout is in ``howtoplay.kv``; both load on the screen's first use
(:mod:`.screenloader`).
"""

from __future__ import annotations

from typing import Any

from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from ..kvfiles import load_kv
from ..text.i18n import N_, translate


class HowToPlayScreen(Screen):  # type: ignore[misc]
    """The rules on one screen, and the way back into the tutorial."""

    RULES: tuple[str, ...] = (
        N_("The board hides mines. Open every cell that is not a mine to win; open a mine and "
           "you lose."),
        N_("A number tells how many mines touch its cell, diagonals included. A blank cell has "
           "none, and the cells around it open by themselves."),
        N_("Flag a cell you know is a mine: a flag keeps it from being opened by mistake. The "
           "counter at the top left shows the mines not flagged yet."),
        N_("When a number has as many flags around it as its count, tap it to open all its "
           "other neighbours at once: a chord."),
        N_("The first cell you open is always safe, and the clock starts with it."),
        N_("Tap opens, hold flags (Settings, Controls, has other ways). Pinch or the corner "
           "button zooms; drag to move the board."),
        N_("Stuck? Hint shows a cell that is certainly safe. Games played with help count apart "
           "from your best times."),
    )
    """The rules, one paragraph each."""

    text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        load_kv("screens/howtoplay.kv")  # its rules before the screen is built
        super().__init__(**kwargs)

    def on_pre_enter(self, *_args: Any) -> None:
        # no-break spaces: a rule too long for the rest of the bullet's line
        # (a Chinese one, which has no space to break at) stays beside it
        self.text = "\n\n".join("•\u00a0\u00a0" + translate(rule) for rule in self.RULES)
