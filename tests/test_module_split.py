"""Names that moved to their own modules are still where callers find them.

``fastmine.files.storage`` gathers the public names of ``folders``, ``owned``,
``writing`` and ``reading``: the app and user code import them from there.
The replay file's names moved from ``fastmine.replay.playback`` to
``fastmine.replay.fileformat`` and are still importable from the first.
``fastmine.Game`` builds on the state machine ``fastmine.gameplay.GamePlay``:
every member it had is still a member, and a game pickled before the split
(which names ``fastmine.game._unpickle``) still loads.
"""

from __future__ import annotations

import copy
import importlib
import pickle

import numpy as np
import pytest

import fastmine
from fastmine import Board, Game, GameState
from fastmine.files import folders, owned, reading, storage, writing
from fastmine.replay import fileformat, playback


def test_storage_gathers_the_files_modules_names_as_the_same_objects():
    homes = {}
    for module in (folders, owned, reading, writing):
        for name in module.__all__:
            assert name not in homes, f"{name} is public in two modules"
            homes[name] = module
    assert sorted(storage.__all__) == sorted(homes)
    for name, module in homes.items():
        assert getattr(storage, name) is getattr(module, name), name


def test_a_write_through_storage_fails_as_the_disk_does(tmp_path, monkeypatch):
    # storage.os is the os module, so a patched os.replace reaches the writes.
    path = tmp_path / "a.txt"
    storage.atomic_write_text(path, "old")

    def full(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(storage.os, "replace", full)
    with pytest.raises(OSError, match="No space"):
        storage.atomic_write_text(path, "new")
    assert path.read_text() == "old"


@pytest.mark.parametrize("name", ["folders", "owned", "writing", "reading", "storage"])
def test_each_files_module_has_a_docstring_and_all(name):
    module = importlib.import_module(f"fastmine.files.{name}")
    assert module.__doc__ and module.__all__


def test_playback_still_gives_the_replay_files_names():
    for name in fileformat.__all__:
        assert getattr(playback, name) is getattr(fileformat, name), name
    import fastmine.replay

    assert fastmine.replay.MAX_REPLAY_BYTES is fileformat.MAX_REPLAY_BYTES


# Game's members before the state machine moved to fastmine.gameplay.
_GAME_MEMBERS = ['__copy__', '__deepcopy__', '__init__', '__reduce__', '__repr__', 'assisting',
                 'board', 'can_take_back_loss', 'chord', 'cols', 'elapsed', 'from_board',
                 'from_dict', 'from_moves', 'mine_count', 'mines_left', 'moves', 'moves_complete',
                 'pause', 'paused', 'question_marks', 'resume', 'reveal', 'reveal_cells',
                 'revealed_count', 'rows', 'rule', 'seed', 'shape', 'state', 'stats',
                 'take_back_loss', 'to_dict', 'toggle_mark', 'view']

# pickle.dumps(g, protocol=4) by the code before the split, of
#   g = Game.from_board(Board.from_mines([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 0]]),
#                       question_marks=False)
#   g.reveal(0, 3); g.toggle_mark(0, 0)
_OLD_PICKLE = (
    b"\x80\x04\x95\x8a\x01\x00\x00\x00\x00\x00\x00\x8c\rfastmine.game\x94\x8c\t_unpickle\x94"
    b"\x93\x94h\x00\x8c\x04Game\x94\x93\x94}\x94(\x8c\x06format\x94\x8c\rfastmine-game\x94"
    b"\x8c\x07version\x94K\x01\x8c\x04rows\x94K\x03\x8c\x04cols\x94K\x04\x8c\x05mines\x94K\x02"
    b"\x8c\x04rule\x94\x8c\x04none\x94\x8c\x04seed\x94N\x8c\x0equestion_marks\x94\x89\x8c\x05"
    b"state\x94\x8c\x07playing\x94\x8c\nmine_cells\x94]\x94(K\x00K\ne\x8c\x05cells\x94\x8c\x0c"
    b"frrrhrrrhhhh\x94\x8c\x07elapsed\x94G?'U\xd4h\x00\x00\x00\x8c\x06paused\x94\x89\x8c\x08"
    b"assisted\x94\x89\x8c\x06clicks\x94}\x94(\x8c\x04left\x94K\x01\x8c\x05right\x94K\x01\x8c"
    b"\x05chord\x94K\x00u\x8c\x05moves\x94\x8c,UAAAAAAAAAAAAAAAAAAAADsAAAAAAAAAAAAAAAAAAAA=\x94"
    b"\x8c\rmoves_version\x94K\x02u\x8c\x04time\x94\x8c\tmonotonic\x94\x93\x94\x87\x94R\x94."
)


def test_game_keeps_every_member_it_had():
    missing = [name for name in _GAME_MEMBERS if not hasattr(Game, name)]
    assert missing == []
    assert issubclass(Game, fastmine.gameplay.GamePlay)
    assert Game.__module__ == "fastmine.game" and fastmine.Game is Game


def test_a_game_pickled_before_the_split_loads_and_plays_on():
    g = pickle.loads(_OLD_PICKLE)
    assert type(g) is Game
    assert g.view.tolist() == [[-2, 1, 0, 0], [-1, 2, 1, 1], [-1, -1, -1, -1]]
    assert g.state is GameState.PLAYING and not g.question_marks
    assert (g.left_clicks, g.right_clicks, g.mines_left) == (1, 1, 1)
    assert g.moves[:, :3].tolist() == [[0, 0, 3], [3, 0, 0]]
    for r, c in ((2, 0), (2, 1), (2, 3)):
        g.reveal(r, c)
    assert g.state is GameState.WON


def test_new_pickles_still_name_fastmine_game_and_round_trip():
    g = Game.from_board(Board.from_mines([[1, 0, 0], [0, 0, 1]]))
    g.reveal(0, 2)
    data = pickle.dumps(g, protocol=4)
    assert b"fastmine.game" in data and b"_unpickle" in data and b"gameplay" not in data
    for again in (pickle.loads(data), copy.copy(g), copy.deepcopy(g)):
        assert np.array_equal(again.view, g.view) and again.moves.tolist() == g.moves.tolist()
        again.reveal(0, 0)                       # a mine: only the copy is lost
        assert again.state is GameState.LOST and g.state is GameState.PLAYING
