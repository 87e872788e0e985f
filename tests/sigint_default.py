"""Start a child process with SIGINT at its default, as a terminal starts a program.

A process inherits an ignored SIGINT (a background job of a non-interactive
shell: ``pytest ... &`` in a script), and Python then never raises
KeyboardInterrupt: a test that sends Ctrl-C to its child would wait for
nothing.  Put :data:`SIGINT_DEFAULT` before the child's command line: a tiny
Python resets SIGINT to its default and execs the command (same process id).
"""

from __future__ import annotations

import sys

SIGINT_DEFAULT = [sys.executable, "-c",
                  "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                  "os.execv(sys.argv[1], sys.argv[1:])"]
"""A command-line prefix: ``[*SIGINT_DEFAULT, sys.executable, "-m", "fastmine", ...]``."""
