"""The app's words in the player's language: gettext catalogs, plurals, numbers, dates.

Every word the app shows goes through :func:`_` (or :func:`ngettext` for a
sentence with a count), in Python and in the kv files (``text: _('Settings')``,
each kv file imports ``_`` from here); strings kept in tables at import time
are only marked with :func:`N_` and translated where they are shown.  The
catalogs are ``locale/<code>/LC_MESSAGES/fastmine.po`` beside this module,
compiled to ``.mo`` files that ship with the package (``scripts/i18n.py``
extracts, updates and compiles them with Babel, and makes the CJK font's
subset).  Numbers, percentages and dates are written for the language with
Babel (``3,14 s`` and ``67 %`` in German).  The coach's sentences come from
the engine (:mod:`fastmine.coach.words`), which takes its words from
:func:`coach_words`.

The Language setting is a code of :data:`LANGUAGES` or ``"system"``: the
device's language on Android, the desktop's locale elsewhere, English when
neither is one the app speaks.

>>> set_language("de")
'de'
>>> _("Settings"), ngettext("{n} mine", "{n} mines", 3).format(n=3)
('Einstellungen', '3 Minen')
>>> fmt_seconds(3.14159), fmt_percent(0.67)   # a no-break space before the sign
('3,14 s', '67\xa0%')
>>> set_language("en")
'en'
"""

from __future__ import annotations

import gettext
import io
import locale
import logging
import os
import re
import struct
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""The catalogs: ``LOCALE_DIR/<code>/LC_MESSAGES/fastmine.mo`` (and its ``.po`` source)."""
DOMAIN = "fastmine"
SOURCE = "en"
"""The language the app is written in (no catalog: the messages are its words)."""

LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "es": "Español",
    "fr": "Français",
    "id": "Bahasa Indonesia",
    "it": "Italiano",
    "ja": "日本語",
    "ko": "한국어",
    "nl": "Nederlands",
    "pl": "Polski",
    "pt_BR": "Português (Brasil)",
    "ru": "Русский",
    "tr": "Türkçe",
    "uk": "Українська",
    "vi": "Tiếng Việt",
    "zh_CN": "简体中文",
}
"""Every language the app speaks: code -> its name in itself (as the Language setting shows it)."""
FONTS = {"zh_CN": "NotoSansSC-subset.otf", "ja": "NotoSansJP-subset.otf",
         "ko": "NotoSansKR-subset.otf"}
"""Languages drawn with a font of their own, and the one the app ships for each
(``fonts/``: Noto Sans CJK cut to the language's common characters, its
catalog's and what Babel writes for it; Kivy's Roboto has no Han, kana or
Hangul).  The device's own font comes first where it has one (:func:`font_for`)."""

_state: dict[str, Any] = {"code": SOURCE, "t": gettext.NullTranslations()}


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it (a table built at
    import time; :func:`_` translates it where it is shown)."""
    return message


def _(message: str) -> str:
    """``message`` in the current language (itself in English or when untranslated)."""
    if not message:
        return message      # gettext's "" is the catalog's header
    text: str = _state["t"].gettext(message)
    return text


translate = _
""":func:`_` for a message held in a variable (Babel extracts only ``_`` calls on a literal)."""


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n`` (Russian has three, Japanese one)."""
    text: str = _state["t"].ngettext(singular, plural, n)
    return text


def pgettext(context: str, message: str) -> str:
    """``message`` as meant in ``context`` (a word with two senses: "Light" as a
    theme and as a vibration), else as :func:`_` translates it."""
    text: str = _state["t"].pgettext(context, message)
    return text if text != message else _(message)


CONTEXT_KEYS = ("vibration",)
"""Settings whose choices are translated in their own context (their words have
other senses elsewhere: a "Light" vibration is not the "Light" theme)."""


def language() -> str:
    """The code of the language in use (one of :data:`LANGUAGES`)."""
    code: str = _state["code"]
    return code


def available(code: str) -> bool:
    """True when the app speaks ``code`` (the source language or a shipped catalog)."""
    return code == SOURCE or (LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file()


def match(tag: str | None) -> str | None:
    """The language of :data:`LANGUAGES` for a locale tag (``de_AT.UTF-8``,
    ``pt-BR``, ``zh_Hans_CN``, ``ru``), or None when the app does not speak it.

    >>> match("de_AT.UTF-8"), match("pt-PT"), match("zh_Hans_CN"), match("sv_SE"), match("C")
    ('de', 'pt_BR', 'zh_CN', None, None)

    Android (java.util.Locale) still says ``in`` for Indonesian, the code ISO 639
    withdrew in 1989:

    >>> match("in_ID"), match("id-ID"), match("uk_UA.UTF-8"), match("ko_KR")
    ('id', 'id', 'uk', 'ko')
    """
    if not tag:
        return None
    tag = tag.split(".")[0].split("@")[0].replace("-", "_")
    if tag in LANGUAGES:
        return tag
    lang = tag.split("_")[0].lower()
    lang = _OLD_CODES.get(lang, lang)
    return next((code for code in LANGUAGES if code.split("_")[0] == lang), None)


_OLD_CODES = {"in": "id"}
"""Withdrawn ISO 639 codes that Java's Locale (so Android) still gives -> today's."""


def _android_tag() -> str | None:
    """The device's language on Android (java.util.Locale), or None elsewhere."""
    try:
        from jnius import autoclass  # type: ignore[import-not-found]
    except ImportError:
        return None
    try:
        loc = autoclass("java.util.Locale").getDefault()
        country = loc.getCountry()
        return f"{loc.getLanguage()}_{country}" if country else str(loc.getLanguage())
    except Exception:  # noqa: BLE001 - a device that cannot say falls back to the desktop way
        return None


def system_language(environ: dict[str, str] | None = None) -> str:
    """The language the device or desktop asks for, if the app speaks it, else English.

    Android: the device language (through jnius).  Elsewhere the first of
    ``LANGUAGE`` (a list), ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that the app
    speaks, then the locale Python reads from the system.

    >>> system_language({"LANGUAGE": "sv:ru:en", "LANG": "de_DE.UTF-8"})
    'ru'
    >>> system_language({"LANG": "C.UTF-8"}) in LANGUAGES
    True
    """
    env = os.environ if environ is None else environ
    found = match(_android_tag())
    if found:
        return found
    tags = [t for t in env.get("LANGUAGE", "").split(":") if t]
    tags += [env.get(k, "") for k in ("LC_ALL", "LC_MESSAGES", "LANG")]
    for tag in tags:
        found = match(tag)
        if found and available(found):
            return found
    if environ is None:
        try:
            found = match(locale.getlocale()[0])
        except ValueError:
            found = None
        if found and available(found):
            return found
    return SOURCE


class KeptTogether(gettext.GNUTranslations):
    """A catalog whose messages come with the spaces next to a Chinese or
    Japanese character made no-break (:func:`keep_cjk_together`), so the
    app's words and the coach's (which it reads through this catalog) wrap as
    those languages do."""

    def gettext(self, message: str) -> str:
        return keep_cjk_together(super().gettext(message))

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return keep_cjk_together(super().ngettext(msgid1, msgid2, n))

    def pgettext(self, context: str, message: str) -> str:
        return keep_cjk_together(super().pgettext(context, message))

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return keep_cjk_together(super().npgettext(context, msgid1, msgid2, n))


MAX_CATALOG_BYTES = 1 << 22
"""The largest compiled catalog read (each is tens of KB); a bigger file is not one."""

_warned: set[str] = set()


def set_language(setting: str) -> str:
    """Speak the language of the Language setting (a code, or ``"system"``);
    returns the code in use.  An unknown code or a missing catalog is English;
    so is a damaged one (cut short, garbage, too big): the app then starts in
    English, and says so once (the log, and :func:`catalog_note`)."""
    code = system_language() if setting in ("", "system") else match(setting) or SOURCE
    if code != SOURCE and not available(code):
        code = SOURCE
    t: gettext.NullTranslations = gettext.NullTranslations()
    note = None
    if code != SOURCE:
        path = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
        try:
            t = _read_catalog(path)
        except (OSError, ValueError, LookupError, ArithmeticError, struct.error) as exc:
            note = (f"the {LANGUAGES.get(code, code)} translation ({path}) cannot be read "
                    f"({exc or type(exc).__name__}); the app speaks English")
            if code not in _warned:
                _warned.add(code)
                logging.getLogger("kivy").warning(f"fastmine: {note}")
            code = SOURCE
    _state.update(code=code, t=t, babel=None, note=note)
    return code


def _read_catalog(path: Path) -> KeptTogether:
    """The compiled catalog at ``path`` (a regular file of at most
    :data:`MAX_CATALOG_BYTES`; gettext's own errors pass for a damaged one)."""
    from fastmine.files.reading import read_regular_file

    return KeptTogether(io.BytesIO(read_regular_file(path, MAX_CATALOG_BYTES)))


def catalog_note() -> str | None:
    """Why the language asked for last is not spoken (a damaged catalog), or None."""
    note: str | None = _state.get("note")
    return note


def _babel() -> Any:
    """The current language's Babel locale (made once per language)."""
    loc = _state.get("babel")
    if loc is None:
        from babel import Locale

        loc = _state["babel"] = Locale.parse(_state["code"])
    return loc


def fmt_number(value: float, decimals: int = 0) -> str:
    """``value`` with ``decimals`` decimals, in the language's digits (``2,50`` in German)."""
    from babel.numbers import format_decimal

    pattern = "0" + ("." + "0" * decimals if decimals else "")
    return str(format_decimal(value, format=pattern, locale=_babel(), group_separator=False))


def fmt_percent(fraction: float) -> str:
    """A fraction as a whole percentage (``67%``, ``67 %`` in German and French)."""
    from babel.numbers import format_percent

    return str(format_percent(fraction, locale=_babel(), group_separator=False))


def fmt_seconds(seconds: float, decimals: int = 2) -> str:
    """Seconds as the dialogs and tables show them (``3.14 s``)."""
    return _("{seconds} s").format(seconds=fmt_number(seconds, decimals))


def fmt_date(when: datetime, pattern: str = "d MMM yy") -> str:
    """A date (and time) in the language's month names, with a Unicode pattern."""
    from babel.dates import format_datetime

    return str(format_datetime(when, pattern, locale=_babel()))


def sentence(parts: list[str]) -> str:
    """``parts`` as one sentence of the current language: "a, b, c." in the
    alphabets, "a，b，c。" in Chinese, "a、b、c。" in Japanese (an ASCII ", "
    between Chinese words reads as a typo).

    >>> sentence(["Beginner 9 x 9", "10 mines"])
    'Beginner 9 x 9, 10 mines.'
    """
    comma, stop = {"zh_CN": ("，", "。"), "ja": ("、", "。")}.get(_state["code"], (", ", "."))
    return comma.join(parts) + stop


def decimal_sign() -> str:
    """The current language's decimal sign ("," in German)."""
    from babel.numbers import get_decimal_symbol

    return str(get_decimal_symbol(_babel()))


DIFFICULTY_NAMES = {
    "beginner": N_("Beginner"), "intermediate": N_("Intermediate"), "expert": N_("Expert"),
    "toy": N_("Toy"), "easy": N_("Easy"), "medium": N_("Medium"), "hard": N_("Hard"),
    "hell": N_("Hell"), "custom": N_("Custom"),
}
"""The names of the board sizes (:data:`fastmine.DIFFICULTIES` and "custom")."""


def board_name(label: str) -> str:
    """A board's records label (``"expert"``, ``"custom 20x30/100"``) in words.

    >>> board_name("expert"), board_name("custom 20x30/100")
    ('Expert', 'Custom 20x30/100')
    """
    head, _sep, rest = label.partition(" ")
    word = DIFFICULTY_NAMES.get(head.lower())
    if word is None:
        return label[:1].upper() + label[1:]
    return _(word) + (" " + rest if rest else "")


def coach_words() -> Any:
    """The coach's words (:class:`fastmine.coach.Words`) in the current language."""
    from fastmine.coach import Words

    return Words(_state["t"] if _state["code"] != SOURCE else None, decimal=decimal_sign())


def shipped_font(code: str) -> str | None:
    """The font file the app ships for language ``code`` (``fonts/``), or None
    where Kivy's own draws it."""
    name = FONTS.get(code)
    return None if name is None else str(Path(__file__).resolve().parent / "fonts" / name)


_FOUND: dict[str, str | None] = {}
"""Language -> the device's font for it, looked up once (see :mod:`.systemfonts`)."""


def font_for(code: str | None = None) -> str | None:
    """The font file the app draws ``code`` (the current language) with, or None
    for Kivy's own (Roboto covers the Latin alphabets, Vietnamese's and
    Turkish's letters included, and Cyrillic).

    Chinese, Japanese and Korean: the device's own font for the language where it has
    one (every character, a rare one in a name too), else the app's
    (:func:`shipped_font`, the common characters).
    """
    code = _state["code"] if code is None else code
    if code not in FONTS:
        return None
    if code not in _FOUND:
        from .systemfonts import system_font

        _FOUND[code] = system_font(code)
    return _FOUND[code] or shipped_font(code)


Translate = Callable[[str], str]


_CJK = "\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_SPACES_BY_CJK = re.compile(f"(?<=[{_CJK}]) +| +(?=[{_CJK}])")


def keep_cjk_together(text: str) -> str:
    """``text`` with every space next to a Chinese or Japanese character made a
    no-break space.

    Kivy breaks a line at a space only, and cuts a word too long for a line
    anywhere.  Chinese and Japanese write a sentence without spaces, so the
    only spaces are those around a number, a Latin word or after a bullet:
    Kivy broke there, leaving "1" or "•" alone on a line and the sentence
    after it on the next.  Without those spaces a sentence fills its lines to
    the edge, as these languages wrap.

    >>> keep_cjk_together("你挺过了 1 次") == "你挺过了\u00a01\u00a0次"
    True
    >>> keep_cjk_together("Time 0.75 s")
    'Time 0.75 s'
    """
    if text.isascii():
        return text
    return _SPACES_BY_CJK.sub(lambda m: "\u00a0" * len(m.group()), text)

