"""Colours of the themes (light, dark, true black, high contrast, sepia, ocean)
and of the numbers, for the widgets and for the tile atlas.

A :class:`Theme` is an immutable bag of RGBA tuples (floats 0..1).  The app
keeps the current one in ``App.theme`` and the ``.kv`` rules bind to its
fields, so switching theme is one property assignment plus a new atlas.

The numbers' colours are a setting of their own, apart from the theme
(:func:`get_theme`'s ``palette``): a colour-blind player may want any
theme.  The colour-blind-safe palettes keep the eight numbers apart
under deuteranopia, protanopia and tritanopia as well as for normal vision (a
CAM02-UCS distance of at least 20 between any two, with every simulation;
the classic palette falls to 1 to 7 under some), each at least 3:1 against
its revealed cell (numbers are bold and half a cell high: large text).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

RGBA = tuple[float, float, float, float]


def rgb(hex_: str, a: float = 1.0) -> RGBA:
    """``"#rrggbb"`` -> an RGBA tuple of floats.

    >>> rgb("#ff8000")
    (1.0, 0.5019607843137255, 0.0, 1.0)
    """
    h = hex_.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255, a)


@dataclass(frozen=True)
class Theme:
    """Every colour the app draws with."""

    name: str
    # widgets
    bg: RGBA
    bar: RGBA
    text: RGBA
    text_dim: RGBA
    button: RGBA
    button_down: RGBA
    button_text: RGBA
    accent: RGBA
    accent_text: RGBA
    danger: RGBA
    counter_bg: RGBA
    counter_text: RGBA
    board_bg: RGBA
    dialog_bg: RGBA
    # tiles
    hidden: RGBA
    hidden_light: RGBA
    hidden_dark: RGBA
    revealed: RGBA
    revealed_edge: RGBA
    exploded_bg: RGBA
    mine: RGBA
    flag: RGBA
    pole: RGBA
    question: RGBA
    cursor: RGBA
    hint: RGBA
    numbers: tuple[RGBA, ...]  # colours of 1..8
    prob_safe: RGBA  # overlay tint at P(mine) = 0
    prob_mid: RGBA  # ... at 0.5
    prob_mine: RGBA  # ... at 1
    palette: str = "standard"
    """The numbers' palette: "standard" or "colour_blind" (see :func:`get_theme`)."""

    @property
    def is_light(self) -> bool:
        """A light background (dark ink on it).

        >>> LIGHT.is_light, DARK.is_light, BLACK.is_light
        (True, False, False)
        """
        r, g, b = self.bg[:3]
        return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5


LIGHT = Theme(
    name="light",
    bg=rgb("#eef0f3"),
    bar=rgb("#dfe3e8"),
    text=rgb("#1d2430"),
    text_dim=rgb("#5b6574"),
    button=rgb("#ffffff"),
    button_down=rgb("#c9d3e0"),
    button_text=rgb("#1d2430"),
    accent=rgb("#2f6fdf"),
    accent_text=rgb("#ffffff"),
    danger=rgb("#d63a32"),
    counter_bg=rgb("#1d2430"),
    counter_text=rgb("#ff5a4e"),
    board_bg=rgb("#c4cad3"),
    dialog_bg=rgb("#ffffff"),
    hidden=rgb("#a9b6c8"),
    hidden_light=rgb("#d4deeb"),
    hidden_dark=rgb("#7c8aa0"),
    revealed=rgb("#f4f5f7"),
    revealed_edge=rgb("#d5d9e0"),
    exploded_bg=rgb("#f0433a"),
    mine=rgb("#1c1f26"),
    flag=rgb("#e5302a"),
    pole=rgb("#2b2f38"),
    question=rgb("#24324a"),
    cursor=rgb("#2f6fdf"),
    hint=rgb("#1fae4b"),
    numbers=(
        rgb("#1f5fd6"), rgb("#1c8a35"), rgb("#d8262c"), rgb("#1b2a8c"),
        rgb("#8a1c1c"), rgb("#128a8a"), rgb("#1d1d1d"), rgb("#707070"),
    ),
    prob_safe=rgb("#3fc46a"),
    prob_mid=rgb("#f2c230"),
    prob_mine=rgb("#e5392f"),
)

DARK = Theme(
    name="dark",
    bg=rgb("#15181e"),
    bar=rgb("#1f242c"),
    text=rgb("#e6e9ee"),
    text_dim=rgb("#98a1ae"),
    button=rgb("#2c323c"),
    button_down=rgb("#434c59"),
    button_text=rgb("#e6e9ee"),
    accent=rgb("#4d8dff"),
    accent_text=rgb("#0d1117"),
    danger=rgb("#ff6159"),
    counter_bg=rgb("#07090c"),
    counter_text=rgb("#ff5a4e"),
    board_bg=rgb("#0b0d11"),
    dialog_bg=rgb("#232830"),
    hidden=rgb("#4a5567"),
    hidden_light=rgb("#64718a"),
    hidden_dark=rgb("#343c49"),
    revealed=rgb("#1e232b"),
    revealed_edge=rgb("#2a3039"),
    exploded_bg=rgb("#c9302a"),
    mine=rgb("#e9ecf1"),
    flag=rgb("#ff5a4e"),
    pole=rgb("#d5dae2"),
    question=rgb("#e6e9ee"),
    cursor=rgb("#6fa3ff"),
    hint=rgb("#3fd46e"),
    numbers=(
        rgb("#6ea8ff"), rgb("#5fd27a"), rgb("#ff6b63"), rgb("#b59cff"),
        rgb("#ff9f5a"), rgb("#4fd8d8"), rgb("#f0f0f0"), rgb("#a0a7b2"),
    ),
    prob_safe=rgb("#3fc46a"),
    prob_mid=rgb("#f2c230"),
    prob_mine=rgb("#ff4a40"),
)

BLACK = replace(
    DARK,
    name="black",
    # true black wherever the board and the screen are bare: an OLED pixel that
    # shows black is off (less power, no glow at night); hidden cells, buttons and
    # dialogs stay a dark grey, so every shape still shows
    bg=rgb("#000000"),
    bar=rgb("#000000"),
    button=rgb("#1b1f26"),
    button_down=rgb("#353c48"),
    counter_bg=rgb("#101216"),
    board_bg=rgb("#000000"),
    dialog_bg=rgb("#15181d"),
    hidden=rgb("#30363f"),
    hidden_light=rgb("#464e5b"),
    hidden_dark=rgb("#1d2127"),
    revealed=rgb("#000000"),
    revealed_edge=rgb("#23272e"),
    exploded_bg=rgb("#b3261e"),
)

HIGH_CONTRAST = Theme(
    name="high_contrast",
    # for low vision and bright sunlight: pale hidden cells, black open ones and
    # bright numbers, every number and the hidden cells at least 7:1 against an
    # open cell (WCAG AAA for text of any size; tests/app/test_app_more_themes.py)
    bg=rgb("#000000"),
    bar=rgb("#000000"),
    text=rgb("#ffffff"),
    text_dim=rgb("#d6d6d6"),
    button=rgb("#262626"),
    button_down=rgb("#595959"),
    button_text=rgb("#ffffff"),
    accent=rgb("#ffff00"),
    accent_text=rgb("#000000"),
    danger=rgb("#ff7070"),
    counter_bg=rgb("#000000"),
    counter_text=rgb("#ffff00"),
    board_bg=rgb("#000000"),
    dialog_bg=rgb("#141414"),
    hidden=rgb("#e6e6e6"),
    hidden_light=rgb("#ffffff"),
    hidden_dark=rgb("#9e9e9e"),
    revealed=rgb("#000000"),
    revealed_edge=rgb("#6b6b6b"),
    exploded_bg=rgb("#ff0000"),
    mine=rgb("#ffffff"),
    flag=rgb("#e00000"),
    pole=rgb("#000000"),
    question=rgb("#000000"),
    cursor=rgb("#ffff00"),
    hint=rgb("#00ff66"),
    numbers=(
        rgb("#66b3ff"), rgb("#4dff6a"), rgb("#ff7070"), rgb("#d9a6ff"),
        rgb("#ffb14d"), rgb("#33ffff"), rgb("#ffffff"), rgb("#ffff00"),
    ),
    prob_safe=rgb("#00ff66"),
    prob_mid=rgb("#ffff00"),
    prob_mine=rgb("#ff3030"),
)

SEPIA = Theme(
    name="sepia",
    # warm paper: a light theme softer than white at night or for long games
    bg=rgb("#f4ecd8"),
    bar=rgb("#e8dcc0"),
    text=rgb("#3b2f20"),
    text_dim=rgb("#6e5d45"),
    button=rgb("#fffaf0"),
    button_down=rgb("#e0d2b4"),
    button_text=rgb("#3b2f20"),
    accent=rgb("#9a5b1e"),
    accent_text=rgb("#ffffff"),
    danger=rgb("#b3261e"),
    counter_bg=rgb("#3b2f20"),
    counter_text=rgb("#ff7a45"),
    board_bg=rgb("#cdbb98"),
    dialog_bg=rgb("#fffaf0"),
    hidden=rgb("#c9b48c"),
    hidden_light=rgb("#e3d3b0"),
    hidden_dark=rgb("#a08a62"),
    revealed=rgb("#fcf8ee"),
    revealed_edge=rgb("#e0d4bb"),
    exploded_bg=rgb("#e0452f"),
    mine=rgb("#2a2118"),
    flag=rgb("#c8341f"),
    pole=rgb("#3b2f20"),
    question=rgb("#3b2f20"),
    cursor=rgb("#9a5b1e"),
    hint=rgb("#3d8a3a"),
    numbers=(
        rgb("#2456b8"), rgb("#2f7a2a"), rgb("#c0281e"), rgb("#2a2a80"),
        rgb("#7a1f14"), rgb("#1f6f6a"), rgb("#2a2118"), rgb("#6b6256"),
    ),
    prob_safe=rgb("#3fc46a"),
    prob_mid=rgb("#f2c230"),
    prob_mine=rgb("#e5392f"),
)

OCEAN = Theme(
    name="ocean",
    # deep blue: a dark theme with colour, cooler than the grey one
    bg=rgb("#0b1d2e"),
    bar=rgb("#10283e"),
    text=rgb("#e3f0fa"),
    text_dim=rgb("#94adc2"),
    button=rgb("#17344f"),
    button_down=rgb("#24496b"),
    button_text=rgb("#e3f0fa"),
    accent=rgb("#3fb6e0"),
    accent_text=rgb("#061420"),
    danger=rgb("#ff6b5e"),
    counter_bg=rgb("#04101b"),
    counter_text=rgb("#ff6b5e"),
    board_bg=rgb("#06131f"),
    dialog_bg=rgb("#122b42"),
    hidden=rgb("#2f6388"),
    hidden_light=rgb("#4a80a8"),
    hidden_dark=rgb("#1f4563"),
    revealed=rgb("#0f2436"),
    revealed_edge=rgb("#1b3a55"),
    exploded_bg=rgb("#c9302a"),
    mine=rgb("#e3f0fa"),
    flag=rgb("#ff6b5e"),
    pole=rgb("#d0e2f0"),
    question=rgb("#e3f0fa"),
    cursor=rgb("#7fd3ff"),
    hint=rgb("#3fd46e"),
    numbers=(
        rgb("#7fc4ff"), rgb("#6fe08a"), rgb("#ff7b70"), rgb("#c3a6ff"),
        rgb("#ffb067"), rgb("#5ee6e0"), rgb("#f2f6fa"), rgb("#a5b6c4"),
    ),
    prob_safe=rgb("#3fc46a"),
    prob_mid=rgb("#f2c230"),
    prob_mine=rgb("#ff4a40"),
)

THEMES: dict[str, Theme] = {"light": LIGHT, "dark": DARK, "black": BLACK,
                            "high_contrast": HIGH_CONTRAST, "sepia": SEPIA, "ocean": OCEAN}
"""Theme name (the settings value) -> :class:`Theme`."""

PALETTES = ("standard", "colour_blind")
"""The numbers' palettes (the settings value)."""

COLOUR_BLIND_NUMBERS = {
    # on a light revealed cell: blue, ochre, red, dark purple, wine, sky, mauve, grey
    True: (rgb("#0706f7"), rgb("#c57e10"), rgb("#a7130e"), rgb("#401269"),
           rgb("#5d0724"), rgb("#2d91dd"), rgb("#725276"), rgb("#8e8f85")),
    # on a dark or black one: pale cyan, amber, red, lavender, violet, teal, pale lime, sage
    False: (rgb("#90faf9"), rgb("#fcad24"), rgb("#e8473a"), rgb("#c8a1fa"),
            rgb("#ca35fd"), rgb("#458e97"), rgb("#dbfbb0"), rgb("#92bda6")),
}
"""The colour-blind-safe numbers 1-8, by :attr:`Theme.is_light` (found by
maximising the smallest CAM02-UCS distance between any two numbers under
normal vision and the three full dichromacies, with colorspacious)."""


def get_theme(name: str, palette: str = "standard") -> Theme:
    """The theme called ``name`` with the numbers in ``palette``; unknown names
    fall back to light and the standard palette.

    >>> get_theme("black", "colour_blind").numbers[0] == COLOUR_BLIND_NUMBERS[False][0]
    True
    >>> get_theme("nonsense") is LIGHT
    True
    """
    theme = THEMES.get(name, LIGHT)
    if palette != "colour_blind":
        return theme
    return replace(theme, numbers=COLOUR_BLIND_NUMBERS[theme.is_light], palette="colour_blind")
