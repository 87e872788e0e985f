"""A slow, plain reference of the long-term 50/50 risk (fastmine.solver.fifty).

The shapes are found cell by cell and each counted through
:meth:`FiftyRisk.layouts_with` (itself checked against brute force), in the
order fifty.py documents: the kernel (_fifty) must give the same pseudo
50/50, the same enabler shares and the same factors.
"""

from __future__ import annotations

import numpy as np

from fastmine.solver.fifty import WEIGHT, FiftyRisk


class ReferenceRisk:
    def __init__(self, risk: FiftyRisk) -> None:
        self.risk = risk            # only its layouts_with (exact counts) is used
        self.view, self.a = risk.view, risk.a
        self.rows, self.cols = self.view.shape
        self.left = risk.mines - int(np.count_nonzero(self.a.mine))
        self.enablers: dict = {}

    def _on(self, r, c):
        return 0 <= r < self.rows and 0 <= c < self.cols

    def _hidden(self, r, c):
        return self._on(r, c) and self.view[r, c] < 0 and not self.a.mine[r, c]

    def _missing(self, cells):
        """The hidden end cells, or None when one is revealed."""
        out = []
        for r, c in cells:
            if not self._on(r, c) or self.a.mine[r, c]:
                continue
            if self.view[r, c] >= 0:
                return None
            out.append((r, c))
        return out

    def pair(self, r, c, dr, dc, most):
        r2, c2 = r + dr, c + dc
        if not (self._hidden(r, c) and self._hidden(r2, c2)):
            return None
        if dc:
            ends = [(r + k, c - 1) for k in (-1, 0, 1)] + [(r + k, c + 2) for k in (-1, 0, 1)]
        else:
            ends = [(r - 1, c + k) for k in (-1, 0, 1)] + [(r + 2, c + k) for k in (-1, 0, 1)]
        missing = self._missing(ends)
        if missing is None or len(missing) + 1 > min(most, self.left):
            return None
        return (self.risk.layouts_with(missing + [(r, c)], [(r2, c2)]), missing,
                [(r, c), (r2, c2)])

    def box(self, r, c, most):
        cells = [(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)]
        if not all(self._hidden(*x) for x in cells):
            return None
        missing = self._missing([(r - 1, c - 1), (r - 1, c + 2), (r + 2, c - 1), (r + 2, c + 2)])
        if missing is None or len(missing) + 2 > min(most, self.left):
            return None
        return (self.risk.layouts_with(missing + [(r, c), (r + 1, c + 1)],
                                       [(r + 1, c), (r, c + 1)]), missing, cells)

    def pseudo(self):
        probs = self.a.probabilities
        shapes = (lambda r, c: self.pair(r, c, 0, 1, 2), lambda r, c: self.pair(r, c, 1, 0, 2),
                  lambda r, c: self.box(r, c, 2))
        for shape in shapes:
            for r in range(self.rows):
                for c in range(self.cols):
                    found = shape(r, c)
                    if found is None:
                        continue
                    share, missing, cells = found
                    for m in missing:
                        self.enablers[m] = self.enablers.get(m, 0.0) + share
                    for x in cells:
                        p = float(probs[x])
                        if share > 0.0 and abs(share - p) <= 1e-9 * p:
                            return x
        return None

    def factor(self, r, c):
        share = 0.0
        for rr, cc, dr, dc in ((r, c, 0, 1), (r, c - 1, 0, 1), (r, c, 1, 0), (r - 1, c, 1, 0)):
            found = self.pair(rr, cc, dr, dc, 4)
            if found is not None:
                share += found[0]
        block = 0.0
        for rr, cc in ((r, c), (r, c - 1), (r - 1, c), (r - 1, c - 1)):
            found = self.box(rr, cc, 5)
            if found is not None:
                block = max(block, found[0])
        share += block + self.enablers.get((r, c), 0.0)
        p = float(self.a.probabilities[r, c])
        share = min(share, p, 1.0 - p)
        if share <= 0.0:
            return 1.0
        return 1.0 + share / (1.0 - p) * WEIGHT

    def near(self, r, c):
        """Some shape with (r, c) in it may close (the factor's test)."""
        pairs = any(self.pair(rr, cc, dr, dc, 4) is not None for rr, cc, dr, dc in
                    ((r, c, 0, 1), (r, c - 1, 0, 1), (r, c, 1, 0), (r - 1, c, 1, 0)))
        return pairs or any(self.box(rr, cc, 5) is not None for rr, cc in
                            ((r, c), (r, c - 1), (r - 1, c), (r - 1, c - 1)))
