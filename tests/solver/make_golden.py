"""Regenerate tests/data/golden_positions.json from the positions listed here.

    PYTHONPATH=src python tests/solver/make_golden.py

The answers are computed by the brute-force reference (tests/solver/prob_reference.py),
and the textbook ones were checked by hand (see each ``note``).  The test suite
checks both the engine and the reference against the file.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from prob_reference import brute_force

CHARS = {".": -1, "F": -2, "?": -3}

POSITIONS = [
    ("1-2-1", 2, ["...", "121"], "the 1s' outer cells are mines, the cell over the 2 is safe"),
    ("1-2-2-1 in a wall", 2, ["......", "012210", "000000"], "mines over the 2s only"),
    ("1-2-2-1", 2, ["....", "1221"], "mines over the 2s, the cells over the 1s are safe"),
    ("1-2-1 with an interior", 4, ["......", "......", "..121."],
     "a 1-2-1 open to the interior"),
    ("1-1 at a wall", 1, ["...", "11.", "00."], "the first 1's cells hold the mine"),
    ("50/50 pair", 1, ["..", "11"], "a pure guess"),
    ("50/50 pair with a flag", 1, ["F.", "11"], "a flag is not evidence"),
    ("50/50 pair with a question mark", 1, ["?.", "11"], "nor is a question mark"),
    ("linked 50/50", 2, ["..1..", "11111"], "two layouts: one guess settles all four cells"),
    ("two independent 50/50s", 2, ["..", "11", "11", ".."], "four layouts, two guesses"),
    ("isolated cells", 2, ["...", "...", "..."], "no numbers: every cell M/N = 2/9"),
    ("single hidden cell, mine", 1, ["1.", "11"], "the last cell is the mine"),
    ("count decides the isolated cell (1 mine)", 1, [".1.."],
     "one mine is next to the 1, so the far cell is safe"),
    ("count decides the isolated cell (2 mines)", 2, [".1.."],
     "the second mine can only be the far cell"),
    ("count decides 1 or 2 frontier mines", 2, [".1.1....."],
     "b alone + 1 of 4 interior (4 ways) vs a and c (1 way): P(b)=4/5, P(a)=P(c)=1/5, interior 1/5"),
    ("count decides 1 or 2 frontier mines (3 mines)", 3, [".1.1....."],
     "b + 2 of 4 interior (6 ways) vs a,c + 1 of 4 (4 ways): P(b)=3/5"),
    ("every unknown is a mine", 3, ["..1", ".31", "110"], "mines = unknown cells"),
    ("no mines left for the interior", 1, ["..1...", "111..."], "the interior is safe"),
    ("centre 1 of a 3x3", 1, ["...", ".1.", "..."], "8 grouped cells, 1/8 each"),
    ("centre 3 of a 5x5", 5, [".....", ".....", "..3..", ".....", "....."],
     "3 mines near the centre, 2 on the outer ring"),
    ("1-2 pattern", 3, ["....", "12..", "00.."], ""),
    ("corner 1", 1, [".1", "11", ".."], ""),
    ("dense middle", 7, ["....", ".53.", ".3..", "...."], ""),
]


def parse(rows):
    return np.array([[CHARS[ch] if ch in CHARS else int(ch) for ch in row] for row in rows])


def main():
    out = []
    for name, mines, rows, note in POSITIONS:
        view = parse(rows)
        res = brute_force(view, mines)
        assert res is not None and res[0] > 0, name
        total, probs = res
        expect = [[None if view[r, c] >= 0 else str(probs[r, c]) for c in range(view.shape[1])]
                  for r in range(view.shape[0])]
        out.append({"name": name, "mines": mines, "view": rows, "layouts": total,
                    "expect": expect, "note": note})
    path = Path(__file__).resolve().parents[1] / "data" / "golden_positions.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {len(out)} positions to {path}")


if __name__ == "__main__":
    main()
