"""The Clone releases ms-toollib cannot read (2006, 2007, 0.96), against rawvf's reading.

tests/data/videos/rawvf holds what rawvf's ``parser_mvf.c`` prints for them (see
the README there): the board as ``*``/``0`` rows, the time, the player, and every
event as ``seconds.ms code col row (x y)``.
"""

from __future__ import annotations

import gzip

import numpy as np
import pytest
from video_files import DATA, RAWVF, path

from fastmine.videos import read_video
from fastmine.videos.model import EVENT_CODES


def _rawvf(name: str) -> tuple[dict[str, str], list[str], list[tuple[int, str, int, int]]]:
    raw = gzip.decompress((DATA / "rawvf" / name.replace(".mvf", ".rawvf.gz")).read_bytes())
    head, events = raw.decode("latin-1").split("Events:\n")
    fields = dict(line.split(": ", 1) for line in head.splitlines() if ": " in line)
    board = head.split("Board:\n")[1].split()
    out = []
    for line in events.splitlines():
        parts = line.split()
        if parts[1] == "start":
            continue
        out.append((round(float(parts[0]) * 1000), parts[1], int(parts[4][1:]),
                    int(parts[5][:-1])))
    return fields, board, out


@pytest.mark.parametrize("name", RAWVF)
def test_clone_against_rawvf(name: str) -> None:
    fields, board, events = _rawvf(name)
    v = read_video(path(name))
    assert [''.join("*" if m else "0" for m in row) for row in v.mine_layout] == board
    assert v.software_version == fields["Version"]
    assert v.stated_time_ms == round(float(fields["Time"]) * 1000)
    # rawvf prints the name's bytes as they are (cp1252 here).
    assert v.player == fields["Player"].encode("latin-1").decode("cp1252").rstrip()
    ours = [(int(t), EVENT_CODES[k], int(x), int(y)) for t, k, x, y in
            zip(v.events.time_ms, v.events.kind, v.events.x, v.events.y, strict=True)]
    assert ours == events
    assert np.diff(v.events.time_ms).min() >= 0
