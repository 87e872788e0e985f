"""A player's second look at the replay player, the end dialog, the Progress
screen, the live coach and read-only records: each test here failed before
its fix.  Real app, real rendering, real touches, time on the fake clock."""

from __future__ import annotations

import os
import shutil
import subprocess

import numpy as np
import pytest

pytest.importorskip("kivy")

from fastmine_app.dialogs import EndDialog  # noqa: E402
from profiles import Profile, start_app  # noqa: E402

import fastmine  # noqa: E402
from fastmine import HIDDEN, coach  # noqa: E402
from fastmine.records import GameRecord, RecordsStore  # noqa: E402
from fastmine.replay import Replay  # noqa: E402

PHONE_393_LARGE = Profile("phone_393_font13", (1080, 2340), 2.75, 1.3)
"""The 393-dp phone with large text."""

MINES = [(0, 0), (0, 8), (8, 0), (8, 8), (4, 4), (0, 4), (8, 4), (4, 0), (4, 8), (2, 6)]
MASK = np.zeros((9, 9), bool)
for _r, _c in MINES:
    MASK[_r, _c] = True


def settle(drv, seconds: float) -> None:
    """Let ``seconds`` pass in a few long frames (big windows draw slowly here)."""
    n = max(2, round(seconds / 0.2))
    drv.frames(n, seconds / n)


def end_dialog(drv) -> EndDialog:
    settle(drv, 0.8)
    found = [w for w in drv.window.children if isinstance(w, EndDialog)]
    assert found, "no end dialog"
    return found[0]


def lose(drv) -> EndDialog:
    """An opening, then the least likely mine (a real risk)."""
    game = drv.attach_board(MASK)
    drv.board.fit()
    drv.tap_cell(1, 2)
    drv.frames(1, 2.0)
    hidden = [(int(r), int(c)) for r, c in np.argwhere((game.view == HIDDEN) & MASK)]
    drv.tap_cell(*min(hidden, key=lambda rc: coach.judge(game, "reveal", *rc).risk))
    assert game.state.value == "lost"
    return end_dialog(drv)


def win(drv) -> EndDialog:
    game = drv.attach_board(MASK)
    drv.board.fit()
    for r, c in np.argwhere(~MASK):
        if game.view[r, c] == HIDDEN:
            drv.ctrl.reveal(int(r), int(c))
    assert game.state.value == "won"
    return end_dialog(drv)


def expert_replay(moves: int = 12, seed: int = 4) -> Replay:
    """An Expert game of safe reveals a second apart (not finished)."""
    now = [0.0]
    g = fastmine.Game(16, 30, 99, seed=seed, clock=lambda: now[0])
    g.reveal(8, 15)
    rng = np.random.default_rng(seed)
    while len(Replay.from_game(g)) < moves:
        now[0] += 1.0
        hidden = np.argwhere((g.view == HIDDEN) & ~g.board.mines)
        g.reveal(*(int(v) for v in hidden[rng.integers(len(hidden))]))
    return Replay.from_game(g)


# ------------------------------------------------------------------ the end dialog


def test_end_dialog_values_get_the_width_they_need(make_app, data_dir):
    # "63 of 71 safe cells (89%)" wrapped onto two lines on a 393-dp phone with
    # large text, beside a label column ("Cleared") half empty
    drv = start_app(make_app, data_dir, PHONE_393_LARGE)
    d = lose(drv)
    grid = d.ids.lines
    cells = list(reversed(grid.children))  # label, value, label, value...
    pairs = list(zip(cells[::2], cells[1::2], strict=True))
    one_line = cells[0].texture_size[1]  # "Time": one line
    for key, value in pairs:
        assert value.texture_size[1] == pytest.approx(one_line, abs=1), value.text
        assert key.right <= value.x + 1  # side by side, no overlap
        assert value.right <= grid.right + 1
    cleared = next(v for k, v in pairs if k.text == "Cleared")
    assert "safe cells" in cleared.text


# ------------------------------------------------------------------ read-only records


def _run(*argv: str) -> None:
    if os.name != "posix" or os.geteuid() != 0:
        pytest.skip(f"{argv[0]} as used here needs root")
    if shutil.which(argv[0]) is None:
        pytest.skip(f"no {argv[0]} command")
    r = subprocess.run(list(argv), capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        pytest.skip(f"cannot {' '.join(argv)} here: {r.stderr.strip()}")


@pytest.fixture
def disk(tmp_path):
    """A fresh tmpfs for the app's data folder; ``remount_ro`` makes it read-only."""
    mnt = tmp_path / "disk"
    mnt.mkdir()
    _run("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mnt))
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True, timeout=30)


def read_only_app(make_app, disk):
    """The app on a data folder made read-only after a first run; the box that
    says the settings cannot be saved is read and closed, as a player does."""
    drv = make_app(disk)  # a first run writes its settings and caches
    drv.stop()
    _run("mount", "-o", "remount,ro", str(disk))
    drv = make_app(disk)
    settle(drv, 0.2)
    boxes = [w for w in drv.window.children if type(w).__name__ == "MessageDialog"]
    assert all("settings" in w.text.lower() for w in boxes)
    for w in boxes:
        w.dismiss(animation=False)
    drv.frames(2)
    return drv


def test_read_only_records_are_shown_with_a_note_and_no_name_is_asked(make_app, disk):
    with RecordsStore(data_dir=str(disk)) as db:
        db.add(GameRecord.make(9, 9, 10, won=True, time=500.0, bbbv=3, name="Ann"))
    drv = read_only_app(make_app, disk)
    drv.app.show_screen("records")
    settle(drv, 0.3)
    rs = drv.app.root.get_screen("records")
    label = rs.ids.read_only_note
    assert "new games cannot be recorded" in rs.note and label.text == rs.note
    assert label.height > 0 and tuple(label.color) == tuple(drv.app.theme.danger)
    assert rs.error == "" and "Played 1" in rs.summary and rs.rows  # still readable
    drv.app.show_screen("game")
    settle(drv, 0.3)
    d = win(drv)  # a best time (500 s to beat) that cannot be stored
    assert not d.ask_name and d.ids.name_row.height == 0
    assert "Enter your name" not in d.note and "not recorded" in d.note
    # no "The game was not recorded" box over the dialog (the settings, which
    # cannot be saved either, are told once in a box of their own)
    assert not [w for w in drv.window.children
                if type(w).__name__ == "MessageDialog" and "record" in w.text]
    with RecordsStore(data_dir=str(disk)) as db:
        assert len(db.games()) == 1


def test_read_only_records_loss_still_undoes(make_app, disk):
    with RecordsStore(data_dir=str(disk)):
        pass
    drv = read_only_app(make_app, disk)
    d = lose(drv)
    assert "not recorded" in d.note and d.can_undo
    drv.press(d.ids.undo)
    settle(drv, 0.5)
    assert drv.ctrl.state == "playing" and drv.game.revealed_count > 0


# ------------------------------------------------------------------ one wording


def test_first_click_rules_are_described_in_one_wording():
    # the new-game screen and the settings screen said the same thing in two ways
    from fastmine_app import screens, settings

    desc = next(item["desc"] for item in settings.PANEL if item.get("key") == "first_click")
    for rule in settings.FIRST_CLICK_RULES:
        help_line = settings.RULE_HELP[rule]
        assert f"{settings.RULE_LABELS[rule]}: {help_line[:1].lower()}{help_line[1:]}" in desc
    assert screens.RULE_HELP is settings.RULE_HELP
