"""Run a program that dies with the process that started it, the way
``fastmine solve -j`` ties its workers to the run (``die_with_parent``)::

    python parent_death.py PARENT_PID PROGRAM [ARGS...]

The parent-death signal outlives ``exec``, so PROGRAM (a ``dask scheduler``)
is killed by the kernel when the tests' process dies, even by ``kill -9``,
instead of running on with nobody to stop it.  Where there is no such signal
(not Linux) PROGRAM just runs.
"""

from __future__ import annotations

import os
import sys

from fastmine.solver.workers import die_with_parent


def main(argv: list[str]) -> None:
    """Tie this process to its parent, then become ``argv[1:]``."""
    die_with_parent()
    # The parent may have died before the line above: then nobody would kill us.
    if os.getppid() != int(argv[0]):
        os._exit(1)
    os.execvp(argv[1], argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
