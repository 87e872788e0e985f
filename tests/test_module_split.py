"""Names that moved to their own modules are still where callers find them.

``fastmine.files.storage`` gathers the public names of ``folders``, ``owned``,
``writing`` and ``reading``: the app and user code import them from there.
The replay file's names moved from ``fastmine.replay.playback`` to
``fastmine.replay.fileformat`` and are still importable from the first.
"""

from __future__ import annotations

import importlib

import pytest

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
