"""The app's own writers never replace one of fastmine's files through a link.

The board views (``board_views.json``), the tile cache and the settings are
written atomically through a link to the link's target: a link left there to
a records database, a saved game or a replay replaced it.  Each now leaves
such a file byte for byte (:func:`fastmine.files.writing.atomic_write_bytes`
refuses a file of another kind; the cache and the views only lose their write).
"""

from __future__ import annotations

import numpy as np

import fastmine
from fastmine.files import savedgame
from fastmine.records import RecordsStore


def _fastmine_files(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    game = fastmine.Game(9, 9, 10, seed=1)
    game.reveal(4, 4)
    savedgame.save_game(game, path=folder / "saved-game.json")
    while not game.state.is_over:
        r, c = (int(v) for v in np.argwhere(game.view == fastmine.HIDDEN)[0])
        game.reveal(r, c)
    with RecordsStore(data_dir=folder) as store:
        store.record_game(game)
    return [folder / "records.sqlite3", folder / "saved-game.json"]


def test_board_views_tiles_and_settings_keep_fastmines_files(tmp_path):
    from fastmine.app.board import tiles
    from fastmine.app.board.viewport import ZoomMemory
    from fastmine.app.services.appfiles import SettingsConfig

    targets = _fastmine_files(tmp_path)
    before = {p: p.read_bytes() for p in targets}
    for i, target in enumerate(targets):
        views, tile, ini = (tmp_path / f"{name}-{i}" for name in
                            ("board_views.json", "atlas.npy", "fastmine.ini"))
        for link in (views, tile, ini):
            link.symlink_to(target)
        memory = ZoomMemory()
        memory.remember((9, 9, False, 56.0), 60.0, (1.0, 2.0), False)
        memory.save(str(views))
        tiles._save_cache(str(tile), np.zeros((2, 2, 4), np.uint8))
        config = SettingsConfig()
        config.setdefaults("game", {"first_click": "opening"})
        config.filename = str(ini)
        assert config.write() is False and config.write_error is not None
    assert {p: p.read_bytes() for p in targets} == before
