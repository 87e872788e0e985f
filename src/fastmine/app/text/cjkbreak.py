"""Chinese and Japanese lines broken as those languages break them.

Kivy breaks a line at a space only and cuts a word too long for its line at
the last character that fits.  A Chinese or Japanese sentence has no spaces,
so Kivy cut it anywhere: inside a number ("（1" / "2%）"), inside a Latin word
("Kiv" / "y"), and before closing punctuation, a line starting with "。" or
"）".  :func:`break_lines` chooses the breaks by the usual rules (the line
breaking rules of JIS X 4051 and GB/T 15834, as Unicode's UAX #14 has them):

- a line may break between two CJK characters, or between a CJK character
  and any other, at a space, and nowhere else (a number, a Latin word and
  "3BV/s" stay whole; a no-break space glues, see
  :func:`.i18n.keep_cjk_together`);
- never before closing punctuation, an iteration mark, a prolonged sound mark
  or a small kana (。，、；：！？）」』】… ー 々 っ), never after opening
  punctuation (（「『【).

:func:`install` puts it in front of Kivy's layout of a label's text: a text
with a CJK character and a width to wrap to gets its line breaks from
:func:`break_lines`, and Kivy lays out the lines as given (with markup: each run of one style,
from where the run before it ended).  Other text is Kivy's as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

CLOSING = set("、。，．,.：；:;！？!?)）]］}｝〕〉》」』】〙〗〟’”｠»‐゠–〜～…‥%％‰"
              "ヽヾゝゞ々〻ーぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ・")
"""Characters no line may start with."""
OPENING = set("(（[［{｛〔〈《「『【〘〖〝‘“｟«")
"""Characters no line may end with."""
_RANGES = ((0x2E80, 0x2FDF), (0x3000, 0x303F), (0x3040, 0x30FF), (0x3100, 0x31FF),
           (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFE30, 0xFE4F),
           (0xFF00, 0xFFEF), (0x20000, 0x3FFFF))


def is_cjk(ch: str) -> bool:
    """A Chinese or Japanese character (ideograph, kana, CJK or full-width punctuation)."""
    o = ord(ch)
    return any(lo <= o <= hi for lo, hi in _RANGES)


def has_cjk(text: str) -> bool:
    """True when ``text`` holds a CJK character (the only text :func:`install` changes)."""
    return not text.isascii() and any(is_cjk(c) for c in text)


def may_break(before: str, after: str) -> bool:
    """True when a line may break between the characters ``before`` and ``after``
    (a space is handled by :func:`pieces`).

    >>> may_break("了", "次"), may_break("1", "2"), may_break("测", "。"), may_break("（", "1")
    (True, False, False, False)
    """
    if "\u00a0" in (before, after) or "\u202f" in (before, after):
        return False  # a no-break space glues its neighbours
    if after in CLOSING or before in OPENING:
        return False
    return is_cjk(before) or is_cjk(after)


def pieces(paragraph: str) -> list[tuple[str, str]]:
    """``paragraph`` cut at every break opportunity: (piece, the spaces after it).

    >>> pieces("你好，世界 ok 1.5")
    [('你', ''), ('好，', ''), ('世', ''), ('界', ' '), ('ok', ' '), ('1.5', '')]
    """
    out: list[tuple[str, str]] = []
    word = ""
    i = 0
    while i < len(paragraph):
        ch = paragraph[i]
        if ch == " ":
            j = i
            while j < len(paragraph) and paragraph[j] == " ":
                j += 1
            out.append((word, paragraph[i:j]))
            word, i = "", j
            continue
        word += ch
        nxt = paragraph[i + 1] if i + 1 < len(paragraph) else ""
        if nxt and nxt != " " and may_break(ch, nxt):
            out.append((word, ""))
            word = ""
        i += 1
    if word:
        out.append((word, ""))
    return out


def break_lines(text: str, width: float, measure: Callable[[str], float],
                first: float | None = None, before: str = "") -> list[str]:
    """``text`` in lines at most ``width`` wide (``measure`` gives a string's
    width), broken only where :func:`may_break` or a space allows: as many
    pieces on each line as fit.  A piece wider than a line has a line of its own,
    or breaks after its path separators (a file's path).

    ``first`` and ``before`` continue a line already begun (a label with markup
    lays out each run of one style after the one before): ``first`` is the room
    left on it and ``before`` the text it holds.  The first line returned goes
    on that line, and is empty when nothing fits there; but what may not start
    a line (closing punctuation after ``before``) stays on it even if too wide.

    >>> break_lines("你挺过了 1 次（12%）。", 5, len)
    ['你挺过了', '1 次', '（12%）。']
    >>> break_lines("”后来。", 4, len, first=0, before="“引用")
    ['”', '后来。']
    """
    lines: list[str] = []
    for n, paragraph in enumerate(text.split("\n")):
        line, gap = "", ""
        # the first paragraph's first line may continue one begun before the text
        begun = n == 0 and first is not None
        room = first if first is not None and begun else width
        for word, spaces in pieces(paragraph):
            parts = [word]
            if ("/" in word or "\\" in word) and measure(word) > width:
                parts = _at_separators(word)
            for k, part in enumerate(parts):
                candidate = line + gap + part
                if measure(candidate) > room and (line or (begun and _may_start(before, gap + part))):
                    lines.append(line)
                    line, room, begun = part, width, False
                else:
                    line = candidate
                gap = spaces if k == len(parts) - 1 else ""
        lines.append(line + gap)  # the paragraph's trailing spaces, as they were
    return lines


def _may_start(before: str, text: str) -> bool:
    """True when a line may break between ``before`` and ``text``: after a space,
    or where :func:`may_break` allows it between their characters."""
    if not before or not text or before[-1] == " " or text[0] == " ":
        return True
    return may_break(before[-1], text[0])


def _at_separators(word: str) -> list[str]:
    """A piece too wide for a line cut after each of its path separators ("/",
    "\\"): a long file path breaks between its folders, not at whatever letter
    fills the line (Kivy still cuts a part that alone is too wide).

    >>> _at_separators("/home/me/settings.json")
    ['/', 'home/', 'me/', 'settings.json']
    """
    out: list[str] = []
    part = ""
    for ch in word:
        part += ch
        if ch in "/\\":
            out.append(part)
            part = ""
    if part:
        out.append(part)
    return out


_ORIGINAL: list[Callable[..., Any]] = []


def _layout_text(text: Any, lines: list[Any], size: Any, text_size: Any, options: dict[str, Any],
                 get_extents: Callable[[str], tuple[float, float]], append_down: bool,
                 complete: bool) -> Any:
    """Kivy's ``layout_text`` with CJK lines broken first (see :func:`install`)."""
    width = text_size[0]
    if width and isinstance(text, str) and has_cjk(text):
        padding = options.get("padding") or (0, 0, 0, 0)
        pad = (padding[0] + padding[2]) if len(padding) == 4 else 2 * padding[0]
        text = "\n".join(break_lines(text, width - pad, lambda s: get_extents(s)[0]))
    return _ORIGINAL[0](text, lines, size, text_size, options, get_extents, append_down, complete)


def _layout_markup(text: Any, lines: list[Any], size: Any, text_size: Any,
                   options: dict[str, Any], get_extents: Callable[[str], tuple[float, float]],
                   append_down: bool = True, complete: bool = False) -> Any:
    """The same for a label with markup, which lays out its text piece by piece
    (one for each change of style): the first piece starts a line; each later
    one continues the line the piece before it ended, so its breaks start from
    the room left on that line and what may not begin a line (a closing quote
    after a bold word) stays on it."""
    width = text_size[0]
    if not lines or not width or not isinstance(text, str):
        return _layout_text(text, lines, size, text_size, options, get_extents, append_down, complete)
    line = lines[-1] if append_down else lines[0]
    before = "".join(str(word.text) for word in line.words)
    if not (has_cjk(text) or has_cjk(before)):
        return _ORIGINAL[0](text, lines, size, text_size, options, get_extents, append_down, complete)
    padding = options.get("padding") or (0, 0, 0, 0)
    pad = (padding[0] + padding[2]) if len(padding) == 4 else 2 * padding[0]
    broken = break_lines(text, width - pad, lambda s: get_extents(s)[0],
                         first=width - pad - line.w, before=before)
    return _ORIGINAL[0]("\n".join(broken), lines, size, text_size, options, get_extents,
                        append_down, complete)


def install() -> None:
    """Break CJK text of every Kivy label by :func:`break_lines` (once per process)."""
    import kivy.core.text as core_text
    import kivy.core.text.markup as markup

    if _ORIGINAL:
        return
    _ORIGINAL.append(core_text.layout_text)
    core_text.layout_text = _layout_text
    markup.layout_text = _layout_markup
