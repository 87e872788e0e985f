"""The Language picker draws each language's name in its own script, in every
language: in English or Russian 日本語 and 简体中文 were boxes (Roboto has no CJK),
and a player who had tried another language could not find the way back; in
Chinese the app's own name for it, 简体中文, lacked 体."""

from __future__ import annotations

import pytest

pytest.importorskip("kivy")
pytest.importorskip("fontTools", reason="fontTools reads the fonts' character maps")

from fontTools.ttLib import TTFont  # noqa: E402
from profiles import start_app  # noqa: E402

from fastmine.app.text import i18n  # noqa: E402


@pytest.fixture(autouse=True)
def english_after():
    yield
    from fastmine.app.text.languages import use_font

    i18n.set_language("en")
    use_font("en")


def glyphs(path: str) -> set[str]:
    return {chr(c) for c in TTFont(path, lazy=True, fontNumber=0).getBestCmap()}


def font_file(font_name: str) -> str:
    """The file Kivy draws ``font_name`` (a file, or a registered name such as "Roboto") from."""
    from kivy.core.text import LabelBase

    registered = LabelBase._fonts.get(font_name)
    return registered[0] if registered else font_name


@pytest.mark.parametrize("language", ["en", "ru", "zh_CN", "ko", "vi"])
def test_every_language_name_is_drawn_with_a_font_that_has_its_glyphs(make_app, data_dir,
                                                                       language):
    drv = start_app(make_app, data_dir, "phone_360_font13", animations=0, language=language)
    drv.app.show_screen("settings")
    drv.frames(3)
    row = drv.app.root.get_screen("settings").rows["language"]
    for code, name in i18n.LANGUAGES.items():
        button = row.ids[f"choice_{code}"]
        assert button.text == name
        missing = set(name) - {" "} - glyphs(font_file(button.font_name))
        assert not missing, f"{language}: {name} drawn with {button.font_name} lacks {missing}"
        button.texture_update()
        assert button.texture_size[0] > 10
    assert row.ids["choice_ja"].font_name == i18n.font_for("ja")
    assert row.ids["choice_zh_CN"].font_name == i18n.font_for("zh_CN")
    assert row.ids["choice_ko"].font_name == i18n.font_for("ko")
