"""Chinese and Japanese text wraps to the edge, not at the spaces around a number.

Kivy breaks a line only at a space (a word longer than a line it cuts
anywhere).  In Chinese the only spaces were those around a number, a Latin
word or after a bullet, so "你挺过了 1 次不得不猜的猜测" broke as "你挺过了 1" /
"次不得不猜的猜测" with a "1" alone on a line, and each rule of How to play as
a lone "•" over its sentence (seen on a 360-dp phone with large text).  The
app's catalog now gives its words, and the coach's, with those spaces made
no-break (fastmine.app.text.i18n.keep_cjk_together), and How to play's bullets are
followed by no-break spaces.
"""

from __future__ import annotations

import types

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("kivy")

from fastmine.app.text.i18n import keep_cjk_together  # noqa: E402

NBSP = "\u00a0"


def is_cjk(ch: str) -> bool:
    o = ord(ch)
    return any(lo <= o <= hi for lo, hi in (
        (0x3000, 0x303F), (0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF),
        (0xF900, 0xFAFF), (0xFF00, 0xFFEF)))


def reference(text: str) -> str:
    """Slow and plain: a run of spaces touching a CJK character on either side
    becomes no-break spaces."""
    out = list(text)
    i = 0
    while i < len(text):
        if text[i] != " ":
            i += 1
            continue
        j = i
        while j < len(text) and text[j] == " ":
            j += 1
        if (i > 0 and is_cjk(text[i - 1])) or (j < len(text) and is_cjk(text[j])):
            out[i:j] = [NBSP] * (j - i)
        i = j
    return "".join(out)


TEXT = st.text(alphabet=st.sampled_from(" 1a•。（%你挺过了次ア\u3000x\uff08-"), max_size=40)


@given(TEXT)
def test_the_spaces_by_a_cjk_character_become_no_break_and_nothing_else_changes(text):
    kept = keep_cjk_together(text)
    assert kept == reference(text)
    assert keep_cjk_together(kept) == kept


@given(st.text(alphabet=st.characters(max_codepoint=0x24F)))
def test_latin_and_cyrillic_text_is_left_alone(text):
    assert keep_cjk_together(text) == text


def lines_of(text: str, width: int = 400) -> list[str]:
    """The lines a Chinese label ``width`` px wide shows ``text`` in."""
    # Kivy's Label: the app's TLabel wraps as it does (and its rule needs a running app)
    from kivy.uix.label import Label

    from fastmine.app.text.i18n import font_for

    label = Label(text=text, font_name=font_for("zh_CN"), font_size=30, text_size=(width, None))
    label.texture_update()
    return ["".join(w.text for w in line.words).strip(" " + NBSP) for line in label._label._cached_lines]


@pytest.fixture
def chinese():
    from fastmine.app.text import i18n

    i18n.set_language("zh_CN")
    yield i18n
    i18n.set_language("en")


def full(lines: list[str]) -> bool:
    """No line holds a bullet or a number alone (as when Kivy broke at the
    spaces), and every line but the last is filled: at 30 px a 400-px label
    holds 13 Chinese characters."""
    return all(any(map(is_cjk, line)) for line in lines) and all(len(line) >= 10 for line in lines[:-1])


def test_the_coachs_lines_and_a_rule_fill_their_lines(kivy_window, chinese):
    from fastmine.app.screens.howtoplay import HowToPlayScreen

    words = chinese.coach_words()
    survived = words.ngettext("You survived {n} guess you had to make ({risks}%).",
                              "You survived {n} guesses you had to make ({risks}%).", 1)
    needless = words.ngettext("{n} guess you did not need ({risks}%): a safe cell was there.",
                              "{n} guesses you did not need ({risks}%): a safe cell was there.", 1)
    assert "你" in survived  # the catalog's words, through the app's catalog
    texts = [survived.format(n=1, risks=12), needless.format(n=1, risks=50),
             chinese.translate(HowToPlayScreen.RULES[0])]
    for text in texts:
        lines = lines_of(text)
        assert len(lines) >= 2 and full(lines), lines


def test_the_how_to_play_text_keeps_its_bullets_with_their_rules(kivy_window, chinese):
    from fastmine.app.screens.howtoplay import HowToPlayScreen

    screen = types.SimpleNamespace(RULES=HowToPlayScreen.RULES)  # its text, without its widgets
    HowToPlayScreen.on_pre_enter(screen)
    for rule in screen.text.split("\n\n"):
        assert rule.startswith("•" + NBSP), rule
        assert full(lines_of(rule)), lines_of(rule)
