"""The app stores a replay with every finished game it records (through fastmine.records)."""

from __future__ import annotations

import numpy as np

import fastmine
from fastmine.records import RecordsStore


def test_the_apps_store_keeps_the_replay(tmp_path):
    from fastmine.app.playerdata import PlayerData

    g = fastmine.Game(9, 9, 10, seed=4)
    g.reveal(4, 4)
    while not g.state.is_over:
        g.reveal(*(int(v) for v in np.argwhere(g.view == fastmine.HIDDEN)[0]))
    record_id = PlayerData(str(tmp_path)).record_game(g)
    with RecordsStore(data_dir=tmp_path) as s:
        replay = s.replay(record_id)
    assert replay is not None and np.array_equal(replay.play().view, g.view)
