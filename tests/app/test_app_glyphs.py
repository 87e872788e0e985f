"""Every character the app draws has a glyph in the font it draws it with.

Chinese was drawn with a font cut to its catalog's characters (564 glyphs), so
whatever the catalog does not say showed as boxes: every date (Babel writes
"28 11月 26"), a player's name typed at the best-time prompt (王伟), the
language's own name 简体中文; and the Language picker of every other language
showed 日本語 and 简体中文 as boxes.  Now each language's name is drawn in its own
script, the device's CJK font is used where it has one, and the app's own
fonts hold the common characters (all of GB2312; JIS X 0208 level 1 with the
Jōyō and Jinmeiyō kanji).  Checked against the fonts' cmaps with fontTools; no
window needed.
"""

from __future__ import annotations

import contextlib
from datetime import datetime
from functools import cache
from pathlib import Path

import pytest

pytest.importorskip("fontTools", reason="fontTools reads the fonts' character maps")
pytest.importorskip("babel", reason="Babel writes the dates and numbers")
from fontTools.ttLib import TTFont  # noqa: E402

from fastmine.app.text import i18n  # noqa: E402

CODES = tuple(i18n.LANGUAGES)
CJK = ("zh_CN", "ja", "ko")
DATE_PATTERNS = ("d MMM yy", "d MMM yy HH:mm")
"""The patterns the Records (screens/records.py) and Replays (replays/listing.py) screens write dates in."""

SURNAMES_ZH = ("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋"
               "蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段"
               "雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤")
"""The 100 most common Chinese surnames (the 2020 household registration count)."""
GIVEN_ZH = ("伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀兰霞平刚桂英华玉萍红鹏辉健俊帆雪琳晨欣怡涵轩"
            "梓萱睿昊琪瑶璐宇浩泽子一诺依然嘉豪博文佳颖思雨婷妍馨悦晗煜皓铭彤")
"""Characters of common Chinese given names, old and new (伟, 芳 ... 梓, 萱, 睿: the
last ones outside GB2312 level 1)."""
NAMES_JA = ("佐藤鈴木高橋田中伊藤渡辺山本中村小林加藤吉田山田佐々木山口松本井上斎藤清水山崎森池田"
            "橋本阿部石川前田岡田長谷川藤田後藤近藤村上遠藤青木坂本福田太田西村藤井金子藤原"
            "三浦原田竹内小野和田菅原五十嵐桜井"
            "翔蓮陽翔悠真湊大翔結菜陽葵凛芽依葵美咲健太大輔翼拓也直樹裕子恵子洋子幸子和子"
            "美穂愛優彩真由美智子颯瑛莉奈紬杏蒼樹")
"""Common Japanese surnames and given names (several given-name kanji are
Jinmeiyō, not Jōyō: 翔 蓮 凛 湊 葵 悠 颯 紬 杏 蒼)."""
SURNAMES_KO = ("김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노정하곽성차주우구"
               "민진나지엄채원천방공현함변염여추도소석선설마길연위표명기반왕금옥육인맹제모탁")
"""Common Korean surnames (김, 이, 박 ... the 2015 census's most frequent)."""
GIVEN_KO = ("민준서연지우하은도윤예린시우수아주원지호하준서윤건우유진현우채원지민은서다은승민"
            "영수영희철수미경정훈혜진상철순자")
"""Syllables of common Korean given names, new and old (민준, 서연 ... 영수, 순자)."""
NOT_IN_NOTO_CJK = "ї"
"""A letter of a language's own name that Noto Sans CJK has no glyph for (Українська):
the CJK fonts cannot draw it, Roboto does (the picker draws each name in its own
script's font, tests/app/test_app_language_picker.py)."""
LATIN_NAMES = "Müller José François Ørsted Ångström Çelik Đorđe"
"""Names a player of a CJK language may type in Latin letters."""


@cache
def cmap(path: str) -> frozenset[str]:
    """The characters with a glyph in the font file ``path`` (its first face, as Kivy opens it)."""
    font = TTFont(path, lazy=True, fontNumber=0)
    return frozenset(chr(c) for c in font.getBestCmap())


def roboto() -> str:
    kivy = pytest.importorskip("kivy")
    return str(Path(kivy.__file__).parent / "data" / "fonts" / "Roboto-Regular.ttf")


def fonts_of(code: str) -> list[str]:
    """The font the app draws ``code`` with on this machine, and the app's own
    (the fallback on a device with no CJK font): both must draw it."""
    if code not in CJK:
        return [roboto()]
    return sorted({i18n.font_for(code), i18n.shipped_font(code)})


def missing(text: str, path: str) -> str:
    return "".join(sorted(set(text) - set(" \n\t") - cmap(path)))


@pytest.mark.parametrize("code", CODES)
def test_every_language_name_has_a_glyph_in_the_font_it_is_drawn_with(code):
    """The Language picker draws each name in its own script (日本語 in the Japanese
    font in every language): a player who tried English finds the way back."""
    name = i18n.LANGUAGES[code]
    for path in fonts_of(code):
        assert missing(name, path) == "", f"{name} in {Path(path).name}"


@pytest.mark.parametrize("code", CJK)
def test_the_cjk_fonts_draw_every_language_name(code):
    # the whole picker could be drawn in the current language's font, too
    names = "".join(i18n.LANGUAGES.values())
    assert set(missing(names, i18n.shipped_font(code))) <= set(NOT_IN_NOTO_CJK)


@pytest.mark.parametrize("code", CODES)
def test_babel_dates_and_numbers_have_glyphs_in_the_language_font(code):
    i18n.set_language(code)
    try:
        text = []
        for month in range(1, 13):
            when = datetime(2026, month, 28, 23, 59)
            text += [i18n.fmt_date(when, p) for p in DATE_PATTERNS]
        text += [i18n.fmt_number(1234567.891, 2), i18n.fmt_percent(0.673),
                 i18n.fmt_seconds(3.14159), i18n.fmt_number(-0.5, 1), i18n.decimal_sign()]
    finally:
        i18n.set_language("en")
    joined = "".join(text)
    for path in fonts_of(code):
        assert missing(joined, path) == "", f"{code}: {Path(path).name} lacks them ({text[:2]})"


@pytest.mark.parametrize(("code", "names"), [("zh_CN", SURNAMES_ZH + GIVEN_ZH + LATIN_NAMES),
                                             ("ja", NAMES_JA + LATIN_NAMES),
                                             ("ko", SURNAMES_KO + GIVEN_KO + LATIN_NAMES)])
def test_common_names_have_glyphs_in_the_language_font(code, names):
    """A name typed at the best-time prompt (王伟, 佐藤翔) is drawn, not boxes."""
    assert len(set(SURNAMES_ZH)) == 100
    for path in fonts_of(code):
        assert missing(names, path) == "", Path(path).name


def _double_byte(codec: str, leads: range) -> set[str]:
    out = set()
    for lead in leads:
        for cell in range(0xA1, 0xFF):
            with contextlib.suppress(UnicodeDecodeError):  # an empty cell
                out.add(bytes([lead, cell]).decode(codec))
    return out


def test_the_chinese_fallback_draws_all_of_gb2312():
    # rows 1-9 (punctuation, full-width forms), level 1 (0xB0A1-0xD7F9, 3,755 hanzi)
    # and level 2 (3,008): the common characters, with the names level 1 lacks (闫, 覃)
    gb = _double_byte("gb2312", range(0xA1, 0xAA)) | _double_byte("gb2312", range(0xB0, 0xF8))
    level1 = _double_byte("gb2312", range(0xB0, 0xD8))
    assert len(level1) == 3755
    assert missing("".join(gb), i18n.shipped_font("zh_CN")) == ""


def test_the_korean_fallback_draws_the_hangul_of_ks_x_1001():
    # KS X 1001's 2,350 precomposed syllables (rows 16-40, 0xB0A1-0xC8FE: the ones
    # Korean text and names use) and its compatibility jamo (row 4: ㄱ, ㅏ)
    hangul = _double_byte("euc_kr", range(0xB0, 0xC9))
    syllables = {c for c in hangul if "\uac00" <= c <= "\ud7a3"}
    assert len(syllables) == 2350
    jamo = _double_byte("euc_kr", range(0xA4, 0xA5))
    assert missing("".join(syllables | jamo), i18n.shipped_font("ko")) == ""


def test_the_new_alphabets_are_drawn_by_kivys_roboto():
    # Vietnamese's stacked accents (ế, ữ), Turkish's ğ ı ş İ, Polish's ą ł ż,
    # Ukrainian's є і ї ґ: Roboto has them all, so these languages need no font of
    # their own (their catalogs are checked letter by letter in test_app_catalogs)
    letters = "ếữặỡơưđĐ ğıİşŞ ąćęłńśźżŁ єіїґЄІЇҐ ëïé"
    assert missing(letters, roboto()) == ""


def test_the_japanese_fallback_draws_jis_level_1_kana_and_the_joyo_kanji():
    # JIS X 0208: symbols and kana (rows 1-8) and the 2,965 level-1 kanji; the Jōyō
    # kanji (2,136) are checked where Debian's kanjidic says which they are
    jis = _double_byte("euc_jp", range(0xA1, 0xA9)) | _double_byte("euc_jp", range(0xB0, 0xD0))
    # but ≒ (row 2), which Noto Sans CJK itself lacks
    assert missing("".join(jis - {"\u2252"}), i18n.shipped_font("ja")) == ""
    kanjidic = Path("/usr/share/edict/kanjidic")
    if kanjidic.is_file():
        import re

        joyo = set("\U00020b9f\u5861\u525d\u9830")  # the four of 2010 outside JIS X 0208
        for line in kanjidic.read_bytes().decode("euc_jp").splitlines():
            grade = re.search(r" G(\d+) ", line)
            if grade and int(grade.group(1)) <= 8:
                joyo.add(line[0])
        assert len(joyo) == 2136
        assert missing("".join(joyo), i18n.shipped_font("ja")) == ""


@pytest.mark.parametrize("code", CJK)
def test_the_cjk_fallbacks_keep_the_app_reasonably_small(code):
    # Coverage is required now (every common character, not the catalog's few
    # hundred), so the limit is 1.6 MB a font: all of GB2312 is 1.5 MB, JIS level 1
    # with the Jōyō and Jinmeiyō kanji 0.75 MB; the whole Noto Sans CJK face is 16 MB.
    path = Path(i18n.shipped_font(code))
    assert path.stat().st_size < 1_600_000
    assert (path.parent / "OFL.txt").is_file()  # its licence ships with it


# ------------------------------------------------------------ the device's fonts


def test_the_device_font_comes_first_on_each_platform():
    from fastmine.app.text.systemfonts import system_font

    every = lambda path: True  # noqa: E731
    assert system_font("zh_CN", "android", every).endswith("NotoSansSC-Regular.otf")
    # modern Android has only the collection, whose first face is Japanese: Chinese
    # then draws with the app's own font (Kivy opens a collection's first face only)
    only_ttc = lambda path: path.endswith(".ttc")  # noqa: E731
    assert system_font("ja", "android", only_ttc) == "/system/fonts/NotoSansCJK-Regular.ttc"
    assert system_font("zh_CN", "android", only_ttc) is None
    assert Path(system_font("zh_CN", "win32", every, environ={"WINDIR": "D:\\W"})).name == "msyh.ttc"
    assert system_font("ja", "darwin", every).endswith("W3.ttc")
    assert system_font("ru", "win32", every) is None  # Roboto draws it
    # Korean: Malgun Gothic on Windows, Apple SD Gothic Neo on macOS; on a modern
    # Android only the collection (Japanese first face): the app's own font
    assert Path(system_font("ko", "win32", every, environ={"WINDIR": "D:\\W"})).name == "malgun.ttf"
    assert system_font("ko", "darwin", every).endswith("AppleSDGothicNeo.ttc")
    assert system_font("ko", "android", only_ttc) is None
    assert system_font("vi", "win32", every) is None
    assert system_font("ja", "darwin", lambda p: False) is None


def test_a_linux_desktop_uses_the_font_fontconfig_picks_for_the_language():
    from fastmine.app.text.systemfonts import system_font

    def fc(answer):
        asked = []

        def run(args):
            asked.append(list(args))
            return answer
        return run, asked

    run, asked = fc("/usr/share/fonts/wqy-zenhei.ttc\t0\ten|zh-cn|zh-tw")
    assert system_font("zh_CN", "linux", lambda p: True, run, {}) == "/usr/share/fonts/wqy-zenhei.ttc"
    assert asked[0][0] == "fc-match" and asked[0][-1] == ":lang=zh-cn"
    # not its first face (Kivy cannot open the others), a font without the language
    # (fc-match always answers), no fontconfig at all: the app's own font
    for answer in ("/n/NotoSansCJK-Regular.ttc\t2\tja|zh-cn", "/d/DejaVuSans.ttf\t0\ten|ru", ""):
        assert system_font("zh_CN", "linux", lambda p: True, fc(answer)[0], {}) is None
    # Kivy on Android runs as "linux" with ANDROID_ARGUMENT set: its fonts, not fc-match
    assert system_font("ja", "linux", lambda p: p.endswith(".otf"), fc("")[0],
                       {"ANDROID_ARGUMENT": ""}) == "/system/fonts/NotoSansJP-Regular.otf"


def test_font_for_prefers_the_device_font_and_falls_back_to_the_app_font(monkeypatch):
    monkeypatch.setattr(i18n, "_FOUND", {"ja": "/sys/ja.ttc", "zh_CN": None})
    assert i18n.font_for("ja") == "/sys/ja.ttc"
    assert i18n.font_for("zh_CN") == i18n.shipped_font("zh_CN")
    assert i18n.font_for("ru") is None
