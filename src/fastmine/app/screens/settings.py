"""The settings screen: every setting in the player's words, in the app's theme.

Kivy's own settings panel has fixed dark colours and shows raw values
("no_guess", "dark"); this screen is built from :data:`.settings.PANEL` with
the app's widgets, so it follows the theme and says "No guess", "Dark".
Each row writes the app's config at once and tells the app, which applies
the change (see ``FastmineApp.on_config_change``).
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import DictProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.stacklayout import StackLayout

from .. import settings as S
from ..text.i18n import CONTEXT_KEYS, fmt_seconds, pgettext, translate
from ..text.languages import name_font
from ..textfield import FlatInput
from ..widgets import TLabel, WordToggle
from . import settingsfile


class SettingRow(BoxLayout):  # type: ignore[misc]  # Kivy has no type information
    """One setting: its title, a line on what it does, and its choices.

    Setting :attr:`value` (a button, or a test) stores it and applies it.
    """

    key = StringProperty("")
    title = StringProperty("")
    desc = StringProperty("")
    value = StringProperty("")
    labels = DictProperty({})
    """Value -> the words shown on its button (empty for a text setting)."""

    def on_kv_post(self, _base: object) -> None:
        choices = self.ids.choices
        if not self.labels:
            field = FlatInput(text=self.value, size_hint=(1, None), height=dp(48))
            field.bind(on_text_validate=lambda f: setattr(self, "value", f.text.strip()),
                       focus=lambda f, focus: None if focus else setattr(self, "value", f.text.strip()))
            self.bind(value=lambda _s, v: setattr(field, "text", v))
            choices.add_widget(field)
            self.ids["field"] = field
            return
        for v, words in self.labels.items():
            btn = WordToggle(text=words, group=f"setting-{self.key}", allow_no_selection=False,
                            size_hint_y=None)
            btn.value = v
            font = name_font(v) if self.key == "language" else None
            if font:  # each language's name in its own script
                btn.font_name = font
            btn.state = "down" if v == self.value else "normal"
            btn.bind(texture_size=lambda b, ts: setattr(b, "height", max(dp(48), ts[1] + dp(14))),
                     on_release=lambda b: setattr(self, "value", b.value))
            self.bind(value=lambda _s, value, b=btn: setattr(
                b, "state", "down" if value == b.value else "normal"))
            choices.add_widget(btn)
            self.ids[f"choice_{v}"] = btn

        def fit_all(box: Any, width: float) -> None:
            for b in box.children:
                fit_width(b, width)

        choices.bind(width=fit_all)

    def on_value(self, _inst: object, value: str) -> None:
        app = App.get_running_app()
        if app is None or not self.key or app.config.get(S.SECTION, self.key) == value:
            return
        app.config.set(S.SECTION, self.key, value)
        app.write_settings()
        app.on_config_change(app.config, S.SECTION, self.key, value)


class SettingsScreen(Screen):  # type: ignore[misc]  # Kivy has no type information
    """All settings on one scrolling page (from :data:`.settings.PANEL`)."""

    rows = DictProperty({})
    """Key -> :class:`SettingRow`."""

    def on_kv_post(self, _base: object) -> None:
        box = self.ids.box
        for item in S.PANEL:
            if item["type"] == "title":
                box.add_widget(SettingsTitle(text=translate(item["title"])))
                continue
            labels = S.option_labels(item) if item["type"] in ("bool", "options") else {}
            row = SettingRow(key=item["key"], title=translate(item["title"]),
                             desc=translate(item.get("desc", "")),
                             labels={v: shown(words, item["key"]) for v, words in labels.items()})
            box.add_widget(row)
            self.rows[item["key"]] = row
        # the settings as a file: Export, Import (settingsfile.py)
        box.add_widget(SettingsTitle(text=translate(settingsfile.FILE_TITLE)))
        self.ids["file_buttons"] = settingsfile.buttons(App.get_running_app())
        box.add_widget(self.ids["file_buttons"])

    def on_pre_enter(self, *_args: object) -> None:
        cfg = App.get_running_app().config
        for key, row in self.rows.items():
            row.value = str(cfg.get(S.SECTION, key))


def fit_width(button: WordToggle, width: float) -> None:
    """A choice as wide as its words, or, when they are wider than its row
    (a Russian control scheme at large text), as wide as the row with its words
    wrapped onto more lines: the whole text on screen."""
    button.text_size = (None, None)
    button.texture_update()
    if button.texture_size[0] + dp(28) > width:
        button.text_size = (max(dp(36), width - dp(28)), None)


def shown(label: str, key: str = "") -> str:
    """A setting's choice in the player's words: translated, a delay in the
    language's digits ("0,4 s"), a language's name in itself.

    >>> shown("0.25 s"), shown("On")
    ('0.25 s', 'On')
    """
    number, _sp, unit = label.partition(" ")
    if unit == "s" and number.replace(".", "", 1).isdigit():
        return fmt_seconds(float(number), len(number.partition(".")[2]))
    return pgettext(key, label) if key in CONTEXT_KEYS else translate(label)


class SettingsTitle(TLabel):
    """A section title on the settings screen."""


class Choices(StackLayout):  # type: ignore[misc]  # Kivy has no type information
    """A setting's buttons, wrapping onto more lines on a narrow screen."""
