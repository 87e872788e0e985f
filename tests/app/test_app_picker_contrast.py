"""The file chooser's Open button reads before a file is chosen, in every theme.

Disabled, it kept the accent colour and took the dim words of a disabled
button: dim grey on blue, a contrast of 1.0 to 1.35 (barely visible).  A
disabled button is now a plain one with dim words (4.9:1 or more).  Checked on
the pixels drawn at the 360-dp phone, in each theme.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("kivy")

from profiles import box, start_app  # noqa: E402
from test_app_more_themes import contrast  # noqa: E402

from fastmine.app.board.theme import THEMES  # noqa: E402


@pytest.mark.parametrize("name", sorted(THEMES))
def test_the_disabled_open_button_reads_in_every_theme(make_app, data_dir, screenshot_dir, name):
    from fastmine.app.dialogs.filepicker import open_picker

    drv = start_app(make_app, data_dir, "phone_360", theme=name, animations=0)
    picker = open_picker(drv.app, "Import", ["*.avf"], lambda _p: None, start=str(data_dir))
    drv.frames(4)
    button = picker.open_button
    assert button.disabled and not picker.chosen
    _path, px = drv.screenshot(screenshot_dir, f"picker-open-disabled-{name}")
    x0, y0, x1, y1 = (int(round(v)) for v in box(button))
    region = px[y0 + 3:y1 - 3, x0 + 3:x1 - 3].reshape(-1, 3).astype(int)
    colours, counts = np.unique(region, axis=0, return_counts=True)
    bg = colours[counts.argmax()]
    # the words: the drawn pixel farthest from the background (its glyphs' core)
    words = region[np.abs(region - bg).sum(axis=1).argmax()]
    ratio = contrast(words / 255, bg / 255)
    assert ratio >= 4.5, f"{name}: Open's words at {ratio:.2f}:1 on its background"
    theme = drv.app.theme
    assert contrast(theme.text_dim, theme.button) >= 4.5   # the colours it is drawn in
    picker.dismiss()
