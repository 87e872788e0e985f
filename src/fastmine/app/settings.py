"""The app's settings: defaults, what the settings screen shows, and typed reads.

Stored by Kivy in the app's config file (``fastmine.ini`` in the user data
directory); shown by the app's own settings screen (``F1`` or the menu,
:class:`.settingsscreen.SettingsScreen`), in the player's words.
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
        "coach": 0,
    },
}
"""Section -> key -> default, for ``App.build_config``."""

CELL_SIZES = ["40", "48", "56", "64", "72"]
"""Cell sizes offered, in dp (56 dp is about 9 mm: a fingertip)."""

LONG_PRESS_DELAYS = ["0.25", "0.3", "0.4", "0.5", "0.6", "0.8", "1.0"]
FIRST_CLICK_RULES = ["cell", "opening", "no_guess"]
RULE_LABELS = {"cell": "Safe cell", "opening": "Opening", "no_guess": "No guess"}
RULE_HELP = {
    "cell": "The first cell you open is never a mine.",
    "opening": "The first cell you open opens an area with no mine around it.",
    "no_guess": "The whole board can be solved without guessing.",
}
"""What each first-click rule does, in a line (the new-game screen shows the chosen
rule's; the settings screen's "First click" lists them all)."""
THEME_LABELS = {"light": "Light", "dark": "Dark"}
CELL_SIZE_LABELS = {"40": "Small", "48": "Medium", "56": "Large", "64": "Larger", "72": "Huge"}
BOOL_LABELS = {"0": "Off", "1": "On"}

PANEL = [
    {"type": "title", "title": "Play"},
    {"type": "options", "title": "First click", "section": SECTION, "key": "first_click",
     "options": FIRST_CLICK_RULES, "labels": RULE_LABELS,
     "desc": " ".join(f"{RULE_LABELS[r]}: {RULE_HELP[r][:1].lower()}{RULE_HELP[r][1:]}"
                      for r in FIRST_CLICK_RULES)},
    {"type": "bool", "title": "Question marks", "section": SECTION, "key": "question_marks",
     "desc": "Marking a cell goes flag, ?, none (off: flag, none)."},
    {"type": "bool", "title": "Coach while playing", "section": SECTION, "key": "coach",
     "desc": "After a risky move, a line says how risky it was and whether a safe cell "
             "was open to you; a wrong flag is named. The coach knows what the solver "
             "knows, so games played with it count as assisted."},
    {"type": "options", "title": "Long-press delay", "section": SECTION,
     "key": "long_press_delay", "options": LONG_PRESS_DELAYS,
     "labels": {v: f"{v} s" for v in LONG_PRESS_DELAYS},
     "desc": "How long to hold a finger down to flag (to reveal, in flag mode)."},
    {"type": "options", "title": "Cell size", "section": SECTION, "key": "cell_size",
     "options": CELL_SIZES, "labels": CELL_SIZE_LABELS,
     "desc": "How big cells are when a game opens on a touch screen (Large is about a fingertip)."},
    {"type": "string", "title": "Player name", "section": SECTION, "key": "player_name",
     "desc": "Offered when you set a best time."},
    {"type": "title", "title": "Look and feel"},
    {"type": "options", "title": "Theme", "section": SECTION, "key": "theme",
     "options": ["light", "dark"], "labels": THEME_LABELS, "desc": "Light or dark colours."},
    {"type": "bool", "title": "Animations", "section": SECTION, "key": "animations",
     "desc": "Opening, explosion and win effects (off: reduce motion)."},
    {"type": "bool", "title": "Sound", "section": SECTION, "key": "sound",
     "desc": "Effects for reveal, flag, explosion and win."},
    {"type": "bool", "title": "Vibration", "section": SECTION, "key": "haptics",
     "desc": "A short buzz when a long press places a flag (where the device can)."},
]
"""The settings screen, in order: a title, or a setting with its words for the player."""


def option_labels(item: dict) -> dict[str, str]:
    """Value -> what the settings screen shows for one setting of :data:`PANEL`.

    >>> option_labels(PANEL[1])["no_guess"], option_labels(PANEL[2])["0"]
    ('No guess', 'Off')
    """
    if item["type"] == "bool":
        return dict(BOOL_LABELS)
    return {v: item.get("labels", {}).get(v, v) for v in item.get("options", [])}


def touch_defaults(defaults: dict) -> dict:
    """The defaults on a touch screen: question marks off (one long press unflags).

    >>> touch_defaults(DEFAULTS)["game"]["question_marks"], DEFAULTS["game"]["question_marks"]
    (0, 1)
    """
    out = {k: dict(v) for k, v in defaults.items()}
    out[SECTION]["question_marks"] = 0
    return out


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
