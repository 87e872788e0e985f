"""``python -m fastmine`` is the ``fastmine`` command."""

import sys

from .cli import main

sys.exit(main())
