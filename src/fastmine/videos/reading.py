"""One entry point for the four formats: :func:`read_video`, and the sniffing behind it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from importlib import import_module
from typing import BinaryIO

from ..errors import VideoFormatError
from ..files.reading import read_regular_file
from .model import MAX_FILE_BYTES, Video

__all__ = ["FORMATS", "read_video", "sniff_format"]

_READERS = {"avf": "read_avf", "rmv": "read_rmv", "mvf": "read_mvf", "evf": "read_evf"}


class _Readers(Mapping[str, Callable[[bytes, str], Video]]):
    """The readers by format name, each module imported the first time its
    reader is asked for: reading an Arbiter video loads none of the other three
    (a command that reads one file starts sooner)."""

    __slots__ = ("_loaded",)

    def __init__(self) -> None:
        self._loaded: dict[str, Callable[[bytes, str], Video]] = {}

    def __getitem__(self, fmt: str) -> Callable[[bytes, str], Video]:
        reader = self._loaded.get(fmt)
        if reader is None:
            function = _READERS[fmt]         # KeyError for a name not a format
            reader = getattr(import_module(f"{__package__}.{fmt}"), function)
            self._loaded[fmt] = reader
        return reader

    def __contains__(self, fmt: object) -> bool:
        return fmt in _READERS

    def __iter__(self) -> Iterator[str]:
        return iter(_READERS)

    def __len__(self) -> int:
        return len(_READERS)

    def __repr__(self) -> str:
        return f"<video readers {sorted(_READERS)}>"


FORMATS: Mapping[str, Callable[[bytes, str], Video]] = _Readers()
"""The readers by format name (also the file extensions): ``FORMATS["avf"]`` is
:func:`fastmine.videos.avf.read_avf`.  A read-only mapping; each reader's module
is loaded the first time it is looked up."""

_BYTES_NAME = "<bytes>"


def sniff_format(data: bytes, name: str = "") -> str | None:
    """The format of a video's bytes, or None when neither they nor ``name`` tell.

    The content decides where it has a signature: ``*rmv`` for Vienna, Clone's
    text header, Arbiter's game header and footer.  Early Clone videos and EVF
    have none; for them the file name's extension decides, then EVF's
    version byte (0-4) does.

    Parameters
    ----------
    data : bytes
        The file's content (its first few kilobytes suffice).
    name : str
        The file's name, for its extension.

    Returns
    -------
    str or None
        ``"avf"``, ``"rmv"``, ``"mvf"`` or ``"evf"``, or None.
    """
    if data[:4] == b"*rmv":
        return "rmv"
    if data[:18] == b"\x11Minesweeper Clone":
        return "mvf"
    head = data[:4096]
    if (len(data) > 6 and 3 <= data[5] <= 6 and b"|B" in head and b"[" in head
            and b"Minesweeper Arbiter" in data[-200:]):
        return "avf"
    ext = os.path.splitext(name)[1].lower().lstrip(".")
    if ext in FORMATS:
        return ext
    if data[:1] and data[0] <= 4:
        return "evf"
    return None


def read_video(source: str | os.PathLike[str] | bytes | bytearray | memoryview | BinaryIO,
               format: str | None = None, *, name: str | None = None) -> Video:
    """Read a Minesweeper video: ``.avf``, ``.rmv``, ``.mvf`` or ``.evf``.

    Parameters
    ----------
    source : path, bytes or binary file
        A file name, the file's bytes, or a file opened for binary reading.
    format : {"avf", "rmv", "mvf", "evf"}, optional
        The format, when known; by default it is told from the content (and
        the extension, for formats without a signature).
    name : str, optional
        The name used in error messages and :attr:`Video.source` (by default
        the path, or ``"<bytes>"``).

    Returns
    -------
    Video

    Raises
    ------
    VideoFormatError
        The file is not a video of a known format, or is truncated, corrupt or
        hostile; the message names the file and what is wrong.  Larger than
        :data:`~fastmine.videos.model.MAX_FILE_BYTES` files are refused before
        they are read, and records that would take more memory to decode than
        :data:`~fastmine.videos.binread.MAX_READ_BYTES` (256 MiB) before they
        are decoded: no file makes a reader allocate more.
    OSError
        The file cannot be opened or read, or is not a regular file (a folder,
        a FIFO, a device: refused at once, never waited on or read without end).
    ValueError
        ``format`` is not one of the four names.
    """
    if format is not None and format not in FORMATS:
        raise ValueError(f"unknown video format {format!r}; choose one of {sorted(FORMATS)}")
    data, label = _load(source, name)
    fmt = format or sniff_format(data, label)
    if fmt is None:
        raise VideoFormatError(label, "not a video fastmine reads (an .avf, .rmv, .mvf or "
                               ".evf file)")
    try:
        return FORMATS[fmt](data, label)
    except VideoFormatError:
        raise
    except (ArithmeticError, LookupError, ValueError, TypeError) as exc:
        # A reader's own checks raise VideoFormatError; this net keeps the
        # promise of one error type should a corrupt file slip past them.
        raise VideoFormatError(label, f"unreadable {fmt} data ({type(exc).__name__}: {exc})"
                               ) from exc


def _load(source: object, name: str | None) -> tuple[bytes, str]:
    """The bytes to read and the name to report, with the size checked first."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        label = name or _BYTES_NAME
        if len(source) > MAX_FILE_BYTES:
            raise _too_big(label, len(source))
        return bytes(source), label
    if isinstance(source, (str, os.PathLike)):
        label = name or os.fspath(source)
        # Opened without waiting for a writer and checked before reading: a FIFO
        # would block here for ever, a device (/dev/zero) read without end.
        data = read_regular_file(source, MAX_FILE_BYTES, name=label,
                                 too_big=lambda size, _grew: _too_big(label, size))
        return data, label
    read = getattr(source, "read", None)
    if callable(read):
        label = name or str(getattr(source, "name", _BYTES_NAME))
        return _read_capped(source, label), label  # type: ignore[arg-type]
    raise TypeError(f"read_video needs a path, bytes or a binary file, got "
                    f"{type(source).__name__}")


def _read_capped(f: BinaryIO, label: str) -> bytes:
    data = f.read(MAX_FILE_BYTES + 1)
    if not isinstance(data, bytes):
        raise TypeError(f"{label}: the file must be opened in binary mode")
    if len(data) > MAX_FILE_BYTES:
        raise _too_big(label, len(data))
    return data


def _too_big(label: str, size: int) -> VideoFormatError:
    return VideoFormatError(label, f"{size} bytes is larger than any video "
                            f"({MAX_FILE_BYTES} bytes at most)")
