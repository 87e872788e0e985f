"""The first-run tutorial and How to play, with the real app, real rendering and
real touches at the phone profiles: every step waits for the player's own gesture
(a tap, a hold, a chord, the corner button, Hint), Skip ends it, and once done or
skipped it does not come back by itself, while the menu still reaches it."""

from __future__ import annotations

import pytest

pytest.importorskip("kivy")

from fixedgame import MASK  # noqa: E402
from profiles import PHONES, inside, start_app  # noqa: E402

from fastmine import FLAG, HIDDEN  # noqa: E402
from fastmine.app.screens import tutorial as T  # noqa: E402


def step(drv) -> str | None:
    i = drv.app.tutorial_step
    return None if i is None else T.STEPS[i].name


def card(drv):
    return drv.app._card


def test_the_tutorial_board_has_each_steps_move():
    from fastmine import Game
    from fastmine.solver import probability

    g = Game.from_board(T.board())
    g.reveal(*T.OPEN)
    a = probability.analyze(g.view, g.mine_count)
    assert a.probabilities[T.FLAG_CELL] == 1.0  # the cell to flag is a certain mine
    assert g.view[T.CHORD_CELL] == 1  # the number to chord, next to it
    g.toggle_mark(*T.FLAG_CELL)
    assert len(g.chord(*T.CHORD_CELL)) > 0 and not g.state.is_over  # opens safe cells


@pytest.mark.parametrize("profile", PHONES)
def test_the_tutorial_completes_with_real_gestures(make_app, data_dir, screenshot_dir, profile):
    drv = start_app(make_app, data_dir, profile, offer_tutorial=True, animations=0)
    app = drv.app
    assert step(drv) == "open" and app.root.current == "game"  # the first start shows it
    assert inside(card(drv), drv.window)
    assert drv.board.cursor == T.OPEN  # the cell to tap is outlined
    drv.screenshot(screenshot_dir, f"tutorial_{profile}_open")
    drv.tap_cell(*T.OPEN)
    assert step(drv) == "flag"
    drv.tap_cell(*T.CHORD_CELL)  # a move the step does not ask for changes nothing
    assert step(drv) == "flag"
    drv.long_press_cell(*T.FLAG_CELL)  # a real hold
    assert drv.game.view[T.FLAG_CELL] == FLAG and step(drv) == "chord"
    drv.screenshot(screenshot_dir, f"tutorial_{profile}_chord")
    drv.tap_cell(*T.CHORD_CELL)  # a tap on the satisfied 1: a chord
    assert step(drv) == "fit"
    drv.wait(0.2)
    assert not drv.board.is_fitted()  # zoomed in: the corner button has something to do
    drv.frames(3)
    fit = drv.board.fit_button
    assert fit.shown and inside(fit, drv.window)
    drv.press(fit)
    assert drv.board.is_fitted() and step(drv) == "hint"
    drv.screenshot(screenshot_dir, f"tutorial_{profile}_hint")
    drv.press(drv.ids("hint"))
    assert step(drv) == "done" and drv.ctrl.message  # the hint is on screen
    play = card(drv).ids.play
    assert play.opacity == 1 and inside(play, drv.window)
    drv.screenshot(screenshot_dir, f"tutorial_{profile}_done")
    drv.press(play)
    assert step(drv) is None and card(drv) is None
    assert app.config.get("game", "tutorial") == "done"
    assert drv.game.state.value == "ready" and drv.game.rows == 9  # a real game now
    with_records = app.store.stats("beginner")
    assert with_records.played == 0 and with_records.assisted == 0  # never recorded


def test_skip_ends_it_and_it_does_not_come_back(make_app, data_dir):
    drv = start_app(make_app, data_dir, "phone_360", offer_tutorial=True)
    assert step(drv) == "open"
    drv.press(card(drv).ids.skip)
    assert step(drv) is None and drv.app.config.get("game", "tutorial") == "done"
    drv = start_app(make_app, data_dir, "phone_360", offer_tutorial=True)  # the next start
    assert step(drv) is None and drv.app.root.current == "game"


def test_done_it_does_not_come_back_but_the_menu_reaches_it(make_app, data_dir, screenshot_dir):
    drv = start_app(make_app, data_dir, "phone_360_font13", offer_tutorial=True, tutorial="done")
    assert step(drv) is None
    game = drv.attach_board(MASK)
    drv.tap_cell(1, 2)
    assert game.state.value == "playing"
    from kivy.factory import Factory

    menu = Factory.MainMenu()
    menu.open(drv.ids("menu_button"))
    drv.frames(2)
    entry = next(w for w in menu.container.children if getattr(w, "title", "") == "How to play")
    drv.press(entry)
    assert drv.app.root.current == "how_to_play"
    screen = drv.app.root.current_screen
    assert "A number tells how many mines" in screen.ids.rules.text
    drv.screenshot(screenshot_dir, "how_to_play")
    drv.press(screen.ids.start_tutorial)
    assert step(drv) == "open" and drv.app.root.current == "game"
    drv.tap_cell(*T.OPEN)
    drv.press(card(drv).ids.skip)
    assert drv.game is game and drv.ctrl.paused  # the game before comes back, paused
    assert (game.view != HIDDEN).sum() > 0


def test_a_mine_in_the_tutorial_starts_the_step_again_on_a_fresh_board(make_app, data_dir):
    drv = start_app(make_app, data_dir, "phone_393", offer_tutorial=True, animations=0)
    drv.tap_cell(*T.OPEN)
    drv.tap_cell(*T.MINES[1])  # a mine
    assert step(drv) == "open" and drv.game.state.value == "ready"
    assert "That was a mine" in card(drv).text
    drv.wait(1.0)
    assert not drv.app.end_dialog  # no end dialog, nothing recorded
