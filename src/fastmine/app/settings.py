"""The app's settings: defaults, what the settings screen shows, and typed reads.

Stored by Kivy in the app's config file (``fastmine.ini`` in the user data
directory); shown by the app's own settings screen (``F1`` or the menu,
:class:`.screens.settings.SettingsScreen`), in the player's words.
"""

from __future__ import annotations

import json
from configparser import RawConfigParser
from typing import TypedDict

from .text.i18n import LANGUAGES, N_

SECTION = "game"

DEFAULTS: dict[str, dict[str, object]] = {
    "game": {
        "question_marks": 1,
        "long_press_delay": "0.4",
        "first_click": "opening",
        "theme": "light",
        "numbers": "standard",
        "sound": 1,
        "player_name": "",
        "difficulty": "beginner",
        "custom_rows": 20,
        "custom_cols": 20,
        "custom_mines": 60,
        "cell_size": "56",
        "controls": "tap_open",
        "tap_number": "chord",
        "double_tap_delay": "0.3",
        "touch_slop": "10",
        "vibration": "",  # "" until set: taken from the old on/off "haptics" (see migrate)
        "animations": 1,
        "coach": 0,
        "language": "system",
        "import_folder": "",  # the folder of the last file imported (Replays -> Import)
    },
}
"""Section -> key -> default, for ``App.build_config``."""

CELL_SIZES = ["40", "48", "56", "64", "72"]
"""Cell sizes offered, in dp (56 dp is about 9 mm: a fingertip)."""

LONG_PRESS_DELAYS = ["0.25", "0.3", "0.4", "0.5", "0.6", "0.8", "1.0"]
FIRST_CLICK_RULES = ["cell", "opening", "no_guess"]
RULE_LABELS = {"cell": "Safe cell", "opening": "Opening", "no_guess": "No guess"}
RULE_HELP = {  # marked for the catalogs: the new-game screen shows each translated
    "cell": N_("The first cell you open is never a mine."),
    "opening": N_("The first cell you open opens an area with no mine around it."),
    "no_guess": N_("The whole board can be solved without guessing."),
}
"""What each first-click rule does, in a line (the new-game screen shows the chosen
rule's; the settings screen's "First click" lists them all)."""
THEMES = ["light", "dark", "black", "high_contrast", "sepia", "ocean"]
THEME_LABELS = {"light": "Light", "dark": "Dark", "black": "Black",
                "high_contrast": "High contrast", "sepia": "Sepia", "ocean": "Ocean"}
NUMBER_LABELS = {"standard": "Classic", "colour_blind": "Colour-blind safe"}
CONTROL_SCHEMES = ["tap_open", "tap_flag", "double_open", "double_flag"]
CONTROL_LABELS = {
    "tap_open": "Tap opens, hold flags",
    "tap_flag": "Tap flags, hold opens",
    "double_open": "Double tap opens, tap flags",
    "double_flag": "Double tap flags, tap opens",
}
TAP_NUMBER_LABELS = {"chord": "Chords", "nothing": "Does nothing"}
DOUBLE_TAP_DELAYS = ["0.2", "0.25", "0.3", "0.4", "0.5"]
TOUCH_SLOPS = ["5", "10", "20"]
"""How far a finger may move, in dp, before a tap or a hold becomes a pan (1 dp is
about 0.16 mm: 5 dp is under a millimetre, 20 dp about 3 mm)."""
TOUCH_SLOP_LABELS = {"5": "Precise", "10": "Normal", "20": "Relaxed"}
VIBRATION = ["off", "light", "strong"]
VIBRATION_LABELS = {"off": "Off", "light": "Light", "strong": "Strong"}
CELL_SIZE_LABELS = {"40": "Small", "48": "Medium", "56": "Large", "64": "Larger", "72": "Huge"}
BOOL_LABELS = {"0": "Off", "1": "On"}

class PanelItem(TypedDict, total=False):
    """One line of the settings screen: a title, or a setting (``type`` "bool",
    "options" or "string") with its words for the player."""

    type: str
    title: str
    section: str
    key: str
    options: list[str]
    labels: dict[str, str]
    """Option -> what the screen shows for it (an option not here shows as itself)."""
    desc: str


PANEL: list[PanelItem] = [
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
    {"type": "options", "title": "Controls", "section": SECTION, "key": "controls",
     "options": CONTROL_SCHEMES, "labels": CONTROL_LABELS,
     "desc": "What a tap, a hold and a double tap do on a hidden cell. With a double-tap "
             "scheme a single tap waits for the double-tap delay, and a hold does what a "
             "double tap does. The flag button swaps opening and flagging. A mouse "
             "always opens with the left button and flags with the right."},
    {"type": "options", "title": "Tap on a number", "section": SECTION, "key": "tap_number",
     "options": ["chord", "nothing"], "labels": TAP_NUMBER_LABELS,
     "desc": "Chords: a tap on a number whose flags are all placed opens its other "
             "neighbours. Does nothing: a stray tap never opens a cell; hold the number "
             "to chord."},
    {"type": "options", "title": "Long-press delay", "section": SECTION,
     "key": "long_press_delay", "options": LONG_PRESS_DELAYS,
     "labels": {v: f"{v} s" for v in LONG_PRESS_DELAYS},
     "desc": "How long to hold a finger down for a hold (to flag, with the first controls)."},
    {"type": "options", "title": "Double-tap delay", "section": SECTION,
     "key": "double_tap_delay", "options": DOUBLE_TAP_DELAYS,
     "labels": {v: f"{v} s" for v in DOUBLE_TAP_DELAYS},
     "desc": "With a double-tap scheme: how quickly the second tap must follow the first "
             "(a single tap plays after this wait)."},
    {"type": "options", "title": "Touch tolerance", "section": SECTION, "key": "touch_slop",
     "options": TOUCH_SLOPS, "labels": TOUCH_SLOP_LABELS,
     "desc": "How far a finger may slide before a tap or a hold becomes a pan: Precise "
             "under 1 mm, Normal about 1.5 mm, Relaxed about 3 mm (for a shaky hand)."},
    {"type": "options", "title": "Cell size", "section": SECTION, "key": "cell_size",
     "options": CELL_SIZES, "labels": CELL_SIZE_LABELS,
     "desc": "How big cells are when a game opens on a touch screen (Large is about a fingertip)."},
    {"type": "string", "title": "Player name", "section": SECTION, "key": "player_name",
     "desc": "Offered when you set a best time."},
    {"type": "title", "title": "Look and feel"},
    {"type": "options", "title": "Language", "section": SECTION, "key": "language",
     "options": ["system", *LANGUAGES], "labels": {"system": "System", **LANGUAGES},
     "desc": "The app's words. System: the language of the device (English when the app "
             "does not speak it)."},
    {"type": "options", "title": "Theme", "section": SECTION, "key": "theme",
     "options": THEMES, "labels": THEME_LABELS,
     "desc": "Light or dark colours; Black is dark on true black, which an OLED screen "
             "shows with its pixels off; High contrast shows bright cells and numbers on "
             "black, for low vision or bright sunlight."},
    {"type": "options", "title": "Number colours", "section": SECTION, "key": "numbers",
     "options": ["standard", "colour_blind"], "labels": NUMBER_LABELS,
     "desc": "Colour-blind safe: eight colours that stay apart with any kind of colour "
             "blindness, in every theme."},
    {"type": "bool", "title": "Animations", "section": SECTION, "key": "animations",
     "desc": "Opening, explosion and win effects (off: reduce motion)."},
    {"type": "bool", "title": "Sound", "section": SECTION, "key": "sound",
     "desc": "Effects for reveal, flag, explosion and win."},
    {"type": "options", "title": "Vibration", "section": SECTION, "key": "vibration",
     "options": VIBRATION, "labels": VIBRATION_LABELS,
     "desc": "A short buzz when a hold lands, a longer one on an explosion and a "
             "pattern on a win (where the device can vibrate)."},
]
"""The settings screen, in order: a title, or a setting with its words for the player."""


def option_labels(item: PanelItem) -> dict[str, str]:
    """Value -> what the settings screen shows for one setting of :data:`PANEL`.

    >>> option_labels(PANEL[1])["no_guess"], option_labels(PANEL[2])["0"]
    ('No guess', 'Off')
    """
    if item["type"] == "bool":
        return dict(BOOL_LABELS)
    return {v: item.get("labels", {}).get(v, v) for v in item.get("options", [])}


def touch_defaults(defaults: dict[str, dict[str, object]]) -> dict[str, dict[str, object]]:
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


def long_press_delay(config: RawConfigParser) -> float:
    """The long-press delay in seconds (bad values fall back to 0.4)."""
    try:
        v = float(config.get(SECTION, "long_press_delay"))
    except (TypeError, ValueError):
        return 0.4
    return v if 0.1 <= v <= 3.0 else 0.4


def first_click(config: RawConfigParser) -> str:
    """The first-click rule for new games."""
    v = config.get(SECTION, "first_click")
    return v if v in FIRST_CLICK_RULES else "opening"


def flag(config: RawConfigParser, key: str) -> bool:
    """A bool setting."""
    try:
        return bool(config.getint(SECTION, key))
    except (TypeError, ValueError):
        return bool(DEFAULTS[SECTION][key])


def control_scheme(config: RawConfigParser) -> str:
    """The control scheme (see :mod:`.controls`; unknown values give the default)."""
    v = config.get(SECTION, "controls")
    return v if v in CONTROL_SCHEMES else "tap_open"


def tap_number(config: RawConfigParser) -> str:
    """What a single tap on a number does: "chord" or "nothing"."""
    return "nothing" if config.get(SECTION, "tap_number") == "nothing" else "chord"


def double_tap_delay(config: RawConfigParser) -> float:
    """The double-tap delay in seconds (bad values fall back to 0.3)."""
    try:
        v = float(config.get(SECTION, "double_tap_delay"))
    except (TypeError, ValueError):
        return 0.3
    return v if 0.1 <= v <= 1.0 else 0.3


def touch_slop(config: RawConfigParser) -> float:
    """How far a finger may move before a tap or a hold becomes a pan, in dp
    (values not offered fall back to 10).

    >>> from configparser import RawConfigParser as C; c = C(); c.read_dict({"game": {"touch_slop": "20"}})
    >>> touch_slop(c)
    20.0
    """
    v = config.get(SECTION, "touch_slop", fallback="10")
    return float(v) if v in TOUCH_SLOPS else 10.0


def vibration(config: RawConfigParser) -> str:
    """The vibration strength: "off", "light" or "strong"."""
    v = config.get(SECTION, "vibration")
    return v if v in VIBRATION else "light"


def number_palette(config: RawConfigParser) -> str:
    """The numbers' palette: "standard" or "colour_blind"."""
    return "colour_blind" if config.get(SECTION, "numbers") == "colour_blind" else "standard"


def migrate(config: RawConfigParser) -> bool:
    """Bring settings written by older versions up to date; True if one changed.

    Vibration was on or off (``haptics = 1`` / ``0``); it is now a strength:
    on becomes "light" (the buzz it gave), off stays "off".
    """
    if config.get(SECTION, "vibration") in VIBRATION:
        return False
    old = config.get(SECTION, "haptics") if config.has_option(SECTION, "haptics") else "1"
    config.set(SECTION, "vibration", "off" if str(old).strip() in ("0", "False", "false") else "light")
    return True


def cell_size(config: RawConfigParser) -> float:
    """The cell size a touch-screen game opens at, in dp (bad values fall back to 56)."""
    try:
        v = float(config.get(SECTION, "cell_size"))
    except (TypeError, ValueError):
        return 56.0
    return v if 24.0 <= v <= 120.0 else 56.0
