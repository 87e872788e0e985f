"""The app imports videos: a file dropped on the window (Kivy's on_drop_file)
and Replays -> Import (plyer's chooser, or Kivy's file list), through the
app's real code paths, headless; a bad file is one message, records unchanged."""

from __future__ import annotations

import shutil

import pytest

pytest.importorskip("kivy")

from fastmine.records import RecordsStore  # noqa: E402
from fastmine.videos import read_video  # noqa: E402
from tests.videos.video_files import DATA  # noqa: E402


def _messages(drv):
    from fastmine.app.dialogs.messages import MessageDialog

    return [w for w in drv.window.children if isinstance(w, MessageDialog)]


def _games(data_dir):
    path = data_dir / "records.sqlite3"
    if not path.exists():
        return []
    with RecordsStore(path, create=False) as s:
        return s.games()


def test_a_video_dropped_on_the_window_is_recorded_and_played(drv, data_dir):
    video = read_video(DATA / "arbiter_beg_gbk_name.avf")
    drv.window.dispatch("on_drop_file", str(DATA / "arbiter_beg_gbk_name.avf").encode(), 10, 10)
    drv.frames(3)
    assert drv.app.root.current == "replay"
    screen = drv.app.root.get_screen("replay")
    assert screen.replay is not None and screen.replay.mouse is not None
    assert len(screen.replay) == 21
    (g,) = _games(data_dir)
    assert (g.name, g.software, g.won) == (video.player, "Minesweeper Arbiter 0.52.3", True)
    assert not _messages(drv)


def test_a_lost_video_opens_where_it_was_lost(drv, data_dir):
    drv.window.dispatch("on_drop_file", str(DATA / "arbiter_exp_lost.avf").encode(), 10, 10)
    drv.frames(3)
    screen = drv.app.root.get_screen("replay")
    assert drv.app.root.current == "replay" and screen.replay.state.value == "lost"
    fatal = screen.coaching.fatal
    assert fatal is not None
    (g,) = _games(data_dir)
    assert g.won is False and g.name == "Flop"


def test_a_bad_dropped_file_is_one_message_and_the_records_unchanged(drv, data_dir, tmp_path):
    bad = tmp_path / "broken.evf"
    bad.write_bytes((DATA / "meta_v3_exp.evf").read_bytes()[:300])
    for path in (bad, tmp_path / "missing.avf", tmp_path):
        drv.window.dispatch("on_drop_file", str(path).encode(), 10, 10)
        drv.frames(3)
        (msg,) = _messages(drv)
        assert str(path.name) in msg.title
        assert msg.text.count("\n") == 0 and msg.text
        msg.dismiss()
        drv.wait(1.0)
    assert _games(data_dir) == []
    assert drv.app.root.current != "replay"


def test_replays_import_uses_the_native_chooser(drv, data_dir):
    from fastmine.app.replays import videoimport

    drv.app.show_screen("replays")
    drv.frames(2)
    button = drv.app.root.get_screen("replays").ids.import_button
    assert button.text == videoimport.IMPORT_WORDS
    calls = []

    def chooser(on_selection, filters):
        calls.append(filters)
        on_selection([str(DATA / "vienna1_beg.rmv")])

    assert videoimport.choose_file(drv.app, chooser=chooser) is None
    drv.frames(3)
    assert calls and "*.rmv" in calls[0][0]
    assert drv.app.root.current == "replay"
    (g,) = _games(data_dir)
    assert g.software == "Viennasweeper 3.0C" and g.name == "tkolar"


def test_replays_import_falls_back_to_the_apps_own_chooser(drv, data_dir, tmp_path):
    from fastmine.app.replays import videoimport

    folder = tmp_path / "videos"
    folder.mkdir()
    shutil.copy(DATA / "meta_v3_beg.evf", folder / "game.evf")

    def no_chooser(**_kw):
        raise NotImplementedError("no native chooser here")

    drv.app.show_screen("replays")
    drv.frames(2)
    popup = videoimport.choose_file(drv.app, chooser=no_chooser)
    assert popup is not None and popup.patterns == videoimport.VIDEO_PATTERNS
    popup.dismiss()
    drv.wait(1.0)
    popup = videoimport.kivy_chooser(drv.app, start=str(folder))
    drv.frames(3)
    assert popup.entries == ["game.evf"]
    drv.press(next(b for b in popup.list.children if getattr(b, "key", "") == "game.evf"))
    drv.press(popup.open_button)
    drv.frames(3)
    assert drv.app.root.current == "replay"
    (g,) = _games(data_dir)
    assert g.software.startswith("Metasweeper")


def test_the_import_button_opens_a_chooser(drv, monkeypatch):
    from fastmine.app.replays import videoimport

    opened = []
    monkeypatch.setattr(videoimport, "choose_file", lambda app: opened.append(app))
    drv.app.show_screen("replays")
    drv.frames(2)
    drv.press(drv.app.root.get_screen("replays").ids.import_button)
    drv.frames(1)
    assert len(opened) == 1 and opened[0].root is drv.app.root


def test_the_app_player_draws_the_pointer_along_the_path(drv, data_dir):
    import numpy as np

    from fastmine.replay.mousepath import cursor_index

    drv.window.dispatch("on_drop_file", str(DATA / "arbiter_beg.avf").encode(), 10, 10)
    drv.frames(3)
    screen = drv.app.root.get_screen("replay")
    replay, board = screen.replay, screen.board
    mouse = replay.mouse
    screen.pause()
    screen.goto(0)
    screen.goto(1)
    drv.frames(1)
    fr, fc, _held = board.mouse_at
    first = replay.moves[0]
    assert (int(fr), int(fc)) == (int(first[1]), int(first[2]))
    i = cursor_index(mouse, float(first[3]))
    assert (fr, fc) == (mouse[i, 2] / 16, mouse[i, 1] / 16)
    assert len(board._pointer.children) > 0          # drawn
    # playing: the pointer moves between two moves, at the recorded pace
    screen.goto(5)
    gap_from, gap_to = replay.moves[4, 3], replay.moves[5, 3]
    assert gap_to - gap_from > 100
    seen = set()
    screen.play()
    for _ in range(40):
        drv.frames(1, 0.02)
        if screen.k > 5:
            break
        seen.add(board.mouse_at[:2] if board.mouse_at else None)
    screen.pause()
    between = mouse[(mouse[:, 0] > gap_from) & (mouse[:, 0] < gap_to)]
    if len(np.unique(between[:, 1:3], axis=0)) > 1:
        assert len(seen) > 1                          # it moved before the next move
    # a replay without a path draws nothing
    from fastmine.replay import Replay

    plain = Replay(replay.mines, replay.rule, replay.moves, replay.state, replay.time,
                   replay.question_marks)
    drv.app.watch_replay(plain, None, 3)
    drv.frames(1)
    assert board.mouse_at is None and len(board._pointer.children) == 0


@pytest.mark.parametrize("lang", ["ru", "zh_CN"])
def test_a_file_that_is_no_video_says_so_in_the_players_language(drv, data_dir, tmp_path,
                                                                  lang):
    """A dropped file that is neither a video nor a replay is one message in the
    player's language (it was the reader's English: "not a video fastmine reads")."""
    from fastmine.app.replays import videoimport
    from fastmine.app.text import i18n

    junk = tmp_path / "notes.txt"
    junk.write_bytes(b"not a video at all\n")
    i18n.set_language(lang)
    try:
        drv.window.dispatch("on_drop_file", str(junk).encode(), 10, 10)
        drv.frames(3)
        (msg,) = _messages(drv)
        said = i18n._(videoimport.NOT_A_VIDEO)
        assert said != videoimport.NOT_A_VIDEO
        assert msg.text.replace("\u00a0", " ") == said.replace("\u00a0", " ")
        assert "not a video" not in msg.text and junk.name in msg.title
        msg.dismiss()
        drv.wait(1.0)
    finally:
        i18n.set_language("en")
    assert _games(data_dir) == []


@pytest.mark.parametrize("lang", ["ru", "zh_CN"])
def test_a_damaged_video_says_so_in_the_players_language(drv, data_dir, tmp_path, lang):
    """A video cut short was the title in the player's language over the reader's
    English detail ("truncated at byte 300..."): now one sentence in the player's
    language (the detail goes to the log), and a folder dropped says what it is."""
    from fastmine.app.replays import videoimport
    from fastmine.app.text import i18n

    bad = tmp_path / "broken.evf"
    bad.write_bytes((DATA / "meta_v3_exp.evf").read_bytes()[:300])
    i18n.set_language(lang)
    try:
        for path, words in ((bad, videoimport.DAMAGED_VIDEO), (tmp_path, "This is a folder, not a file.")):
            drv.window.dispatch("on_drop_file", str(path).encode(), 10, 10)
            drv.frames(3)
            (msg,) = _messages(drv)
            said = i18n._(words)
            assert said != words
            assert msg.text.replace("\u00a0", " ") == said.replace("\u00a0", " ")
            assert path.name in msg.title
            msg.dismiss()
            drv.wait(1.0)
    finally:
        i18n.set_language("en")
    assert _games(data_dir) == []
