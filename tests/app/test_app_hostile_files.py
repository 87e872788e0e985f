"""The app's own files written by someone else: the board views and the tile cache
never stop a start (each case below did: a traceback at the first game, a start
held up for ever, a 149 GiB allocation)."""

from __future__ import annotations

import io
import os

import numpy as np
import pytest
from numpy.lib import format as npy

from fastmine.app.board import tiles
from fastmine.app.board.theme import LIGHT
from fastmine.app.board.viewport import ZoomMemory

GOOD_ROW = "[9, 9, false, 56.0, 4.5, 1.5, 2.5, false]"


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,                              # RecursionError
    f"[[9, 9, false, 56.0, {10**400}, 4.5, 4.5, false], {GOOD_ROW}]",   # OverflowError
    f"[[9, 9, false, {10**400}, 4.5, 4.5, 4.5, false], {GOOD_ROW}]",
    f"[[9, 9, false, 56.0, 4.5, {10**400}, 4.5, false], {GOOD_ROW}]",
    f"[[9, 9, false, 56.0, 1e999, 4.5, 4.5, false], {GOOD_ROW}]",
])
def test_board_views_that_are_not_ours_are_dropped_not_raised(tmp_path, text):
    path = tmp_path / "board_views.json"
    path.write_text(text)
    memory = ZoomMemory.load(str(path))
    if GOOD_ROW in text:
        assert memory.recall((9, 9, False, 56.0)) == (4.5, (1.5, 2.5), False)  # the good row
    else:
        assert len(memory) == 0


def _cache(tmp_path) -> str:
    return tiles._cache_path(str(tmp_path), LIGHT)


def _header(shape, descr="|u1") -> bytes:
    buf = io.BytesIO()
    npy.write_array_header_1_0(buf, {"descr": descr, "fortran_order": False, "shape": shape})
    return buf.getvalue()


@pytest.mark.parametrize("make", ["fifo", "dev zero", "folder", "huge shape", "objects",
                                  "garbage", "cut short", "other shape", "too big"])
def test_a_tile_cache_that_is_not_ours_is_drawn_again(tmp_path, make):
    path = _cache(tmp_path)
    if make == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path)                   # np.load waited on it for ever
    elif make == "dev zero":
        os.symlink("/dev/zero", path)
    elif make == "folder":
        os.mkdir(path)
    elif make == "huge shape":            # np.load asked for 149 GiB: MemoryError
        with open(path, "wb") as f:
            f.write(_header((200_000, 200_000, 4)) + b"\0" * 100)
    elif make == "objects":
        with open(path, "wb") as f:
            f.write(_header((tiles.ATLAS, tiles.ATLAS, 4), "|O") + b"\0" * 100)
    elif make == "garbage":
        with open(path, "wb") as f:
            f.write(os.urandom(5000))
    elif make == "cut short":
        with open(path, "wb") as f:
            f.write(_header((tiles.ATLAS, tiles.ATLAS, 4)) + b"\0" * 1000)
    elif make == "other shape":
        np.save(path, np.zeros((4, 4), np.uint8))
    elif make == "too big":
        with open(path, "wb") as f:
            f.write(_header((tiles.ATLAS, tiles.ATLAS, 4)) + b"\0" * (tiles._CACHE_BYTES + 1))
    assert tiles._load_cache(path) is None


def test_a_tile_cache_of_ours_reads_back(tmp_path):
    path = _cache(tmp_path)
    image = np.random.default_rng(1).integers(0, 256, (tiles.ATLAS, tiles.ATLAS, 4), np.uint8)
    tiles._save_cache(path, image)
    back = tiles._load_cache(path)
    assert back is not None and back.flags.writeable and np.array_equal(back, image)
