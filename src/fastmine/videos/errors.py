"""The one error a video reader raises for a file it cannot read."""

from __future__ import annotations

__all__ = ["VideoFormatError"]


class VideoFormatError(ValueError):
    """A video file is truncated, corrupt, hostile or not in the format it claims.

    Every reader in :mod:`fastmine.videos` raises this and nothing else for bad
    bytes, whatever is wrong: a section that runs past the end of the file, a
    count or size no real game has, an unknown event code, a name that is not
    valid text in the format's encoding.  The message names the file and what
    is wrong (and where, when a byte offset helps)::

        game.avf: the mine at (17, 3) is outside the 16x16 board (byte 12)

    Attributes
    ----------
    source : str
        The file's name, or ``"<bytes>"`` for data given in memory.
    offset : int or None
        Byte offset in the file where the problem was found, when known.
    """

    def __init__(self, source: str, problem: str, offset: int | None = None) -> None:
        where = f" (byte {offset})" if offset is not None else ""
        super().__init__(f"{source}: {problem}{where}")
        self.source = source
        self.problem = problem
        self.offset = offset

    def __reduce__(self) -> tuple[type[VideoFormatError], tuple[str, str, int | None]]:
        # Pickle by the constructor's arguments (ValueError would pass the message only).
        return (type(self), (self.source, self.problem, self.offset))
