"""The Progress screen (charts of time and 3BV/s per won game) and the live coach,
with the real app, real rendering and real touches."""

from __future__ import annotations

import itertools
import statistics

import numpy as np
import pytest

pytest.importorskip("kivy")

from profiles import ALL, box, inside, start_app  # noqa: E402

from fastmine.app.play import assist  # noqa: E402
from fastmine.records import GameRecord, RecordsStore  # noqa: E402


def _record(data_dir, games) -> None:
    """Store games as finished earlier: (rows, cols, mines, won, time, bbbv)."""
    with RecordsStore(data_dir=str(data_dir)) as db:
        for i, (rows, cols, mines, won, time, bbbv) in enumerate(games):
            db.add(GameRecord.make(rows, cols, mines, won=won, time=time, bbbv=bbbv,
                                   date=f"2026-11-{1 + i % 28:02d}T10:00:00Z"))


# six wins, ever faster, then a loss: times 20..15 s, 3BV 20..25
BEGINNER = [(9, 9, 10, True, 20.0 - i, 20 + i) for i in range(6)] + [(9, 9, 10, False, 3.0, 20)]
EXPERT = [(16, 30, 99, True, 300.0, 150), (16, 30, 99, False, 40.0, 160),
          (16, 30, 99, True, 200.0, 160)]


def _open(drv):
    """Records, then its Progress button, as a player goes."""
    drv.app.show_screen("records")
    drv.frames(3)
    rs = drv.app.root.get_screen("records")
    button = next(w for w in rs.walk() if getattr(w, "text", "") == "Progress")
    assert inside(button, drv.window)
    drv.press(button)
    drv.frames(4)
    assert drv.app.root.current == "progress"
    return drv.app.root.get_screen("progress")


def test_the_charts_show_the_recorded_wins_with_their_median(make_app, data_dir):
    _record(data_dir, BEGINNER + EXPERT)
    drv = make_app(data_dir)
    ps = _open(drv)
    t, r = ps.charts
    times = [20.0, 19.0, 18.0, 17.0, 16.0, 15.0]
    rates = [(20 + i) / (20.0 - i) for i in range(6)]
    assert t.series.values == times and t.series.x == [1, 2, 3, 4, 5, 6]
    assert r.series.values == pytest.approx(rates)
    assert t.series.median == [statistics.median(times[:i + 1]) for i in range(6)]
    # every point is drawn where its value is: the higher value, the higher dot
    ys = [y for _x, y in t.screen_points()]
    assert ys == sorted(ys, reverse=True)
    x0, y0, x1, y1 = t.plot_box
    assert all(x0 <= x + t.x * 0 <= x1 and y0 <= y <= y1 for x, y in t.screen_points())
    # the value axis reads from below the fastest to above the slowest time
    ticks = [float(v) for v in t.y_labels]
    assert len(ticks) >= 2 and ticks == sorted(ticks) and ticks[0] > 14 and ticks[-1] < 21
    assert [int(v) for v in t.x_labels] == sorted(int(v) for v in t.x_labels)
    assert int(t.x_labels[0]) >= 1 and int(t.x_labels[-1]) <= 6
    assert ps.ids.summary.text == ("7 games, 6 won (86%)\n"
                                   "Time: best 15.0 s, median 17.5 s\n3BV/s: best 1.67, median 1.29")
    assert not ps.empty and ps.ids.charts.opacity == 1
    # a tap on a point tells that game's figures
    px, py = t.to_window(*t.screen_points()[2])
    drv.tap(px, py)
    assert ps.picked == "Win 3: 18.00 s, 3BV 22, 1.22 3BV/s, 3 Nov 26"
    assert t.picked is r.picked is not None


def test_the_board_picker_and_the_last_games_switch_the_series(make_app, data_dir):
    wins = [(9, 9, 10, True, 10.0 + i, 20) for i in range(30)]
    _record(data_dir, wins + EXPERT)
    drv = make_app(data_dir)
    ps = _open(drv)
    t, r = ps.charts
    assert t.series.values == [10.0 + i for i in range(30)]
    drv.press(ps.ids.last_25)
    assert ps.last == "25"
    assert t.series.values == [15.0 + i for i in range(25)]
    assert ps.ids.summary.text.startswith("25 games, 25 won (100%)")
    ps.ids.spinner.text = "Expert"  # as the drop-down's entry sets it
    drv.frames(3)
    assert t.series.values == [300.0, 200.0]
    assert r.series.values == [0.5, 0.8]
    assert ps.ids.summary.text.startswith("3 games, 2 won (67%)")
    ps.ids.spinner.text = "Beginner"
    drv.frames(3)
    assert len(t.series) == 25
    drv.press(ps.ids.last_all)
    assert t.series.values == [10.0 + i for i in range(30)]
    assert ps.ids.summary.text.startswith("30 games, 30 won (100%)")


def test_no_wins_say_so_in_words(make_app, data_dir):
    _record(data_dir, [(16, 16, 40, False, 12.0, 30)])
    drv = make_app(data_dir)
    ps = _open(drv)
    assert ps.empty.startswith("No games on Beginner yet")
    assert ps.ids.note.text == ps.empty and ps.ids.note.height > 0
    assert ps.ids.charts.opacity == 0 and ps.charts[0].series is None
    ps.ids.spinner.text = "Intermediate"
    drv.frames(3)
    assert ps.empty.startswith("No unassisted wins among these games yet")
    assert ps.ids.summary.text == "1 game, 0 won (0%)"


def test_a_redraw_left_pending_when_the_app_stops_does_nothing(make_app, data_dir):
    # A chart resized or re-themed in the app's last frame redraws on the next
    # tick, when the app is gone: it used to raise reading the stopped app's theme.
    _record(data_dir, BEGINNER)
    drv = make_app(data_dir)
    chart = _open(drv).charts[0]
    drawn = len(chart.canvas.before.children)
    drv.stop()
    chart.theme = None
    chart.redraw()
    assert len(chart.canvas.before.children) == drawn  # left as it was


def test_assisted_games_are_not_no_games(make_app, data_dir):
    # Two assisted Expert games once read "No games on Expert yet".
    with RecordsStore(data_dir=str(data_dir)) as db:
        for won in (True, False):
            db.add(GameRecord.make(16, 30, 99, won=won, time=200.0, bbbv=150, assisted=True,
                                   date="2026-11-02T10:00:00Z"))
    drv = make_app(data_dir)
    ps = _open(drv)
    ps.ids.spinner.text = "Expert"
    drv.frames(3)
    assert ps.empty.startswith("No unassisted wins on Expert yet: your 2 games there were "
                               "assisted")
    assert ps.ids.note.text == ps.empty and ps.ids.charts.opacity == 0
    ps.ids.spinner.text = "Beginner"
    drv.frames(3)
    assert ps.empty.startswith("No games on Beginner yet")


def _visible(w) -> bool:
    while w is not None and not hasattr(w, "manager"):
        if w.opacity == 0:
            return False
        w = w.parent
    return True


def _check_layout(ps, window) -> None:
    from kivy.uix.label import Label

    for w in ps.walk(restrict=True):
        if isinstance(w, Label) and w.text and _visible(w) and w.height > 0:
            assert inside(w, window), f"{w.text!r} at {box(w)} outside the window {window.size}"
            if w.text_size[0]:  # a wrapped label shows all of its lines
                assert w.texture_size[1] <= w.height + 1, f"{w.text!r} is cut"
    ids = ps.ids
    blocks = [ids.pickers, ids.summary, ids.note, ids.time_title, ids.time_chart,
              ids.rate_title, ids.rate_chart, ids.picked]
    shown = [b for b in blocks if b.height > 0 and _visible(b)]
    for a, b in itertools.combinations(shown, 2):
        ax0, ay0, ax1, ay1 = box(a)
        bx0, by0, bx1, by1 = box(b)
        assert ax1 <= bx0 + 0.5 or bx1 <= ax0 + 0.5 or ay1 <= by0 + 0.5 or by1 <= ay0 + 0.5, \
            f"{a} {box(a)} overlaps {b} {box(b)}"
    for chart in ps.charts:
        labels = [c for c in chart.children if c.text]
        assert len(chart.y_labels) >= 2 and len(chart.x_labels) >= 2, "an axis without its scale"
        assert len(labels) == len(chart.y_labels) + len(chart.x_labels)
        for lbl in labels:
            assert inside(lbl, chart), f"tick {lbl.text!r} outside its chart"
        for a, b in itertools.combinations(labels, 2):
            ax0, ay0, ax1, ay1 = box(a)
            bx0, by0, bx1, by1 = box(b)
            assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0, \
                f"ticks {a.text!r} and {b.text!r} overlap"
        x0, y0, x1, y1 = chart.plot_box
        assert x1 - x0 > 100 and y1 - y0 > 60, "a chart too small to read"


@pytest.mark.parametrize("profile", ALL)
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_screen_fits_and_reads_at_each_profile(make_app, data_dir, screenshot_dir, profile, theme):
    if theme == "dark" and profile not in ("phone_360_font13", "landscape"):
        pytest.skip("dark is checked at the two tightest profiles")
    _record(data_dir, [(9, 9, 10, i % 4 != 0, 9.0 + (i * 7) % 13, 18 + i % 7) for i in range(60)])
    drv = start_app(make_app, data_dir, profile, theme=theme)
    drv.app.show_screen("records")
    drv.frames(3)
    rs = drv.app.root.get_screen("records")
    rs_button = next(w for w in rs.walk() if getattr(w, "text", "") == "Progress")
    title = next(w for w in rs.walk() if getattr(w, "text", "") == "Records")
    assert inside(rs_button, drv.window) and box(title)[2] <= box(rs_button)[0] + 0.5
    # the Records screen stays tidy: ten best times scroll rather than push the
    # board picker and the statistics off a phone turned on its side
    assert box(rs.ids.spinner)[3] <= box(rs_button.parent)[1] + 0.5
    for w in (rs.ids.spinner, rs.ids.summary, rs.ids.table.parent):
        assert inside(w, drv.window), f"{w} at {box(w)} outside the window"
    assert len(rs.ids.table.children) == 55
    drv.screenshot(screenshot_dir, f"records_{profile}_{theme}")
    ps = _open(drv)
    t = ps.charts[0]
    drv.tap(*t.to_window(*t.screen_points()[-1]))
    assert ps.picked.startswith("Win ")
    _path, px = drv.screenshot(screenshot_dir, f"progress_{profile}_{theme}")
    _check_layout(ps, drv.window)
    # the dots and the line really show, in the theme's colours, on its background
    th = drv.app.theme
    for colour in (th.accent, th.hint, th.text):
        rgb = (np.array(colour[:3]) * 255).round()
        near = (np.abs(px.astype(int) - rgb).max(axis=2) < 40).sum()
        assert near > 30, f"{colour} barely drawn"
    bg = np.array(th.bg[:3]) * 255
    assert np.abs(np.array(th.text[:3]) * 255 - bg).max() > 150  # the ticks read
    drv.app.show_screen("progress")
    ps.ids.spinner.text = "Expert"  # and the empty state too
    drv.frames(3)
    _check_layout(ps, drv.window) if not ps.empty else None
    assert ps.empty and inside(ps.ids.note, drv.window)
    drv.screenshot(screenshot_dir, f"progress_empty_{profile}_{theme}")


# ---------------------------------------------------------------- the live coach

# After the first click at (0, 0) the player sees:
#   0 0 1 . .        four cells are proven safe: (0, 4), (1, 4), (3, 4), (4, 2);
#   0 0 1 2 .        (4, 0) holds no mine but risks one as far as the player knows
#   0 0 0 1 .
#   1 1 1 2 .
#   . . . . .
MINES = [(0, 3), (2, 4), (4, 1), (4, 4)]


def _board():
    mask = np.zeros((5, 5), bool)
    for rc in MINES:
        mask[rc] = True
    return mask


def _brute_force(view, mines):
    """P(mine) of each hidden cell, counting every layout that fits the numbers."""
    rows, cols = view.shape
    hidden = [tuple(p) for p in np.argwhere(view < 0)]
    counts = dict.fromkeys(hidden, 0)
    total = 0
    for layout in itertools.combinations(hidden, mines):
        lay = set(layout)
        ok = all(sum((rr, cc) in lay for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2))
                 == view[r, c] for r in range(rows) for c in range(cols) if view[r, c] >= 0)
        if ok:
            total += 1
            for p in layout:
                counts[p] += 1
    return {p: n / total for p, n in counts.items()}


needs_solver = pytest.mark.skipif(not assist.available(), reason=assist.unavailable_reason())


def _coached(make_app, data_dir, on=True):
    drv = make_app(data_dir, coach=int(on), animations=0)
    assert drv.ctrl.coach is on
    game = drv.attach_board(_board())
    drv.board.fit()
    drv.frames(2)
    drv.tap_cell(0, 0)
    assert drv.ctrl.message == ""  # the first click: nothing to weigh, nothing said
    assert not game.assisted
    return drv, game


@needs_solver
def test_the_coach_names_a_forced_guess_taken_early_with_its_odds(make_app, data_dir,
                                                                   screenshot_dir):
    # (4, 0) is one of an isolated 50/50 pair: opening the 4 safe cells first
    # leaves it 50% with no cell safer, so taking it now is no fault (it was
    # once "a 50% risk you did not need").
    drv, game = _coached(make_app, data_dir)
    probs = _brute_force(game.view, len(MINES))
    safe = sum(p == 0 for p in probs.values())
    risk = probs[(4, 0)]
    assert (safe, risk) == (4, 0.5)  # what the toast must say, counted the slow way
    drv.tap_cell(4, 0)
    assert game.view[4, 0] >= 0  # it survived
    assert drv.ctrl.message == (f"A forced guess, taken early ({risk:.0%}): after the safe cells "
                                "the odds would have been the same, and no cell safer.")
    toast = drv.ids("toast")
    drv.frames(2)
    assert toast.text == drv.ctrl.message and inside(toast, drv.window)
    assert toast.texture_size[1] <= toast.height  # every word shows
    drv.screenshot(screenshot_dir, "coach_forced_early")
    assert game.assisted and drv.ctrl.assisted  # the coach told what the solver knows
    drv.tap_cell(0, 4)  # proven safe: the coach says nothing, the toast goes
    assert drv.ctrl.message == ""
    drv.long_press_cell(1, 4)  # a flag on a cell proven safe
    assert drv.ctrl.message == "Wrong flag: that cell was certainly safe."


@needs_solver
def test_a_safe_move_says_nothing_but_still_counts_as_assisted(make_app, data_dir):
    drv, game = _coached(make_app, data_dir)
    drv.tap_cell(4, 2)
    assert game.view[4, 2] >= 0 and drv.ctrl.message == ""
    assert game.assisted
    for r, c in np.argwhere(~_board() & (game.view < 0)):  # win it
        drv.ctrl.reveal(int(r), int(c))
    drv.wait(1.0)
    assert game.state.name == "WON"
    with RecordsStore(data_dir=str(data_dir)) as db:  # recorded as assisted: never a best time
        assert [g.assisted for g in db.games(include_assisted=True)] == [True]
        assert db.best_times((5, 5, 4)) == []


@needs_solver
def test_a_forced_guess_is_named_as_one(make_app, data_dir):
    drv, game = _coached(make_app, data_dir)
    for r, c in ((0, 4), (1, 4), (3, 4), (4, 2)):
        drv.tap_cell(r, c)
    probs = _brute_force(game.view, len(MINES))
    assert min(probs.values()) > 0  # no safe cell is left
    risk = probs[(4, 0)]
    assert risk == min(probs.values())
    drv.tap_cell(4, 0)
    assert drv.ctrl.message == f"You had to guess ({risk:.0%}): no cell was safer."


def test_with_the_coach_off_nothing_is_said_and_the_game_is_not_assisted(make_app, data_dir):
    drv, game = _coached(make_app, data_dir, on=False)
    drv.tap_cell(4, 0)
    drv.long_press_cell(1, 4)
    assert drv.ctrl.message == "" and not game.assisted


def test_the_setting_turns_the_coach_on_at_once(make_app, data_dir):
    drv = make_app(data_dir)
    assert drv.ctrl.coach is False  # off unless the player asks
    drv.app.open_settings()
    drv.frames(3)
    row = drv.app.settings_screen().rows["coach"]
    assert row.title == "Coach while playing"
    drv.press(row.ids.choice_1)
    assert drv.ctrl.coach is True
    assert drv.app.config.get("game", "coach") == "1"
