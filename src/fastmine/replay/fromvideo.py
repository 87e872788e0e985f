"""A video of another client as a fastmine game and replay: what ``replay --import``
and the app's Replays -> Import do with an ``.avf``, ``.rmv``, ``.mvf`` or ``.evf``.

:func:`import_video` reads the bytes with :mod:`fastmine.videos`, plays the
mouse events by the recording client's rules, rebuilds the game in fastmine's
engine (:func:`fastmine.videos.rebuild.rebuild`: the same board after every
move, the same outcome and time) and makes its :class:`Replay`, with the
player's name, the software and the date the file gives, ready for the
records (:meth:`ImportedVideo.record`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..difficulty import difficulty_name
from ..game import Game
from ..videos import Video, VideoPlay, play_video, read_video
from ..videos.rebuild import rebuild
from .mousepath import mouse_of_video
from .playback import Replay

__all__ = ["FORMAT_NAMES", "ImportedVideo", "import_video", "is_replay_file"]

FORMAT_NAMES = {"avf": "an Arbiter video", "rmv": "a Vienna video",
                "mvf": "a Minesweeper Clone video", "evf": "a Metasweeper video"}
"""How each video format is named to the player."""


def is_replay_file(name: str, data: bytes) -> bool:
    """Whether ``data`` (read from ``name``) is a fastmine replay rather than a video.

    A replay is JSON (its first byte ``{``) or named ``.fmreplay``; no video
    format starts with ``{``.
    """
    return Path(name).suffix.lower() == ".fmreplay" or data.lstrip()[:1] == b"{"


@dataclass(frozen=True)
class ImportedVideo:
    """A video read and rebuilt as a fastmine game.

    Attributes
    ----------
    video : Video
        What the file holds.
    play : VideoPlay
        Its mouse events played as the recording client plays them.
    game : Game
        The game rebuilt in fastmine's engine.
    replay : Replay
        Its replay (the mouse path kept where the file has one).
    """

    video: Video
    play: VideoPlay
    game: Game
    replay: Replay

    @property
    def software(self) -> str:
        """The recording program and its version, ``"Minesweeper Arbiter 0.52.3"``."""
        v = self.video
        return f"{v.software} {v.software_version}".strip() if v.software_version else v.software

    @property
    def date(self) -> str | None:
        """The date the file gives (ISO 8601), or None.  Without a zone when the
        file names none (Arbiter and Clone write the player's local time)."""
        d = self.video.date
        return None if d is None else d.isoformat()

    def describe(self) -> str:
        """One line saying what was read: ``read an Arbiter video (.avf, Minesweeper
        Arbiter 0.52.3), player 王嘉宁, 2023-05-01, classic beginner 8x8/10, won in 9.20 s``."""
        v = self.video
        parts = [f"read {FORMAT_NAMES.get(v.format, 'a video')} (.{v.format}, {self.software})"]
        if v.player:
            parts.append(f"player {v.player}")
        if self.date is not None:
            parts.append(self.date[:10])
        state = self.game.state.value
        outcome = {"won": "won", "lost": "lost"}.get(state, "unfinished")
        level = difficulty_name(v.rows, v.cols, v.mines)
        parts.append(f"{level} {v.rows}x{v.cols}/{v.mines}, {outcome} in "
                     f"{self.play.time_ms / 1000:.2f} s")
        return ", ".join(parts)

    def record(self) -> Any:
        """The game's :class:`fastmine.records.GameRecord` (player, software, date),
        or None for a game the video leaves unfinished (only finished games are kept)."""
        from ..records.gamerecord import GameRecord, clean_name

        if not self.game.state.is_over:
            return None
        record = GameRecord.from_game(self.game, self.video.player or None, self.date)
        return replace(record, software=clean_name(self.software))


def import_video(data: bytes, name: str) -> ImportedVideo:
    """Read a video's bytes and rebuild its game.

    Parameters
    ----------
    data : bytes
        The file's bytes (read with a size cap, e.g.
        :func:`fastmine.files.storage.read_regular_file`).
    name : str
        The file's name, for messages and formats without a signature.

    Returns
    -------
    ImportedVideo

    Raises
    ------
    fastmine.VideoFormatError
        Not a video fastmine reads, or truncated, corrupt or hostile (a ValueError).
    ValueError
        A board fastmine does not play (no mine, or no safe cell).
    """
    video = read_video(data, name=name)
    play = play_video(video)
    try:
        game = rebuild(video, play)
    except ValueError as exc:
        raise ValueError(f"{name}: fastmine cannot play this video's board: {exc}") from None
    if not game.moves.shape[0]:
        raise ValueError(f"{name}: the video has no move on the board")
    try:
        replay = replace(Replay.from_game(game),
                         mouse=mouse_of_video(video, play.start_ms or 0) if len(video.events) else None,
                         mouse_unit=video.cell_size)
    except ValueError as exc:
        raise ValueError(f"{name}: no replay can be made of this video's game: {exc}") from None
    return ImportedVideo(video, play, game, replay)
