"""The coach in ``fastmine play``: the skill/luck lines under a finished game
(plain and curses) and the live coach (``--coach``, ``w``/``coach``)."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import numpy as np
import pytest

import fastmine
from fastmine import coach
from fastmine.cli.tui import coaching
from fastmine.cli.tui.draw import note_rows
from fastmine.cli.tui.layout import fit
from fastmine.cli.tui.plain import PlainGame
from fastmine.cli.tui.session import GameOptions, Session
from fastmine.coach import judging
from fastmine.solver import probability
from fastmine.solver.incremental import IncrementalAnalyzer

from .boards import a_mine, played, winning_moves
from .ptyscreen import SRC, PtyScreen

SEED = 7
FIRST = (4, 4)


def plain(script: str, *, coach_on: bool = False) -> tuple[str, Session]:
    """Play ``script`` in plain mode on the seed-7 beginner board, in process."""
    s = Session(GameOptions(seed=SEED), use_records=False, coach=coach_on)
    out, err = io.StringIO(), io.StringIO()
    PlainGame(s, stdin=io.StringIO(script), stdout=out, stderr=err, quiet=True).run()
    assert err.getvalue() == ""
    return out.getvalue(), s


def script_of(cells) -> str:
    return "".join(f"r {r + 1} {c + 1}\n" for r, c in cells)


def expected_verdicts(cells) -> list[coach.Verdict]:
    """The coach's verdicts on the same reveals, from a game played here."""
    g = fastmine.Game(9, 9, 10, seed=SEED)
    for r, c in cells:
        g.reveal(r, c)
    return coach.analyze(g.board, [("reveal", r, c) for r, c in cells], rule="opening")


def odds_after_first_click():
    g = played(9, 9, 10, SEED, FIRST)
    a = probability.analyze(g.view, g.mine_count)
    return g, a


def test_won_plain_game_shows_the_coach_line_under_the_result():
    moves = winning_moves(9, 9, 10, SEED, FIRST)
    out, s = plain(script_of(moves))
    lines = out.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("You won in"))
    assert lines[i + 1] == "Coach: " + coach.summary(expected_verdicts(moves))
    assert "You lost" not in lines[i + 1] and not lines[i + 2].startswith("Move ")
    assert s.outcome is not None and s.outcome.lines()[1] == lines[i + 1]


def test_lost_plain_game_names_the_fatal_move_and_its_odds():
    mine = a_mine(9, 9, 10, SEED, FIRST)
    out, _ = plain(script_of([FIRST, mine]))
    lines = out.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("Boom! You lost"))
    verdicts = expected_verdicts([FIRST, mine])
    _, a = odds_after_first_click()
    pct = f"{100 * a.probabilities[mine]:.0f}%"
    assert lines[i + 1] == "Coach: " + coach.summary(verdicts)
    # a certain mine (it once read "lost on an avoidable risk of 100% (a safe cell existed)")
    assert pct == "100%"
    assert lines[i + 1] == ("Coach: You opened a cell that was certainly a mine, while a safe "
                            "cell was there.")
    assert lines[i + 2] == (f"Move 2, open at row {mine[0] + 1}, column {mine[1] + 1}: a cell "
                            f"that was certainly a mine, while 9 safe cells were there. It hit a "
                            f"mine.")


def test_live_coach_names_an_avoidable_risk_and_stays_silent_on_a_safe_click():
    g, a = odds_after_first_click()
    hidden = g.view < 0
    safe = next((int(r), int(c)) for r, c in np.argwhere(a.safe & hidden))
    g.reveal(*safe)
    a = probability.analyze(g.view, g.mine_count)     # the odds the risky click then had
    risky = next((int(r), int(c)) for r, c in np.argwhere((g.view < 0) & (a.probabilities > 0.1)
                                                            & ~g.board.mines))
    assert a.safe.any()
    pct = f"{100 * a.probabilities[risky]:.0f}%"
    # Coach on by command: a safe click gets no word, a risky one its odds.
    out, s = plain("coach\n" + script_of([FIRST, safe, risky]))
    assert "Coach on" in out
    said = [line for line in out.splitlines() if line.startswith("That was a ")]
    n = int((a.safe & (g.view < 0)).sum())
    cells = "1 safe cell was" if n == 1 else f"{n} safe cells were"
    assert said == [f"That was a {pct} risk you did not need: {cells} there."]  # the app's words too
    assert s.game.assisted      # the coach told whether a safe cell existed, as a hint does
    # Without the coach: no word, not assisted.
    out, s = plain(script_of([FIRST, safe, risky]))
    assert "Coach" not in out and "did not need" not in out and not s.game.assisted


def test_live_coach_alone_on_safe_clicks_and_before_the_first_click():
    g, a = odds_after_first_click()
    safe = [(int(r), int(c)) for r, c in np.argwhere(a.safe & (g.view < 0))][:2]
    out, s = plain(script_of([FIRST, *safe]), coach_on=True)
    spoken = ("Coach:", "did not need", "guess", "flag on a guess", "Wrong flag")
    assert not any(w in out for w in spoken) and s.game.state is fastmine.GameState.PLAYING
    fresh = Session(GameOptions(seed=SEED), use_records=False, coach=True)
    assert fresh.reveal(*FIRST) is None and not fresh.game.assisted   # the first click is free
    assert fresh.toggle_coach() == "Coach off"
    assert fresh.reveal(*safe[0]) is None and not fresh.game.assisted


def test_plain_coach_flag_through_the_command_line(tmp_path):
    g, a = odds_after_first_click()
    risky = next((int(r), int(c)) for r, c in np.argwhere((g.view < 0) & (a.probabilities > 0.1)
                                                            & ~g.board.mines))
    env = dict(os.environ, PYTHONPATH=str(SRC), FASTMINE_DATA_DIR=str(tmp_path))
    res = subprocess.run([sys.executable, "-m", "fastmine", "play", "--plain", "--coach", "--quiet",
                          "--seed", str(SEED)], input=script_of([FIRST, risky]),
                         capture_output=True, text=True, env=env, timeout=60)
    assert res.returncode == 3, res.stderr
    assert "That was a " in res.stdout and "risk you did not need" in res.stdout


def test_review_of_a_huge_game_is_not_analysed_instead_of_stalling():
    g = fastmine.Game(300, 300, 15000, seed=1)
    g.reveal(150, 150)
    made = 0
    for r, c in np.argwhere(~g.board.mines)[:200]:
        if g.view[r, c] < 0:          # still hidden: the reveal opens something
            g.reveal(int(r), int(c))
            made += 1
    assert made > 20
    # A budget of nothing: every move after the first is "not analysed", no wait.
    (line,) = coaching.review(g, budget=0)
    assert line == f"Coach: {made} moves the coach could not weigh (too much to count)."


def test_review_maps_a_refused_position_to_not_analysed(monkeypatch):
    def too_large(*a, **k):
        raise fastmine.solver.PositionTooLargeError("too large for the test")

    mine = a_mine(9, 9, 10, SEED, FIRST)
    monkeypatch.setattr(probability, "analyze", too_large)
    monkeypatch.setattr(IncrementalAnalyzer, "analyze", too_large)   # the live coach's cache
    # the compiled replay's count, which the review's analyze uses
    monkeypatch.setattr(judging, "_FAULT", fastmine.solver.PositionTooLargeError("too large"))
    out, _ = plain(script_of([FIRST, mine]))
    assert "Coach: You lost on a move the coach could not weigh (too much to count).\n" in out
    assert "not weighed: the position or the game is too large to count exactly. It hit a mine." in out


def test_review_of_a_game_without_its_moves_says_so():
    g = played(9, 9, 10, SEED, FIRST)
    g._log_complete = False          # as a game resumed from a save without its moves
    assert coaching.review(g) == (
        "Coach: not analysed (this game was resumed from a save without its moves)",)
    assert coaching.review(fastmine.Game(9, 9, 10)) == ()


def test_coach_lines_sit_between_the_board_and_the_message():
    lay = fit(24, 80, 9, 9, (0, 0))
    assert note_rows(lay, 2) == [lay.message_y - 2, lay.message_y - 1]
    full = fit(24, 80, 40, 40, (0, 0))        # no free row: the keys line takes the summary
    assert note_rows(full, 2) == [full.keys_y]
    assert note_rows(lay, 0) == []


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
def test_curses_game_shows_the_coach_after_a_loss_and_w_toggles_the_live_coach(tmp_path):
    mine = a_mine(9, 9, 10, SEED, FIRST)
    t = PtyScreen(["play", "--seed", str(SEED), "--no-records"],
                  env={"FASTMINE_DATA_DIR": str(tmp_path)})
    try:
        t.wait_for("Mines 10")
        assert "t hint s code w coach" in t.lines[-1]       # fits in 80 columns
        t.send("w")
        t.wait_for("Coach on")
        assert "ready  coach" in t.lines[0]               # the header says the coach is on
        t.send(" ")                            # the cursor starts at the middle: (4, 4)
        t.wait_for("playing")
        dr, dc = mine[0] - 4, mine[1] - 4
        t.send(("j" * dr if dr > 0 else "k" * -dr) + ("l" * dc if dc > 0 else "h" * -dc) + " ")
        t.wait_for("Boom!")
        t.wait_for("Coach: You opened a cell that was certainly a mine")
        assert f"Move 2, open at row {mine[0] + 1}, column {mine[1] + 1}: a " in t.text
        assert "LOST (assisted)" in t.lines[0]          # the live coach judged the click
        t.send("q")
        assert t.wait_exit() == 0
    finally:
        if t.proc.poll() is None:
            t.proc.kill()


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
def test_curses_coach_lines_longer_than_the_terminal_are_folded_not_cut(tmp_path):
    # 5x5, 5 mines, seed 1: a forced guess (19%) and two guesses taken early,
    # the last one lost: a summary of 153 characters and a 116-character loss
    # line, on an 80-column terminal.
    t = PtyScreen(["play", "--seed", "1", "--rows", "5", "--cols", "5", "--mines", "5",
                   "--rule", "cell", "--no-records"], env={"FASTMINE_DATA_DIR": str(tmp_path)})
    try:
        t.wait_for("Mines 5")
        t.send(" ")                     # the middle, (2, 2)
        t.wait_for("playing")
        t.send("hhkk ")                 # (0, 0)
        t.wait_for(lambda: "1 1 1 2 2" in t.text)
        t.send("jjjj llll ")            # (4, 0), then (4, 4): a mine
        t.wait_for("Boom!")
        t.wait_for("Coach:")
        t.settle()
        words = t.words
        assert ("Coach: You survived 1 guess you had to make (19%). 1 guess taken early "
                "(14%): after the safe cells, the safest cell would have had 7.7%. You lost on "
                "a guess taken early at 12%: after the 1 safe cell it would have been 17%.") in words
        assert ("Move 4, open at row 5, column 5: guessed early at 12%; after the 1 safe cell "
                "it would have been 17%. It hit a mine.") in words
        assert all(len(line.rstrip()) <= 80 for line in t.lines)
        t.send("q")
        assert t.wait_exit() == 0
    finally:
        if t.proc.poll() is None:
            t.proc.kill()
