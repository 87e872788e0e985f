"""The terminal game records an abandoned game: ``n`` over a game in progress is one,
``n`` over a game not started and quitting (which saves the game) are not; a saved
game declined at start is one too, as in the app; ``fastmine records`` shows the counts."""

from __future__ import annotations

import io
import json
import sys

import pytest

from fastmine.cli import main as cli_main
from fastmine.cli.tui.plain import PlainGame
from fastmine.cli.tui.session import GameOptions, Session
from fastmine.records import GameRecord, RecordsStore

from .boards import saved_game_in
from .test_plain import SEED, run_plain


def _plain(script: str, session: Session) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = PlainGame(session, stdin=io.StringIO(script), stdout=out, stderr=err).run()
    return status, out.getvalue(), err.getvalue()


def _abandoned(data_dir) -> list:
    with RecordsStore(data_dir=data_dir) as s:
        return s.abandoned_games()


def test_n_over_a_started_game_records_it_abandoned(tmp_path):
    s = Session(GameOptions(seed=SEED), data_dir=tmp_path)
    _plain("r 5 5\n", s)
    revealed = s.game.revealed_count
    _plain("n\n", s)
    (a,) = _abandoned(tmp_path)
    assert (a.rows, a.cols, a.mines, a.rule, a.assisted) == (9, 9, 10, "opening", False)
    assert a.revealed == revealed / 71
    with RecordsStore(data_dir=tmp_path) as store:
        assert store.count() == 0                     # not a loss
        assert store.statistics("beginner").abandoned == 1


def test_n_over_an_unstarted_game_and_quitting_record_nothing(tmp_path):
    s = Session(GameOptions(seed=SEED), data_dir=tmp_path)
    _plain("f 1 1\nn\nn\n", s)         # a flag is not a reveal
    assert _abandoned(tmp_path) == []
    status, out, _ = _plain("r 5 5\nsave\nq\n", s)
    assert status == 3 and "Game saved" in out       # a game saved and left ...
    assert _abandoned(tmp_path) == []                 # ... is not abandoned
    s = Session(GameOptions(seed=SEED), data_dir=tmp_path)
    s.reveal(4, 4)
    assert "Game saved" in s.save_on_quit()          # the curses game's quit saves it
    assert _abandoned(tmp_path) == [] and (tmp_path / "saved-game.json").exists()


def test_no_records_records_no_abandoned_game(tmp_path):
    s = Session(GameOptions(seed=SEED), data_dir=tmp_path, use_records=False)
    _plain("r 5 5\nn\n", s)
    assert not (tmp_path / "records.sqlite3").exists()


def test_through_a_pipe(tmp_path):
    res = run_plain("r 5 5\nn\nr 5 5\nn\nn\nq\n", "--seed", str(SEED), data_dir=tmp_path)
    assert res.returncode == 3, res.stderr
    assert len(_abandoned(tmp_path)) == 2


def test_a_resumed_game_given_up_or_declined_is_abandoned(tmp_path):
    first = Session(GameOptions(seed=SEED), data_dir=tmp_path)
    first.reveal(4, 4)
    assert "saved" in first.save_on_quit()
    again = Session(GameOptions(seed=SEED), data_dir=tmp_path)
    game, _ = again.check_save()
    again.resume(game)
    again.new_game()                 # n over the resumed game
    assert len(_abandoned(tmp_path)) == 1
    assert not (tmp_path / "saved-game.json").exists()
    first.save_on_quit()             # saved again; this time declined at start
    third = Session(GameOptions(seed=SEED), data_dir=tmp_path)
    game, _ = third.check_save()
    assert third.discard_save(game) is None
    assert len(_abandoned(tmp_path)) == 2
    assert not (tmp_path / "saved-game.json").exists()


def test_unusable_records_do_not_stop_the_new_game(tmp_path):
    (tmp_path / "records.sqlite3").write_bytes(b"not a database" * 100)
    s = Session(GameOptions(seed=SEED), data_dir=tmp_path)
    s.reveal(4, 4)
    old = s.game
    msg = s.new_game()
    assert s.game is not old and s.game.state.name == "READY"
    assert msg.startswith("New game") and "abandoned game was not recorded" in msg
    assert any("not an SQLite database" in n for n in s.notes)


def test_records_command_shows_abandoned_counts(tmp_path, capsys):
    s = Session(GameOptions(seed=SEED), data_dir=tmp_path)
    for _ in range(2):
        s.reveal(4, 4)
        s.new_game()
    with RecordsStore(data_dir=tmp_path) as store:
        store.add(GameRecord.make(9, 9, 10, won=True, time=12.25, name="Ann"))
        store.import_abandoned({(12, 20, 40): 3})
    assert cli_main(["records", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    header = next(ln for ln in out.splitlines() if ln.startswith("board") and "played" in ln)
    assert header.split()[-1] == "abandoned"
    beginner = next(ln for ln in out.splitlines() if ln.startswith("beginner") and "Ann" not in ln)
    assert beginner.split()[1:] == ["1", "1", "100.0", "1", "1", "2"]
    custom = next(ln for ln in out.splitlines() if ln.startswith("custom 12x20/40"))
    assert custom.split()[2:] == ["0", "0", "-", "0", "0", "3"]
    assert cli_main(["records", "--data-dir", str(tmp_path), "-d", "beginner"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split()[-1] == "2"
    assert cli_main(["records", "--data-dir", str(tmp_path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["games"]) == 1 and len(doc["abandoned"]) == 5
    first = doc["abandoned"][0]
    assert (first["rows"], first["rule"], first["date"] is not None) == (9, "opening", True)
    assert sum(a["mines"] == 40 for a in doc["abandoned"]) == 3
    out_file = tmp_path / "all.json"
    assert cli_main(["records", "--data-dir", str(tmp_path), "--json", str(out_file),
                     "-d", "12x20/40"]) == 0
    assert "(and 3 abandoned games)" in capsys.readouterr().err
    assert len(json.loads(out_file.read_text())["abandoned"]) == 3


@pytest.mark.skipif(sys.platform == "win32", reason="drives the game in a POSIX pseudo terminal")
def test_the_curses_game_records_abandoned_games_and_not_a_quit(tmp_path):
    from .test_curses import start

    saved_game_in(tmp_path)
    with start(tmp_path) as t:
        t.wait_for("Resume saved game")
        t.send("n")                                  # declined: abandoned, as in the app
        t.wait_for("Saved game discarded")
        t.send("n")                                  # not started: no question, nothing
        t.wait_for("New game")
        t.send(" ")
        t.wait_for("playing")
        t.send("n")
        t.wait_for("Abandon this game")
        t.send("n")                                  # kept playing
        t.wait_for(lambda: "Abandon this game" not in t.text)
        t.send("n")
        t.wait_for("Abandon this game")
        t.send("y")
        t.wait_for("ready")
        t.send(" ")
        t.wait_for("playing")
        t.send("q")                                  # saved, not abandoned
        assert t.wait_exit() == 0
    assert len(_abandoned(tmp_path)) == 2
    assert (tmp_path / "saved-game.json").exists()
