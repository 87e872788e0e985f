"""The user's files in one place: where they live and how they are written and read.

The public names of four modules, gathered for callers that want them all (the
app, the command line, the API pages):

* :mod:`fastmine.files.folders` -- the data, settings and cache folders
  (``FASTMINE_DATA_DIR`` or the platform's folders);
* :mod:`fastmine.files.owned` -- every file fastmine keeps for the player, and
  the guard that keeps an output from replacing one;
* :mod:`fastmine.files.writing` -- atomic writes (a temporary file, then
  ``os.replace``: a crash leaves the old file or the new one, never a mix),
  leftovers of a killed write removed, a damaged file moved aside;
* :mod:`fastmine.files.reading` -- bounded reads of regular files only (never
  a FIFO that blocks, never a device without end).

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> p = atomic_write_text(d / "a.txt", "hello")
>>> read_regular_file(p, 100)
b'hello'
"""

from __future__ import annotations

# ``storage.os`` is the os module, as before these names moved out: code that
# patches ``storage.os.replace`` (a failing disk) still reaches the writes.
import os  # noqa: F401

from .folders import (
    APP_NAME,
    ENV_APP_DATA,
    ENV_DATA_DIR,
    cache_dir,
    config_dir,
    data_dir,
    existing_data_dir,
)
from .owned import (
    OWNED_FILES,
    OWNED_FOLDERS,
    RECORDS_FILE,
    SAVE_FILE,
    owned_paths,
    owner_of,
    refuse_owned,
)
from .reading import describe_kind, read_regular_file
from .writing import (
    STALE_TEMP_SECONDS,
    atomic_write_bytes,
    atomic_write_text,
    move_aside,
    remove_stale_temp_files,
)

__all__ = ["APP_NAME", "ENV_APP_DATA", "ENV_DATA_DIR", "OWNED_FILES", "OWNED_FOLDERS",
           "RECORDS_FILE", "SAVE_FILE", "STALE_TEMP_SECONDS", "atomic_write_bytes",
           "atomic_write_text", "cache_dir", "config_dir", "data_dir", "describe_kind",
           "existing_data_dir", "move_aside", "owned_paths", "owner_of", "read_regular_file",
           "refuse_owned", "remove_stale_temp_files"]
