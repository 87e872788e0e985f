"""Control schemes: which move each touch gesture plays.

Pure rules, no widgets (the board's gestures say *what the finger did*: a tap,
a hold, a double tap; the controller asks :func:`move` what that plays).

Four schemes (the setting *Controls*), as the best touch Minesweepers offer:

======================  ============  ============  ==============
scheme                  tap           hold          double tap
======================  ============  ============  ==============
``tap_open`` (default)  open          flag          (two taps)
``tap_flag``            flag          open          (two taps)
``double_open``         flag          open          open
``double_flag``         open          flag          flag
======================  ============  ============  ==============

In the double-tap schemes a single tap waits for the double-tap delay (the
setting *Double-tap delay*) before it plays, to know it was not the first of
two; a hold does what a double tap does, for a player who prefers holding.
Flag mode (the tool bar's flag button) swaps *open* and *flag* in every
gesture.  The mouse keeps its own buttons (left opens, right flags, middle
chords) whatever the scheme.

On a number (a revealed cell), the setting *Tap on a number* decides a
single tap: ``chord`` (open its other neighbours once its flags are placed)
or ``nothing`` (a stray tap never opens anything).  A hold or a double tap on
a number chords when that gesture opens, and always when a single tap does
nothing there, so a chord stays one deliberate gesture away.
"""

from __future__ import annotations

SCHEMES: dict[str, dict[str, str]] = {
    "tap_open": {"tap": "open", "hold": "flag"},
    "tap_flag": {"tap": "flag", "hold": "open"},
    "double_open": {"tap": "flag", "hold": "open", "double": "open"},
    "double_flag": {"tap": "open", "hold": "flag", "double": "flag"},
}
"""Scheme -> gesture -> "open" or "flag" (a scheme without "double" plays a
double tap as two taps, at once)."""

DEFAULT_SCHEME = "tap_open"
TAP_NUMBER = ("chord", "nothing")
"""What a single tap on a number does."""


def uses_double_tap(scheme: str) -> bool:
    """Whether single taps wait to see if a second one follows.

    >>> uses_double_tap("tap_open"), uses_double_tap("double_flag")
    (False, True)
    """
    return "double" in SCHEMES.get(scheme, SCHEMES[DEFAULT_SCHEME])


def move(scheme: str, gesture: str, *, on_number: bool, flag_mode: bool = False,
         tap_number: str = "chord") -> str | None:
    """The move a touch ``gesture`` ("tap", "hold" or "double") plays on a cell:
    "reveal", "mark" (cycle the flag), "chord", or None (nothing).

    ``on_number`` is True on a revealed cell (a number or a revealed 0), False
    on a hidden, flagged or ``?`` cell.  Unknown schemes play the default.

    >>> move("tap_open", "tap", on_number=False), move("tap_open", "hold", on_number=False)
    ('reveal', 'mark')
    >>> move("tap_flag", "tap", on_number=False), move("tap_flag", "hold", on_number=False)
    ('mark', 'reveal')
    >>> move("double_open", "tap", on_number=False), move("double_open", "double", on_number=False)
    ('mark', 'reveal')
    >>> move("tap_open", "tap", on_number=False, flag_mode=True)      # flag mode swaps
    'mark'
    >>> move("tap_open", "tap", on_number=True), move("tap_open", "tap", on_number=True, tap_number="nothing")
    ('chord', None)
    >>> move("tap_open", "hold", on_number=True)                       # a hold flags: not on a number
    >>> move("tap_open", "hold", on_number=True, tap_number="nothing")  # ... unless taps do nothing there
    'chord'
    """
    actions = SCHEMES.get(scheme, SCHEMES[DEFAULT_SCHEME])
    action = actions.get(gesture, actions["tap"])
    if flag_mode:
        action = "flag" if action == "open" else "open"
    if on_number:
        if gesture == "tap":
            return "chord" if tap_number != "nothing" else None
        return "chord" if action == "open" or tap_number == "nothing" else None
    return "reveal" if action == "open" else "mark"
