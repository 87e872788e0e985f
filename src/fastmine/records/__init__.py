"""The records: every finished game, best times, statistics and progress.

>>> from fastmine.records import GameRecord, RecordsStore

The public names import from here; each lives in the module that owns it:

* :mod:`fastmine.records.store` -- :class:`RecordsStore`, the SQLite database
  shared by the terminal game and the app;
* :mod:`fastmine.records.gamerecord` -- the values it keeps (:class:`GameRecord`,
  :class:`AbandonedGame`, :class:`Statistics`) and their errors;
* :mod:`fastmine.records.progress` -- the series behind the progress plots;
* :mod:`fastmine.records.schema` -- the tables, their versions and migrations;
* :mod:`fastmine.records.queries` -- the filters every query applies (a board,
  a rule, only rows of sound values);
* :mod:`fastmine.records.dbfile` -- the database as a file on disk (header,
  read-only opening, what a disk error means).
"""

from .gamerecord import (
    MAX_IMPORTED_ABANDONED,
    MAX_NAME_LENGTH,
    AbandonedGame,
    FutureSchemaError,
    GameRecord,
    RecordsError,
    Statistics,
    board_label,
    check_abandoned_counts,
    clean_name,
    now_iso,
)
from .queries import BoardKey
from .schema import APPLICATION_ID, SCHEMA_VERSION
from .store import RECORDS_FILE, RecordsStore, database_files, default_path

__all__ = [
    "APPLICATION_ID",
    "MAX_IMPORTED_ABANDONED",
    "MAX_NAME_LENGTH",
    "RECORDS_FILE",
    "SCHEMA_VERSION",
    "AbandonedGame",
    "BoardKey",
    "FutureSchemaError",
    "GameRecord",
    "RecordsError",
    "RecordsStore",
    "Statistics",
    "board_label",
    "check_abandoned_counts",
    "clean_name",
    "database_files",
    "default_path",
    "now_iso",
]
