"""The app's text field (its looks are in ``widgets.kv``).

Loaded when the first field is built (New game, Settings, the best-time name):
:mod:`.widgets` registers it with Kivy's Factory by name, so no start imports
Kivy's TextInput.
"""

from __future__ import annotations

from kivy.uix.textinput import TextInput


class FlatInput(TextInput):  # type: ignore[misc]  # Kivy has no type information
    """A one-line text field coloured by the theme."""
