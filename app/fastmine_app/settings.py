"""The app's settings: defaults, the Kivy settings panel, and typed reads.

Stored by Kivy in the app's config file (``fastmine.ini`` in the user data
directory); shown with Kivy's settings panel (``F1`` or the menu).
"""

from __future__ import annotations

import json

SECTION = "game"

DEFAULTS: dict[str, dict[str, object]] = {
    "game": {
        "question_marks": 1,
        "long_press_delay": "0.4",
        "first_click": "opening",
        "theme": "light",
        "sound": 1,
        "player_name": "",
        "difficulty": "beginner",
        "custom_rows": 20,
        "custom_cols": 20,
        "custom_mines": 60,
        "cell_size": "56",
        "haptics": 1,
        "animations": 1,
    },
}
"""Section -> key -> default, for ``App.build_config``."""

CELL_SIZES = ["40", "48", "56", "64", "72"]
"""Cell sizes offered, in dp (56 dp is about 9 mm: a fingertip)."""

LONG_PRESS_DELAYS = ["0.25", "0.3", "0.4", "0.5", "0.6", "0.8", "1.0"]
FIRST_CLICK_RULES = ["cell", "opening", "no_guess"]
RULE_LABELS = {"cell": "Safe cell", "opening": "Opening", "no_guess": "No guess"}

PANEL = [
    {"type": "title", "title": "Play"},
    {"type": "bool", "title": "Question marks", "section": SECTION, "key": "question_marks",
     "desc": "Marking cycles flag -> ? -> none (off: flag <-> none)"},
    {"type": "options", "title": "Long-press delay (seconds)", "section": SECTION,
     "key": "long_press_delay", "options": LONG_PRESS_DELAYS,
     "desc": "How long to hold a finger down to flag (or to reveal in flag mode)"},
    {"type": "options", "title": "First click", "section": SECTION, "key": "first_click",
     "options": FIRST_CLICK_RULES,
     "desc": "cell: the first cell is safe; opening: it opens an area; "
             "no_guess: the board can be solved without guessing"},
    {"type": "string", "title": "Player name", "section": SECTION, "key": "player_name",
     "desc": "Offered when you set a best time"},
    {"type": "title", "title": "Look and sound"},
    {"type": "options", "title": "Theme", "section": SECTION, "key": "theme",
     "options": ["light", "dark"], "desc": "Light or dark colours"},
    {"type": "bool", "title": "Sound", "section": SECTION, "key": "sound",
     "desc": "Effects for reveal, flag, explosion and win"},
]


def panel_json() -> str:
    """The settings panel description for ``Settings.add_json_panel``."""
    return json.dumps(PANEL)


def long_press_delay(config) -> float:
    """The long-press delay in seconds (bad values fall back to 0.4)."""
    try:
        v = float(config.get(SECTION, "long_press_delay"))
    except (TypeError, ValueError):
        return 0.4
    return v if 0.1 <= v <= 3.0 else 0.4


def first_click(config) -> str:
    """The first-click rule for new games."""
    v = config.get(SECTION, "first_click")
    return v if v in FIRST_CLICK_RULES else "opening"


def flag(config, key: str) -> bool:
    """A bool setting."""
    try:
        return bool(config.getint(SECTION, key))
    except (TypeError, ValueError):
        return bool(DEFAULTS[SECTION][key])


def cell_size(config) -> float:
    """The cell size a touch-screen game opens at, in dp (bad values fall back to 56)."""
    try:
        v = float(config.get(SECTION, "cell_size"))
    except (TypeError, ValueError):
        return 56.0
    return v if 24.0 <= v <= 120.0 else 56.0
