"""Replays: a game's board and moves, played back exactly, and the coach's marks on them.

>>> from fastmine.replay import Replay

* :mod:`fastmine.replay.playback` -- :class:`Replay` (record, save, load, play
  back) and :class:`Seeker` (step through one move at a time); both import
  from here;
* :mod:`fastmine.replay.fileformat` -- the replay file: its format, its limits
  (:data:`MAX_REPLAY_BYTES`, :data:`MAX_REPLAY_MOVES`), reading and writing it;
* :mod:`fastmine.replay.verdicts` -- the coach's verdict on each move of a
  replay, and the ``--verdicts`` JSON document.
"""

from ..movelog import KIND_NAMES
from .fileformat import MAX_REPLAY_BYTES, MAX_REPLAY_MOVES, REPLAY_FORMAT, REPLAY_VERSION
from .playback import Replay, Seeker

__all__ = ["KIND_NAMES", "MAX_REPLAY_BYTES", "MAX_REPLAY_MOVES", "REPLAY_FORMAT", "REPLAY_VERSION",
           "Replay", "Seeker"]
