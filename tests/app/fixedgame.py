"""A fixed beginner board for the app tests, and waiting on the app's clock.

The board is 9x9 with ten mines (so the records see a "beginner" game) and an
opening at (1, 2); no two mines touch.  Imports Kivy: import it after
``pytest.importorskip("kivy")``.
"""

from __future__ import annotations

import numpy as np

from fastmine.app.dialogs.endgame import EndDialog

MINES = [(0, 0), (0, 8), (8, 0), (8, 8), (4, 4), (0, 4), (8, 4), (4, 0), (4, 8), (2, 6)]
MASK = np.zeros((9, 9), bool)
for _r, _c in MINES:
    MASK[_r, _c] = True


def settle(drv, seconds: float) -> None:
    """Let ``seconds`` pass in a few long frames (big windows draw slowly here)."""
    n = max(2, round(seconds / 0.2))
    drv.frames(n, seconds / n)


def end_dialog(drv) -> EndDialog:
    """The end-of-game dialog, once its moment of delay (the board shown) is over."""
    settle(drv, 0.8)
    found = [w for w in drv.window.children if isinstance(w, EndDialog)]
    assert found, "no end dialog"
    return found[0]
