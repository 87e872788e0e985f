"""The Kivy providers the app asks for: its image loaders are SDL2's, not every image
library Kivy knows (PIL's import alone cost each start 30-40 ms of CPU), and what the
app and its screenshots need still loads and saves through them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

PROBE = r"""
import json, sys
import fastmine.app.application  # imports Kivy through the app, as a start does
from kivy.core.image import Image as CoreImage
from kivy.graphics.texture import Texture
from kivy.uix.button import Button

# Kivy's own theme atlas (a PNG, the buttons' backgrounds) loads
button = Button()
theme_loaded = button.background_normal.startswith("atlas://") and CoreImage(
    button.background_normal).texture is not None
# and a picture of a texture saves as PNG (the screenshots)
tex = Texture.create(size=(2, 2))
tex.blit_buffer(bytes(range(16)), colorfmt="rgba", bufferfmt="ubyte")
CoreImage(tex).save(sys.argv[1], flipped=False)
print(json.dumps({"pil": any(m == "PIL" or m.startswith("PIL.") for m in sys.modules),
                  "theme": theme_loaded}), file=sys.__stdout__)
"""


def _child_env(**extra: str) -> dict[str, str]:
    env = os.environ.copy()  # conftest's headless Kivy settings
    env.pop("FASTMINE_APP_DATA", None)
    env.pop("KIVY_IMAGE", None)
    env.update(extra)
    return env


def _probe(tmp_path, **extra: str) -> dict:
    png = tmp_path / "shot.png"
    out = subprocess.run([sys.executable, "-c", PROBE, str(png)], capture_output=True, text=True,
                         timeout=180, env=_child_env(**extra), cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_app_loads_images_through_sdl2_only(kivy_window, tmp_path):
    got = _probe(tmp_path)
    assert got == {"pil": False, "theme": True}


def test_a_players_own_kivy_image_setting_wins(kivy_window, tmp_path):
    """KIVY_IMAGE set by the player (or a packager) is kept, not replaced."""
    got = _probe(tmp_path, KIVY_IMAGE="pil,sdl2")
    assert got == {"pil": True, "theme": True}


BLAS = r"""
import json, os, sys
import fastmine.app.launch  # as a start does, before anything imports numpy
import numpy
print(json.dumps({"threads": os.environ.get("OPENBLAS_NUM_THREADS")}), file=sys.__stdout__)
"""


def _blas(tmp_path, **extra: str) -> str | None:
    env = _child_env(**extra)
    if "OPENBLAS_NUM_THREADS" not in extra:
        env.pop("OPENBLAS_NUM_THREADS", None)
    out = subprocess.run([sys.executable, "-c", BLAS], capture_output=True, text=True,
                         timeout=180, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])["threads"]


def test_the_app_starts_no_blas_thread_and_keeps_a_players_setting(tmp_path):
    """The app multiplies no matrix: OpenBLAS is told to start no thread of its own
    (on two cores its threads cost a start 0.1 s of CPU), unless the player said."""
    assert _blas(tmp_path) == "1"
    assert _blas(tmp_path, OPENBLAS_NUM_THREADS="4") == "4"
