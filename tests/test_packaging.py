"""The installed package: metadata, public names, the command line, the build mode."""

import os
import subprocess
import sys

import pytest

import fastmine
from fastmine import _kernels, cli


def test_version_comes_from_metadata():
    from importlib.metadata import version

    assert fastmine.__version__ == version("fastmine")


def test_public_contract_names():
    for name in ["Board", "Game", "GameState", "DIFFICULTIES", "HIDDEN", "FLAG", "QUESTION",
                 "MINE", "EXPLODED", "WRONG_FLAG"]:
        assert hasattr(fastmine, name), name
    codes = {fastmine.HIDDEN, fastmine.FLAG, fastmine.QUESTION, fastmine.MINE,
             fastmine.EXPLODED, fastmine.WRONG_FLAG}
    assert len(codes) == 6 and codes.isdisjoint(range(9))


def test_typing_files_are_shipped():
    pkg = os.path.dirname(fastmine.__file__)
    assert os.path.exists(os.path.join(pkg, "py.typed"))
    assert os.path.exists(os.path.join(pkg, "_kernels.pyi"))


@pytest.mark.skipif(not _kernels.BOUNDS_CHECKED, reason="only in a FASTMINE_DEBUG=1 build")
def test_debug_build_catches_out_of_range_index():
    # The Python layer never lets this through; calling the private kernel
    # directly shows the bounds checks are really compiled in.
    game = fastmine.Game.from_board(fastmine.Board.from_mines([[1, 0], [0, 0]]))
    with pytest.raises(IndexError):
        game._core.reveal(10**6)


def test_cli_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for name in cli.COMMANDS:
        assert name in out


def test_python_dash_m_fastmine_version():
    out = subprocess.run([sys.executable, "-m", "fastmine", "--version"],
                         capture_output=True, text=True, check=True).stdout
    assert fastmine.__version__ in out
