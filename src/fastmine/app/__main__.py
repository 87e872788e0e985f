"""``python -m fastmine.app``: start the app (see :func:`fastmine.app.main`)."""

import sys

from .launch import main

if __name__ == "__main__":
    sys.exit(main(prog="python -m fastmine.app"))
