"""Videos of the competitive clients: read them, and turn their mouse events into moves.

The community records games in four formats, and this package reads all of
them into one :class:`Video`:

========  =====================================  ==================================
format    recorded by                            versions read
========  =====================================  ==================================
``.avf``  Minesweeper Arbiter                    0.35 to 0.52.3
``.rmv``  Viennasweeper (Vienna Minesweeper)     RMV 1 (Vienna up to 4.x), RMV 2 (5.x)
``.mvf``  Minesweeper Clone                      0.75 beta to 0.96, 0.97 beta (and its
                                                 two hacked builds), 2006, 2007
``.evf``  Metasweeper                            EVF 0 to 4 (Metasweeper 3.x)
========  =====================================  ==================================

For example, with one of the test videos (tests/data/videos in the source tree)::

    from fastmine.videos import read_video, play_video

    video = read_video("arbiter_beg_gbk_name.avf")
    video.software, video.software_version, video.player, video.level
    # ('Minesweeper Arbiter', '0.52.3', '王嘉宁', 'beginner')
    video.rows, video.cols, video.mines, len(video.events)
    # (8, 8, 10, 678)
    play = play_video(video)
    play.outcome, play.time_ms, play.left, play.right, play.double, play.bbbv_solved
    # ('won', 9200, 10, 3, 8, 22)
    play.moves[0]
    # Move(time_ms=0, button='left', action='reveal', row=0, col=0, changed=True, event=1)

Reading
-------
:func:`read_video` takes a path, bytes or a binary file; the format is told
from the content (then the extension).  A file it cannot read raises
:class:`VideoFormatError` (a ``ValueError``) naming the file, what is wrong
and where, and nothing else: truncations, lies about sizes and counts, codes
no client writes, names not in their format's encoding.  Every count is
checked against what a real game can hold before anything is allocated:
files over :data:`~fastmine.videos.model.MAX_FILE_BYTES`, boards past
fastmine's limits, more events than a mouse makes in the time they span
(:data:`~fastmine.videos.model.MAX_EVENT_RATE`), and records that would cost
more memory to decode than a reader allocates
(:data:`~fastmine.videos.binread.MAX_READ_BYTES`, 256 MiB, checked before
decoding).  The four readers share one reader of binary fields and records
(:mod:`fastmine.videos.binread`), so a check or a cap is written once for all.

A :class:`Video` holds the board (``mine_layout``, a read-only bool array),
the level as the client names it (8x8 with 10 mines is Beginner), the
player's name decoded in the format's encoding (GBK or cp1252 for the old
clients, guessed from the bytes; UTF-8 where the format says so), the
software and version, the date, the values the file states
(``stated_time_ms``, ``stated_bbbv``, ``stated_outcome``: the file's word,
not always right -- Arbiter once stated 2.61 s for a 14.52 s game) and the
:class:`Events`: one array entry per mouse event with ``time_ms`` (integer
milliseconds on the video's clock), ``kind`` (an :class:`EventKind`), ``x``,
``y`` (pixels from the board's corner, ``cell_size`` a cell) and the ``row``,
``col`` under the pointer (-1, -1 off the board).  RMV files also record what
each click showed on the board: :func:`fastmine.videos.rmv.read_rmv_board_events`.

Moves
-----
:func:`play_video` plays the events by the clients' rules
(:class:`~fastmine.videos.clientrules.ClientBoard`, ms-toollib's mouse
state machine: reveal on left release, flag on right press, chord on the
first release with both buttons down or on the middle release, a chord on a
revealed 0 opens the hidden neighbours a removed flag left) and returns a
:class:`VideoPlay`: every counted click as a :class:`Move` (``time_ms``,
``button`` left/right/double, ``action`` reveal/flag/unflag/question/
unmark/mark/chord, ``row``, ``col``, ``changed``, ``event``), the outcome,
``start_ms`` (the first reveal), ``end_ms`` (the win or the loss),
``time_ms``, the click counts as the clients count them (``left``,
``right``, ``double``; Clone counts a chord's right press, the others not),
the effective clicks (``left_effective``...; ms-toollib's "ce"),
``bbbv_solved`` and the final board in fastmine's view codes.

For the features built on these (metrics, ``fastmine analyze``,
``replay --import``, the app):

- the game's time is ``play.time_ms``; a move's game time is
  ``move.time_ms - play.start_ms`` (moves before ``start_ms`` are flags laid
  before the first reveal);
- to rebuild the game in fastmine's engine, start from
  ``fastmine.Board.from_mines(video.mine_layout)`` (the board as played: the
  clients moved no mine at the first click) and apply the moves with
  ``changed`` set: ``reveal`` -> ``Game.reveal``, ``flag``/``unflag``/
  ``question``/``unmark`` -> ``Game.toggle_mark`` (question marks on as
  ``video.question_marks``), ``chord`` -> ``Game.chord``.  Clicks with
  ``changed`` False change nothing but count; ``row == -1`` is off the board.
  fastmine's chord opens a revealed 0's hidden neighbours as the clients'
  does, so every test video is rebuilt move for move
  (:mod:`fastmine.videos.rebuild` does it with the moves' times);
- the mouse path is in ``video.events``; ms-toollib measures it in 16-pixel
  cells (distance in pixels x 16 / ``cell_size``) from the first reveal on,
  leaving out points off the board;
- a board with 0 mines, or every cell a mine, is a valid video but not a
  fastmine ``Board``.

The readers were checked against ms-toollib (the community's reference
library) on every real video it reads, event by event, and the Clone releases
it cannot read against rawvf; see the tests.
"""

from ..errors import VideoFormatError
from .clientrules import ClientBoard
from .model import EVENT_CODES, EventKind, Events, Video
from .moves import Move, VideoPlay, play_video
from .reading import FORMATS, read_video, sniff_format

__all__ = ["EVENT_CODES", "FORMATS", "ClientBoard", "EventKind", "Events", "Move", "Video",
           "VideoFormatError", "VideoPlay", "play_video", "read_video", "sniff_format"]
