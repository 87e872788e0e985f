"""Colours of the themes (light, dark, true black) and of the numbers, for the
widgets and for the tile atlas.

A :class:`Theme` is an immutable bag of RGBA tuples (floats 0..1).  The app
keeps the current one in ``App.theme`` and the ``.kv`` rules bind to its
fields, so switching theme is one property assignment plus a new atlas.

The numbers' colours are a setting of their own, apart from the theme
(:func:`get_theme`'s ``palette``): a colour-blind player may want any of the
three themes.  The colour-blind-safe palettes keep the eight numbers apart
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

THEMES: dict[str, Theme] = {"light": LIGHT, "dark": DARK, "black": BLACK}
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
