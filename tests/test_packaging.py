"""The installed package: metadata, public names, the command line, the build mode."""

import subprocess
import sys

import pytest

import fastmine
from fastmine import cli


@pytest.mark.skipif(fastmine.__version__ == "0+unknown", reason="running from an uninstalled source tree")
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
    """py.typed, and a .pyi stub beside every compiled module."""
    import importlib.machinery
    from pathlib import Path

    pkg = Path(fastmine.__file__).parent
    assert (pkg / "py.typed").exists()
    compiled = [p for suffix in importlib.machinery.EXTENSION_SUFFIXES
                for p in pkg.rglob(f"*{suffix}")]
    assert len(compiled) >= 7, compiled      # _kernels and the solver's kernels
    for ext in compiled:
        name = ext.name.split(".")[0]
        assert (ext.parent / f"{name}.pyi").exists(), f"no stub for {ext.parent.name}/{name}"


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


def test_namespace_is_the_public_api():
    """``dir(fastmine)`` lists the public API; helper imports do not leak."""
    assert dir(fastmine) == sorted(fastmine.__all__)
    for name in fastmine.__all__:
        assert hasattr(fastmine, name), name
    for leaked in ("version", "PackageNotFoundError", "_installed_version"):
        assert not hasattr(fastmine, leaked), leaked
    assert isinstance(fastmine.__version__, str)
