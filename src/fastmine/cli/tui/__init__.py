"""The terminal front ends of ``fastmine play``.

* :mod:`.session` - the game, its options, assists, records and saves (no I/O);
* :mod:`.text` - glyphs and the text board shared by both modes;
* :mod:`.plain` - ``--plain``: the prompt-driven, scriptable mode;
* :mod:`.layout`, :mod:`.draw`, :mod:`.keys`, :mod:`.loop` - the curses game:
  where things go on the screen, drawing them, what keys and clicks mean, and
  the event loop.

The ``fastmine play`` command itself is :mod:`fastmine.cli.play`.
"""
