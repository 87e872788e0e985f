"""scripts/coach_guesses.py, the census of the coach's guesses on real Expert videos:
a folder (walked, with a file it cannot read) gives every kind of guess, the chords
among them and the skipped file, and --quiet prints the totals only."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "videos"


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("coach_guesses", ROOT / "scripts" / "coach_guesses.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_folder_counted_quietly(tmp_path, capsys) -> None:
    (tmp_path / "sub").mkdir()
    for name, where in (("clone_2007_cp1252_name.mvf", "sub"), ("meta_v3_exp.evf", "."),
                        ("vienna1_exp_gbk_name.rmv", "sub"), ("arbiter_beg.avf", ".")):
        shutil.copyfile(DATA / name, tmp_path / where / name)
    (tmp_path / "sub" / "broken.avf").write_bytes(b"not a video")
    assert _script().main(["--quiet", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    # the three Expert games of the nine (docs/coach.md): 1+0+2 needless, 4+1+0 early
    assert lines[0] == ("3 Expert games (1 files skipped): avoidable_risk 3, early_guess 5, "
                        "forced_early 0")
    assert lines[1] == ("of the 8 guesses taken while a safe cell existed: avoidable_risk 38%, "
                        "early_guess 62%, forced_early 0%")
    assert lines[2].startswith("with no safe cell on the board: forced_guess ")
    assert lines[2].endswith("; not_analysed 0")
    assert lines[3].startswith("of them chords: avoidable_risk ")
    assert len(lines) == 4                       # no line a game
    assert "broken.avf: skipped" in err


def test_a_line_a_game_without_quiet(tmp_path, capsys) -> None:
    shutil.copyfile(DATA / "meta_v3_exp.evf", tmp_path / "meta_v3_exp.evf")
    assert _script().main([str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "meta_v3_exp.evf: avoidable_risk 0, early_guess 1, forced_early 0"
    assert lines[1].startswith("1 Expert games (0 files skipped): ")
