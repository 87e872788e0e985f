"""The files fastmine keeps for its user, and the ones it writes when asked.

* :mod:`fastmine.files.storage` -- the data folder (``FASTMINE_DATA_DIR`` or
  the platform's user data folder) and safe file writing: atomic replacement,
  bounded reads, a damaged file moved aside instead of overwritten;
* :mod:`fastmine.files.savedgame` -- the one saved game in progress
  (``saved-game.json``), shared by the terminal game and the app;
* :mod:`fastmine.files.outputs` -- the output files the command line writes on
  request (``--json``, ``--plot``), checked before a run starts.

The records database has its own package, :mod:`fastmine.records`.
"""
