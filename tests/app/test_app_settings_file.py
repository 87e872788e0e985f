"""Settings as a file (issue 34 §5): Settings -> Export writes a versioned JSON
file through the project's output writer, Settings -> Import reads it back with
every value checked against the Settings screen's table.  The round trip by
real taps on the Settings screen's buttons at the 360-dp phone, and every
refusal: each says why and changes no setting."""

from __future__ import annotations

import json
import sys

import pytest

pytest.importorskip("kivy")

from profiles import start_app  # noqa: E402

CHANGED = {"theme": "ocean", "touch_slop": "20", "player_name": "Ana", "controls": "tap_flag",
           "question_marks": "1", "long_press_delay": "0.6", "vibration": "off"}


@pytest.fixture
def messages(monkeypatch):
    """The messages the app shows, as (title, text)."""
    shown: list[tuple[str, str]] = []
    from fastmine.app.application import FastmineApp

    monkeypatch.setattr(FastmineApp, "show_message",
                        lambda self, title, text: shown.append((title, text)))
    return shown


@pytest.fixture
def home(tmp_path, monkeypatch):
    h = tmp_path / "home"
    (h / "Downloads").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(h))
    monkeypatch.setitem(sys.modules, "plyer", None)  # no native chooser: the app's own
    return h


def settings_of(drv) -> dict[str, str]:
    from fastmine.app.screens import settingsfile

    return {k: str(drv.app.config.get("game", k)) for k in settingsfile.exported_keys()}


def press_file_button(drv, key: str) -> None:
    drv.app.open_settings()
    drv.frames(3)
    screen = drv.app.settings_screen()
    box = screen.ids["file_buttons"]
    box.parent.parent.scroll_to(box, animate=False)
    drv.frames(2)
    (button,) = [b for b in box.children if b.key == key]
    drv.press(button)


def test_the_round_trip_by_the_settings_screen(make_app, tmp_path, home, messages):
    from kivy.metrics import dp

    from fastmine.app.screens import settingsfile

    for name in ("one", "two"):
        (tmp_path / name).mkdir()
    drv = start_app(make_app, tmp_path / "one", "phone_360", **CHANGED)
    exported = settings_of(drv)
    press_file_button(drv, "export")
    written = home / "Downloads" / "fastmine-settings.json"
    assert written.is_file()
    assert messages[-1][0] == "Settings exported" and str(written) in messages[-1][1]
    data = json.loads(written.read_text(encoding="utf-8"))
    assert list(data)[:2] == ["format", "version"]
    assert (data["format"], data["version"]) == ("fastmine-settings", 1)
    assert data["settings"] == exported and set(data["settings"]) == set(
        settingsfile.exported_keys())
    press_file_button(drv, "export")  # a second export keeps the first file
    assert (home / "Downloads" / "fastmine-settings-2.json").is_file()
    assert json.loads(written.read_text(encoding="utf-8")) == data

    drv = start_app(make_app, tmp_path / "two", "phone_360")  # a fresh app, defaults
    assert settings_of(drv) != exported
    press_file_button(drv, "import")
    picker = drv.app.root_window.children[0]
    assert type(picker).__name__ == "FilePicker" and picker.folder == str(home / "Downloads")
    assert "fastmine-settings.json" in picker.entries
    (home / "empty").mkdir()
    picker.show(str(home / "empty"))
    assert picker.message == "No settings files in this folder."
    picker.show(str(home / "Downloads"))
    picker.choose(str(written))
    drv.press(picker.open_button)
    drv.frames(3)
    assert settings_of(drv) == exported
    assert messages[-1][0] == "Settings imported"
    # applied at once, and the Settings screen shows the new values
    assert drv.app.theme.name == "ocean"
    assert drv.board.gestures.slop == pytest.approx(dp(20))
    assert drv.ctrl.scheme == "tap_flag"
    assert drv.app.settings_screen().rows["theme"].value == "ocean"
    # and written to the settings file
    ini = (tmp_path / "two" / "fastmine.ini").read_text(encoding="utf-8")
    assert "theme = ocean" in ini and "touch_slop = 20" in ini


def file_with(tmp_path, payload, name="s.json") -> str:
    p = tmp_path / name
    if isinstance(payload, bytes):
        p.write_bytes(payload)
    else:
        p.write_text(payload if isinstance(payload, str) else json.dumps(payload),
                     encoding="utf-8")
    return str(p)


GOOD = {"theme": "dark", "touch_slop": "5"}


@pytest.mark.parametrize(("payload", "words"), [
    ("not json at all", "not a fastmine settings file"),
    (b"\xff\xfe\x00garbage", "not a fastmine settings file"),
    ([1, 2], "not a fastmine settings file"),
    ({"format": "fastmine-replay", "version": 1, "settings": GOOD}, "not a fastmine settings"),
    ({"format": "fastmine-settings", "settings": GOOD}, "not a fastmine settings file"),
    ({"format": "fastmine-settings", "version": True, "settings": GOOD}, "not a fastmine"),
    ({"format": "fastmine-settings", "version": 0, "settings": GOOD}, "not a fastmine"),
    ({"format": "fastmine-settings", "version": 1, "settings": ["theme"]}, "not a fastmine"),
    ({"format": "fastmine-settings", "version": 2, "settings": GOOD}, "newer version"),
    ({"format": "fastmine-settings", "version": 1,
      "settings": {**GOOD, "theme": "purple"}}, 'Theme: "purple" is not one of its choices'),
    ({"format": "fastmine-settings", "version": 1,
      "settings": {**GOOD, "touch_slop": 7}}, "Touch tolerance: 7 is not one"),
    ({"format": "fastmine-settings", "version": 1,
      "settings": {**GOOD, "question_marks": "yes"}}, "Question marks"),
    ({"format": "fastmine-settings", "version": 1,
      "settings": {**GOOD, "player_name": "a\nb"}}, "Player name"),
    ({"format": "fastmine-settings", "version": 1,
      "settings": {**GOOD, "player_name": "x" * 61}}, "Player name"),
    (b"{" * 200_000, "is too big"),  # too big for a settings file
])
def test_a_file_that_cannot_be_used_is_refused_and_changes_nothing(
        make_app, data_dir, tmp_path, messages, payload, words):
    from fastmine.app.screens import settingsfile

    drv = start_app(make_app, data_dir, "phone_360")
    before = settings_of(drv)
    ini_before = (data_dir / "fastmine.ini").read_bytes()
    assert settingsfile.import_path(drv.app, file_with(tmp_path, payload)) is None
    title, text = messages[-1]
    assert title == "Settings not imported"
    assert words.lower() in text.lower(), text
    assert settings_of(drv) == before
    assert (data_dir / "fastmine.ini").read_bytes() == ini_before
    assert drv.app.theme.name == "light"


def test_a_missing_file_is_named(make_app, data_dir, tmp_path, messages):
    from fastmine.app.screens import settingsfile

    drv = start_app(make_app, data_dir, "phone_360")
    assert settingsfile.import_path(drv.app, str(tmp_path / "nope.json")) is None
    assert messages[-1] == ("Settings not imported",
                            f"There is no such file: {tmp_path / 'nope.json'}")


def test_unknown_keys_are_ignored_with_a_note(make_app, data_dir, tmp_path, messages):
    from fastmine.app.screens import settingsfile

    drv = start_app(make_app, data_dir, "phone_360")
    payload = {"format": "fastmine-settings", "version": 1,
               "settings": {"theme": "high_contrast", "from_the_future": "x",
                            "import_folder": "/somewhere"}}
    assert settingsfile.import_path(drv.app, file_with(tmp_path, payload)) == ["theme"]
    assert drv.app.theme.name == "high_contrast"
    assert drv.app.config.get("game", "import_folder") == ""
    title, text = messages[-1]
    assert title == "Settings imported"
    assert "1 setting changed." in text and "from_the_future, import_folder" in text


def test_export_never_replaces_fastmine_s_own_files(make_app, data_dir, messages):
    from fastmine.app.screens import settingsfile

    drv = start_app(make_app, data_dir, "phone_360", theme="dark")
    ini = data_dir / "fastmine.ini"
    before = ini.read_bytes()
    assert settingsfile.export_to(drv.app, ini) is None
    assert messages[-1][0] == "Settings not exported"
    assert ini.read_bytes() == before
    game = data_dir.parent / "kept.json"  # a saved game the player keeps elsewhere
    game.write_text('{"format": "fastmine-game", "version": 1}', encoding="utf-8")
    assert settingsfile.export_to(drv.app, game) is None
    assert messages[-1][0] == "Settings not exported" and "saved game" in messages[-1][1]
    assert game.read_text(encoding="utf-8") == '{"format": "fastmine-game", "version": 1}'
