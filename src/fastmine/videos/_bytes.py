"""Bounded reading of a video's bytes, and the text encodings the formats use.

Every read checks that the bytes are there first, so a truncated or lying file
raises :class:`~fastmine.errors.VideoFormatError` (naming the file and
the byte offset) instead of an ``IndexError`` deep in a reader.  Integers are
big-endian in all four formats.
"""

from __future__ import annotations

from ..errors import VideoFormatError

__all__ = ["NOT_UTF8", "Cursor", "decode_code_page", "decode_legacy", "decode_utf8",
           "decode_utf8_kept"]

NOT_UTF8 = "not_utf8"
"""The key of :attr:`fastmine.videos.Video.details` naming the text fields
that were not valid UTF-8 and were read with replacement characters."""

MAX_TEXT = 4096
"""Longest text field (a name, a version string) a reader accepts, in bytes.

The formats store names in at most 255 bytes (one-byte lengths) or as
NUL-terminated strings; a "name" running on for kilobytes is a corrupt file.
"""


class Cursor:
    """A read position in a video's bytes; every read is bounds-checked.

    Parameters
    ----------
    data : bytes
        The whole file.
    source : str
        The file's name, for error messages.
    pos : int
        Where reading starts.
    """

    __slots__ = ("data", "source", "pos")

    def __init__(self, data: bytes, source: str, pos: int = 0) -> None:
        self.data = data
        self.source = source
        self.pos = pos

    def fail(self, problem: str, offset: int | None = None) -> VideoFormatError:
        """The error to raise for ``problem`` at ``offset`` (the current position by default)."""
        return VideoFormatError(self.source, problem, self.pos if offset is None else offset)

    @property
    def remaining(self) -> int:
        """Bytes left after the read position."""
        return len(self.data) - self.pos

    def need(self, n: int, what: str) -> None:
        """Raise unless ``n`` more bytes are there (``what`` names them in the message)."""
        if n < 0 or self.pos + n > len(self.data):
            raise self.fail(f"the file ends inside {what} ({n} bytes needed, "
                            f"{max(self.remaining, 0)} left): it is truncated or corrupt")

    def skip(self, n: int, what: str) -> None:
        """Move on ``n`` bytes, which must be in the file."""
        self.need(n, what)
        self.pos += n

    def take(self, n: int, what: str) -> bytes:
        """The next ``n`` bytes."""
        self.need(n, what)
        p = self.pos
        self.pos = p + n
        return self.data[p:p + n]

    def u8(self, what: str) -> int:
        """An unsigned byte."""
        self.need(1, what)
        v = self.data[self.pos]
        self.pos += 1
        return v

    def u16(self, what: str) -> int:
        """A big-endian unsigned 16-bit integer."""
        self.need(2, what)
        p = self.pos
        self.pos = p + 2
        return int.from_bytes(self.data[p:p + 2], "big")

    def u24(self, what: str) -> int:
        """A big-endian unsigned 24-bit integer."""
        self.need(3, what)
        p = self.pos
        self.pos = p + 3
        return int.from_bytes(self.data[p:p + 3], "big")

    def u32(self, what: str) -> int:
        """A big-endian unsigned 32-bit integer."""
        self.need(4, what)
        p = self.pos
        self.pos = p + 4
        return int.from_bytes(self.data[p:p + 4], "big")

    def u64(self, what: str) -> int:
        """A big-endian unsigned 64-bit integer."""
        self.need(8, what)
        p = self.pos
        self.pos = p + 8
        return int.from_bytes(self.data[p:p + 8], "big")

    def cstring(self, what: str, limit: int = MAX_TEXT) -> bytes:
        """Bytes up to (not including) the next NUL, which is consumed.

        At most ``limit`` bytes: a longer field means a corrupt file.
        """
        end = self.data.find(b"\0", self.pos, self.pos + limit + 1)
        if end < 0:
            if len(self.data) - self.pos <= limit:
                raise self.fail(f"the file ends inside {what} (no terminating NUL): "
                                "it is truncated or corrupt")
            raise self.fail(f"{what} runs on for more than {limit} bytes")
        raw = self.data[self.pos:end]
        self.pos = end + 1
        return raw


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
