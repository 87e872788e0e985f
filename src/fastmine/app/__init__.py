"""fastmine's Kivy app (the ``app`` extra): see ``docs/app.md``.

Start it with ``fastmine-app`` or ``python -m fastmine.app`` (:func:`main`);
``app/main.py`` in a checkout is the same launcher for buildozer.  This is the
only part of fastmine that imports Kivy, and importing this package does not:
:func:`main` checks for Kivy first and names the extra to install without it.
"""

from .launch import main

__all__ = ["main"]
