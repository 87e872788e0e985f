"""The About screen: what fastmine is and how to play it.

Its layout is in ``about.kv``; both load on the screen's first use
(:mod:`.screenloader`).
"""

from __future__ import annotations

from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from ..text.i18n import N_, _


class AboutScreen(Screen):  # type: ignore[misc]  # Kivy has no type information
    """What fastmine is and how to play it."""

    text = StringProperty("")

    def on_pre_enter(self, *_args: object) -> None:
        from fastmine import __version__

        from ..play import assist
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
