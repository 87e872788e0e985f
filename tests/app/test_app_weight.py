"""The app's weight: what a start loads and allocates, checked by structure, not by timing.

Measured at the phone profile (docs/app.md, "Weight"): multisampling doubled the
window's buffers, Kivy's mipmapped texture ran ``glGenerateMipmap`` over an empty
atlas at every start, and importing ``fastmine`` read the package metadata.  Each
test here fails if one of those comes back; none asserts a time or a size.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

HEAVY = ("matplotlib", "scipy", "pandas", "dask", "babel", "importlib.metadata",
         "fastmine.solver.strategies", "fastmine.solver.probability", "fastmine.cli", "fastmine.env",
         "kivy.core.clipboard")
"""Modules the app's first frame never needs: plots, the solver's search (imported
for the first hint), the terminal game, the Gymnasium environment, Babel (loaded
by the first number formatted in a language other than English), Kivy's clipboard
(its import tries xclip and xsel in subprocesses; the app needs it to copy a game
code)."""

IMPORT_PROBE = """
import json, sys
import fastmine.app.application
heavy = json.loads(sys.argv[1])
print(json.dumps(sorted(m for m in sys.modules if m in heavy or m.split(".")[0] in heavy)),
      file=sys.__stdout__)
"""


def _child_env() -> dict[str, str]:
    env = os.environ.copy()  # conftest's headless Kivy settings
    env.pop("FASTMINE_APP_DATA", None)
    return env


def test_importing_the_app_leaves_plots_the_solver_search_and_the_cli_out(kivy_window, tmp_path):
    out = subprocess.run([sys.executable, "-c", IMPORT_PROBE, json.dumps(HEAVY)], capture_output=True,
                         text=True, timeout=180, env=_child_env(), cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_the_bench_reports_peak_memory_and_a_window_without_multisampling(kivy_window, tmp_path):
    """``--bench`` runs the real launcher: its window has 0 samples per pixel (Kivy's
    default asks for 2, which llvmpipe gives as 4: the window's buffers over again),
    and the JSON carries the peak memory at the first frame and after the games."""
    env = _child_env()
    env["FASTMINE_BENCH_PROFILE"] = "desktop"
    out = subprocess.run([sys.executable, "-m", "fastmine.app", "--bench", "--bench-reveals", "2",
                          "--size", "320x480", "--data-dir", str(tmp_path / "data")],
                         capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["gl_samples"] == 0
    if sys.platform.startswith("linux"):
        assert 0 < got["peak_rss_mb_first_frame"] <= got["peak_rss_mb"]
    assert got["process_cpu_to_first_frame_s"] > 0


def test_the_atlas_texture_is_mipmapped_without_kivys_generated_levels(kivy_window):
    """Kivy's ``mipmap=True`` allocates by uploading zeros and running
    ``glGenerateMipmap`` (0.15 s of CPU with software OpenGL); the atlas gives
    every level itself and still samples them (the drawn-level test in
    test_app_doctests.py checks what they show)."""
    from fastmine.app.board import theme, tiles

    image = tiles.Atlas.for_theme(theme.LIGHT).image
    tex = tiles.make_texture(image)
    assert not tex.mipmap
    assert tex.min_filter == "linear_mipmap_linear"
    assert tex.size == (tiles.ATLAS, tiles.ATLAS)
    # the levels it uploads go down to 1x1: a texture missing one would not be complete
    assert [lv.shape[:2] for lv in tiles.mipmap_levels(image[::-1])] == \
        [(tiles.ATLAS >> k, tiles.ATLAS >> k) for k in range(11)]


def test_the_atlas_keeps_no_pixels_and_uploads_them_again_after_a_lost_context(kivy_window, tmp_path):
    """Only the texture holds the atlas (4 MB less); when the OpenGL context is
    lost (Android, on resume) the texture is filled again from the tile cache,
    with its mipmap levels."""
    from kivy.graphics.context import get_context
    from kivydriver import drawn_small

    from fastmine.app.board import theme, tiles

    path = str(tmp_path / "atlas.npy")
    # an image no drawing makes: the upload after the lost context must read the cache
    image = np.random.default_rng(7).integers(0, 256, (tiles.ATLAS, tiles.ATLAS, 4), np.uint8)
    image[..., 3] = 255
    tiles._save_cache(path, image)
    atlas = tiles.Atlas(theme.DARK, image=image.copy(), cache_path=path)
    assert not [k for k, v in vars(atlas).items() if isinstance(v, np.ndarray) and v.nbytes >= image.nbytes]
    assert np.array_equal(atlas.image, image)

    side = tiles.ATLAS // 16
    want = tiles.mipmap_levels(np.ascontiguousarray(image[::-1]))[4][..., :3].astype(int)
    assert np.abs(drawn_small(atlas.texture, side)[..., :3] - want).max() <= 2
    old_id = atlas.texture.id
    get_context().reload()  # what Kivy does when the context comes back
    assert atlas.texture.id != old_id
    assert np.abs(drawn_small(atlas.texture, side)[..., :3] - want).max() <= 2


def test_the_board_mesh_indexes_its_cells_with_an_array_not_a_list(drv):
    """The mesh's indices are Kivy's unsigned shorts used in place (a 50x50 board
    once kept a list of 15,000 Python ints beside them), two triangles per cell."""
    from fastmine import Difficulty

    drv.app.start_game(Difficulty(50, 50, 500))
    drv.frames(2)
    indices = drv.board.mesh.indices
    assert isinstance(indices, np.ndarray) and indices.dtype == np.uint16
    cells = 50 * 50
    want = (np.arange(cells)[:, None] * 4 + np.array([0, 1, 2, 2, 3, 0])).ravel()
    assert np.array_equal(indices, want)


def test_making_the_sounds_does_not_load_numpy_random(tmp_path):
    """The first start writes the sound effects; their noise comes from the standard
    library, so numpy.random (2 MB of extension modules the app needs for nothing
    else) stays out of the process."""
    code = ("import json, sys\nfrom fastmine.app.services import sounds\n"
            "paths = sounds.write_sounds(sys.argv[1])\n"
            "print(json.dumps({'random': 'numpy.random' in sys.modules, 'files': sorted(paths)}))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "sounds")], capture_output=True,
                         text=True, timeout=120, env=_child_env(), cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {"random": False, "files": sorted(["reveal", "flag", "explode", "win"])}


def test_a_later_start_uploads_the_kept_mipmap_levels_and_makes_none(kivy_window, tmp_path, monkeypatch):
    """The tile cache keeps every mipmap level as uploaded: a later start reads
    and uploads them (making them took 16 ms of each start), and draws the same
    pixels as the atlas it was made from."""
    from kivydriver import drawn_small

    from fastmine.app.board import theme, tiles

    image = np.random.default_rng(3).integers(0, 256, (tiles.ATLAS, tiles.ATLAS, 4), np.uint8)
    image[..., 3] = 255
    want = tiles.mipmap_levels(np.ascontiguousarray(image[::-1]))
    path = tiles._cache_path(str(tmp_path), theme.SEPIA)
    tiles._save_cache(path, image)

    def made(_image):
        raise AssertionError("a mipmap level made at a later start")

    monkeypatch.setattr(tiles, "mipmap_levels", made)
    monkeypatch.setattr(tiles, "draw_atlas", made)
    monkeypatch.setattr(tiles.Atlas, "_cache", {})
    atlas = tiles.Atlas.for_theme(theme.SEPIA, cache_dir=str(tmp_path))
    assert [lv.shape for lv in tiles._load_levels(path)] == [lv.shape for lv in want]
    assert all(np.array_equal(a, b) for a, b in zip(tiles._load_levels(path), want, strict=True))
    side = tiles.ATLAS // 16
    assert np.abs(drawn_small(atlas.texture, side)[..., :3] - want[4][..., :3].astype(int)).max() <= 2
