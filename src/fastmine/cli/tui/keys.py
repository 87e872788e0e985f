"""What each key and mouse button does in the curses game.

Every binding is in :data:`KEYMAP` (a key -> an action name), so the help
line, ``docs/terminal.md`` and the tests read from one place.  No key is
bound twice; assists sit on letters no move uses (``p`` pauses, so seed
002's probability assist is ``o``).
"""

from __future__ import annotations

import curses

MOVES = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1),
         "up5": (-5, 0), "down5": (5, 0), "left5": (0, -5), "right5": (0, 5)}
"""Cursor movements: action -> (d_row, d_col)."""

ASSIST_KEYS = {"a": "auto", "d": "deterministic", "i": "inference", "o": "probability",
               "r": "random", "b": "best"}
"""Assist key -> solver strategy."""


def _build() -> dict[int, str]:
    m: dict[int, str] = {
        curses.KEY_UP: "up", curses.KEY_DOWN: "down",
        curses.KEY_LEFT: "left", curses.KEY_RIGHT: "right",
        curses.KEY_HOME: "home", curses.KEY_END: "end",
        curses.KEY_ENTER: "reveal", curses.KEY_RESIZE: "resize", curses.KEY_MOUSE: "mouse",
        3: "quit",  # ctrl-c when the terminal delivers it as a key
    }
    letters = {"k": "up", "j": "down", "h": "left", "l": "right",
               "K": "up5", "J": "down5", "H": "left5", "L": "right5",
               " ": "reveal", "\n": "reveal", "\r": "reveal",
               "f": "mark", "c": "chord", "p": "pause", "s": "code", "n": "new", "q": "quit",
               "t": "hint", "?": "hint", "w": "coach", "g": "home", "G": "end"}
    letters.update({k: f"assist:{s}" for k, s in ASSIST_KEYS.items()})
    for ch, action in letters.items():
        m[ord(ch)] = action
    return m


KEYMAP: dict[int, str] = _build()
"""Key code (from ``getch``) -> action name."""

# Each form names every key; a narrower terminal gets a tighter one, so that an
# 80-column terminal (78 columns inside the margins) still shows the assists.
_HELP_FORMS = (
    ("  ", "hjkl move", "space open", "assist: a d i o r b"),
    ("  ", "hjkl move", "space open", "assist adiorb"),
    (" ", "hjkl move", "space open", "assist adiorb"),
    (" ", "hjkl", "spc open", "adiorb assist"),
)
_HELP_KEYS = ("f mark", "p pause", "n new", "q quit", "t hint", "s code", "w coach")


def help_line(width: int) -> str:
    """The keys line for a terminal ``width`` columns wide (1 column of margin each
    side): the widest form that fits, else the tightest one cut at the edge.

    >>> len(help_line(80)) <= 78 and "adiorb" in help_line(80)
    True
    >>> help_line(200) == HELP_LINE
    True
    """
    room = max(width - 2, 0)
    line = ""
    for sep, move, reveal, assist in _HELP_FORMS:
        line = sep.join((move, reveal, *_HELP_KEYS, assist))
        if len(line) <= room:
            return line
    return line[:room]


HELP_LINE = "  ".join((_HELP_FORMS[0][1], _HELP_FORMS[0][2], *_HELP_KEYS, _HELP_FORMS[0][3]))
"""The keys line at the bottom of a wide screen (:func:`help_line` for any width)."""


def action_for(key: int) -> str | None:
    """The action of a key code, or None if the key does nothing.

    >>> action_for(ord("j")), action_for(ord("o")), action_for(ord("Z"))
    ('down', 'assist:probability', None)
    """
    return KEYMAP.get(key)


def mouse_action(bstate: int) -> str | None:
    """What a mouse event does: ``"press"`` (move the cursor), ``"reveal"`` (left
    button released or clicked), ``"mark"`` (right button) or ``"chord"`` (middle)."""
    if bstate & (curses.BUTTON1_RELEASED | curses.BUTTON1_CLICKED):
        return "reveal"
    if bstate & curses.BUTTON1_PRESSED:
        return "press"
    if bstate & (curses.BUTTON3_PRESSED | curses.BUTTON3_CLICKED):
        return "mark"
    if bstate & (curses.BUTTON2_RELEASED | curses.BUTTON2_CLICKED):
        return "chord"
    return None


MOUSE_MASK = (curses.BUTTON1_PRESSED | curses.BUTTON1_RELEASED | curses.BUTTON1_CLICKED
              | curses.BUTTON2_RELEASED | curses.BUTTON2_CLICKED
              | curses.BUTTON3_PRESSED | curses.BUTTON3_CLICKED)
"""The mouse events the game asks the terminal for."""
