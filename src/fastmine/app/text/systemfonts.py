"""The device's own Chinese, Japanese or Korean font, when it has one the app can draw with.

The app ships a fallback for each CJK language (``fonts/``: Noto Sans CJK cut
to the common characters: GB2312 level 1 for Chinese, the Jōyō and Jinmeiyō
kanji and the kana for Japanese, KS X 1001's 2,350 Hangul syllables for
Korean, see ``scripts/i18n.py font``).  A device font draws every character, a
rare name character included, so it comes first where there is one:

- Android: the fonts of ``/system/fonts`` that Android itself uses for the
  language;
- a Linux desktop: the font fontconfig picks for the language (``fc-match
  :lang=zh-cn``), the one every other program there draws it with;
- Windows and macOS: their usual CJK fonts at their usual paths.

Kivy opens the first face of a font collection (``.ttc``) only, so a
collection counts only where that face is the language's own: on Android and
Debian the Noto Sans CJK collection starts with its Japanese face, which
serves Japanese; Chinese and Korean there use the fallback (the same design in
their own forms) rather than the Japanese face.  Nothing here is read or run
before a CJK language is chosen.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

FONTCONFIG_LANG = {"zh_CN": "zh-cn", "ja": "ja", "ko": "ko"}
"""The app's CJK languages -> fontconfig's language tags."""

KNOWN: dict[str, dict[str, tuple[str, ...]]] = {
    "android": {
        "zh_CN": ("/system/fonts/NotoSansSC-Regular.otf", "/system/fonts/NotoSansHans-Regular.otf",
                  "/system/fonts/DroidSansFallbackFull.ttf", "/system/fonts/DroidSansFallback.ttf"),
        "ja": ("/system/fonts/NotoSansJP-Regular.otf", "/system/fonts/NotoSansCJK-Regular.ttc",
               "/system/fonts/DroidSansJapanese.ttf"),
        "ko": ("/system/fonts/NotoSansKR-Regular.otf", "/system/fonts/NanumGothic.ttf"),
    },
    "win32": {
        "zh_CN": ("msyh.ttc", "msyh.ttf", "simhei.ttf", "simsun.ttc"),
        "ja": ("YuGothM.ttc", "meiryo.ttc", "msgothic.ttc"),
        "ko": ("malgun.ttf", "gulim.ttc"),
    },
    "darwin": {
        "zh_CN": ("/System/Library/Fonts/Hiragino Sans GB.ttc",
                  "/System/Library/Fonts/STHeiti Light.ttc",
                  "/Library/Fonts/Arial Unicode.ttf"),
        "ja": ("/System/Library/Fonts/ヒラギノ角ゴシック W3.ttc",
               "/System/Library/Fonts/Hiragino Sans W3.ttc",
               "/Library/Fonts/Arial Unicode.ttf"),
        "ko": ("/System/Library/Fonts/AppleSDGothicNeo.ttc", "/Library/Fonts/Arial Unicode.ttf"),
    },
}
"""Platform -> language -> the device's fonts for it, best first (Windows's are
names in its Fonts folder).  Each of these files has the language's forms in
its first face."""

Runner = Callable[[Sequence[str]], str]


def _run(args: Sequence[str]) -> str:
    """The output of a short command, or "" when it cannot run."""
    try:
        done = subprocess.run(list(args), capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout if done.returncode == 0 else ""


def fontconfig_font(code: str, run: Runner = _run) -> str | None:
    """The font file fontconfig draws language ``code`` with, or None when it
    has none, or when it is not the first face of its file (Kivy could not
    open that face).

    >>> fontconfig_font("ja", run=lambda a: "/f/NotoSansCJK-Regular.ttc\\t0\\tja|zh-cn")
    '/f/NotoSansCJK-Regular.ttc'
    >>> fontconfig_font("zh_CN", run=lambda a: "/f/NotoSansCJK-Regular.ttc\\t2\\tja|zh-cn") is None
    True
    """
    tag = FONTCONFIG_LANG.get(code)
    if tag is None:
        return None
    out = run(["fc-match", "-f", "%{file}\t%{index}\t%{lang}", f":lang={tag}"]).strip()
    file, _sep, rest = out.partition("\t")
    index, _sep, langs = rest.partition("\t")
    # fc-match always answers with some font: it counts only if it covers the language
    if not file or index != "0" or tag not in langs.split("|"):
        return None
    return file


def system_font(code: str, platform: str | None = None, exists: Callable[[str], bool] | None = None,
                run: Runner = _run, environ: dict[str, str] | None = None) -> str | None:
    """The device's font for language ``code``, or None (use the app's own).

    >>> system_font("ja", platform="android", exists=lambda p: p.endswith(".ttc"))
    '/system/fonts/NotoSansCJK-Regular.ttc'
    >>> system_font("ru", platform="android", exists=lambda p: True) is None
    True
    """
    platform = sys.platform if platform is None else platform
    exists = os.path.isfile if exists is None else exists
    env = os.environ if environ is None else environ
    if code not in FONTCONFIG_LANG:
        return None
    if platform == "android" or (platform.startswith("linux") and "ANDROID_ARGUMENT" in env):
        return next((p for p in KNOWN["android"][code] if exists(p)), None)
    if platform == "win32":
        folder = Path(env.get("WINDIR", r"C:\Windows")) / "Fonts"
        return next((str(folder / n) for n in KNOWN["win32"][code] if exists(str(folder / n))), None)
    if platform == "darwin":
        return next((p for p in KNOWN["darwin"][code] if exists(p)), None)
    found = fontconfig_font(code, run)
    return found if found and exists(found) else None
