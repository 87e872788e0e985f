"""The files fastmine keeps for its user, and the ones it writes when asked.

* :mod:`fastmine.files.storage` -- the public names of the four below in one
  place: :mod:`~fastmine.files.folders` (the data folder, ``FASTMINE_DATA_DIR``
  or the platform's user data folder, and the settings and cache folders),
  :mod:`~fastmine.files.owned` (what fastmine owns there, kept from outputs),
  :mod:`~fastmine.files.writing` (atomic replacement, a damaged file moved
  aside instead of overwritten) and :mod:`~fastmine.files.reading` (bounded
  reads of regular files);
* :mod:`fastmine.files.savedgame` -- the one saved game in progress
  (``saved-game.json``), shared by the terminal game and the app;
* :mod:`fastmine.files.outputs` -- the output files the command line writes on
  request (``--json``), checked before a run starts, and the app's settings file;
* :mod:`fastmine.files.figures` -- the plots (``--plot``): only the command line
  reaches matplotlib.

The records database has its own package, :mod:`fastmine.records`.
"""
