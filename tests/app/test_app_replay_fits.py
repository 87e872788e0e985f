"""The replay player opens on the whole board whatever the length of its words.

In Chinese at the phone, "Why did I lose?" and "Watch replay" opened the board
zoomed in: the longer explanation under the board took height from it, and the
player judged whether the whole board was readable in what was left.  The
words' extra height is now given back when judging (the board still fits its
real area).  Real app, real touches, the phone profiles.
"""

from __future__ import annotations

import pytest

pytest.importorskip("kivy")

from fixedgame import settle  # noqa: E402
from profiles import inside, start_app  # noqa: E402
from test_app_fresh_eyes_replays import lose  # noqa: E402

LONG = {"zh_CN": "你在这一步之前还有一个安全的格子可以翻开，所以这次猜测并不是必要的。",
        "en": "A safe cell was still there before this move, so this guess was not needed. "}


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("profile", ["phone_360", "phone_360_font13", "phone_393"])
@pytest.mark.parametrize("button", ["why", "watch_replay"])
def test_the_board_opens_whole_however_long_the_words(make_app, data_dir, screenshot_dir, monkeypatch,
                                                       lang, profile, button):
    from fastmine.app.board import viewport
    from fastmine.app.replays import player
    from fastmine.app.text import i18n

    monkeypatch.setattr(viewport, "TOUCH_FIRST", True)
    real = player.analyse

    def wordy(replay):  # the coach's words, as long as a language may make them
        coaching = real(replay)
        return player.Coaching(coaching.verdicts, LONG[lang] * 6)

    monkeypatch.setattr(player, "analyse", wordy)
    drv = start_app(make_app, data_dir, profile, language=lang, animations=0)
    try:
        d = lose(drv)
        drv.press(d.ids[button])
        settle(drv, 0.5)
        scr = drv.app.root.get_screen("replay")
        drv.frames(3)
        drv.screenshot(screenshot_dir, f"replay_fits_{button}_{profile}_{lang}")
        b = scr.board
        assert scr.ids.summary.height > 4 * scr.ids.summary.font_size  # the words are long
        assert b.is_fitted(), (b.scale, b.fit_scale(), scr.ids.board_area.height)
        assert inside(b, scr.ids.board_area) and inside(scr.ids.summary_scroll, drv.window)
        # and the words leave the board room (large text: a third of the screen)
        assert scr.ids.board_area.height >= 0.3 * drv.window.height
    finally:
        i18n.set_language("en")
