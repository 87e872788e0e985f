"""The text encodings the video formats use.

The bounded reading of their bytes is :mod:`fastmine.videos.binread`'s
(:class:`~fastmine.videos.binread.Cursor`, also importable from here).
"""

from __future__ import annotations

from .binread import Cursor

__all__ = ["NOT_UTF8", "Cursor", "decode_code_page", "decode_legacy", "decode_utf8",
           "decode_utf8_kept"]

NOT_UTF8 = "not_utf8"
"""The key of :attr:`fastmine.videos.Video.details` naming the text fields
that were not valid UTF-8 and were read with replacement characters."""


def decode_utf8(raw: bytes, what: str, cur: Cursor, offset: int | None = None) -> str:
    """``raw`` (read at ``offset``) as UTF-8, or a :class:`VideoFormatError` naming ``what``.

    For fields a format defines as UTF-8 (RMV 2, RMV 1 with its ``utf8``
    property, EVF 4): their specifications say a reader must refuse anything else.
    """
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise cur.fail(f"{what} is not valid UTF-8, as its format requires",
                       None if offset is None else offset + exc.start) from None


def decode_utf8_kept(raw: bytes, what: str, bad: list[str]) -> str:
    """``raw`` as UTF-8, each byte that is not UTF-8 read as U+FFFD; ``what``
    is then appended to ``bad``.

    For the player's name and the like: a name the client wrote wrong must not
    lose the game it names (the reader says so once, through
    ``details["not_utf8"]``).  Fields that shape the file stay strict
    (:func:`decode_utf8`).
    """
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        bad.append(what)
        return raw.decode("utf-8", "replace")


def _gbk_pairs(raw: bytes) -> bool:
    """True when the non-ASCII bytes of ``raw`` all come as two-byte GBK characters
    whose second byte is itself non-ASCII (GB2312 and most of GBK)."""
    i, n = 0, len(raw)
    while i < n:
        b = raw[i]
        if b < 0x80:
            i += 1
            continue
        if not 0x81 <= b <= 0xFE or i + 1 >= n or raw[i + 1] < 0x80 or raw[i + 1] == 0xFF:
            return False
        i += 2
    return True


def decode_code_page(raw: bytes) -> str:
    """Text written in a Windows "ANSI" code page: Chinese GBK or Western cp1252.

    The old clients (Arbiter, Vienna before its ``utf8`` property, Clone) wrote
    names in the code page of the player's Windows: GBK on Chinese systems,
    cp1252 in Europe and America.  The bytes do not say which, so this guesses
    from their shape: GBK writes every Chinese character as two bytes of 0x81
    or more, while a Western name has single accented bytes between ASCII
    letters ("M\\xfcller").  So GBK is chosen when every non-ASCII byte pairs up
    that way, else cp1252, else GB18030; Latin-1 (which takes any byte) last.
    ms-toollib tries GB18030 before cp1252, which reads "Müller" as "M黮ler";
    both read every GBK name the same way.
    """
    if raw.isascii():
        return raw.decode("ascii")
    if _gbk_pairs(raw):
        try:
            return raw.decode("gb18030")
        except UnicodeDecodeError:
            pass
    for codec in ("cp1252", "gb18030"):
        try:
            return raw.decode(codec)
        except UnicodeDecodeError:
            continue
    return raw.decode("latin-1")


def decode_legacy(raw: bytes) -> str:
    """Text of unknown encoding: UTF-8 when it is valid UTF-8, else :func:`decode_code_page`.

    Valid UTF-8 with non-ASCII characters is very unlikely to be an accident of
    a code page, so a clone that did write UTF-8 is read right.
    """
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return decode_code_page(raw)
